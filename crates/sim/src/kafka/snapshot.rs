//! The Snapshot: a plain-data picture of the world at one moment, for drawing.
//!
//! The UI never reaches into the World; it draws a Snapshot. Records carry their send and
//! append times, and the member at work carries the start and end of its current record, so
//! the renderer can place things between ticks and keep motion smooth at any speed.

use crate::assignor::Strategy;
use crate::kafka::group::{Activity, Group, GroupState, MemberPhase};
use crate::kafka::scenario::ManualCommit;
use crate::kafka::sink::{Effect, SinkMode, Tallies};
use crate::kafka::topic::{Record, NULL_KEY};
use crate::kafka::world::World;
use serde::Serialize;

/// How many of each partition's newest records a snapshot carries for drawing (the log's
/// cells a lesson shows).
pub const DRAWN_CELLS: usize = 24;

/// Everything a lesson draws at one moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    pub at_ms: u64,
    pub topic_name: String,
    pub producer: ProducerView,
    pub partitions: Vec<PartitionView>,
    pub groups: Vec<GroupView>,
}

/// The producer and the records it has sent but not yet appended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProducerView {
    pub rate_per_s: u32,
    pub key_count: u32,
    pub sent_total: u64,
    /// Records on their way to a partition (waiting out `linger.ms`).
    pub in_flight: Vec<InFlightView>,
}

/// A record between the producer and its partition.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct InFlightView {
    pub partition: u32,
    pub record: RecordView,
}

/// One record as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RecordView {
    /// Offset once appended (for an in-flight record: the offset it will get is not known yet,
    /// and this is 0).
    pub offset: u64,
    /// Key index, or `None` for a null key.
    pub key: Option<u32>,
    pub send_ms: u64,
    pub append_ms: u64,
}

/// One partition's log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartitionView {
    pub partition: u32,
    pub log_start_offset: u64,
    pub log_end_offset: u64,
    /// The newest records, oldest first.
    pub tail: Vec<RecordView>,
}

/// One consumer group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupView {
    pub group_id: String,
    pub strategy: Strategy,
    /// The coordinator's state: Empty, PreparingRebalance, CompletingRebalance, Stable.
    pub state: GroupState,
    pub generation: u32,
    /// When the rebalance in progress started, if one is.
    pub rebalance_started_ms: Option<u64>,
    pub rebalances_total: u64,
    /// Records processed more than once.
    pub duplicates_total: u64,
    pub static_membership: bool,
    pub max_poll_records: u32,
    pub processing_time_ms: u32,
    pub processed_total: u64,
    pub members: Vec<MemberView>,
    /// The group's progress in each partition, indexed by partition.
    pub partitions: Vec<GroupPartitionView>,
    /// Lost, duplicated and exactly-once records, read off the group's output store.
    pub tallies: Tallies,
    pub sink_mode: SinkMode,
    pub manual_commit: ManualCommit,
    pub enable_auto_commit: bool,
    /// Records retention deleted before the group read them.
    pub lost_to_retention: u64,
    /// Records another application's `deleteRecords` call removed before the group read them.
    pub lost_to_deletion: u64,
    /// Records processed after one the producer sent later.
    pub out_of_produced_order: u64,
    /// Writes a fenced member's aborted transactions never made.
    pub aborted_total: u64,
    /// The newest effects in the output store, oldest first (at most the snapshot's tail
    /// length).
    pub recent_effects: Vec<Effect>,
    /// The dead-letter topic's name (empty: failed records are skipped) and its newest records.
    pub dead_letter_topic: String,
    /// Deliveries of a failing record before the error handler gives up.
    pub max_attempts: u32,
    pub recent_dead_letters: Vec<Effect>,
    /// Per partition, what the output store holds for the records around the group's marks.
    pub cells: Vec<SinkCells>,
}

/// What the output store holds for a partition's offsets `[from, from + writes.len())`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SinkCells {
    pub from: u64,
    /// Writes that reached the sink per offset, ignored ones included (capped at 255).
    pub writes: Vec<u8>,
    /// Effects per offset as the tallies count them (capped at 255): below `writes` where an
    /// idempotent or by-key store ignored a repeat.
    pub effects: Vec<u8>,
    /// Whether each offset went to the dead-letter topic.
    pub dead_lettered: Vec<bool>,
}

