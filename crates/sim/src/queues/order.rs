//! Per-key order, as one reader's output sees it.
//!
//! A record is *completed* the first time a consumer finishes processing it successfully;
//! finishing it again later is a duplicate, not news. An *order inversion* is a completion
//! that comes after a later record of the same key (later in the order the producer sent
//! them) has already completed: a downstream that applies each key's records in turn would
//! have applied them out of order. A replay in order (a consumer group going back to its
//! committed offset) repeats records but never inverts; parallel consumers of one partition
//! or one queue, and redeliveries that come back after newer records, do.

use crate::replay::slots::SharedSlots;

/// What finishing a record meant for the order of its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// The first completion of the record, in order for its key.
    InOrder,
    /// The first completion, after `after_seq`, a later record of the same key.
    Inverted { after_seq: u32 },
    /// The record had completed before.
    Duplicate,
}

/// One reader's completions and the per-key order they came in.
#[derive(Clone, Debug, Default)]
pub struct KeyOrder {
    /// Per key, the latest record (by sequence) completed so far.
    latest_done: Vec<Option<u32>>,
    /// Per record, whether it has completed; in shared chunks, because every checkpoint of a
    /// run clones it whole and only the chunk near the run's frontier changes.
    completed: SharedSlots<bool>,
    pub completed_count: u64,
    pub duplicates: u64,
    pub inversions: u64,
    /// Inversions whose late record had been delivered before (a redelivery).
    pub redelivery_inversions: u64,
}

impl KeyOrder {
    pub fn new(keys: u32, records: usize) -> Self {
        Self {
            latest_done: vec![None; keys as usize],
            completed: SharedSlots::filled(records, false),
            ..Self::default()
        }
    }

    /// Records that record `seq` of `key` finished successfully; `redelivered` when this
    /// delivery of it was not its first.
    pub fn complete(&mut self, seq: u32, key: u32, redelivered: bool) -> Completion {
        if self.completed[seq as usize] {
            self.duplicates += 1;
            return Completion::Duplicate;
        }
        self.completed.set(seq as usize, true);
        self.completed_count += 1;
        let latest = &mut self.latest_done[key as usize];
        match *latest {
            Some(after_seq) if after_seq > seq => {
                self.inversions += 1;
                if redelivered {
                    self.redelivery_inversions += 1;
                }
                Completion::Inverted { after_seq }
            }
            _ => {
                *latest = Some(seq);
                Completion::InOrder
            }
        }
    }

    pub fn is_completed(&self, seq: u32) -> bool {
        self.completed[seq as usize]
    }

    /// Roughly the bytes of the per-record table a clone holds of its own, and those every
    /// clone of the run shares (the timeline's memory budget).
    pub fn size_hint_bytes(&self) -> (usize, usize) {
        (
            self.completed.own_size_hint_bytes(),
            self.completed.shared_size_hint_bytes(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_completed_in_order_never_inverts_and_a_replay_is_a_duplicate() {
        let mut order = KeyOrder::new(2, 6);
        assert_eq!(order.complete(0, 0, false), Completion::InOrder);
        assert_eq!(order.complete(1, 1, false), Completion::InOrder);
        assert_eq!(order.complete(2, 0, false), Completion::InOrder);
        assert_eq!(order.complete(0, 0, true), Completion::Duplicate);
        assert_eq!((order.inversions, order.duplicates), (0, 1));
        assert_eq!(order.completed_count, 3);
    }

    #[test]
    fn an_older_record_finishing_after_a_newer_one_of_its_key_inverts() {
        let mut order = KeyOrder::new(1, 4);
        order.complete(2, 0, false);
        assert_eq!(
            order.complete(1, 0, true),
            Completion::Inverted { after_seq: 2 }
        );
        assert_eq!(
            order.complete(0, 0, false),
            Completion::Inverted { after_seq: 2 }
        );
        assert_eq!((order.inversions, order.redelivery_inversions), (2, 1));
        assert_eq!(order.complete(3, 0, false), Completion::InOrder);
    }
}
