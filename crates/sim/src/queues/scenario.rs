//! The queues-and-logs scenario: every knob of the family as one plain serde struct. A
//! `mode` picks which comparison runs on the one seed: the three readers of one topic, the
//! answers to a producer that is faster than its consumer, direct delivery next to a broker,
//! a topic that gains partitions while it is read, or a Kinesis stream at its shard limits.
//! Each field names its unit and, where one exists, the real system's setting; the knob
//! table (`knobs.rs`) holds the ranges and validation reads them there.

use serde::{Deserialize, Serialize};

/// Most records one run may produce (`duration_ms · records_per_second / 1000`), so a run
/// stays cheap enough to rebuild on every knob change in a browser.
pub const MAX_RECORDS: u64 = 200_000;

/// Longest run: one hour of simulated time.
pub const MAX_DURATION_MS: u64 = 3_600_000;

/// Most consumers a reader may have, and most partitions or shards a topic or stream may have.
pub const MAX_CONSUMERS: u32 = 64;
pub const MAX_PARTITIONS: u32 = 64;

/// How often the charts' series are sampled, in ms of simulated time.
pub const SAMPLE_INTERVAL_MS: u64 = 1_000;

/// Kafka's default `retention.ms`: seven days.
pub const KAFKA_RETENTION_MS: u64 = 604_800_000;

/// A complete, reproducible description of one run of the queues family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QueuesScenario {
    /// Seed of every draw: record keys, processing times, failures. Any u64.
    pub seed: u64,
    /// Which comparison runs.
    pub mode: Mode,
    /// How long the producer produces, in ms; the run ends then.
    pub duration_ms: u64,
    pub producer: ProducerSpec,
    pub topic: TopicSpec,
    /// Consumers of each reader (the readers and partitions modes): members of the consumer
    /// group, members of the share group, consumers of the queue. More than the partitions
    /// is allowed: that is the point of the comparison.
    pub consumers: u32,
    pub processing: ProcessingSpec,
    pub crash: CrashSpec,
    /// Kafka `session.timeout.ms` for the consumer group (`group.share.session.timeout.ms`
    /// for the share group): how long after a member dies the coordinator removes it and
    /// hands its partitions to others. Both default to 45 s.
    pub session_timeout_ms: u64,
    pub share: ShareGroupSpec,
    pub queue: QueueSpec,
    pub late_reader: LateReaderSpec,
    pub backpressure: BackpressureSpec,
    pub repartition: RepartitionSpec,
    pub kinesis: KinesisSpec,
}

impl Default for QueuesScenario {
    fn default() -> Self {
        Self {
            seed: 1,
            mode: Mode::Readers,
            duration_ms: 60_000,
            producer: ProducerSpec::default(),
            topic: TopicSpec::default(),
            consumers: 6,
            processing: ProcessingSpec::default(),
            crash: CrashSpec::default(),
            session_timeout_ms: 45_000,
            share: ShareGroupSpec::default(),
            queue: QueueSpec::default(),
            late_reader: LateReaderSpec::default(),
            backpressure: BackpressureSpec::default(),
            repartition: RepartitionSpec::default(),
            kinesis: KinesisSpec::default(),
        }
    }
}

/// Which comparison a run shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One topic read three ways, side by side: a consumer group, a share group and a
    /// classic queue broker.
    #[default]
    Readers,
    /// A producer faster than its consumer: drop, a memory buffer, block, and a log.
    Backpressure,
    /// Direct delivery (UDP- or webhook-style) next to a broker, with the consumer down for
    /// a while.
    Direct,
    /// A consumer group reading a topic that gains partitions while it is behind.
    Repartition,
    /// A producer writing to a Kinesis data stream's shards.
    Kinesis,
}

/// The producer: evenly spaced records with keys drawn uniformly from `keys`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProducerSpec {
    /// Records per second it sends (or, blocked, would like to send).
    pub records_per_second: u32,
    /// Distinct record keys, `key-0` … `key-{n-1}`; a key's partition is Kafka's murmur2
    /// of these bytes.
    pub keys: u32,
    /// Bytes per record; only Kinesis's 1 MiB-per-second shard limit reads it.
    pub record_bytes: u32,
}

impl Default for ProducerSpec {
    fn default() -> Self {
        Self {
            records_per_second: 200,
            keys: 16,
            record_bytes: 200,
        }
    }
}

/// The Kafka topic the log-based readers read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TopicSpec {
    /// Partitions (`--partitions` when the topic is created; the broker's `num.partitions`
    /// defaults to 1).
    pub partitions: u32,
    /// `retention.ms`: how long the log keeps a record, read or not (Kafka: seven days).
    pub retention_ms: u64,
}

impl Default for TopicSpec {
    fn default() -> Self {
        Self {
            partitions: 3,
            retention_ms: KAFKA_RETENTION_MS,
        }
    }
}

/// How long one record takes to process, and how often an attempt fails.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProcessingSpec {
    /// Mean processing time of one record, in ms.
    pub mean_ms: u64,
    /// Each attempt takes the mean plus or minus up to this much (uniform), in ms; at
    /// least 1 ms. A record's attempt takes the same time in every reader, so they compare.
    pub spread_ms: u64,
    /// Probability that one attempt fails (decided by the seed, the record and the attempt,
    /// the same in every reader): the consumer group retries in place, the share group
    /// releases or rejects the record, the queue consumer nacks it with requeue.
    pub failure_rate: f64,
}

impl Default for ProcessingSpec {
    fn default() -> Self {
        Self {
            mean_ms: 20,
            spread_ms: 10,
            failure_rate: 0.0,
        }
    }
}

