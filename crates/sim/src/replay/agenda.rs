//! An agenda: messages on the wire and timers, each due at a time, handed out earliest first
//! and, at equal times, in the order they were scheduled (a replication lane's queue, the
//! databases family's messages).
//!
//! The order is the run: two items due at the same instant must come out in the order they
//! were scheduled on every platform and however finely the run is advanced. Every item is
//! keyed by (due time, scheduling number) and the earliest key comes out first.
//!
//! Most of what waits can be timers of one fixed length (a replication lane holds a produce
//! timeout for every request in flight, thousands late in a run, nearly all of which are
//! never needed), scheduled in the order they fall due. [`Agenda::schedule_timer`] puts such
//! an item in a queue kept in key order at no cost: an item due no earlier than the queue's
//! last one goes to its back, since its number is the largest yet (one due earlier goes to the
//! heap). The rest (messages due in a few milliseconds, timers of other lengths) go to a
//! binary heap that stays small. A pop takes the earlier of the two fronts, so the order is
//! the same as one heap of everything, whatever mix of times is scheduled.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// Items due at times, earliest first.
#[derive(Clone, Debug)]
pub struct Agenda<T> {
    /// Items from `schedule`, and timers due before the queue's last one; its top is the
    /// earliest.
    heap: BinaryHeap<Due<T>>,
    /// Items each due no earlier than the one before: in key order, front first.
    in_order: VecDeque<Due<T>>,
    /// How many items were ever scheduled: the next one's tie-breaking number.
    scheduled: u64,
}

impl<T> Default for Agenda<T> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            in_order: VecDeque::new(),
            scheduled: 0,
        }
    }
}

impl<T> Agenda<T> {
    /// Schedules `item` at `at_ms`, after every item already scheduled for that time.
    pub fn schedule(&mut self, at_ms: u64, item: T) {
        let due = self.numbered(at_ms, item);
        self.heap.push(due);
    }

    /// Schedules `item` as [`Agenda::schedule`] does, for a caller whose items of this kind
    /// fall due in the order they are scheduled (one timer length, a clock that only moves
    /// forward): then they wait in a queue instead of the heap. The order is the same either
    /// way; only the cost differs.
    pub fn schedule_timer(&mut self, at_ms: u64, item: T) {
        let due = self.numbered(at_ms, item);
        if self.in_order.back().is_none_or(|last| last.at_ms <= at_ms) {
            self.in_order.push_back(due);
        } else {
            self.heap.push(due);
        }
    }

    fn numbered(&mut self, at_ms: u64, item: T) -> Due<T> {
        let number = self.scheduled;
        self.scheduled += 1;
        Due {
            at_ms,
            number,
            item,
        }
    }

    /// When the earliest item is due.
    pub fn next_at_ms(&self) -> Option<u64> {
        self.earliest().map(|due| due.at_ms)
    }

    /// Takes the earliest item if it is due at or before `target_ms`, with its time.
    pub fn pop_due(&mut self, target_ms: u64) -> Option<(u64, T)> {
        if self.next_at_ms()? > target_ms {
            return None;
        }
        let due = if self.queued_comes_first() {
            self.in_order.pop_front()
        } else {
            self.heap.pop()
        };
        due.map(|due| (due.at_ms, due.item))
    }

    /// Items waiting.
    pub fn len(&self) -> usize {
        self.heap.len() + self.in_order.len()
    }

    fn earliest(&self) -> Option<&Due<T>> {
        if self.queued_comes_first() {
            self.in_order.front()
        } else {
            self.heap.peek()
        }
    }

    /// Whether the queue's front comes out before the heap's top. Two keys are never equal
    /// (every item has its own scheduling number), so `<` and `<=` say the same here.
    fn queued_comes_first(&self) -> bool {
        match (self.in_order.front(), self.heap.peek()) {
            (Some(queued), Some(top)) => queued.key() < top.key(),
            (queued, _) => queued.is_some(),
        }
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

    /// A lane's pattern: a long timer per request, each later than the last, between short
    /// messages; the timers wait in the queue, the messages in the heap, and both come out
    /// in one order, a timer before a message due at the same instant if scheduled first.
    #[test]
    fn fixed_timeouts_and_short_messages_interleave_in_one_order() {
        let mut agenda = Agenda::default();
        agenda.schedule_timer(100, 1);
        agenda.schedule(3, 2); // a message, before it
        agenda.schedule_timer(101, 3); // the next timeout
        agenda.schedule(100, 4); // a message due with the first timeout, scheduled after it
        agenda.schedule(1, 5);
        agenda.schedule_timer(99, 6); // a shorter timer: before the queue's last
        assert_eq!(agenda.in_order.len(), 2, "the timeouts wait in order");
        assert_eq!(agenda.heap.len(), 4);
        assert_eq!(agenda.next_at_ms(), Some(1));
        assert_eq!(
            drain(&mut agenda, 100),
            [(1, 5), (3, 2), (99, 6), (100, 1), (100, 4)]
        );
        assert_eq!(agenda.len(), 1);
        assert_eq!(agenda.next_at_ms(), Some(101));
        agenda.schedule(50, 7);
        assert_eq!(drain(&mut agenda, 101), [(50, 7), (101, 3)]);
        agenda.schedule_timer(200, 8);
        assert_eq!(agenda.in_order.len(), 1, "an empty queue takes any timer");
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
                    let at_ms = now_ms + [30, 30, 30, 12][rng.below(4) as usize];
                    agenda.schedule_timer(at_ms, step);
                    at_ms
                } else {
                    let at_ms = now_ms + rng.below(4);
                    agenda.schedule(at_ms, step);
                    at_ms
                };
                model.push((at_ms, u64::from(step), step));
            }
        }
    }
}
