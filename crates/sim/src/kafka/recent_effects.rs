//! The newest effects a sink keeps for drawing: at least the newest [`RECENT_EFFECTS_MAX`]
//! (all of them in a shorter run), in chunks that clones share.
//!
//! Every timeline checkpoint clones every sink. Held in one queue, a group's thousands of
//! recent effects were copied into a fresh allocation dozens of times per run rebuilt for a
//! knob change (about a fifth of that rebuild in the browser). Full chunks are shared
//! pointers, as the partition logs' are (`kafka/topic.rs`), so a clone copies a few pointers
//! and the open chunk's effects; the oldest chunk is dropped whole once the others hold the
//! limit, and its memory becomes the next open chunk when no clone holds it (a sink writes
//! for every record, so sealing must not allocate and copy each time).

use super::sink::Effect;
use std::collections::VecDeque;
use std::sync::Arc;

/// The fewest newest effects a sink keeps (it keeps up to a chunk more).
pub const RECENT_EFFECTS_MAX: usize = 4_096;

/// Effects per chunk; divides [`RECENT_EFFECTS_MAX`].
const CHUNK_EFFECTS: usize = 256;

/// The newest effects, oldest first.
#[derive(Clone, Debug, Default)]
pub struct RecentEffects {
    /// Full chunks, oldest first, each [`CHUNK_EFFECTS`] long; shared between clones.
    sealed: VecDeque<Arc<Vec<Effect>>>,
    /// The chunk new effects go to; shorter than [`CHUNK_EFFECTS`].
    open: Vec<Effect>,
}

impl RecentEffects {
    /// Adds `effect` as the newest, dropping the oldest chunk once the others hold the limit.
    #[inline]
    pub fn push(&mut self, effect: Effect) {
        self.open.push(effect);
        if self.open.len() == CHUNK_EFFECTS {
            self.seal();
        }
    }

    /// Shares the full open chunk and opens the next one, in the dropped chunk's memory when
    /// no clone holds it (out of line: once per [`CHUNK_EFFECTS`] effects).
    #[inline(never)]
    fn seal(&mut self) {
        let dropped = if self.sealed.len() * CHUNK_EFFECTS >= RECENT_EFFECTS_MAX {
            self.sealed.pop_front()
        } else {
            None
        };
        let mut next_open = dropped
            .and_then(|chunk| Arc::try_unwrap(chunk).ok())
            .unwrap_or_else(|| Vec::with_capacity(CHUNK_EFFECTS));
        next_open.clear();
        let full = std::mem::replace(&mut self.open, next_open);
        self.sealed.push_back(Arc::new(full));
    }

    pub fn len(&self) -> usize {
        self.sealed.len() * CHUNK_EFFECTS + self.open.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every effect kept, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Effect> {
        (self.sealed.iter().map(|chunk| chunk.as_slice()))
            .chain(std::iter::once(&self.open[..]))
            .flatten()
    }

    /// The newest `count` effects (fewer if fewer are kept), oldest first.
    pub fn newest(&self, count: usize) -> Vec<Effect> {
        let mut newest: Vec<Effect> = self.iter().rev().take(count).copied().collect();
        newest.reverse();
        newest
    }
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
        let recent = pushed(limit);
        assert_eq!(recent.len(), RECENT_EFFECTS_MAX);
        assert!(recent.iter().map(|e| e.offset).eq(0..limit));
    }

    #[test]
    fn past_the_limit_the_oldest_chunk_goes_and_the_newest_stay() {
        let limit = RECENT_EFFECTS_MAX as u64;
        let chunk = CHUNK_EFFECTS as u64;
        // One effect short of sealing the chunk past the limit: nothing dropped yet.
        let recent = pushed(limit + chunk - 1);
        assert_eq!(recent.iter().next().map(|e| e.offset), Some(0));
        // Sealing it drops the oldest chunk, leaving exactly the limit.
        let recent = pushed(limit + chunk);
        assert_eq!(recent.len(), RECENT_EFFECTS_MAX);
        assert!(recent.iter().map(|e| e.offset).eq(chunk..limit + chunk));
        let recent = pushed(3 * limit + 5);
        assert!(recent.len() >= RECENT_EFFECTS_MAX);
        assert_eq!(recent.iter().last().map(|e| e.offset), Some(3 * limit + 4));
    }

    #[test]
    fn the_newest_come_oldest_first_across_chunks() {
        let recent = pushed(CHUNK_EFFECTS as u64 + 3);
        let boundary = CHUNK_EFFECTS as u64;
        assert_eq!(
            offsets(&recent.newest(5)),
            [
                boundary - 2,
                boundary - 1,
                boundary,
                boundary + 1,
                boundary + 2
            ]
        );
        assert_eq!(recent.newest(10_000).len(), recent.len());
        assert!(!recent.is_empty() && !pushed(1).is_empty());
        assert!(pushed(0).newest(3).is_empty() && pushed(0).is_empty());
    }

    #[test]
    fn a_clone_shares_what_it_holds_and_goes_its_own_way() {
        let mut recent = pushed(RECENT_EFFECTS_MAX as u64 + 100);
        let mut copy = recent.clone();
        assert!(copy.iter().eq(recent.iter()));
        assert!(Arc::ptr_eq(&copy.sealed[0], &recent.sealed[0]));
        copy.push(effect(1_000_000));
        recent.push(effect(2_000_000));
        assert_eq!(copy.newest(1)[0].offset, 1_000_000);
        assert_eq!(recent.newest(1)[0].offset, 2_000_000);
    }
}