/// One consumer's process dies at a scheduled time (in every reader or lane at once), and
/// may come back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrashSpec {
    pub enabled: bool,
    /// When it dies, in ms.
    pub at_ms: u64,
    /// Which consumer (0-based) of each reader dies; the backpressure and direct lanes have
    /// one consumer each.
    pub consumer: u32,
    /// How long until its process is back, in ms; 0 means it stays down.
    pub restart_after_ms: u64,
}

impl Default for CrashSpec {
    fn default() -> Self {
        Self {
            enabled: false,
            at_ms: 20_000,
            consumer: 0,
            restart_after_ms: 0,
        }
    }
}

/// A Kafka 4 share group (KIP-932) reading the topic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShareGroupSpec {
    /// `group.share.record.lock.duration.ms` (group-level `share.record.lock.duration.ms`):
    /// how long an acquired record stays locked to its consumer before it is Available again.
    pub record_lock_duration_ms: u64,
    /// `group.share.delivery.count.limit` (group-level `share.delivery.count.limit`): after
    /// this many deliveries a record that is released or whose lock runs out is Archived.
    pub delivery_count_limit: u32,
    /// `group.share.partition.max.record.locks`: at most this many records between the
    /// share-partition start offset (SPSO) and end offset (SPEO), so in flight.
    pub partition_max_record_locks: u32,
    /// `max.poll.records`: most records one poll acquires.
    pub max_poll_records: u32,
    /// How a consumer acknowledges a record whose processing failed.
    pub on_failure: ShareFailureAck,
}

impl Default for ShareGroupSpec {
    fn default() -> Self {
        Self {
            record_lock_duration_ms: 30_000,
            delivery_count_limit: 5,
            partition_max_record_locks: 2_000,
            max_poll_records: 500,
            on_failure: ShareFailureAck::Release,
        }
    }
}

/// `AcknowledgeType` a share consumer sends for a record it failed to process (a processed
/// record is always `ACCEPT`ed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShareFailureAck {
    /// `RELEASE`: Available again for another delivery, until the delivery count limit.
    #[default]
    Release,
    /// `REJECT`: Archived at once, never delivered again.
    Reject,
}

/// A classic queue broker in the AMQP 0-9-1 style, modelled on a RabbitMQ quorum queue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QueueSpec {
    /// `basic.qos` `prefetch_count`: most unacknowledged messages the broker pushes to one
    /// consumer; 0 means no limit (RabbitMQ's default when none is set).
    pub prefetch_count: u32,
    /// RabbitMQ `consumer_timeout`: a delivery left unacknowledged this long closes the
    /// consumer's channel and returns its messages (default 30 minutes).
    pub consumer_timeout_ms: u64,
    /// Quorum queue `x-delivery-limit`: a message returned more times than this is
    /// dead-lettered (RabbitMQ 4.0 and later default to 20).
    pub delivery_limit: u32,
}

impl Default for QueueSpec {
    fn default() -> Self {
        Self {
            prefetch_count: 10,
            consumer_timeout_ms: 1_800_000,
            delivery_limit: 20,
        }
    }
}

/// A new reader that arrives later and asks what it can still read from the past.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LateReaderSpec {
    pub enabled: bool,
    /// When it arrives, in ms.
    pub start_ms: u64,
}

impl Default for LateReaderSpec {
    fn default() -> Self {
        Self {
            enabled: false,
            start_ms: 30_000,
        }
    }
}

/// The buffers of the backpressure and direct lanes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BackpressureSpec {
    /// A small fixed buffer in the consumer's process, in records: what the drop and block
    /// lanes hold (a pipe's or a socket's buffer), and the direct lane's receive buffer.
    pub small_buffer_records: u32,
    /// The buffer lane's in-memory buffer, in records: large, but in the consumer's memory.
    pub memory_buffer_records: u32,
    /// Whether the buffer lane spills to disk when its memory is full (spilled records
    /// survive a crash); otherwise what does not fit is dropped.
    pub spill_to_disk: bool,
}

impl Default for BackpressureSpec {
    fn default() -> Self {
        Self {
            small_buffer_records: 100,
            memory_buffer_records: 100_000,
            spill_to_disk: false,
        }
    }
}

/// Partitions added to the live topic (`kafka-topics.sh --alter --partitions`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RepartitionSpec {
    /// When the partitions are added, in ms.
    pub at_ms: u64,
    /// The partition count afterwards; more than `topic.partitions` (Kafka never removes
    /// partitions).
    pub new_partitions: u32,
}

impl Default for RepartitionSpec {
    fn default() -> Self {
        Self {
            at_ms: 30_000,
            new_partitions: 6,
        }
    }
}

/// An Amazon Kinesis data stream in provisioned mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KinesisSpec {
    /// Shards (`ShardCount`); each takes at most 1,000 records and 1 MiB per second.
    pub shards: u32,
}

impl Default for KinesisSpec {
    fn default() -> Self {
        Self { shards: 2 }
    }
}

impl QueuesScenario {
    /// How many records the producer offers over the run.
    pub fn record_count(&self) -> u64 {
        self.duration_ms * u64::from(self.producer.records_per_second) / 1000
    }

    /// Whether the run's readers are the three readers of one topic.
    pub fn has_readers(&self) -> bool {
        self.mode == Mode::Readers
    }

    /// The partition count at `at_ms`: the topic's, or the larger count once partitions
    /// were added.
    pub fn partitions_at(&self, at_ms: u64) -> u32 {
        if self.mode == Mode::Repartition && at_ms >= self.repartition.at_ms {
            self.repartition.new_partitions
        } else {
            self.topic.partitions
        }
    }

    /// The most partitions the topic ever has in this run.
    pub fn max_partitions(&self) -> u32 {
        if self.mode == Mode::Repartition {
            self.repartition.new_partitions.max(self.topic.partitions)
        } else {
            self.topic.partitions
        }
    }
}