/// A group's progress in one partition.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GroupPartitionView {
    /// Index into the group's `members`.
    pub owner: Option<usize>,
    /// Next offset `poll()` returns.
    pub position: u64,
    /// Every record below this offset is processed.
    pub processed: u64,
    /// Where reading resumes after a crash.
    pub committed: u64,
    /// Log end offset minus processed offset.
    pub lag: u64,
    /// One past the highest offset anyone in the group has processed: with `processed`
    /// below it, a crash means re-reading; with `committed` above it, records skipped.
    pub high_water: u64,
    /// Records retention deleted before the group read them.
    pub lost_to_retention: u64,
    /// Where the group began reading this partition (records below were before its time).
    pub first_offset: u64,
    /// Below this the group has moved on: a record there with no effect never gets one.
    pub frontier: u64,
    /// A live owner holds `[processed, position)`: fetched, not lost, not yet written.
    pub held: bool,
    /// The position fell below the log start with `auto.offset.reset` = none.
    pub out_of_range: bool,
}

/// One member.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemberView {
    pub member_id: String,
    pub partitions: Vec<u32>,
    /// What it is doing, in one word.
    pub phase: MemberPhase,
    /// Whether the coordinator counts it in the group (a removed member may still be
    /// finishing its old batch).
    pub in_group: bool,
    /// The record in hand, if any.
    pub state: MemberState,
    pub processed_total: u64,
    /// Failed attempts at the record in hand (a failing record being retried).
    pub attempts: u32,
    /// Records fetched by the last poll and not yet processed.
    pub batch_remaining: u64,
    /// When the last non-empty poll happened.
    pub last_poll_ms: u64,
    /// What that poll returned: offsets `[from, to)` per partition.
    pub last_fetch: Vec<FetchView>,
}

/// Offsets `[from, to)` of one partition returned by a poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FetchView {
    pub partition: u32,
    pub from: u64,
    pub to: u64,
}

/// The record a member has in hand.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MemberState {
    /// Owns no partition in a stable group: more members than partitions.
    Idle,
    /// Not handling a record (see the member's phase for why).
    Waiting,
    /// Handling one record.
    Processing {
        partition: u32,
        offset: u64,
        key: Option<u32>,
        started_ms: u64,
        done_ms: u64,
    },
}

impl Snapshot {
    pub(crate) fn of(world: &World, tail_len: usize) -> Self {
        let partitions = world
            .topic
            .partitions
            .iter()
            .enumerate()
            .map(|(p, log)| {
                let end = log.log_end_offset();
                let from = end
                    .saturating_sub(tail_len as u64)
                    .max(log.log_start_offset());
                PartitionView {
                    partition: p as u32,
                    log_start_offset: log.log_start_offset(),
                    log_end_offset: end,
                    tail: (from..end)
                        .zip(log.range(from, end))
                        .map(|(offset, record)| record_view(offset, record))
                        .collect(),
                }
            })
            .collect();
        Self {
            at_ms: world.now_ms,
            topic_name: world.topic.name.clone(),
            producer: ProducerView {
                rate_per_s: world.scenario.producer.rate_per_s,
                key_count: world.scenario.producer.key_count,
                sent_total: world.producer.sent(),
                in_flight: world
                    .producer
                    .in_flight()
                    .map(|(partition, record)| InFlightView {
                        partition: *partition,
                        record: record_view(0, record),
                    })
                    .collect(),
            },
            partitions,
            groups: world
                .groups
                .iter()
                .map(|g| group_view(g, world, tail_len))
                .collect(),
        }
    }
}

fn record_view(offset: u64, record: &Record) -> RecordView {
    RecordView {
        offset,
        key: (record.key != NULL_KEY).then_some(record.key),
        send_ms: record.send_ms,
        append_ms: record.append_ms(),
    }
}

