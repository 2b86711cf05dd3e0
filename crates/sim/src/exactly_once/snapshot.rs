//! The plain-data picture of one moment of an exactly-once run, what a lesson draws: per
//! recovery model, where it is (running, restarting, paused), its state per key beside the
//! exact count, its positions and what a restart would go back to, its input channels with
//! the records and barriers in flight (each with the instants it left and arrives, so a
//! picture can move them smoothly), the checkpoint in progress and the last completed one,
//! the running microbatch, and its sink; in the zombie comparison, the old instance and the
//! results store.

use super::channel::Element;
use super::events::{Model, RestoreFrom};
use super::instance::{Instance, Status};
use super::microbatch::MicrobatchLane;
use super::records::Input;
use super::scenario::{EosScenario, Fencing, Isolation, Mode, SinkKind};
use super::sink::Sink;
use super::streaming::StreamingLane;
use super::tally::Tally;
use super::world::EosWorld;
use serde::Serialize;

/// One moment of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EosSnapshot {
    pub now_ms: u64,
    pub mode: Mode,
    pub sink: SinkKind,
    pub isolation: Isolation,
    pub keys: u32,
    /// Records written so far.
    pub produced: u64,
    /// Per partition, how many records it holds by now.
    pub log_ends: Vec<u32>,
    /// Per partition, its slow-input delay (0 for a normal one).
    pub delays_ms: Vec<u64>,
    pub crash_times: Vec<u64>,
    pub lanes: Vec<LanePicture>,
    pub table: Option<TablePicture>,
}

/// Whether a lane's job is doing work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum LaneStatus {
    Running,
    Restarting { at_ms: u64 },
    Paused { until_ms: u64 },
}

/// One recovery model at this moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LanePicture {
    pub model: Model,
    pub status: LaneStatus,
    pub epoch: u32,
    /// Per key, the count the job holds.
    pub state: Vec<u64>,
    /// Per key, the records before its positions: what the count should be.
    pub exact: Vec<u64>,
    /// Per partition, the next offset it counts.
    pub positions: Vec<u32>,
    /// Per partition, the next offset its sources read (a microbatch: its batch's end).
    pub read_positions: Vec<u32>,
    /// What a restart now would go back to.
    pub restore: RestoreFrom,
    pub restore_id: Option<u32>,
    pub restore_positions: Vec<u32>,
    pub restore_state: Vec<u64>,
    pub channels: Vec<ChannelPicture>,
    pub busy: Option<BusyPicture>,
    pub pending: Option<PendingPicture>,
    pub batch: Option<BatchPicture>,
    pub zombie: Option<ZombiePicture>,
    pub sink: SinkPicture,
    pub tally: TallyPicture,
    /// Completed checkpoints, or committed microbatches. Only their number: the snapshot is
    /// taken every frame, and the checkpoint history grows with the run.
    pub commits: u32,
}

/// An input channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChannelPicture {
    pub partition: u32,
    /// Held back until a checkpoint's barriers are aligned.
    pub blocked: bool,
    pub elements: Vec<DrawnElement>,
}

/// A record or a barrier in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DrawnElement {
    /// The record's key, or `None` for a barrier.
    pub key: Option<u32>,
    /// The record's offset, or the barrier's checkpoint.
    pub number: u32,
    pub emitted_at_ms: u64,
    pub arrives_at_ms: u64,
}

/// The record being counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BusyPicture {
    pub key: u32,
    pub partition: u32,
    pub offset: u32,
    pub started_at_ms: u64,
    pub done_at_ms: u64,
}

/// The checkpoint in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingPicture {
    pub id: u32,
    pub triggered_at_ms: u64,
    pub seen: Vec<bool>,
    pub first_barrier_ms: Option<u64>,
    pub snapshot_at_ms: Option<u64>,
    pub source_offsets: Vec<u32>,
}

/// The running microbatch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchPicture {
    pub id: u32,
    pub start: Vec<u32>,
    pub end: Vec<u32>,
    pub done: u64,
    pub total: u64,
    pub started_at_ms: u64,
    pub rerun: bool,
}

