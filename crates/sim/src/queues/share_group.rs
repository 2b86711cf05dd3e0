//! A Kafka 4 share group (KIP-932) reading the topic: consumers cooperate on the same
//! partitions, each acquiring records for itself under a time-limited lock.
//!
//! An idle member polls: it acquires up to `max.poll.records` records from its partitions
//! (Available records first, then new ones, while each share-partition has fewer than
//! `group.share.partition.max.record.locks` in flight), all under one acquisition lock of
//! `group.share.record.lock.duration.ms`. It processes them in turn and acknowledges each:
//! `ACCEPT` when processing worked, `RELEASE` or `REJECT` (a knob) when it failed. A lock
//! that runs out returns what its member still held to Available, or Archived once the
//! record's delivery count reached `group.share.delivery.count.limit`; a late
//! acknowledgement is refused, though the work was done. A dead member is removed after
//! `group.share.session.timeout.ms`, which also releases its records.
//!
//! Members are spread over the partitions so that every partition has at least one member:
//! with more members than partitions several share each partition (that is how a share group
//! scales past the partition count, and why it gives up per-key order).

use super::events::{ArchiveCause, QueuesEventKind, Reader};
use super::order::{Completion, KeyOrder};
use super::records::{fails, processing_ms, Record};
use super::scenario::{QueuesScenario, ShareFailureAck};
use super::share_partition::{Acknowledge, Acquisition, RecordState, Settled, SharePartition};
use crate::replay::chunked::ChunkedVec;
use std::collections::VecDeque;

/// One member, as its client sees it.
#[derive(Clone, Debug, Default)]
pub struct ShareMember {
    pub alive: bool,
    pub in_group: bool,
    pub partitions: Vec<u32>,
    /// Records of its last poll not processed yet, in the order it processes them.
    pub batch: VecDeque<Acquisition>,
    /// The record it is processing and when that ends.
    pub work: Option<(Acquisition, u64)>,
    /// Where its next poll starts among its partitions.
    next: usize,
    /// Whether the broker keeps a lock batch of its (at most one: a poll forgets the last).
    pub(crate) holds_lock: bool,
}

/// One poll's acquisition lock, as the broker keeps it.
#[derive(Clone, Debug)]
pub struct LockBatch {
    pub member: u32,
    pub deadline_ms: u64,
    pub records: Vec<Acquisition>,
}

/// The share group.
#[derive(Clone, Debug)]
pub struct ShareGroupLane {
    pub partitions: Vec<SharePartition>,
    pub members: Vec<ShareMember>,
    pub locks: Vec<LockBatch>,
    removals: Vec<(u64, u32)>,
    pub order: KeyOrder,
    /// Acquisitions of a record that had been delivered before.
    pub redelivered: u64,
    /// Acknowledgements the broker refused because the lock had run out.
    pub refused_acks: u64,
}

/// What one tick of the share group wants told.
#[derive(Default)]
pub struct ShareNews {
    pub events: Vec<QueuesEventKind>,
    pub first_inversion: Option<(u32, Completion, bool)>,
}

impl ShareGroupLane {
    pub fn new(scenario: &QueuesScenario, records: usize) -> Self {
        let member = ShareMember {
            alive: true,
            in_group: true,
            ..ShareMember::default()
        };
        Self {
            partitions: (0..scenario.topic.partitions)
                .map(SharePartition::new)
                .collect(),
            members: vec![member; scenario.consumers as usize],
            locks: Vec::new(),
            removals: Vec::new(),
            order: KeyOrder::new(scenario.producer.keys, records),
            redelivered: 0,
            refused_acks: 0,
        }
    }

    /// Spreads the members over the partitions (a simplified share-group assignor): with at
    /// least as many members as partitions, the `i`th member reads partition `i mod P`, so
    /// every partition has one or more readers; with fewer, each member reads several.
    pub fn assign(&mut self) -> QueuesEventKind {
        let in_group: Vec<usize> = (0..self.members.len())
            .filter(|&m| self.members[m].in_group)
            .collect();
        let count = self.partitions.len() as u32;
        for member in &mut self.members {
            member.partitions.clear();
        }
        let n = in_group.len() as u32;
        for (i, &m) in in_group.iter().enumerate() {
            let i = i as u32;
            self.members[m].partitions = if n >= count {
                vec![i % count]
            } else {
                (0..count).filter(|p| p % n == i).collect()
            };
        }
        QueuesEventKind::Assigned {
            reader: Reader::ShareGroup,
            members: n,
            partitions: count,
            reading: n,
        }
    }

