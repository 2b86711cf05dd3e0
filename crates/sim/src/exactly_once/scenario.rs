//! The exactly-once scenario: one keyed running count over a partitioned topic, and how its
//! job survives failures. A `mode` picks the comparison: the three recovery models side by
//! side on one seed (microbatches, checkpoint barriers, no checkpoints), crashed at the same
//! instants, each writing to the chosen sink; or one checkpointed job whose instance pauses,
//! is replaced, and comes back as a zombie. Each field names its unit and, where one exists,
//! the real system's setting; the knob table (`knobs.rs`) holds the ranges.

use serde::{Deserialize, Serialize};

/// Most records one run may produce, so a run stays cheap to rebuild on every knob change.
pub const MAX_RECORDS: u64 = 100_000;
/// Longest run: ten minutes of simulated time.
pub const MAX_DURATION_MS: u64 = 600_000;
pub const MAX_PARTITIONS: u32 = 8;
pub const MAX_KEYS: u32 = 16;
/// Records one input channel holds in flight before its source must wait (Flink's network
/// buffers between two tasks; a full channel is what backpressure is).
pub const CHANNEL_CAPACITY: usize = 64;
/// Most crashes one run draws when crashes are random.
pub const MAX_CRASHES: usize = 32;

/// A complete, reproducible description of one run of the exactly-once family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EosScenario {
    /// Seed of every draw: the records' keys and random crash times.
    pub seed: u64,
    pub mode: Mode,
    /// How long the producer writes, in ms; the run ends then.
    pub duration_ms: u64,
    pub input: InputSpec,
    /// Time the counting operator spends on one record, in ms.
    pub processing_ms: u64,
    pub checkpoint: CheckpointSpec,
    pub microbatch: MicrobatchSpec,
    pub no_checkpoint: NoCheckpointSpec,
    pub slow_partition: SlowPartitionSpec,
    pub crash: CrashSpec,
    pub sink: SinkSpec,
    pub zombie: ZombieSpec,
}

impl Default for EosScenario {
    fn default() -> Self {
        Self {
            seed: 1,
            mode: Mode::Recovery,
            duration_ms: 60_000,
            input: InputSpec::default(),
            processing_ms: 2,
            checkpoint: CheckpointSpec::default(),
            microbatch: MicrobatchSpec::default(),
            no_checkpoint: NoCheckpointSpec::default(),
            slow_partition: SlowPartitionSpec::default(),
            crash: CrashSpec::default(),
            sink: SinkSpec::default(),
            zombie: ZombieSpec::default(),
        }
    }
}

impl EosScenario {
    /// Records the producer sends in the whole run.
    pub fn record_count(&self) -> u64 {
        self.duration_ms * u64::from(self.input.records_per_second) / 1000
    }

    /// The extra time an element of `partition`'s channel spends in flight.
    pub fn channel_delay_ms(&self, partition: u32) -> u64 {
        let slow = &self.slow_partition;
        if slow.enabled && slow.partition == partition {
            slow.delay_ms
        } else {
            0
        }
    }
}

/// Which comparison a run shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The three recovery models side by side, crashed at the same instants.
    #[default]
    Recovery,
    /// One checkpointed job whose instance pauses, is replaced and resumes as a zombie.
    Zombie,
}

/// The input topic and its producer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InputSpec {
    /// Partitions of the input topic; one source reader and one input channel each.
    pub partitions: u32,
    /// Distinct keys, `key-0` … `key-{n-1}`, partitioned by Kafka's murmur2.
    pub keys: u32,
    /// Records per second the producer writes, evenly spaced.
    pub records_per_second: u32,
}

impl Default for InputSpec {
    fn default() -> Self {
        Self {
            partitions: 4,
            keys: 8,
            records_per_second: 100,
        }
    }
}

/// Flink's checkpoints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CheckpointSpec {
    /// `execution.checkpointing.interval`: how often barriers are injected into the sources.
    pub interval_ms: u64,
    /// `execution.checkpointing.unaligned.enabled`: barriers overtake the records in flight,
    /// which are stored with the checkpoint instead of waited for.
    pub unaligned: bool,
    /// How long the asynchronous part of a snapshot (writing the state to durable storage)
    /// takes; a checkpoint counts only once it is complete.
    pub upload_ms: u64,
}

impl Default for CheckpointSpec {
    fn default() -> Self {
        Self {
            interval_ms: 5_000,
            unaligned: false,
            upload_ms: 200,
        }
    }
}

/// Spark Structured Streaming's microbatches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MicrobatchSpec {
    /// `trigger(processingTime=...)`: a batch starts at every multiple of this (or as soon as
    /// the previous one ends, if that is later); 0 is Spark's default trigger, a batch as soon
    /// as the previous one ends.
    pub trigger_ms: u64,
}

impl Default for MicrobatchSpec {
    fn default() -> Self {
        Self { trigger_ms: 3_000 }
    }
}

