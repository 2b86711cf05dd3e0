//! A Kafka consumer group reading the topic: each partition belongs to one member at a time,
//! which processes its records one by one in offset order and commits after each
//! (`commitSync()` after processing), so a crash repeats at most the record in hand.
//!
//! Partitions are spread over the members in the group (partition `p` goes to the
//! `p mod n`th member by id), so a group with more members than partitions leaves the rest
//! idle: the group stops scaling at the partition count. A member that dies keeps its
//! partitions until the coordinator removes it after `session.timeout.ms`; the new owner
//! starts at the committed offset. A member that loses a partition in a reassignment
//! finishes and commits the record it is on before the new owner starts, so one partition is
//! never processed by two members at once, and per-key order holds whatever the knobs (unless
//! the partition count changes under the keys, which the partitions lesson shows).
//!
//! A failed attempt is retried in place, blocking the partition, until it succeeds.

use super::events::{QueuesEventKind, Reader};
use super::order::{Completion, KeyOrder};
use super::records::{fails, processing_ms, Record};
use super::scenario::QueuesScenario;
use crate::replay::chunked::ChunkedVec;

/// One partition as the group sees it.
#[derive(Clone, Debug, Default)]
pub struct GroupPartition {
    /// The committed offset: every record below it is processed.
    pub committed: u64,
    /// The member the coordinator assigned it to.
    pub owner: Option<u32>,
    /// The member processing one of its records now, if any.
    pub busy_by: Option<u32>,
    /// One past the highest offset ever handed to a member.
    pub delivered_end: u64,
}

/// The record a member is processing.
#[derive(Clone, Copy, Debug)]
pub struct GroupWork {
    pub partition: u32,
    pub offset: u64,
    pub seq: u32,
    pub attempt: u32,
    pub done_ms: u64,
    pub redelivered: bool,
}

/// One member.
#[derive(Clone, Debug, Default)]
pub struct GroupMember {
    pub alive: bool,
    pub in_group: bool,
    pub partitions: Vec<u32>,
    pub work: Option<GroupWork>,
    /// Where its round-robin over its partitions resumes.
    next: usize,
}

/// The consumer group.
#[derive(Clone, Debug)]
pub struct ConsumerGroupLane {
    pub partitions: Vec<GroupPartition>,
    pub members: Vec<GroupMember>,
    /// Dead members and when the coordinator removes them.
    removals: Vec<(u64, u32)>,
    pub order: KeyOrder,
    /// Deliveries of a record that had been handed to a member before.
    pub redelivered: u64,
    /// Failed attempts retried in place.
    pub retries: u64,
    /// Whether the partition count changed during the run.
    pub repartitioned: bool,
}

impl ConsumerGroupLane {
    pub fn new(scenario: &QueuesScenario, records: usize) -> Self {
        let member = GroupMember {
            alive: true,
            in_group: true,
            ..GroupMember::default()
        };
        Self {
            partitions: vec![GroupPartition::default(); scenario.topic.partitions as usize],
            members: vec![member; scenario.consumers as usize],
            removals: Vec::new(),
            order: KeyOrder::new(scenario.producer.keys, records),
            redelivered: 0,
            retries: 0,
            repartitioned: false,
        }
    }

    /// Spreads the partitions over the members in the group; the event telling it.
    pub fn assign(&mut self) -> QueuesEventKind {
        let in_group: Vec<u32> = (0..self.members.len() as u32)
            .filter(|&m| self.members[m as usize].in_group)
            .collect();
        for member in &mut self.members {
            member.partitions.clear();
        }
        for (p, partition) in self.partitions.iter_mut().enumerate() {
            partition.owner = if in_group.is_empty() {
                None
            } else {
                Some(in_group[p % in_group.len()])
            };
            if let Some(owner) = partition.owner {
                self.members[owner as usize].partitions.push(p as u32);
            }
        }
        let reading = self
            .members
            .iter()
            .filter(|m| !m.partitions.is_empty())
            .count();
        QueuesEventKind::Assigned {
            reader: Reader::ConsumerGroup,
            members: in_group.len() as u32,
            partitions: self.partitions.len() as u32,
            reading: reading as u32,
        }
    }

    /// The topic now has `count` partitions; the group takes the new ones into its
    /// assignment and reads them from their first offset.
    pub fn add_partitions(&mut self, count: u32) -> QueuesEventKind {
        self.partitions
            .resize(count as usize, GroupPartition::default());
        self.repartitioned = true;
        self.assign()
    }

