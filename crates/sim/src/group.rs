//! A consumer group: its members, who owns which partition, and the poll loop each member runs.
//!
//! Each member is a Kafka consumer running the usual loop: `poll()` (which first auto-commits
//! if `auto.commit.interval.ms` has passed, then returns up to `max.poll.records` records that
//! are already appended), then process the records one at a time, then poll again. An empty
//! poll waits up to `fetch.max.wait.ms`, or less if a record arrives. A partition is read by
//! exactly one member, in offset order, one record at a time, so a partition can never go
//! faster than one member's processing. Positions, processed offsets and commits are kept per
//! partition, which is all a lesson needs to show what a crash would re-read or lose.
//!
//! Simplification (said in the UI): when a member owns several partitions, each poll starts
//! at the next partition in turn and takes what each has until the batch is full. Kafka's
//! fetcher drains one fetched partition before moving on, which evens out the same way over
//! a few polls.

use crate::assignor::{assign, GroupSubscription, MemberSubscription, Strategy, TopicPartition};
use crate::events::{Event, EventKind, MemberPartitions, PartitionOffset};
use crate::rng::{stream, SimRng};
use crate::scenario::{Distribution, GroupConfig, ProcessingConfig};
use crate::topic::Topic;
use crate::trace::TraceHasher;
use std::collections::BTreeMap;

/// A group's progress in one partition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionProgress {
    /// Index of the member that owns the partition, if any.
    pub owner: Option<usize>,
    /// The consumer's position: the next offset `poll()` returns.
    pub position: u64,
    /// Every record below this offset has been processed.
    pub processed: u64,
    /// The last committed offset: where reading resumes after a crash.
    pub committed: u64,
}

/// What a member is doing right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// About to poll or to start its next record, at the current tick.
    Ready,
    /// Inside an empty `poll()`, until data arrives or `until_ms`.
    Waiting { until_ms: u64 },
    /// Handling one record.
    Processing {
        partition: u32,
        offset: u64,
        started_ms: u64,
        done_ms: u64,
    },
}

/// Offsets `[from, to)` of one partition, returned by one poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchedRange {
    pub partition: u32,
    pub from: u64,
    pub to: u64,
}

/// One consumer process in the group.
#[derive(Clone, Debug)]
pub struct Member {
    /// `c1`, `c2`, ... (member ids order by their bytes, as Kafka's assignors sort them).
    pub id: String,
    /// Owned partitions, ascending.
    pub assigned: Vec<u32>,
    pub activity: Activity,
    /// The records the last poll returned, as ranges; processed front to back.
    pub batch: Vec<FetchedRange>,
    /// When the last non-empty poll happened.
    pub last_poll_ms: u64,
    /// Index into `batch` of the range being processed.
    batch_cursor: usize,
    /// Which owned partition the next poll starts at.
    poll_cursor: usize,
    last_auto_commit_ms: u64,
    /// Records this member finished processing.
    pub processed_total: u64,
}

/// A consumer group reading the topic.
#[derive(Clone, Debug)]
pub struct Group {
    pub config: GroupConfig,
    /// Bumped on every assignment (Kafka's generation id).
    pub generation: u32,
    pub members: Vec<Member>,
    /// Progress per partition, indexed by partition number.
    pub partitions: Vec<PartitionProgress>,
    /// Records the whole group finished processing.
    pub processed_total: u64,
    /// Lag-alert level reached per partition (0 = quiet, 1 = past the first threshold, ...).
    pub lag_levels: Vec<u8>,
    index: u64,
    rng: SimRng,
}

/// Where a group's step writes what it did.
pub struct StepSink<'a> {
    pub events: &'a mut Vec<Event>,
    pub trace: &'a mut TraceHasher,
}

impl Member {
    fn new(id: String, start_ms: u64) -> Self {
        Self {
            id,
            assigned: Vec::new(),
            activity: Activity::Ready,
            batch: Vec::new(),
            last_poll_ms: 0,
            batch_cursor: 0,
            poll_cursor: 0,
            last_auto_commit_ms: start_ms,
            processed_total: 0,
        }
    }

    /// Records fetched but not yet processed (including the one in hand).
    pub fn unprocessed_in_batch(&self, partitions: &[PartitionProgress]) -> u64 {
        self.batch[self.batch_cursor.min(self.batch.len())..]
            .iter()
            .map(|range| range.to - range.from.max(partitions[range.partition as usize].processed))
            .sum()
    }
}

impl Group {
    /// A group of `config.members` members, not yet assigned; `index` picks its random stream.
    pub fn new(config: &GroupConfig, partition_count: u32, seed: u64, index: u64) -> Self {
        let members = (1..=config.members)
            .map(|i| Member::new(format!("c{i}"), 0))
            .collect();
        Self {
            config: config.clone(),
            generation: 0,
            members,
            partitions: vec![PartitionProgress::default(); partition_count as usize],
            processed_total: 0,
            lag_levels: vec![0; partition_count as usize],
            index,
            rng: SimRng::for_stream(seed, stream::GROUP_BASE + index),
        }
    }

