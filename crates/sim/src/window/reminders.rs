//! `(instant, key)` reminders for the window kinds whose windows end per key (session and
//! sliding windows): a reminder waits in one min-heap until the watermark reaches its instant
//! (firing), then in a second one until its lateness is over too (expiry).
//!
//! Each watermark step takes reminders only from the front, in `(instant, key)` order, so two
//! heaps do what an ordered set did, with a fraction of the code (a B-tree compiles its own
//! node, search and rebalancing code for every item type, and each lesson downloads it).
//! Firing runs before expiry for each watermark, and lateness is never negative, so a
//! reminder whose lateness is over has always moved to the second heap by the time expiry
//! looks for it.

use super::keys::KeyId;
use super::watermark::Watermark;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Debug, Default)]
pub(crate) struct Reminders {
    /// Reminders the watermark has not reached yet, soonest on top.
    to_fire: BinaryHeap<Reverse<(i64, KeyId)>>,
    /// Reminders the watermark has reached, until their lateness is over, soonest on top.
    to_expire: BinaryHeap<Reverse<(i64, KeyId)>>,
}

impl Reminders {
    /// Sets a reminder for `key` at `instant_ms`, with the watermark at `watermark`.
    pub(crate) fn set(&mut self, instant_ms: i64, key: KeyId, watermark: Watermark) {
        let reminder = Reverse((instant_ms, key));
        if watermark.has_reached(instant_ms) {
            self.to_expire.push(reminder);
        } else {
            self.to_fire.push(reminder);
        }
    }

    /// The soonest reminder that `watermark` reaches and firing has not visited yet, which
    /// then waits for expiry.
    pub(crate) fn next_reached(&mut self, watermark: Watermark) -> Option<(i64, KeyId)> {
        let &Reverse(reminder) = self.to_fire.peek()?;
        if !watermark.has_reached(reminder.0) {
            return None;
        }
        self.to_fire.pop();
        self.to_expire.push(Reverse(reminder));
        Some(reminder)
    }

    /// The soonest reminder whose lateness is over at `watermark`, taken out.
    pub(crate) fn next_gone(
        &mut self,
        watermark: Watermark,
        allowed_lateness_ms: i64,
    ) -> Option<(i64, KeyId)> {
        let &Reverse(reminder) = self.to_expire.peek()?;
        if !watermark.has_reached(reminder.0 + allowed_lateness_ms) {
            return None;
        }
        self.to_expire.pop();
        Some(reminder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(next: impl FnMut() -> Option<(i64, KeyId)>) -> Vec<(i64, KeyId)> {
        std::iter::from_fn(next).collect()
    }

    #[test]
    fn a_reminder_fires_once_reached_then_expires_once_its_lateness_is_over() {
        let mut reminders = Reminders::default();
        let start = Watermark::At(0);
        for (instant_ms, key) in [(30, 1), (10, 2), (20, 0), (10, 1)] {
            reminders.set(instant_ms, key, start);
        }
        let at = Watermark::At;
        // Firing takes what the watermark reaches, soonest first and by key at one instant.
        assert_eq!(
            drain(|| reminders.next_reached(at(20))),
            [(10, 1), (10, 2), (20, 0)]
        );
        assert_eq!(reminders.next_reached(at(20)), None, "each is fired once");
        // With 5 ms of lateness, 10 is gone at 15 and 20 only at 25; 30 has not fired.
        assert_eq!(drain(|| reminders.next_gone(at(24), 5)), [(10, 1), (10, 2)]);
        assert_eq!(drain(|| reminders.next_gone(at(25), 5)), [(20, 0)]);
        assert_eq!(
            drain(|| reminders.next_reached(Watermark::PlusInfinity)),
            [(30, 1)]
        );
        assert_eq!(
            drain(|| reminders.next_gone(Watermark::PlusInfinity, 5)),
            [(30, 1)]
        );
    }

    #[test]
    fn a_reminder_set_behind_the_watermark_waits_only_for_expiry() {
        let mut reminders = Reminders::default();
        reminders.set(10, 3, Watermark::At(10));
        reminders.set(11, 3, Watermark::At(10));
        assert_eq!(reminders.next_reached(Watermark::At(10)), None);
        assert_eq!(reminders.next_gone(Watermark::At(10), 0), Some((10, 3)));
        assert_eq!(reminders.next_gone(Watermark::At(10), 0), None);
        assert_eq!(reminders.next_reached(Watermark::At(11)), Some((11, 3)));
    }
}
