//! The plain-data picture of one moment of a replication run, what the lesson draws: each
//! broker (up, crashed, cut off, slow, fenced), each partition's replicas with the newest
//! stretch of their logs (every record marked committed, above the high watermark, divergent
//! from the leader, or acknowledged and lost), the leader, the ISR and the high watermark, and
//! each `acks` lane's figures, samples and latency histogram for the charts.

use super::lane::{Lane, Partition, Sample};
use super::scenario::Acks;
use super::world::ReplicationWorld;
use serde::Serialize;

/// How many of the newest offsets a snapshot copies per replica.
pub const WINDOW_CELLS: u64 = 40;

/// One moment of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplicationSnapshot {
    pub now_ms: u64,
    /// The lane drawn: the scenario's `acks`.
    pub acks: Acks,
    pub min_insync_replicas: u32,
    pub brokers: Vec<BrokerPicture>,
    pub partitions: Vec<PartitionPicture>,
    /// Every lane, `acks=0`, `1`, `all`.
    pub lanes: Vec<LanePicture>,
    /// When some partition of the drawn lane had no leader, (from, to) in ms.
    pub offline_spans: Vec<(u64, u64)>,
}

/// One broker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BrokerPicture {
    /// From 1.
    pub id: u32,
    pub up: bool,
    pub isolated: bool,
    pub fenced: bool,
    pub slow_extra_ms: u64,
    /// Partitions the controller has it leading.
    pub leads: Vec<u32>,
}

/// What a replica is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplicaRole {
    Leader,
    Follower,
    /// Believes it leads, but the controller has elected another (it is cut off).
    DeposedLeader,
    /// Its broker is down.
    Down,
}

/// What one record in a replica's log is, against the partition's leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CellState {
    /// Below the high watermark: on every in-sync replica, readable.
    Committed,
    /// Above the high watermark: not yet on every in-sync replica, not readable.
    Uncommitted,
    /// Not what the leader holds at this offset: it will be cut off.
    Divergent,
    /// Divergent, and the producer was told it was written: acknowledged, then lost.
    Lost,
    /// A second copy of a record the leader's log already holds.
    Duplicate,
}

/// One record of a replica's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CellPicture {
    pub offset: u64,
    pub record: u32,
    /// The leader epoch that wrote it.
    pub epoch: u32,
    pub state: CellState,
}

/// One replica.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaPicture {
    /// Its broker, from 1.
    pub broker: u32,
    pub role: ReplicaRole,
    pub in_isr: bool,
    pub log_end: u64,
    pub high_watermark: u64,
    /// The records of the window it holds, oldest first.
    pub cells: Vec<CellPicture>,
}

/// One partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionPicture {
    pub id: u32,
    /// The controller's leader, by broker id.
    pub leader: Option<u32>,
    pub leader_epoch: u32,
    /// In-sync brokers, by id.
    pub isr: Vec<u32>,
    /// The leader's high watermark (the last leader's while offline).
    pub high_watermark: u64,
    pub consumer_position: u64,
    /// The offsets drawn, `window_from..window_to`.
    pub window_from: u64,
    pub window_to: u64,
    pub replicas: Vec<ReplicaPicture>,
}

/// One `acks` lane's numbers and series.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LanePicture {
    pub acks: Acks,
    pub idempotent: bool,
    pub sent: u64,
    pub acknowledged: u64,
    pub acknowledged_then_lost: u64,
    pub rejected_writes: u64,
    pub duplicates: u64,
    pub failed: u64,
    pub latency_p50_ms: u64,
    pub latency_p99_ms: u64,
    pub latency_max_ms: u64,
    pub samples: Vec<Sample>,
    /// (latency in ms, records acknowledged with it), by latency.
    pub latency_histogram: Vec<(u64, u64)>,
}

impl ReplicationWorld {
    /// The picture of this moment.
    pub fn snapshot(&self) -> ReplicationSnapshot {
        let lane = self.subject();
        ReplicationSnapshot {
            now_ms: self.now_ms(),
            acks: lane.acks,
            min_insync_replicas: self.scenario().topic.min_insync_replicas,
            brokers: brokers(lane),
            partitions: lane.partitions.iter().map(|p| partition(lane, p)).collect(),
            lanes: self.lanes().iter().map(lane_picture).collect(),
            offline_spans: lane
                .offline_spans
                .iter()
                .map(|&(from, to)| (from, to.unwrap_or(self.now_ms())))
                .collect(),
        }
    }
}