    pub fn group_id(&self) -> &str {
        &self.config.group_id
    }

    pub fn strategy(&self) -> Strategy {
        self.config.partition_assignment_strategy
    }

    /// Runs the assignor over the current members and hands out the partitions.
    pub fn rebalance(&mut self, now_ms: u64, topic: &Topic, sink: &mut StepSink) {
        let subscription = self.subscription(topic);
        let assignment = assign(self.strategy(), &subscription)
            .expect("the group's own subscription is always valid");
        self.generation += 1;
        self.apply_assignment(&assignment);
        sink.events.push(Event {
            at_ms: now_ms,
            kind: EventKind::Assigned {
                group_id: self.group_id().to_string(),
                generation: self.generation,
                strategy: self.strategy(),
                partition_count: self.partitions.len() as u32,
                members: self
                    .members
                    .iter()
                    .map(|m| MemberPartitions {
                        member_id: m.id.clone(),
                        partitions: m.assigned.clone(),
                    })
                    .collect(),
            },
        });
    }

    fn subscription(&self, topic: &Topic) -> GroupSubscription {
        let members = self
            .members
            .iter()
            .map(|m| MemberSubscription {
                id: m.id.clone(),
                topics: vec![topic.name.clone()],
                owned: m
                    .assigned
                    .iter()
                    .map(|&p| TopicPartition {
                        topic: topic.name.clone(),
                        partition: p,
                    })
                    .collect(),
            })
            .collect();
        GroupSubscription {
            topics: BTreeMap::from([(topic.name.clone(), self.partitions.len() as u32)]),
            members,
        }
    }

    fn apply_assignment(&mut self, assignment: &BTreeMap<String, Vec<TopicPartition>>) {
        for progress in &mut self.partitions {
            progress.owner = None;
        }
        for (index, member) in self.members.iter_mut().enumerate() {
            let mut owned: Vec<u32> = assignment
                .get(&member.id)
                .map(|tps| tps.iter().map(|tp| tp.partition).collect())
                .unwrap_or_default();
            owned.sort_unstable();
            for &p in &owned {
                self.partitions[p as usize].owner = Some(index);
            }
            member.assigned = owned;
            member.poll_cursor = 0;
            member.activity = if member.assigned.is_empty() {
                Activity::Waiting { until_ms: u64::MAX }
            } else {
                Activity::Ready
            };
        }
    }

    /// Runs every member's loop for the tick at `now_ms`, in member order.
    pub fn run_tick(&mut self, now_ms: u64, topic: &Topic, sink: &mut StepSink) {
        for m in 0..self.members.len() {
            self.run_member(m, now_ms, topic, sink);
        }
    }

    /// The earliest tick at which some member has something to do.
    pub fn next_activity_ms(&self) -> u64 {
        (0..self.members.len())
            .map(|m| self.member_next_activity_ms(m))
            .min()
            .unwrap_or(u64::MAX)
    }

    fn member_next_activity_ms(&self, m: usize) -> u64 {
        match self.members[m].activity {
            Activity::Ready => 0,
            Activity::Processing { done_ms, .. } => done_ms,
            // New records wake a waiting member at the tick they are appended, and appends
            // are activities of their own, so only the timeout needs scheduling here.
            Activity::Waiting { until_ms } => until_ms,
        }
    }

    fn run_member(&mut self, m: usize, now_ms: u64, topic: &Topic, sink: &mut StepSink) {
        loop {
            match self.members[m].activity {
                Activity::Processing { done_ms, .. } if done_ms > now_ms => return,
                Activity::Processing {
                    partition, offset, ..
                } => {
                    self.complete(m, partition, offset);
                    self.members[m].activity = Activity::Ready;
                }
                Activity::Waiting { until_ms } => {
                    if until_ms > now_ms && !self.has_records(m, topic) {
                        return;
                    }
                    self.members[m].activity = Activity::Ready;
                }
                Activity::Ready => {
                    if let Some((partition, offset)) = self.next_in_batch(m) {
                        self.start(m, partition, offset, now_ms);
                    } else if !self.poll(m, now_ms, topic, sink) {
                        let wait_ms = u64::from(self.config.fetch_max_wait_ms).max(1);
                        self.members[m].activity = Activity::Waiting {
                            until_ms: now_ms + wait_ms,
                        };
                        return;
                    }
                }
            }
        }
    }

    fn has_records(&self, m: usize, topic: &Topic) -> bool {
        self.members[m].assigned.iter().any(|&p| {
            self.partitions[p as usize].position < topic.partitions[p as usize].log_end_offset()
        })
    }