    /// Member `id` dies: the record it was processing is abandoned uncommitted, and the
    /// coordinator will remove it after `session_timeout_ms`. Returns how many records it
    /// held.
    pub fn crash(&mut self, id: u32, now_ms: u64, session_timeout_ms: u64) -> u32 {
        let member = &mut self.members[id as usize];
        member.alive = false;
        let holding = match member.work.take() {
            Some(work) => {
                self.partitions[work.partition as usize].busy_by = None;
                1
            }
            None => 0,
        };
        self.removals.push((now_ms + session_timeout_ms, id));
        holding
    }

    /// Member `id` is back. It joins as a new member, which also ends its old membership if
    /// the coordinator had not removed it yet.
    pub fn restart(&mut self, id: u32) -> QueuesEventKind {
        self.removals.retain(|&(_, m)| m != id);
        let member = &mut self.members[id as usize];
        member.alive = true;
        member.in_group = true;
        self.assign()
    }

    /// The members whose session timed out by `now_ms`, removed from the group.
    pub fn remove_expired(&mut self, now_ms: u64) -> Vec<u32> {
        let mut removed = Vec::new();
        self.removals.retain(|&(due, id)| {
            if due <= now_ms {
                removed.push(id);
                false
            } else {
                true
            }
        });
        for &id in &removed {
            self.members[id as usize].in_group = false;
        }
        removed
    }

    /// The next instant this group has something to do by itself.
    pub fn due_ms(&self) -> Option<u64> {
        let work = self
            .members
            .iter()
            .filter(|m| m.alive)
            .filter_map(|m| m.work.map(|w| w.done_ms));
        work.chain(self.removals.iter().map(|&(due, _)| due)).min()
    }

    /// Finishes the attempts that end at `now_ms`: a success commits, a failure is retried.
    /// Returns the first inversion, if this completed one.
    pub fn complete(
        &mut self,
        now_ms: u64,
        scenario: &QueuesScenario,
        records: &[Record],
        trace: &mut impl FnMut(u32),
    ) -> Option<(u32, Completion, bool)> {
        let mut first_inversion = None;
        for member in &mut self.members {
            let Some(work) = member.work.as_mut().filter(|w| w.done_ms <= now_ms) else {
                continue;
            };
            if fails(scenario, work.seq, work.attempt) {
                self.retries += 1;
                work.attempt += 1;
                work.done_ms = now_ms + processing_ms(scenario, work.seq, work.attempt);
                continue;
            }
            let work = member.work.take().expect("checked above");
            let key = records[work.seq as usize].key;
            let completion = self.order.complete(work.seq, key, work.redelivered);
            trace(work.seq);
            if matches!(completion, Completion::Inverted { .. }) && self.order.inversions == 1 {
                first_inversion = Some((work.seq, completion, work.redelivered));
            }
            let partition = &mut self.partitions[work.partition as usize];
            partition.committed = work.offset + 1;
            partition.busy_by = None;
        }
        first_inversion
    }

    /// Idle live members start on the next record of one of their partitions.
    pub fn start(&mut self, now_ms: u64, scenario: &QueuesScenario, logs: &[ChunkedVec<u32>]) {
        for (id, member) in self.members.iter_mut().enumerate() {
            if !member.alive || !member.in_group || member.work.is_some() {
                continue;
            }
            let owned = member.partitions.len();
            for step in 0..owned {
                let p = member.partitions[(member.next + step) % owned];
                let partition = &mut self.partitions[p as usize];
                let log = &logs[p as usize];
                if partition.busy_by.is_some() || partition.committed >= log.len() as u64 {
                    continue;
                }
                let offset = partition.committed;
                let seq = log[offset as usize];
                let redelivered = offset < partition.delivered_end;
                if redelivered {
                    self.redelivered += 1;
                }
                partition.delivered_end = partition.delivered_end.max(offset + 1);
                partition.busy_by = Some(id as u32);
                member.work = Some(GroupWork {
                    partition: p,
                    offset,
                    seq,
                    attempt: 1,
                    done_ms: now_ms + processing_ms(scenario, seq, 1),
                    redelivered,
                });
                member.next = (member.next + step + 1) % owned;
                break;
            }
        }
    }

    /// Members processing a record now.
    pub fn busy(&self) -> u32 {
        self.members.iter().filter(|m| m.work.is_some()).count() as u32
    }

    /// Records produced and not processed yet.
    pub fn backlog(&self, arrived: u64) -> u64 {
        arrived - self.order.completed_count
    }
}
