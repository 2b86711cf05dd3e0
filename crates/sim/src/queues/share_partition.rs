//! One share-partition (KIP-932): the share group's view of one topic partition.
//!
//! Records below the share-partition start offset (SPSO) are done; records from the
//! share-partition end offset (SPEO) on have never been acquired. In between, the in-flight
//! window, each record is in one of four states: Available (released, or its lock ran out,
//! and it may be delivered again), Acquired (locked to one consumer until its acquisition
//! lock expires), Acknowledged (processed) or Archived (rejected, or out of deliveries). The
//! SPSO moves up past Acknowledged and Archived records; the window may hold at most
//! `group.share.partition.max.record.locks` records.
//!
//! Every transition checks the state it starts from, and an illegal one (acknowledging a
//! record twice, delivering an archived one, a delivery count past the limit) is recorded
//! rather than made, so the family's invariants report it at the tick that tried it.

use serde::Serialize;
use std::collections::{BTreeSet, VecDeque};

/// A record's delivery state in a share-partition (KIP-932's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordState {
    Available,
    Acquired,
    Acknowledged,
    Archived,
}

/// How a consumer settles a record it acquired (`AcknowledgeType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acknowledge {
    Accept,
    Release,
    Reject,
}

/// A record in the in-flight window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InFlight {
    pub state: RecordState,
    /// Deliveries so far (acquisitions).
    pub delivery_count: u32,
    /// The consumer that holds or last held it.
    pub holder: u32,
}

/// One acquisition handed to a consumer: the record at `offset`, on its `delivery_count`th
/// delivery. A later acknowledgement names the same delivery, so one that arrives after the
/// lock ran out (and someone else acquired the record) is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acquisition {
    pub partition: u32,
    pub offset: u64,
    pub delivery_count: u32,
}

/// The broker's refusal of an acknowledgement for a record the consumer no longer holds
/// (Kafka's `INVALID_RECORD_STATE` error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidRecordState;

/// Where a settled record ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    Acknowledged,
    Available,
    Archived,
}

/// One share-partition's in-flight window.
#[derive(Clone, Debug, Default)]
pub struct SharePartition {
    pub partition: u32,
    /// Share-partition start offset.
    pub spso: u64,
    /// `window[i]` is the record at offset `spso + i`; the window ends at the SPEO.
    window: VecDeque<InFlight>,
    /// Offsets in the window that are Available, lowest first.
    available: BTreeSet<u64>,
    pub acknowledged: u64,
    pub archived: u64,
    /// Records in the window currently Acquired.
    pub acquired: u64,
    /// The first illegal transition tried, if any.
    pub violation: Option<String>,
}

impl SharePartition {
    pub fn new(partition: u32) -> Self {
        Self {
            partition,
            ..Self::default()
        }
    }

    /// Share-partition end offset: the first offset never acquired.
    pub fn speo(&self) -> u64 {
        self.spso + self.window.len() as u64
    }

    /// Records in flight (between SPSO and SPEO), whatever their state.
    pub fn in_flight(&self) -> u64 {
        self.window.len() as u64
    }

    /// Records in the window that are neither Acknowledged nor Archived.
    pub fn unsettled(&self) -> u64 {
        self.acquired + self.available.len() as u64
    }

    pub fn state_of(&self, offset: u64) -> Option<InFlight> {
        let index = offset.checked_sub(self.spso)?;
        self.window.get(index as usize).copied()
    }

    /// The states of the first `max` records of the window, from the SPSO on.
    pub fn window_states(&self, max: usize) -> Vec<RecordState> {
        self.window.iter().take(max).map(|r| r.state).collect()
    }

    /// Records in the window that are Available.
    pub fn available(&self) -> u64 {
        self.available.len() as u64
    }

    /// Whether a poll could acquire anything: an Available record, or a new record below the
    /// log end with room in the window.
    pub fn has_acquirable(&self, log_end: u64, max_locks: u64) -> bool {
        !self.available.is_empty() || (self.speo() < log_end && self.in_flight() < max_locks)
    }

