//! One input channel: the records and barriers between a partition's source reader and the
//! counting operator, in order, each with the instant it left the source and the instant it
//! can be read. A channel holds at most [`CHANNEL_CAPACITY`] records in flight; a full one
//! makes its source wait, which is backpressure. A barrier takes no room, and an unaligned
//! barrier jumps to the front: it overtakes the records in flight, which the checkpoint
//! stores instead.

use super::scenario::CHANNEL_CAPACITY;
use serde::Serialize;
use std::collections::VecDeque;

/// What travels in a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Element {
    Record { seq: u32 },
    Barrier { checkpoint: u32 },
}

/// An element on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct InFlight {
    pub element: Element,
    pub emitted_at_ms: u64,
    /// From then on the operator may read it.
    pub arrives_at_ms: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Channel {
    queue: VecDeque<InFlight>,
    records: usize,
}

impl Channel {
    /// Whether the source may send another record.
    pub fn has_room(&self) -> bool {
        self.records < CHANNEL_CAPACITY
    }

    /// Records in flight.
    pub fn records(&self) -> usize {
        self.records
    }

    pub fn push_record(&mut self, seq: u32, now_ms: u64, delay_ms: u64) {
        debug_assert!(self.has_room());
        self.records += 1;
        self.queue.push_back(InFlight {
            element: Element::Record { seq },
            emitted_at_ms: now_ms,
            arrives_at_ms: now_ms + delay_ms,
        });
    }

    /// Sends a barrier behind every record already sent (aligned), or ahead of them
    /// (unaligned: readable at once).
    pub fn push_barrier(&mut self, checkpoint: u32, now_ms: u64, delay_ms: u64, overtake: bool) {
        let barrier = Element::Barrier { checkpoint };
        if overtake {
            self.queue.push_front(InFlight {
                element: barrier,
                emitted_at_ms: now_ms,
                arrives_at_ms: now_ms,
            });
        } else {
            self.queue.push_back(InFlight {
                element: barrier,
                emitted_at_ms: now_ms,
                arrives_at_ms: now_ms + delay_ms,
            });
        }
    }

    /// The element the operator may read at `now_ms`, if it has arrived.
    pub fn ready(&self, now_ms: u64) -> Option<&InFlight> {
        self.queue.front().filter(|f| f.arrives_at_ms <= now_ms)
    }

    /// When the front element can be read.
    pub fn next_arrival_ms(&self) -> Option<u64> {
        self.queue.front().map(|f| f.arrives_at_ms)
    }

    pub fn pop(&mut self) -> Option<InFlight> {
        let front = self.queue.pop_front()?;
        if matches!(front.element, Element::Record { .. }) {
            self.records -= 1;
        }
        Some(front)
    }

    /// Every element, front first.
    pub fn elements(&self) -> impl Iterator<Item = &InFlight> {
        self.queue.iter()
    }

    /// Empties the channel (its task died).
    pub fn clear(&mut self) {
        self.queue.clear();
        self.records = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_aligned_barrier_waits_behind_the_records_an_unaligned_one_overtakes_them() {
        let mut channel = Channel::default();
        channel.push_record(1, 0, 500);
        channel.push_record(2, 10, 500);
        channel.push_barrier(7, 20, 500, false);
        assert_eq!(channel.ready(400), None);
        assert_eq!(channel.pop().unwrap().element, Element::Record { seq: 1 });
        assert_eq!(channel.pop().unwrap().element, Element::Record { seq: 2 });
        assert_eq!(channel.next_arrival_ms(), Some(520));
        let mut channel = Channel::default();
        channel.push_record(1, 0, 500);
        channel.push_barrier(7, 20, 500, true);
        assert_eq!(
            channel.ready(20).unwrap().element,
            Element::Barrier { checkpoint: 7 }
        );
        assert_eq!(channel.records(), 1, "a barrier takes no room");
    }

    #[test]
    fn a_full_channel_has_no_room_until_a_record_leaves() {
        let mut channel = Channel::default();
        for seq in 0..CHANNEL_CAPACITY as u32 {
            channel.push_record(seq, 0, 0);
        }
        assert!(!channel.has_room());
        channel.pop();
        assert!(channel.has_room());
        channel.clear();
        assert_eq!(channel.records(), 0);
    }
}
