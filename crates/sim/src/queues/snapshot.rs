//! The plain-data picture of one moment of a queues run, what a lesson draws: each reader's
//! consumers and what they hold, the topic's partitions with the consumer group's committed
//! offsets, each share-partition's in-flight window (SPSO, SPEO and the records' states), the
//! queue's ready and unacknowledged messages, each backpressure or direct lane with its
//! buffers and losses, and the Kinesis shards.
//!
//! The sampled series the charts plot are not part of it: the browser takes a snapshot on
//! every frame, and copying every sample since the start (up to 3 600 per reader or lane at
//! the end of an hour) made each frame's cost grow with the run. The charts read them off the
//! world ([`QueuesWorld::reader_samples`], [`QueuesWorld::pipes`], [`QueuesWorld::kinesis`])
//! when they are redrawn.

use super::events::{PipeKind, Reader};
use super::scenario::Mode;
use super::share_partition::RecordState;
use super::world::{LateReading, QueuesWorld};
use serde::Serialize;

/// How many records of a share-partition's window, or of the queue's head, a snapshot copies.
pub const DRAWN_RECORDS: usize = 200;

/// One moment of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueuesSnapshot {
    pub now_ms: u64,
    pub mode: Mode,
    /// Records the producer meant to send by now.
    pub offered: u64,
    pub readers: Vec<ReaderPicture>,
    pub partitions: Vec<PartitionPicture>,
    pub share_partitions: Vec<SharePartitionPicture>,
    pub queue: Option<QueuePicture>,
    pub pipes: Vec<PipePicture>,
    pub kinesis: Option<KinesisPicture>,
    pub late_reading: Option<LateReading>,
    /// Keys that moved partition when partitions were added.
    pub keys_moved: Option<u32>,
}

/// One reader at this moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReaderPicture {
    pub reader: Reader,
    pub consumers: Vec<ConsumerPicture>,
    pub completed: u64,
    pub backlog: u64,
    pub order_inversions: u64,
    pub redelivered: u64,
}

/// One consumer of a reader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConsumerPicture {
    pub id: u32,
    pub alive: bool,
    /// In the group (for the queue: consuming).
    pub in_group: bool,
    /// The partitions assigned to it (empty for the queue).
    pub partitions: Vec<u32>,
    /// Records it holds: the one it processes, acquired ones, unacknowledged deliveries.
    pub holding: u32,
    /// The record it is processing, by sequence number.
    pub working_on: Option<u32>,
}

/// One partition of the topic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionPicture {
    pub partition: u32,
    pub log_end: u64,
    /// The consumer group's committed offset.
    pub committed: Option<u64>,
    /// The consumer group member that owns it.
    pub owner: Option<u32>,
}

/// One share-partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SharePartitionPicture {
    pub partition: u32,
    pub spso: u64,
    pub speo: u64,
    pub acquired: u64,
    pub available: u64,
    pub acknowledged: u64,
    pub archived: u64,
    /// The first [`DRAWN_RECORDS`] records of the window, from the SPSO.
    pub window: Vec<RecordState>,
}

/// The queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueuePicture {
    pub ready: u64,
    /// The first [`DRAWN_RECORDS`] ready messages, head first.
    pub ready_head: Vec<u32>,
    pub unacked: Vec<u64>,
    pub acked: u64,
    pub dead_lettered: u64,
}

/// One lane of the backpressure or direct comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PipePicture {
    pub lane: PipeKind,
    pub consumer_up: bool,
    pub sent: u64,
    pub processed: u64,
    pub in_memory: u64,
    pub on_disk: u64,
    pub dropped: u64,
    pub lost_on_crash: u64,
    pub lost_while_down: u64,
    pub lost_to_retention: u64,
    pub producer_blocked_ms: u64,
}

/// The Kinesis stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KinesisPicture {
    pub accepted: Vec<u64>,
    pub throttled: Vec<u64>,
}