/// The replaced instance of the zombie comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZombiePicture {
    pub epoch: u32,
    /// Paused until, or working until its next heartbeat.
    pub paused: bool,
    pub until_ms: u64,
    pub positions: Vec<u32>,
    pub state: Vec<u64>,
}

/// What the outside saw of a lane's sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SinkPicture {
    pub sent: u64,
    pub effects: u64,
    pub duplicates: u64,
    pub deduplicated: u64,
    pub aborted: u64,
    /// Writes in the open transaction or batch.
    pub open: u64,
    /// Writes pre-committed, waiting for their checkpoint to complete.
    pub precommitted: u64,
    pub mean_delay_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TallyPicture {
    pub processed: u64,
    pub reprocessed_records: u64,
    pub skipped_records: u64,
    pub failures: u32,
    pub state_errors: u64,
}

/// The zombie comparison's results store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TablePicture {
    pub fencing: Fencing,
    pub values: Vec<u64>,
    pub written_by: Vec<u32>,
    pub newest_epoch: u32,
    pub writes: u64,
    pub stale_writes: u64,
    pub refused_writes: u64,
}

impl EosWorld {
    /// The picture of this moment.
    pub fn snapshot(&self) -> EosSnapshot {
        let s = self.scenario();
        let input = self.input();
        let mut lanes: Vec<LanePicture> = self
            .microbatch
            .iter()
            .map(|lane| microbatch_picture(lane, s.input.keys as usize))
            .collect();
        lanes.extend(
            self.streaming_lanes()
                .map(|lane| streaming_picture(lane, input, s)),
        );
        EosSnapshot {
            now_ms: self.now_ms(),
            mode: s.mode,
            sink: s.sink.kind,
            isolation: s.sink.isolation_level,
            keys: s.input.keys,
            produced: self.produced(),
            log_ends: input.log_ends(self.now_ms()),
            delays_ms: (0..s.input.partitions)
                .map(|p| s.channel_delay_ms(p))
                .collect(),
            crash_times: self.crash_times().to_vec(),
            lanes,
            table: self.checkpoint.table.as_ref().map(|t| TablePicture {
                fencing: s.zombie.fencing,
                values: t.values.clone(),
                written_by: t.written_by.clone(),
                newest_epoch: t.newest_epoch,
                writes: t.writes,
                stale_writes: t.stale_writes,
                refused_writes: t.refused_writes,
            }),
        }
    }
}

fn sink_picture(sink: &Sink) -> SinkPicture {
    let (open, precommitted) = sink.pending();
    SinkPicture {
        sent: sink.sent,
        effects: sink.effects,
        duplicates: sink.duplicates,
        deduplicated: sink.deduplicated,
        aborted: sink.aborted,
        open,
        precommitted,
        mean_delay_ms: sink.mean_delay_ms(),
    }
}

fn tally_picture(tally: &Tally) -> TallyPicture {
    TallyPicture {
        processed: tally.processed,
        reprocessed_records: tally.reprocessed_records,
        skipped_records: tally.skipped_records,
        failures: tally.failures,
        state_errors: tally.state_errors,
    }
}

fn microbatch_picture(lane: &MicrobatchLane, keys: usize) -> LanePicture {
    let batch = lane.batch.as_ref();
    LanePicture {
        model: Model::Microbatch,
        status: match lane.restart_at_ms {
            Some(at_ms) => LaneStatus::Restarting { at_ms },
            None => LaneStatus::Running,
        },
        epoch: lane.epoch,
        state: if lane.running {
            lane.state.clone()
        } else {
            vec![0; keys]
        },
        exact: lane.tally.exact.clone(),
        positions: lane.positions.clone(),
        read_positions: batch.map_or(lane.positions.clone(), |b| b.planned.end.clone()),
        restore: if lane.planned.is_some() {
            RestoreFrom::Batch
        } else {
            RestoreFrom::CommittedBatch
        },
        restore_id: lane.planned.as_ref().map(|p| p.id),
        restore_positions: lane.committed_offsets.clone(),
        restore_state: lane.committed_state.clone(),
        channels: Vec::new(),
        busy: None,
        pending: None,
        batch: batch.map(|b| BatchPicture {
            id: b.planned.id,
            start: b.planned.start.clone(),
            end: b.planned.end.clone(),
            done: b.done as u64,
            total: b.records.len() as u64,
            started_at_ms: b.started_at_ms,
            rerun: b.rerun,
        }),
        zombie: None,
        sink: sink_picture(&lane.sink),
        tally: tally_picture(&lane.tally),
        commits: lane.batches_committed,
    }
}