    /// Member `id` dies: its client-side batch is gone, its locks stay until they run out or
    /// the coordinator removes it. Returns how many records it had acquired and not settled.
    pub fn crash(&mut self, id: u32, now_ms: u64, session_timeout_ms: u64) -> u32 {
        let member = &mut self.members[id as usize];
        member.alive = false;
        member.batch.clear();
        member.work = None;
        self.removals.push((now_ms + session_timeout_ms, id));
        self.held_by(id)
    }

    /// Member `id` is back and joins as a new member.
    pub fn restart(
        &mut self,
        id: u32,
        scenario: &QueuesScenario,
        records: &[Record],
        logs: &[ChunkedVec<u32>],
    ) -> ShareNews {
        self.removals.retain(|&(_, m)| m != id);
        let mut news = ShareNews::default();
        self.release_member(id, scenario, records, logs, &mut news);
        let member = &mut self.members[id as usize];
        member.alive = true;
        member.in_group = true;
        news.events.push(self.assign());
        news
    }

    /// Removes the members whose session timed out by `now_ms`, releasing their records.
    pub fn remove_expired(
        &mut self,
        now_ms: u64,
        scenario: &QueuesScenario,
        records: &[Record],
        logs: &[ChunkedVec<u32>],
    ) -> (Vec<u32>, ShareNews) {
        let mut removed = Vec::new();
        self.removals.retain(|&(due, id)| {
            if due <= now_ms {
                removed.push(id);
                false
            } else {
                true
            }
        });
        let mut news = ShareNews::default();
        for &id in &removed {
            self.members[id as usize].in_group = false;
            self.release_member(id, scenario, records, logs, &mut news);
        }
        (removed, news)
    }

    /// The next instant this group has something to do by itself.
    pub fn due_ms(&self) -> Option<u64> {
        let work = self
            .members
            .iter()
            .filter(|m| m.alive)
            .filter_map(|m| m.work.map(|(_, done)| done));
        // The locks are in deadline order (an invariant): the first runs out first.
        let locks = self.locks.first().map(|l| l.deadline_ms);
        let removals = self.removals.iter().map(|&(due, _)| due);
        work.chain(locks).chain(removals).min()
    }

    /// Locks that ran out by `now_ms` give their unsettled records back.
    pub fn expire_locks(
        &mut self,
        now_ms: u64,
        scenario: &QueuesScenario,
        records: &[Record],
        logs: &[ChunkedVec<u32>],
        news: &mut ShareNews,
    ) {
        let limit = scenario.share.delivery_count_limit;
        // The locks are in deadline order (an invariant): those that ran out come first.
        while self.locks.first().is_some_and(|l| l.deadline_ms <= now_ms) {
            let batch = self.locks.remove(0);
            self.members[batch.member as usize].holds_lock = false;
            let (mut expired, mut archived) = (0, 0);
            for acquisition in &batch.records {
                let partition = &mut self.partitions[acquisition.partition as usize];
                match partition.expire(*acquisition, batch.member, limit) {
                    Some(Settled::Archived) => {
                        expired += 1;
                        archived += 1;
                        news.events.push(archived_event(
                            acquisition,
                            records,
                            logs,
                            ArchiveCause::DeliveryLimit,
                        ));
                    }
                    Some(_) => expired += 1,
                    None => {}
                }
                partition.advance_start();
            }
            if expired > 0 {
                news.events.push(QueuesEventKind::LocksExpired {
                    consumer: batch.member,
                    records: expired,
                    archived,
                    lock_duration_ms: scenario.share.record_lock_duration_ms,
                });
            }
        }
    }

    /// Finishes the records whose processing ends at `now_ms` and acknowledges them.
    pub fn complete(
        &mut self,
        now_ms: u64,
        scenario: &QueuesScenario,
        records: &[Record],
        logs: &[ChunkedVec<u32>],
        news: &mut ShareNews,
        trace: &mut impl FnMut(u32),
    ) {
        let limit = scenario.share.delivery_count_limit;
        for id in 0..self.members.len() {
            let member = &mut self.members[id];
            let Some((acquisition, _)) = member.work.filter(|&(_, done)| done <= now_ms) else {
                continue;
            };
            member.work = None;
            let seq = logs[acquisition.partition as usize][acquisition.offset as usize];
            let failed = fails(scenario, seq, acquisition.delivery_count);
            let ack = match (failed, scenario.share.on_failure) {
                (false, _) => Acknowledge::Accept,
                (true, ShareFailureAck::Release) => Acknowledge::Release,
                (true, ShareFailureAck::Reject) => Acknowledge::Reject,
            };
            if !failed {
                let key = records[seq as usize].key;
                let redelivered = acquisition.delivery_count > 1;
                let completion = self.order.complete(seq, key, redelivered);
                trace(seq);
                if matches!(completion, Completion::Inverted { .. }) && self.order.inversions == 1 {
                    news.first_inversion = Some((seq, completion, redelivered));
                }
            }
            let partition = &mut self.partitions[acquisition.partition as usize];
            match partition.acknowledge(acquisition, id as u32, ack, limit) {
                Ok(Settled::Archived) => {
                    let cause = if ack == Acknowledge::Reject {
                        ArchiveCause::Rejected
                    } else {
                        ArchiveCause::DeliveryLimit
                    };
                    news.events
                        .push(archived_event(&acquisition, records, logs, cause));
                }
                Ok(_) => {}
                Err(_) => self.refused_acks += 1,
            }
            partition.advance_start();
        }
    }