/// The sink's view of `tail_len` offsets of each partition around where the group is: its
/// processed and committed marks about three quarters along.
fn sink_cells(group: &Group, world: &World, tail_len: usize) -> Vec<SinkCells> {
    let sink = &group.sink;
    world
        .topic
        .partitions
        .iter()
        .enumerate()
        .map(|(p, log)| {
            // Keep the group's marks in view, with what it has done to their left.
            let progress = &group.partitions[p];
            let marks = progress.processed.max(progress.committed);
            let end = log.log_end_offset().min(marks + tail_len as u64 / 4);
            let from = end.saturating_sub(tail_len as u64);
            SinkCells {
                from,
                writes: (from..end)
                    .map(|o| sink.partitions[p].writes_of(o).min(255) as u8)
                    .collect(),
                effects: (from..end)
                    .map(|o| sink.effects_of(p as u32, o).min(255) as u8)
                    .collect(),
                dead_lettered: (from..end)
                    .map(|o| sink.dead_letters[p].writes_of(o) > 0)
                    .collect(),
            }
        })
        .collect()
}

fn group_view(group: &Group, world: &World, tail_len: usize) -> GroupView {
    let members = group
        .members
        .iter()
        .enumerate()
        .map(|(m, member)| MemberView {
            member_id: member.id.to_string(),
            partitions: member.assigned.clone(),
            phase: group.member_phase(m),
            in_group: member.in_group,
            state: match member.activity {
                _ if group.member_phase(m) == MemberPhase::Idle => MemberState::Idle,
                Activity::Processing {
                    partition,
                    offset,
                    started_ms,
                    done_ms,
                } => MemberState::Processing {
                    partition,
                    offset,
                    key: world.topic.partitions[partition as usize]
                        .get(offset)
                        .and_then(|r| (r.key != NULL_KEY).then_some(r.key)),
                    started_ms,
                    done_ms,
                },
                Activity::Ready | Activity::Waiting { .. } => MemberState::Waiting,
            },
            processed_total: member.processed_total,
            attempts: member.attempts,
            batch_remaining: member.unprocessed_in_batch(),
            last_poll_ms: member.last_fetch_ms,
            last_fetch: member
                .batch
                .iter()
                .map(|r| FetchView {
                    partition: r.partition,
                    from: r.from,
                    to: r.to,
                })
                .collect(),
        })
        .collect();
    let partitions = group
        .partitions
        .iter()
        .zip(&world.topic.partitions)
        .enumerate()
        .map(|(p, (progress, log))| GroupPartitionView {
            frontier: group.frontier(p),
            held: group.held_by_live_owner(p),
            owner: progress.owner,
            position: progress.position,
            processed: progress.processed,
            committed: progress.committed,
            lag: log.log_end_offset() - progress.processed,
            high_water: progress.high_water,
            lost_to_retention: progress.lost_to_retention,
            first_offset: progress.first_offset,
            out_of_range: progress.out_of_range,
        })
        .collect();
    GroupView {
        group_id: group.config.group_id.clone(),
        strategy: group.strategy(),
        state: group.state,
        generation: group.generation,
        rebalance_started_ms: group.rebalance_started_ms(),
        rebalances_total: group.rebalances_total,
        duplicates_total: group.duplicates_total,
        static_membership: group.config.static_membership,
        max_poll_records: group.config.max_poll_records,
        processing_time_ms: group.config.processing.time_ms,
        processed_total: group.processed_total,
        members,
        partitions,
        tallies: group.tallies(),
        sink_mode: group.config.sink,
        manual_commit: group.config.manual_commit,
        enable_auto_commit: group.config.enable_auto_commit,
        lost_to_retention: group.lost_to_retention(),
        lost_to_deletion: group.lost_to_deletion(),
        out_of_produced_order: group.out_of_produced_order,
        aborted_total: group.aborted_total,
        recent_effects: group.sink.recent.newest(tail_len),
        dead_letter_topic: group.config.errors.dead_letter_topic.clone(),
        max_attempts: group.config.errors.max_attempts,
        recent_dead_letters: group.sink.recent_dead_letters.newest(tail_len),
        cells: sink_cells(group, world, tail_len),
    }
}