fn brokers(lane: &Lane) -> Vec<BrokerPicture> {
    lane.brokers
        .iter()
        .enumerate()
        .map(|(b, broker)| BrokerPicture {
            id: b as u32 + 1,
            up: broker.up,
            isolated: broker.isolated,
            fenced: broker.fenced,
            slow_extra_ms: broker.slow_extra_ms,
            leads: lane
                .partitions
                .iter()
                .filter(|p| p.leader.is_some_and(|l| p.reps[l].broker == b as u32))
                .map(|p| p.id)
                .collect(),
        })
        .collect()
}

/// Slots left after a divergent tail when the window shows it.
const AFTER_TAIL: u64 = 8;

/// The offsets to draw: the newest, unless a replica holds records the reference log does
/// not (a crashed or cut-off leader's unreplicated tail); then the window stays on that tail,
/// beside what the reference holds at the same offsets, until it is cut.
fn window(part: &Partition, reference: usize) -> (u64, u64) {
    let newest = part
        .reps
        .iter()
        .map(|r| r.log.end_offset())
        .max()
        .unwrap_or(0);
    let reference_log = &part.reps[reference].log;
    let divergent_end = part
        .reps
        .iter()
        .map(|r| &r.log)
        .filter(|log| {
            let end = log.end_offset();
            end > 0 && log.entry(end - 1) != reference_log.entry(end - 1)
        })
        .map(|log| log.end_offset())
        .max();
    let to = divergent_end.map_or(newest, |end| (end + AFTER_TAIL).min(newest));
    (to.saturating_sub(WINDOW_CELLS), to)
}

fn partition(lane: &Lane, part: &Partition) -> PartitionPicture {
    let reference = part.leader.unwrap_or(part.source);
    let (window_from, window_to) = window(part, reference);
    let hw = part.reps[reference].hw;
    let replicas = part
        .reps
        .iter()
        .enumerate()
        .map(|(r, rep)| {
            let role = if !lane.brokers[rep.broker as usize].up {
                ReplicaRole::Down
            } else if part.leader == Some(r) {
                ReplicaRole::Leader
            } else if rep.lead.is_some() {
                ReplicaRole::DeposedLeader
            } else {
                ReplicaRole::Follower
            };
            let cells = (window_from..rep.log.end_offset().min(window_to))
                .map(|offset| cell(lane, part, reference, hw, r, offset))
                .collect();
            ReplicaPicture {
                broker: rep.broker + 1,
                role,
                in_isr: part.isr.contains(&r),
                log_end: rep.log.end_offset(),
                high_watermark: rep.hw,
                cells,
            }
        })
        .collect();
    PartitionPicture {
        id: part.id,
        leader: part.leader.map(|l| part.reps[l].broker + 1),
        leader_epoch: part.epoch,
        isr: part.isr.iter().map(|&i| part.reps[i].broker + 1).collect(),
        high_watermark: hw,
        consumer_position: lane.consumer_positions[part.id as usize],
        window_from,
        window_to,
        replicas,
    }
}

fn cell(
    lane: &Lane,
    part: &Partition,
    reference: usize,
    hw: u64,
    r: usize,
    offset: u64,
) -> CellPicture {
    let entry = part.reps[r].log.entry(offset).expect("within the log");
    let agrees = r == reference || part.reps[reference].log.entry(offset) == Some(entry);
    let state = if !agrees {
        if lane.ledger.is_lost(entry.record) {
            CellState::Lost
        } else {
            CellState::Divergent
        }
    } else if lane.ledger.presence(entry.record) > 1 {
        CellState::Duplicate
    } else if offset < hw {
        CellState::Committed
    } else {
        CellState::Uncommitted
    };
    CellPicture {
        offset,
        record: entry.record,
        epoch: entry.epoch,
        state,
    }
}

fn lane_picture(lane: &Lane) -> LanePicture {
    let l = &lane.ledger;
    LanePicture {
        acks: lane.acks,
        idempotent: lane.idempotent,
        sent: lane.sent(),
        acknowledged: l.acknowledged,
        acknowledged_then_lost: l.acknowledged_then_lost,
        rejected_writes: lane.stats.not_enough_replicas
            + lane.stats.not_enough_replicas_after_append,
        duplicates: l.duplicates,
        failed: l.failed,
        latency_p50_ms: l.latency_percentile_ms(500),
        latency_p99_ms: l.latency_percentile_ms(990),
        latency_max_ms: l.latency_max_ms(),
        samples: lane.samples.clone(),
        latency_histogram: l.latency_histogram(),
    }
}