    /// Idle live members take the next record of their batch, or poll for a new batch.
    pub fn start(&mut self, now_ms: u64, scenario: &QueuesScenario, logs: &[ChunkedVec<u32>]) {
        for id in 0..self.members.len() {
            let member = &self.members[id];
            if !member.alive || !member.in_group || member.work.is_some() {
                continue;
            }
            if member.batch.is_empty() {
                self.poll(id as u32, now_ms, scenario, logs);
            }
            let member = &mut self.members[id];
            if let Some(acquisition) = member.batch.pop_front() {
                let seq = logs[acquisition.partition as usize][acquisition.offset as usize];
                let done = now_ms + processing_ms(scenario, seq, acquisition.delivery_count);
                member.work = Some((acquisition, done));
            }
        }
    }

    /// Records acquired and not settled, by any member.
    pub fn acquired(&self) -> u64 {
        self.partitions.iter().map(|p| p.acquired).sum()
    }

    pub fn archived(&self) -> u64 {
        self.partitions.iter().map(|p| p.archived).sum()
    }

    pub fn acknowledged(&self) -> u64 {
        self.partitions.iter().map(|p| p.acknowledged).sum()
    }

    /// Members processing a record now.
    pub fn busy(&self) -> u32 {
        self.members.iter().filter(|m| m.work.is_some()).count() as u32
    }

    /// Records produced and neither completed nor archived.
    pub fn backlog(&self, arrived: u64) -> u64 {
        arrived.saturating_sub(self.order.completed_count + self.archived())
    }

    /// Records acquired by member `id` and not settled.
    pub fn held_by(&self, id: u32) -> u32 {
        self.locks
            .iter()
            .filter(|l| l.member == id)
            .map(|l| self.still_held(l))
            .sum()
    }

    /// Per member, the records it acquired and has not settled; one pass over the locks.
    pub fn holdings(&self) -> Vec<u32> {
        let mut held = vec![0; self.members.len()];
        for lock in &self.locks {
            held[lock.member as usize] += self.still_held(lock);
        }
        held
    }

    /// How many records of `lock` are still Acquired under it.
    fn still_held(&self, lock: &LockBatch) -> u32 {
        let held = lock.records.iter().filter(|a| {
            self.partitions[a.partition as usize]
                .state_of(a.offset)
                .is_some_and(|r| {
                    r.holder == lock.member
                        && r.delivery_count == a.delivery_count
                        && r.state == RecordState::Acquired
                })
        });
        held.count() as u32
    }

    fn poll(&mut self, id: u32, now_ms: u64, scenario: &QueuesScenario, logs: &[ChunkedVec<u32>]) {
        // Idle members poll at every tick, nearly always for nothing (94 % of the queues
        // lesson's polls): with no batch of its left to forget and nothing to acquire, a poll
        // changes nothing, so it is not made.
        if !self.members[id as usize].holds_lock && !self.can_acquire(id, scenario, logs) {
            return;
        }
        // The member's previous lock batch is settled by now (it acknowledged every record of
        // it, or the lock ran out), so the broker forgets it.
        self.locks.retain(|l| l.member != id);
        self.members[id as usize].holds_lock = false;
        // The member's partitions are read in place rather than copied.
        let owned = &self.members[id as usize].partitions;
        let start = self.members[id as usize].next;
        let spec = &scenario.share;
        let mut taken = Vec::new();
        for step in 0..owned.len() {
            let left = spec.max_poll_records - taken.len() as u32;
            if left == 0 {
                break;
            }
            let p = owned[(start + step) % owned.len()];
            let log_end = logs[p as usize].len() as u64;
            let limits = (
                log_end,
                u64::from(spec.partition_max_record_locks),
                spec.delivery_count_limit,
            );
            self.partitions[p as usize].acquire_into(&mut taken, id, left, limits);
        }
        if taken.is_empty() {
            return;
        }
        self.redelivered += taken.iter().filter(|a| a.delivery_count > 1).count() as u64;
        let member = &mut self.members[id as usize];
        member.next = (start + 1) % member.partitions.len().max(1);
        // Refilled in place: the batch is empty by now (a member polls once it has none left).
        member.batch.clear();
        member.batch.extend(taken.iter().copied());
        member.holds_lock = true;
        self.locks.push(LockBatch {
            member: id,
            deadline_ms: now_ms + spec.record_lock_duration_ms,
            records: taken,
        });
    }