    /// Acquires up to `max` records for `consumer`: Available records first (lowest offset
    /// first, so a released record is retried early), then new records from the SPEO while
    /// the window has room.
    pub fn acquire(
        &mut self,
        consumer: u32,
        max: u32,
        log_end: u64,
        max_locks: u64,
        delivery_limit: u32,
    ) -> Vec<Acquisition> {
        let mut taken = Vec::new();
        let limits = (log_end, max_locks, delivery_limit);
        self.acquire_into(&mut taken, consumer, max, limits);
        taken
    }

    /// [`acquire`](Self::acquire), appending to `taken` (a poll over several partitions
    /// gathers one batch without a vector per partition). `limits` are the log end, the most
    /// records in flight and the delivery count limit.
    pub fn acquire_into(
        &mut self,
        taken: &mut Vec<Acquisition>,
        consumer: u32,
        max: u32,
        (log_end, max_locks, delivery_limit): (u64, u64, u32),
    ) {
        let before = taken.len();
        while ((taken.len() - before) as u32) < max {
            let offset = match self.available.first().copied() {
                Some(offset) => {
                    self.available.remove(&offset);
                    offset
                }
                None if self.speo() < log_end && self.in_flight() < max_locks => {
                    self.window.push_back(InFlight {
                        state: RecordState::Available,
                        delivery_count: 0,
                        holder: consumer,
                    });
                    self.speo() - 1
                }
                None => break,
            };
            let index = (offset - self.spso) as usize;
            let record = self.window[index];
            if record.state != RecordState::Available {
                self.note(format!(
                    "partition {} offset {offset} was delivered while {:?}",
                    self.partition, record.state
                ));
                continue;
            }
            let delivery_count = record.delivery_count + 1;
            if delivery_count > delivery_limit {
                self.note(format!(
                    "partition {} offset {offset} was delivered a {delivery_count}th time, past \
                     the limit {delivery_limit}",
                    self.partition
                ));
            }
            self.window[index] = InFlight {
                state: RecordState::Acquired,
                delivery_count,
                holder: consumer,
            };
            self.acquired += 1;
            taken.push(Acquisition {
                partition: self.partition,
                offset,
                delivery_count,
            });
        }
    }

    /// Settles `acquisition` as `consumer` acknowledges it. `Err` when the record is no
    /// longer held by that delivery (its lock ran out): the broker refuses the
    /// acknowledgement (`INVALID_RECORD_STATE`) and nothing changes.
    pub fn acknowledge(
        &mut self,
        acquisition: Acquisition,
        consumer: u32,
        ack: Acknowledge,
        delivery_limit: u32,
    ) -> Result<Settled, InvalidRecordState> {
        if !self.holds(acquisition, consumer) {
            return Err(InvalidRecordState);
        }
        let settled = match ack {
            Acknowledge::Accept => Settled::Acknowledged,
            Acknowledge::Reject => Settled::Archived,
            Acknowledge::Release => self.after_delivery(acquisition.offset, delivery_limit),
        };
        self.settle(acquisition.offset, settled);
        Ok(settled)
    }

    /// The acquisition lock of `acquisition` ran out: the record is Available again, or
    /// Archived when its deliveries reached the limit. `None` when it was settled before.
    pub fn expire(
        &mut self,
        acquisition: Acquisition,
        consumer: u32,
        limit: u32,
    ) -> Option<Settled> {
        if !self.holds(acquisition, consumer) {
            return None;
        }
        let settled = self.after_delivery(acquisition.offset, limit);
        self.settle(acquisition.offset, settled);
        Some(settled)
    }

    /// Moves the SPSO past the Acknowledged and Archived records at the window's start.
    pub fn advance_start(&mut self) {
        while let Some(front) = self.window.front() {
            if matches!(
                front.state,
                RecordState::Acknowledged | RecordState::Archived
            ) {
                self.window.pop_front();
                self.spso += 1;
            } else {
                break;
            }
        }
    }

    fn holds(&self, acquisition: Acquisition, consumer: u32) -> bool {
        self.state_of(acquisition.offset).is_some_and(|r| {
            r.state == RecordState::Acquired
                && r.holder == consumer
                && r.delivery_count == acquisition.delivery_count
        })
    }