    /// The next record of the current batch, skipping exhausted ranges.
    fn next_in_batch(&mut self, m: usize) -> Option<(u32, u64)> {
        let member = &mut self.members[m];
        while let Some(range) = member.batch.get(member.batch_cursor) {
            let next = self.partitions[range.partition as usize].processed.max(range.from);
            if next < range.to {
                return Some((range.partition, next));
            }
            member.batch_cursor += 1;
        }
        None
    }

    fn start(&mut self, m: usize, partition: u32, offset: u64, now_ms: u64) {
        let duration_ms = draw_processing_ms(&self.config.processing, &mut self.rng);
        self.members[m].activity = Activity::Processing {
            partition,
            offset,
            started_ms: now_ms,
            done_ms: now_ms + duration_ms,
        };
    }

    fn complete(&mut self, m: usize, partition: u32, offset: u64) {
        let progress = &mut self.partitions[partition as usize];
        debug_assert_eq!(progress.processed, offset, "records finish in offset order");
        progress.processed = offset + 1;
        self.members[m].processed_total += 1;
        self.processed_total += 1;
    }

    /// One `poll()`: auto-commit if due, then fetch. Returns whether any record came back.
    fn poll(&mut self, m: usize, now_ms: u64, topic: &Topic, sink: &mut StepSink) -> bool {
        self.maybe_auto_commit(m, now_ms, sink);
        self.fetch(m, now_ms, topic, sink)
    }

    fn maybe_auto_commit(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) {
        let interval_ms = u64::from(self.config.auto_commit_interval_ms);
        let member = &mut self.members[m];
        if !self.config.enable_auto_commit || now_ms < member.last_auto_commit_ms + interval_ms {
            return;
        }
        member.last_auto_commit_ms = now_ms;
        let mut offsets = Vec::new();
        for &p in &member.assigned {
            let progress = &mut self.partitions[p as usize];
            // Kafka commits the positions returned so far; the loop processed all of them
            // before calling poll again, so they are also processed.
            if progress.committed != progress.position {
                progress.committed = progress.position;
                offsets.push(PartitionOffset {
                    partition: p,
                    offset: progress.position,
                });
            }
        }
        if offsets.is_empty() {
            return;
        }
        let event = Event {
            at_ms: now_ms,
            kind: EventKind::OffsetsCommitted {
                group_id: self.config.group_id.clone(),
                member_id: member.id.clone(),
                offsets,
            },
        };
        sink.events.push(event);
    }

    fn fetch(&mut self, m: usize, now_ms: u64, topic: &Topic, sink: &mut StepSink) -> bool {
        let member = &mut self.members[m];
        member.batch.clear();
        member.batch_cursor = 0;
        let owned = member.assigned.len();
        if owned == 0 {
            return false;
        }
        let mut room = u64::from(self.config.max_poll_records);
        let start = member.poll_cursor % owned;
        member.poll_cursor = (start + 1) % owned;
        for i in 0..owned {
            let partition = member.assigned[(start + i) % owned];
            let progress = &mut self.partitions[partition as usize];
            let log_end = topic.partitions[partition as usize].log_end_offset();
            let take = (log_end - progress.position).min(room);
            if take == 0 {
                continue;
            }
            let range = FetchedRange {
                partition,
                from: progress.position,
                to: progress.position + take,
            };
            progress.position = range.to;
            member.batch.push(range);
            for value in [now_ms, self.index, m as u64, u64::from(partition), range.from, range.to] {
                sink.trace.write_u64(value);
            }
            room -= take;
            if room == 0 {
                break;
            }
        }
        if member.batch.is_empty() {
            return false;
        }
        member.last_poll_ms = now_ms;
        true
    }
}

/// One processing time in whole ms, drawn around the configured mean. Fractional draws are
/// rounded up or down at random in proportion, so the mean is kept exactly on average.
pub fn draw_processing_ms(config: &ProcessingConfig, rng: &mut SimRng) -> u64 {
    let mean_ms = f64::from(config.time_ms);
    let sample_ms = match config.distribution {
        Distribution::Constant => return u64::from(config.time_ms),
        Distribution::Uniform => rng.unit_f64() * 2.0 * mean_ms,
        Distribution::Exponential => -mean_ms * libm::log(1.0 - rng.unit_f64()),
    };
    let whole_ms = libm::floor(sample_ms);
    let round_up = rng.unit_f64() < sample_ms - whole_ms;
    whole_ms as u64 + u64::from(round_up)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processing_draws_keep_the_mean() {
        for distribution in [Distribution::Uniform, Distribution::Exponential] {
            let config = ProcessingConfig {
                time_ms: 7,
                distribution,
            };
            let mut rng = SimRng::for_stream(3, 4);
            let total: u64 = (0..100_000).map(|_| draw_processing_ms(&config, &mut rng)).sum();
            let mean = total as f64 / 100_000.0;
            assert!((6.85..7.15).contains(&mean), "{distribution:?} mean {mean}");
        }
    }
}
