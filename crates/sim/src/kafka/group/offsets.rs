//! Where a group's offsets come from when they are not simply "the next record": a commit made
//! before processing, `auto.offset.reset` (a new group, or a position that retention deleted),
//! the loss retention or a `deleteRecords` call causes, and an explicit reset
//! (`kafka-consumer-groups --reset-offsets`). Also what any commit moves: the committed
//! offsets that were behind, listed for the commit's event.

use super::{Activity, Group, Liveness, Member, PartitionProgress, StepSink};
use crate::kafka::events::{CommitCause, CommittedOffsets, Event, EventKind, PartitionOffset};
use crate::kafka::scenario::{AutoOffsetReset, OffsetTarget};
use crate::kafka::topic::{PartitionLog, Topic};

/// Why a partition's log start moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogStartCause {
    /// `retention.ms` or `retention.bytes`, at a broker's retention check.
    Retention,
    /// An application's `Admin.deleteRecords()` call.
    DeleteRecords,
}

/// A position below the log start cannot be fetched: `auto.offset.reset` decides where the
/// consumer goes instead (or, with `none`, that it reads nothing more there).
pub(crate) fn reset_out_of_range(
    progress: &mut PartitionProgress,
    policy: AutoOffsetReset,
    log: &PartitionLog,
) {
    let target = match policy {
        AutoOffsetReset::Earliest => log.log_start_offset(),
        AutoOffsetReset::Latest => {
            progress.skipped_by_reset += log.log_end_offset() - log.log_start_offset();
            log.log_end_offset()
        }
        AutoOffsetReset::None => {
            progress.out_of_range = true;
            return;
        }
    };
    progress.position = target;
    progress.processed = progress.processed.max(target);
}

/// A group with no committed offset in a partition starts where `auto.offset.reset` says;
/// records before that were never its business, so they are not counted as lost.
pub(crate) fn start_without_commit(
    progress: &mut PartitionProgress,
    policy: AutoOffsetReset,
    log: &PartitionLog,
) {
    progress.started = true;
    let offset = match policy {
        AutoOffsetReset::Earliest => log.log_start_offset(),
        AutoOffsetReset::Latest => log.log_end_offset(),
        AutoOffsetReset::None => {
            progress.out_of_range = true;
            return;
        }
    };
    progress.first_offset = offset;
    progress.position = offset;
    progress.processed = offset;
    progress.committed = progress.committed.max(offset);
}

/// What `member` commits of `partitions`: how far it has processed each it owns, where that is
/// past the committed offset.
pub(crate) fn commit_processed(
    member: &Member,
    progress: &mut [PartitionProgress],
    partitions: impl Iterator<Item = u32> + Clone,
) -> CommittedOffsets {
    let owned = partitions.filter(|&p| member.owns(p));
    advance_committed(progress, owned, |p, progress| PartitionOffset {
        partition: p,
        offset: progress[p as usize].processed,
    })
}

/// A commit's offsets: each item names a partition and the offset to commit there (`target`);
/// where the committed offset is behind it, it moves up and the pair is listed, in the order
/// given. The list is counted first, so a commit allocates it once, and not at all when
/// nothing moved or one offset did: a member commits after every poll, tens of thousands of
/// times a run, most often one partition.
fn advance_committed<T: Copy>(
    progress: &mut [PartitionProgress],
    items: impl Iterator<Item = T> + Clone,
    target: impl Fn(T, &[PartitionProgress]) -> PartitionOffset,
) -> CommittedOffsets {
    let behind = |o: &PartitionOffset, progress: &[PartitionProgress]| {
        progress[o.partition as usize].committed < o.offset
    };
    // At least as many as the second pass lists (a partition named twice is counted twice).
    let count = (items.clone())
        .filter(|&item| behind(&target(item, progress), progress))
        .count();
    let mut offsets = Vec::with_capacity(if count > 1 { count } else { 0 });
    let mut only = None;
    for item in items {
        let offset = target(item, progress);
        if behind(&offset, progress) {
            let moved = &mut progress[offset.partition as usize];
            moved.committed = offset.offset;
            moved.has_committed = true;
            if count == 1 {
                only = Some(offset);
            } else {
                offsets.push(offset);
            }
        }
    }
    only.map_or(CommittedOffsets::Many(offsets), CommittedOffsets::One)
}