/// The job without checkpoints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NoCheckpointSpec {
    /// Where its sources start again after a restart.
    pub restart_from: RestartFrom,
    /// Kafka's `auto.commit.interval.ms`: how often the consumer commits the offsets it has
    /// read, which is all a job without checkpoints leaves behind.
    pub auto_commit_interval_ms: u64,
}

impl Default for NoCheckpointSpec {
    fn default() -> Self {
        Self {
            restart_from: RestartFrom::CommittedOffsets,
            auto_commit_interval_ms: 5_000,
        }
    }
}

/// Where a job without checkpoints reads again after a restart; its state starts empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestartFrom {
    /// The offsets the Kafka consumer last auto-committed.
    #[default]
    CommittedOffsets,
    /// The start of the input.
    Earliest,
}

/// One input partition whose records and barriers take longer to reach the operator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SlowPartitionSpec {
    pub enabled: bool,
    /// Which partition (from 0).
    pub partition: u32,
    /// Extra time each element of its channel spends in flight, in ms.
    pub delay_ms: u64,
}

impl Default for SlowPartitionSpec {
    fn default() -> Self {
        Self {
            enabled: false,
            partition: 2,
            delay_ms: 1_500,
        }
    }
}

/// When the job fails (every model at the same instants), and how long a restart takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrashSpec {
    pub mode: CrashMode,
    /// The crash instant, with `mode = at`.
    pub at_ms: u64,
    /// Mean time between crashes, with `mode = random` (exponential gaps from the seed).
    pub mean_interval_ms: u64,
    /// `restart-strategy.fixed-delay.delay`: how long after a failure the job runs again.
    pub restart_delay_ms: u64,
}

impl Default for CrashSpec {
    fn default() -> Self {
        Self {
            mode: CrashMode::At,
            at_ms: 24_300,
            mean_interval_ms: 20_000,
            restart_delay_ms: 1_000,
        }
    }
}

/// How crashes are scheduled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrashMode {
    None,
    /// One crash at `at_ms`.
    #[default]
    At,
    /// Crashes drawn from the seed, `mean_interval_ms` apart on average.
    Random,
}

/// Where the job's output goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SinkSpec {
    pub kind: SinkKind,
    /// `isolation.level` of the readers of the Kafka sink.
    pub isolation_level: Isolation,
}

impl Default for SinkSpec {
    fn default() -> Self {
        Self {
            kind: SinkKind::State,
            isolation_level: Isolation::ReadCommitted,
        }
    }
}

/// A sink: inside the framework (its own state), or outside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SinkKind {
    /// Nothing leaves the job: the answer is its state.
    #[default]
    State,
    /// A Kafka topic: in transactions committed with each checkpoint (Flink's KafkaSink with
    /// `DeliveryGuarantee.EXACTLY_ONCE`); Spark's Kafka sink and a job without checkpoints
    /// write plainly.
    Kafka,
    /// An external call per update (an email, a webhook), never taken back.
    Email,
    /// The same call with an idempotency key (the input record's partition and offset) the
    /// receiver deduplicates on.
    Idempotent,
    /// A database table written in transactions that also store the input offsets (per
    /// microbatch, the batch's); a replayed record's offset is already there, so it is skipped.
    Database,
}

/// Which records a reader of the Kafka sink sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Isolation {
    /// Only committed transactions (and plain writes).
    #[default]
    ReadCommitted,
    /// Everything written, aborted transactions included (Kafka's consumer default).
    ReadUncommitted,
}

/// An instance that stops without dying, is replaced, and comes back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ZombieSpec {
    /// When the instance stops answering (a long garbage-collection pause, a network
    /// partition), in ms.
    pub pause_at_ms: u64,
    /// How long it stays stopped.
    pub pause_ms: u64,
    /// `heartbeat.timeout`: how long the JobManager waits for a heartbeat before it declares
    /// the instance lost and restarts the job elsewhere.
    pub heartbeat_timeout_ms: u64,
    /// `heartbeat.interval`: once it runs again, the old instance learns at its next
    /// heartbeat that it was replaced, and stops.
    pub heartbeat_interval_ms: u64,
    pub fencing: Fencing,
}

impl Default for ZombieSpec {
    fn default() -> Self {
        Self {
            pause_at_ms: 15_000,
            pause_ms: 20_000,
            heartbeat_timeout_ms: 10_000,
            heartbeat_interval_ms: 10_000,
            fencing: Fencing::None,
        }
    }
}

/// How the results store tells an old instance from its replacement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fencing {
    /// It does not: every write lands.
    #[default]
    None,
    /// Each write carries its instance's epoch; the store keeps the newest epoch it has seen
    /// and refuses older ones (a fencing token).
    Epoch,
    /// The writes go through a Kafka producer with one fixed `transactional.id`: the
    /// replacement's `initTransactions()` bumps the producer epoch, and the old producer's
    /// next request fails with `ProducerFencedException`.
    #[serde(rename = "transactional_id")]
    TransactionalId,
}
