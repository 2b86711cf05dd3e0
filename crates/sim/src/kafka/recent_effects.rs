//! The newest effects a sink keeps for drawing: exactly the newest [`RECENT_EFFECTS_MAX`]
//! (all of them in a shorter run), in a ring held inline.
//!
//! The lesson draws a handful of a sink's newest writes (a snapshot asks for at most
//! [`DRAWN_CELLS`](crate::kafka::snapshot::DRAWN_CELLS)), so the sink keeps no more than that
//! to draw from. Every timeline checkpoint clones every sink: a ring inside the sink is copied
//! with it, with no allocation and no shared pointer to count. Kept in thousands, in chunks the
//! checkpoints shared, the effects made every chunk a fresh allocation that some checkpoint held
//! (several megabytes for a ten-minute run rebuilt for a knob change). The count of effects
//! ever pushed is kept too, so a reader stepping a run can collect every one of them.

use super::sink::Effect;

/// How many of the newest effects a sink keeps; a power of two, so the ring's index is a mask.
pub const RECENT_EFFECTS_MAX: usize = 32;

const _: () = assert!(RECENT_EFFECTS_MAX.is_power_of_two());
const _: () = assert!(crate::kafka::snapshot::DRAWN_CELLS <= RECENT_EFFECTS_MAX);

/// What an unused slot holds (never read: `len` counts only what was pushed).
const BLANK: Effect = Effect {
    at_ms: 0,
    partition: 0,
    offset: 0,
    key: None,
    nth: 0,
    ignored: false,
};

/// The newest effects, oldest first.
#[derive(Clone, Debug)]
pub struct RecentEffects {
    /// Effect number `i` (counting every push) sits at `i % RECENT_EFFECTS_MAX`.
    ring: [Effect; RECENT_EFFECTS_MAX],
    /// Effects pushed so far, the ones the ring has dropped included.
    pushed: u64,
}

impl Default for RecentEffects {
    fn default() -> Self {
        Self {
            ring: [BLANK; RECENT_EFFECTS_MAX],
            pushed: 0,
        }
    }
}

impl RecentEffects {
    /// Adds `effect` as the newest, in place of the oldest once the ring is full.
    #[inline]
    pub fn push(&mut self, effect: Effect) {
        self.ring[slot(self.pushed)] = effect;
        self.pushed += 1;
    }

    /// Effects kept: every one pushed, up to [`RECENT_EFFECTS_MAX`].
    pub fn len(&self) -> usize {
        self.pushed.min(RECENT_EFFECTS_MAX as u64) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.pushed == 0
    }

    /// Effects pushed since the sink began, the dropped ones included.
    pub fn pushed_total(&self) -> u64 {
        self.pushed
    }

    /// Every effect kept, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Effect> {
        // Once the ring is full, the oldest is the next slot to be written. Before, that slot
        // is the end of what is kept: the split leaves nothing older and every effect newer.
        let (newer, older) = self.ring[..self.len()].split_at(slot(self.pushed));
        older.iter().chain(newer)
    }

    /// The newest `count` effects (fewer if fewer are kept), oldest first.
    pub fn newest(&self, count: usize) -> Vec<Effect> {
        let mut newest: Vec<Effect> = self.iter().rev().take(count).copied().collect();
        newest.reverse();
        newest
    }
}

/// Where effect number `index` sits in the ring.
fn slot(index: u64) -> usize {
    (index % RECENT_EFFECTS_MAX as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(offset: u64) -> Effect {
        Effect {
            at_ms: offset * 10,
            partition: (offset % 3) as u32,
            offset,
            key: Some(offset as u32 % 7),
            nth: 1,
            ignored: false,
        }
    }

    fn pushed(count: u64) -> RecentEffects {
        let mut recent = RecentEffects::default();
        for offset in 0..count {
            recent.push(effect(offset));
        }
        recent
    }

    fn offsets(effects: &[Effect]) -> Vec<u64> {
        effects.iter().map(|e| e.offset).collect()
    }

    #[test]
    fn up_to_the_limit_every_effect_is_kept_in_order() {
        let limit = RECENT_EFFECTS_MAX as u64;
        for count in [0, 1, 5, limit - 1, limit] {
            let recent = pushed(count);
            assert_eq!(recent.len(), count as usize);
            assert_eq!(recent.is_empty(), count == 0);
            assert!(recent.iter().map(|e| e.offset).eq(0..count), "{count}");
        }
    }

    #[test]
    fn past_the_limit_the_newest_stay_oldest_first() {
        let limit = RECENT_EFFECTS_MAX as u64;
        for count in [limit + 1, limit + 7, 2 * limit, 3 * limit + 5] {
            let recent = pushed(count);
            assert_eq!(recent.len(), RECENT_EFFECTS_MAX);
            assert_eq!(recent.pushed_total(), count);
            assert!(
                recent.iter().map(|e| e.offset).eq(count - limit..count),
                "{count}"
            );
            assert!(recent
                .iter()
                .rev()
                .map(|e| e.offset)
                .eq((count - limit..count).rev()));
        }
    }

    #[test]
    fn the_newest_come_oldest_first_across_the_rings_end() {
        let limit = RECENT_EFFECTS_MAX as u64;
        let recent = pushed(limit + 3);
        assert_eq!(
            offsets(&recent.newest(5)),
            [limit - 2, limit - 1, limit, limit + 1, limit + 2]
        );
        assert_eq!(recent.newest(10_000).len(), recent.len());
        assert_eq!(offsets(&pushed(4).newest(2)), [2, 3]);
        assert!(pushed(0).newest(3).is_empty());
    }

    #[test]
    fn a_clone_goes_its_own_way() {
        let mut recent = pushed(RECENT_EFFECTS_MAX as u64 + 10);
        let mut copy = recent.clone();
        assert!(copy.iter().eq(recent.iter()));
        copy.push(effect(1_000_000));
        recent.push(effect(2_000_000));
        assert_eq!(copy.newest(1)[0].offset, 1_000_000);
        assert_eq!(recent.newest(1)[0].offset, 2_000_000);
        assert_eq!(copy.pushed_total(), recent.pushed_total());
    }
}