/// The first offset of `log` whose record was appended at or after `at_ms`.
fn offset_for_time(log: &PartitionLog, at_ms: u64) -> u64 {
    let records = log.range(log.log_start_offset(), log.log_end_offset());
    log.log_start_offset() + records.partition_point(|r| r.append_ms() < at_ms) as u64
}

impl Group {
    /// `commitSync()` of the positions the last poll reached, before processing any of it.
    pub(crate) fn commit_fetched(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) {
        let fetched = self.members[m].batch.iter();
        let offsets =
            advance_committed(&mut self.partitions, fetched, |range, _| PartitionOffset {
                partition: range.partition,
                offset: range.to,
            });
        self.push_commit_event(m, offsets, now_ms, CommitCause::BeforeProcessing, sink);
    }

    /// Retention, or a `deleteRecords` call, moved partition `p`'s log start from `old_start`
    /// to `new_start`: the records in between that the group had not got to are lost to it.
    pub(crate) fn on_log_start_moved(
        &mut self,
        p: u32,
        (old_start, new_start): (u64, u64),
        cause: LogStartCause,
        now_ms: u64,
        sink: &mut StepSink,
    ) {
        let frontier = self.frontier(p as usize);
        let in_flight_end = self.in_flight_end(p);
        let progress = &mut self.partitions[p as usize];
        if !progress.has_committed && !progress.started {
            // The group has not begun reading: it will start at or after the new log start.
            return;
        }
        // Records a member already fetched are processed from its memory, and so is the one
        // a live member is working on, even after a reset moved the position back below it.
        let read = frontier.max(progress.position).max(in_flight_end);
        let from = old_start.max(read).max(progress.first_offset);
        if new_start <= from {
            return;
        }
        progress.retention_floor = new_start;
        let group_id = self.id.clone();
        let kind = match cause {
            LogStartCause::Retention => {
                progress.lost_to_retention += new_start - from;
                EventKind::LostToRetention {
                    group_id,
                    partition: p,
                    from,
                    to: new_start,
                }
            }
            LogStartCause::DeleteRecords => {
                progress.lost_to_deletion += new_start - from;
                EventKind::LostToDeletion {
                    group_id,
                    partition: p,
                    from,
                    to: new_start,
                }
            }
        };
        sink.push(Event {
            at_ms: now_ms,
            kind,
        });
    }

    /// Just past the record of partition `p` a live member is processing right now (0 if
    /// none): it will be written whatever happens to the log meanwhile.
    fn in_flight_end(&self, p: u32) -> u64 {
        self.members
            .iter()
            .filter(|m| matches!(m.liveness, Liveness::Running | Liveness::Paused { .. }))
            .filter_map(|m| match m.activity {
                Activity::Processing {
                    partition, offset, ..
                } if partition == p => Some(offset + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// Moves every partition's committed offset and position to `to`; members drop what they
    /// fetched and read again from there.
    pub(crate) fn reset_offsets(&mut self, to: OffsetTarget, topic: &Topic) {
        self.resets_total += 1;
        for (progress, log) in self.partitions.iter_mut().zip(&topic.partitions) {
            let offset = match to {
                OffsetTarget::Earliest => log.log_start_offset(),
                OffsetTarget::Latest => log.log_end_offset(),
                OffsetTarget::Timestamp { at_ms } => offset_for_time(log, at_ms),
            };
            progress.committed = offset;
            progress.has_committed = true;
            progress.position = offset;
            progress.processed = offset;
            progress.out_of_range = false;
        }
        for member in &mut self.members {
            member.clear_batch();
            if matches!(member.activity, Activity::Waiting { until_ms } if until_ms != u64::MAX) {
                member.activity = Activity::Ready;
            }
        }
    }
}