impl QueuesWorld {
    /// The picture of this moment.
    pub fn snapshot(&self) -> QueuesSnapshot {
        let arrived = self.arrived();
        let mut readers = Vec::new();
        if let Some(group) = &self.consumer_group {
            readers.push(ReaderPicture {
                reader: Reader::ConsumerGroup,
                consumers: group
                    .members
                    .iter()
                    .enumerate()
                    .map(|(id, m)| ConsumerPicture {
                        id: id as u32,
                        alive: m.alive,
                        in_group: m.in_group,
                        partitions: m.partitions.clone(),
                        holding: u32::from(m.work.is_some()),
                        working_on: m.work.map(|w| w.seq),
                    })
                    .collect(),
                completed: group.order.completed_count,
                backlog: group.backlog(arrived),
                order_inversions: group.order.inversions,
                redelivered: group.redelivered,
            });
        }
        if let Some(group) = &self.share_group {
            let held = group.holdings();
            readers.push(ReaderPicture {
                reader: Reader::ShareGroup,
                consumers: group
                    .members
                    .iter()
                    .enumerate()
                    .map(|(id, m)| ConsumerPicture {
                        id: id as u32,
                        alive: m.alive,
                        in_group: m.in_group,
                        partitions: m.partitions.clone(),
                        holding: held[id],
                        working_on: m
                            .work
                            .map(|(a, _)| self.logs()[a.partition as usize][a.offset as usize]),
                    })
                    .collect(),
                completed: group.order.completed_count,
                backlog: group.backlog(arrived),
                order_inversions: group.order.inversions,
                redelivered: group.redelivered,
            });
        }
        if let Some(queue) = &self.queue {
            readers.push(ReaderPicture {
                reader: Reader::Queue,
                consumers: queue
                    .consumers
                    .iter()
                    .enumerate()
                    .map(|(id, c)| ConsumerPicture {
                        id: id as u32,
                        alive: c.alive,
                        in_group: c.alive,
                        partitions: Vec::new(),
                        holding: c.unacked.len() as u32,
                        working_on: c.done_ms.and(c.unacked.front().map(|d| d.seq)),
                    })
                    .collect(),
                completed: queue.order.completed_count,
                backlog: queue.backlog(arrived),
                order_inversions: queue.order.inversions,
                redelivered: queue.redelivered,
            });
        }
        let group = self.consumer_group.as_ref();
        QueuesSnapshot {
            now_ms: self.now_ms(),
            mode: self.scenario().mode,
            offered: self.offered(),
            readers,
            partitions: self
                .logs()
                .iter()
                .enumerate()
                .map(|(p, log)| {
                    let owned = group.and_then(|g| g.partitions.get(p));
                    PartitionPicture {
                        partition: p as u32,
                        log_end: log.len() as u64,
                        committed: owned.map(|o| o.committed),
                        owner: owned.and_then(|o| o.owner),
                    }
                })
                .collect(),
            share_partitions: self
                .share_group
                .iter()
                .flat_map(|g| &g.partitions)
                .map(|p| SharePartitionPicture {
                    partition: p.partition,
                    spso: p.spso,
                    speo: p.speo(),
                    acquired: p.acquired,
                    available: p.available(),
                    acknowledged: p.acknowledged,
                    archived: p.archived,
                    window: p.window_states(DRAWN_RECORDS),
                })
                .collect(),
            queue: self.queue.as_ref().map(|q| QueuePicture {
                ready: q.ready.len() as u64,
                ready_head: q.ready.iter().take(DRAWN_RECORDS).copied().collect(),
                unacked: q.consumers.iter().map(|c| c.unacked.len() as u64).collect(),
                acked: q.acked,
                dead_lettered: q.dead_lettered,
            }),
            pipes: self
                .pipes
                .iter()
                .map(|p| PipePicture {
                    lane: p.kind,
                    consumer_up: p.consumer_up,
                    sent: p.sent,
                    processed: p.processed,
                    in_memory: p.memory.len() as u64,
                    on_disk: p.disk.len() as u64,
                    dropped: p.dropped,
                    lost_on_crash: p.lost_on_crash,
                    lost_while_down: p.lost_while_down,
                    lost_to_retention: p.lost_to_retention,
                    producer_blocked_ms: p.blocked_ms(self.now_ms()),
                })
                .collect(),
            kinesis: self.kinesis.as_ref().map(|k| KinesisPicture {
                accepted: k.shards.iter().map(|s| s.accepted).collect(),
                throttled: k.shards.iter().map(|s| s.throttled).collect(),
            }),
            late_reading: self.late_reading(),
            keys_moved: self.keys_moved(),
        }
    }
}