    /// Where a delivery that did not succeed leaves the record.
    fn after_delivery(&self, offset: u64, limit: u32) -> Settled {
        let count = self.state_of(offset).map_or(0, |r| r.delivery_count);
        if count >= limit {
            Settled::Archived
        } else {
            Settled::Available
        }
    }

    fn settle(&mut self, offset: u64, settled: Settled) {
        let index = (offset - self.spso) as usize;
        let record = &mut self.window[index];
        if record.state != RecordState::Acquired {
            let state = record.state;
            self.note(format!(
                "partition {} offset {offset} settled while {state:?}",
                self.partition
            ));
            return;
        }
        self.acquired -= 1;
        record.state = match settled {
            Settled::Acknowledged => {
                self.acknowledged += 1;
                RecordState::Acknowledged
            }
            Settled::Archived => {
                self.archived += 1;
                RecordState::Archived
            }
            Settled::Available => {
                self.available.insert(offset);
                RecordState::Available
            }
        };
    }

    fn note(&mut self, violation: String) {
        self.violation.get_or_insert(violation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_move_available_acquired_acknowledged_and_the_start_follows() {
        let mut sp = SharePartition::new(0);
        let taken = sp.acquire(1, 3, 10, 100, 5);
        assert_eq!(taken.len(), 3);
        assert_eq!((sp.spso, sp.speo(), sp.acquired), (0, 3, 3));
        assert_eq!(
            sp.acknowledge(taken[1], 1, Acknowledge::Accept, 5),
            Ok(Settled::Acknowledged)
        );
        sp.advance_start();
        assert_eq!(sp.spso, 0, "offset 0 is still acquired");
        sp.acknowledge(taken[0], 1, Acknowledge::Accept, 5).unwrap();
        sp.advance_start();
        assert_eq!(sp.spso, 2);
        assert_eq!(
            sp.acknowledge(taken[0], 1, Acknowledge::Accept, 5),
            Err(InvalidRecordState)
        );
        assert!(sp.violation.is_none());
    }

    #[test]
    fn a_released_record_is_delivered_again_until_the_limit_archives_it() {
        let mut sp = SharePartition::new(0);
        for delivery in 1..=3 {
            let taken = sp.acquire(7, 1, 1, 100, 3);
            assert_eq!(taken[0].delivery_count, delivery);
            let settled = sp
                .acknowledge(taken[0], 7, Acknowledge::Release, 3)
                .unwrap();
            let expected = if delivery < 3 {
                Settled::Available
            } else {
                Settled::Archived
            };
            assert_eq!(settled, expected);
        }
        assert!(
            sp.acquire(7, 1, 1, 100, 3).is_empty(),
            "archived stays archived"
        );
        sp.advance_start();
        assert_eq!((sp.spso, sp.archived), (1, 1));
    }

    #[test]
    fn an_expired_lock_refuses_the_late_acknowledgement() {
        let mut sp = SharePartition::new(0);
        let first = sp.acquire(1, 1, 1, 100, 5)[0];
        assert_eq!(sp.expire(first, 1, 5), Some(Settled::Available));
        let second = sp.acquire(2, 1, 1, 100, 5)[0];
        assert_eq!(second.delivery_count, 2);
        assert_eq!(
            sp.acknowledge(first, 1, Acknowledge::Accept, 5),
            Err(InvalidRecordState)
        );
        assert_eq!(
            sp.acknowledge(second, 2, Acknowledge::Accept, 5),
            Ok(Settled::Acknowledged)
        );
        assert_eq!(sp.expire(second, 2, 5), None);
    }

    #[test]
    fn the_window_never_exceeds_the_record_lock_limit() {
        let mut sp = SharePartition::new(0);
        assert_eq!(sp.acquire(1, 500, 1_000, 100, 5).len(), 100);
        assert!(!sp.has_acquirable(1_000, 100));
        let rejected = Acquisition {
            partition: 0,
            offset: 0,
            delivery_count: 1,
        };
        sp.acknowledge(rejected, 1, Acknowledge::Reject, 5).unwrap();
        sp.advance_start();
        assert!(sp.has_acquirable(1_000, 100));
        assert_eq!(sp.acquire(1, 500, 1_000, 100, 5).len(), 1);
    }
}