fn streaming_picture(lane: &StreamingLane, input: &Input, scenario: &EosScenario) -> LanePicture {
    let keys = lane.tally.exact.len();
    let current = lane.current.as_ref();
    let (restore, restore_id, restore_positions, restore_state) = lane.restore_point(scenario);
    LanePicture {
        model: lane.model,
        status: match (lane.restart_at_ms, current.map(|i| i.status)) {
            (Some(at_ms), _) => LaneStatus::Restarting { at_ms },
            (None, Some(Status::Paused { until_ms })) => LaneStatus::Paused { until_ms },
            _ => LaneStatus::Running,
        },
        epoch: current.map_or(lane.next_epoch, |i| i.epoch),
        state: current.map_or(vec![0; keys], |i| i.state.clone()),
        exact: lane.tally.exact.clone(),
        positions: current.map_or(restore_positions.clone(), |i| i.positions.clone()),
        read_positions: current.map_or(restore_positions.clone(), |i| i.source_positions.clone()),
        restore,
        restore_id,
        restore_positions,
        restore_state,
        channels: current.map_or(Vec::new(), |i| channel_pictures(i, input)),
        busy: current.and_then(|i| i.busy).map(|b| {
            let record = input.records[b.seq as usize];
            BusyPicture {
                key: record.key,
                partition: record.partition,
                offset: record.offset,
                started_at_ms: b.started_at_ms,
                done_at_ms: b.done_at_ms,
            }
        }),
        pending: lane.pending.as_ref().map(|p| PendingPicture {
            id: p.id,
            triggered_at_ms: p.triggered_at_ms,
            seen: p.seen.clone(),
            first_barrier_ms: p.first_barrier_ms,
            snapshot_at_ms: p.snapshot.as_ref().map(|s| s.at_ms),
            source_offsets: p.source_offsets.clone(),
        }),
        batch: None,
        zombie: lane.zombie.as_ref().map(|z| {
            let (paused, until_ms) = match z.status {
                Status::Paused { until_ms } => (true, until_ms),
                Status::Zombie { stops_at_ms } => (false, stops_at_ms),
                Status::Running => (false, 0),
            };
            ZombiePicture {
                epoch: z.epoch,
                paused,
                until_ms,
                positions: z.positions.clone(),
                state: z.state.clone(),
            }
        }),
        sink: sink_picture(&lane.sink),
        tally: tally_picture(&lane.tally),
        commits: lane.history.len() as u32,
    }
}

fn channel_pictures(instance: &Instance, input: &Input) -> Vec<ChannelPicture> {
    instance
        .channels
        .iter()
        .enumerate()
        .map(|(p, channel)| ChannelPicture {
            partition: p as u32,
            blocked: instance.blocked[p],
            elements: channel
                .elements()
                .map(|f| {
                    let (key, number) = match f.element {
                        Element::Record { seq } => {
                            let r = input.records[seq as usize];
                            (Some(r.key), r.offset)
                        }
                        Element::Barrier { checkpoint } => (None, checkpoint),
                    };
                    DrawnElement {
                        key,
                        number,
                        emitted_at_ms: f.emitted_at_ms,
                        arrives_at_ms: f.arrives_at_ms,
                    }
                })
                .collect(),
        })
        .collect()
}
