//! An agenda: messages on the wire and timers, each due at a time, handed out earliest first
//! and, at equal times, in the order they were scheduled (a replication lane's queue, the
//! databases family's messages).
//!
//! The order is the run: two items due at the same instant must come out in the order they
//! were scheduled on every platform and however finely the run is advanced. Every item is
//! keyed by (due time, scheduling number) in a binary heap and the earliest key comes out
//! first.
//!
//! A caller may keep a kind of timer beside the agenda instead of in it (a replication lane's
//! produce timeouts: one per request, nearly all never needed, so queued they piled up by the
//! thousand and were copied with every checkpoint). [`Agenda::take_number`] gives such a timer
//! the number it would have had if scheduled, so comparing its key with [`Agenda::next_key`]
//! puts it exactly where the agenda would have.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Items due at times, earliest first.
#[derive(Clone, Debug)]
pub struct Agenda<T> {
    /// Every item waiting; its top is the earliest.
    heap: BinaryHeap<Due<T>>,
    /// How many numbers were ever given: the next item's tie-breaking number.
    scheduled: u64,
}

impl<T> Default for Agenda<T> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            scheduled: 0,
        }
    }
}

impl<T> Agenda<T> {
    /// Schedules `item` at `at_ms`, after every item already scheduled for that time.
    pub fn schedule(&mut self, at_ms: u64, item: T) {
        let number = self.take_number();
        self.heap.push(Due {
            at_ms,
            number,
            item,
        });
    }

    /// The scheduling number of something the caller keeps outside the agenda but orders as
    /// if scheduled now: at equal times it comes after every item scheduled before this call
    /// and before every item scheduled after it.
    pub fn take_number(&mut self) -> u64 {
        let number = self.scheduled;
        self.scheduled += 1;
        number
    }

    /// When the earliest item is due.
    pub fn next_at_ms(&self) -> Option<u64> {
        self.heap.peek().map(|due| due.at_ms)
    }

    /// The earliest item's key: (due time, scheduling number).
    pub fn next_key(&self) -> Option<(u64, u64)> {
        self.heap.peek().map(Due::key)
    }

    /// Takes the earliest item if it is due at or before `target_ms`, with its time.
    pub fn pop_due(&mut self, target_ms: u64) -> Option<(u64, T)> {
        if self.next_at_ms()? > target_ms {
            return None;
        }
        self.heap.pop().map(|due| (due.at_ms, due.item))
    }

    /// Items waiting.
    pub fn len(&self) -> usize {
        self.heap.len()
    }
}

/// An item with its due time and scheduling number; ordered so the max-heap's top is the
/// earliest.
#[derive(Clone, Debug)]
struct Due<T> {
    at_ms: u64,
    number: u64,
    item: T,
}

impl<T> Due<T> {
    fn key(&self) -> (u64, u64) {
        (self.at_ms, self.number)
    }
}

impl<T> Ord for Due<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

impl<T> PartialOrd for Due<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> PartialEq for Due<T> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl<T> Eq for Due<T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::rng::SimRng;

    fn drain(agenda: &mut Agenda<u32>, target_ms: u64) -> Vec<(u64, u32)> {
        std::iter::from_fn(|| agenda.pop_due(target_ms)).collect()
    }

    #[test]
    fn items_come_out_by_time_then_in_the_order_they_were_scheduled() {
        let mut agenda = Agenda::default();
        for (at_ms, item) in [(30, 1), (10, 2), (30, 3), (20, 4), (10, 5), (30, 6)] {
            agenda.schedule(at_ms, item);
        }
        assert_eq!(agenda.next_at_ms(), Some(10));
        assert_eq!(
            drain(&mut agenda, u64::MAX),
            [(10, 2), (10, 5), (20, 4), (30, 1), (30, 3), (30, 6)]
        );
        assert_eq!(agenda.next_at_ms(), None);
    }

    #[test]
    fn only_items_due_by_the_target_come_out() {
        let mut agenda = Agenda::default();
        for (at_ms, item) in [(5, 1), (20, 2), (10, 3), (21, 4)] {
            agenda.schedule(at_ms, item);
        }
        assert_eq!(agenda.len(), 4);
        assert_eq!(drain(&mut agenda, 20), [(5, 1), (10, 3), (20, 2)]);
        assert_eq!(agenda.len(), 1);
        assert_eq!(agenda.next_at_ms(), Some(21));
        assert_eq!(agenda.pop_due(20), None);
        assert_eq!(agenda.len(), 1, "a refused pop takes nothing");
    }

    /// Only the due time and the scheduling number order items, equal ones included; what an
    /// item carries never does.
    #[test]
    fn items_compare_by_time_and_number_alone() {
        let due = |at_ms, number, item| Due {
            at_ms,
            number,
            item,
        };
        assert_eq!(due(5, 1, 'a'), due(5, 1, 'b'));
        assert_ne!(due(5, 1, 'a'), due(5, 2, 'a'));
        assert_ne!(due(5, 1, 'a'), due(6, 1, 'a'));
        assert!(
            due(5, 9, 'a') > due(6, 0, 'a'),
            "earlier comes out of the heap first"
        );
        assert!(
            due(5, 1, 'a') > due(5, 2, 'a'),
            "then the one scheduled first"
        );
    }

    /// A number taken between two schedules sits between their items at an equal time, and
    /// before any later time: what a timer kept beside the agenda compares against.
    #[test]
    fn a_taken_number_orders_as_an_item_scheduled_then() {
        let mut agenda = Agenda::default();
        agenda.schedule(10, 'a');
        let number = agenda.take_number();
        agenda.schedule(10, 'b');
        agenda.schedule(9, 'c');
        assert_eq!(agenda.next_key(), Some((9, 3)));
        assert_eq!(agenda.pop_due(9), Some((9, 'c')));
        assert_eq!(agenda.next_key(), Some((10, 0)));
        assert!((10, number) > (10, 0) && (10, number) < (10, 2));
        assert_eq!(agenda.pop_due(10), Some((10, 'a')));
        assert_eq!(
            agenda.next_key(),
            Some((10, 2)),
            "b, scheduled after the number"
        );
        assert_eq!(agenda.len(), 1);
    }

    /// The same order as sorting everything by (time, scheduling order), with pops and
    /// schedules interleaved as a lane does, long timers among the short delays.
    #[test]
    fn interleaved_use_matches_a_stable_sort() {
        let mut rng = SimRng::for_stream(7, 0);
        let mut agenda = Agenda::default();
        let mut model: Vec<(u64, u64, u32)> = Vec::new();
        let mut now_ms = 0;
        for step in 0..5_000u32 {
            if rng.below(3) == 0 {
                now_ms += rng.below(5);
                model.sort_by_key(|&(at, number, _)| (at, number));
                let due = model.iter().take_while(|&&(at, ..)| at <= now_ms).count();
                let expected: Vec<(u64, u32)> =
                    model.drain(..due).map(|(at, _, item)| (at, item)).collect();
                assert_eq!(drain(&mut agenda, now_ms), expected);
            } else {
                // A quarter are timers, most of one length; the rest short messages.
                let at_ms = if rng.below(4) == 0 {
                    now_ms + [30, 30, 30, 12][rng.below(4) as usize]
                } else {
                    now_ms + rng.below(4)
                };
                agenda.schedule(at_ms, step);
                model.push((at_ms, u64::from(step), step));
            }
        }
    }
}