    /// Whether a poll by member `id` would acquire anything: one of its partitions has an
    /// Available record, or a new one with room in the in-flight window.
    fn can_acquire(&self, id: u32, scenario: &QueuesScenario, logs: &[ChunkedVec<u32>]) -> bool {
        let max_locks = u64::from(scenario.share.partition_max_record_locks);
        self.members[id as usize].partitions.iter().any(|&p| {
            self.partitions[p as usize].has_acquirable(logs[p as usize].len() as u64, max_locks)
        })
    }

    /// The broker lets go of everything member `id` holds, as when its session ends.
    fn release_member(
        &mut self,
        id: u32,
        scenario: &QueuesScenario,
        records: &[Record],
        logs: &[ChunkedVec<u32>],
        news: &mut ShareNews,
    ) {
        let limit = scenario.share.delivery_count_limit;
        let batches: Vec<LockBatch> = self
            .locks
            .iter()
            .filter(|l| l.member == id)
            .cloned()
            .collect();
        self.locks.retain(|l| l.member != id);
        self.members[id as usize].holds_lock = false;
        let (mut released, mut archived) = (0, 0);
        let mut archived_events = Vec::new();
        for batch in batches {
            for acquisition in batch.records {
                let partition = &mut self.partitions[acquisition.partition as usize];
                match partition.expire(acquisition, id, limit) {
                    Some(Settled::Archived) => {
                        released += 1;
                        archived += 1;
                        archived_events.push(archived_event(
                            &acquisition,
                            records,
                            logs,
                            ArchiveCause::DeliveryLimit,
                        ));
                    }
                    Some(_) => released += 1,
                    None => {}
                }
                partition.advance_start();
            }
        }
        if released > 0 {
            news.events.push(QueuesEventKind::RecordsReleased {
                consumer: id,
                records: released,
                archived,
            });
        }
        news.events.extend(archived_events);
    }
}

fn archived_event(
    acquisition: &Acquisition,
    records: &[Record],
    logs: &[ChunkedVec<u32>],
    cause: ArchiveCause,
) -> QueuesEventKind {
    let seq = logs[acquisition.partition as usize][acquisition.offset as usize];
    QueuesEventKind::RecordArchived {
        partition: acquisition.partition,
        offset: acquisition.offset,
        key: records[seq as usize].key,
        deliveries: acquisition.delivery_count,
        cause,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One member reading all three partitions, each holding ten records.
    fn one_member_three_partitions(
        max_poll_records: u32,
    ) -> (ShareGroupLane, QueuesScenario, Vec<ChunkedVec<u32>>) {
        let mut scenario = QueuesScenario::default();
        scenario.topic.partitions = 3;
        scenario.consumers = 1;
        scenario.share.max_poll_records = max_poll_records;
        let mut group = ShareGroupLane::new(&scenario, 30);
        group.assign();
        let logs = (0..3)
            .map(|p| {
                let mut log = ChunkedVec::default();
                (p * 10..p * 10 + 10).for_each(|seq| log.push(seq));
                log
            })
            .collect();
        (group, scenario, logs)
    }

    /// A poll takes at most `max.poll.records` over all the member's partitions.
    #[test]
    fn a_poll_over_several_partitions_stops_at_max_poll_records() {
        let (mut group, scenario, logs) = one_member_three_partitions(15);
        group.poll(0, 0, &scenario, &logs);
        let taken = &group.locks[0].records;
        assert_eq!(taken.len(), 15);
        let partitions: Vec<u32> = taken.iter().map(|a| a.partition).collect();
        assert_eq!(partitions[..10], [0; 10], "the first partition whole");
        assert_eq!(partitions[10..], [1; 5], "then the next, up to the limit");
    }

    /// Each poll starts at the partition after the one the last poll started at, so no
    /// partition is always served first.
    #[test]
    fn polls_take_turns_over_the_member_s_partitions() {
        let (mut group, scenario, logs) = one_member_three_partitions(1);
        let mut first_partitions = Vec::new();
        for now_ms in 0..4 {
            group.poll(0, now_ms, &scenario, &logs);
            first_partitions.push(group.locks[0].records[0].partition);
        }
        assert_eq!(first_partitions, [0, 1, 2, 0]);
    }
}
