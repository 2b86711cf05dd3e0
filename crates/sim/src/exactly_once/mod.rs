//! Exactly-once inside a processor, and where it stops: the family behind the "checkpoints"
//! and "effects" lessons.
//!
//! A keyed running count over a partitioned Kafka topic, run three ways on one seed and
//! failed at the same instants:
//!
//! * **Microbatches** (Spark Structured Streaming): a batch's offset range is logged before
//!   it runs; its state, offsets and output commit together when it ends; a failure runs the
//!   open batch again, over the same range, from the last committed state.
//! * **Checkpoint barriers** (Flink): at every `execution.checkpointing.interval` the sources
//!   inject barriers; the counter snapshots its state once the barriers of all its inputs
//!   have arrived (aligned: it holds back the inputs whose barrier came first), or at the first
//!   one, storing the records in flight (unaligned); a failure restores the last completed
//!   checkpoint and rewinds the sources to its offsets.
//! * **No checkpoints**: the state lives only in memory; after a failure it starts empty, at
//!   the offsets the Kafka consumer auto-committed or at the input's start.
//!
//! Each model's updates go to a sink: its own state only, a Kafka topic (in transactions per
//! checkpoint in Flink), an email, an idempotent webhook, or a database that stores the
//! input offsets in the same transaction. Inside the job, the microbatch and checkpoint models
//! are exactly once after every failure; outside it, an effect that cannot be taken back is
//! repeated for every record processed again, unless the receiver deduplicates or commits it
//! with the offsets. The zombie comparison pauses an instance until the JobManager replaces
//! it, then lets it run again: without fencing its writes land over newer counts.
//!
//! # Pieces
//!
//! [`EosScenario`] (serde, validated against [`knobs::KNOBS`]) fixes everything; `records.rs`
//! draws the input and the crash instants; `channel.rs` is an input channel, `instance.rs`
//! one running streaming job, `checkpoints.rs` barriers, alignment and snapshots,
//! `streaming.rs` the checkpointing and checkpoint-free lanes, `zombie.rs` the pause and
//! replacement, `microbatch.rs` the Spark lane, `sink.rs` the sinks and the zombie's results
//! store, `tally.rs` what every lane counts; [`EosWorld`] (`world.rs`) runs them tick by
//! tick; [`events`] holds the typed events and their narration, `invariants.rs` what must
//! hold after every tick, `snapshot.rs` the picture, `simulation.rs` the family contract
//! and the figures, `presets.rs` the presets and lessons.
//!
//! # Determinism
//!
//! Integer milliseconds throughout; keys and random crash instants come from seeded PCG
//! streams (the crash gaps through `libm::log`); only `Vec`s and `VecDeque`s are iterated.
//!
//! # Simplifications
//!
//! [`SIMPLIFICATIONS`] lists where the model departs from Flink, Spark and Kafka; the
//! lessons show the list.

pub mod channel;
pub mod checkpoints;
pub mod events;
pub mod instance;
mod invariants;
pub mod knobs;
mod lane;
pub mod microbatch;
mod presets;
pub mod records;
mod scenario;
mod simulation;
pub mod sink;
mod snapshot;
pub mod streaming;
pub mod tally;
mod validate;
mod world;
mod zombie;

pub use events::{EosEvent, EosEventKind, Model, RestoreFrom};
pub use presets::{
    alignment_stall, checkpoint_restore_exactly_once_state, email_sent_twice, idempotent_effect,
    kafka_transactions, microbatch_vs_checkpoint, misconception_9, preset, zombie_fenced,
    zombie_without_fencing, Preset, LESSONS, PRESETS,
};
pub use scenario::{
    CheckpointSpec, CrashMode, CrashSpec, EosScenario, Fencing, InputSpec, Isolation,
    MicrobatchSpec, Mode, NoCheckpointSpec, RestartFrom, SinkKind, SinkSpec, SlowPartitionSpec,
    ZombieSpec, CHANNEL_CAPACITY, MAX_DURATION_MS, MAX_KEYS, MAX_PARTITIONS, MAX_RECORDS,
};
pub use snapshot::{
    BatchPicture, BusyPicture, ChannelPicture, DrawnElement, EosSnapshot, LanePicture, LaneStatus,
    PendingPicture, SinkPicture, TablePicture, TallyPicture, ZombiePicture,
};
pub use world::{EosWorld, LaneSample, SAMPLE_INTERVAL_MS};

/// Where the model is simpler than the systems it shows, in a learner's words.
pub const SIMPLIFICATIONS: &[&str] = &[
    "One operator chain: a source reader per partition feeding one keyed counter with \
     parallelism 1 (its sink chained to it). Real jobs run each operator in parallel, and a \
     barrier must align at every task that has several inputs; there is no rescaling.",
    "A slow input is a fixed extra time each of its records and barriers spends in flight. In \
     Flink it comes from backpressure or a busy task upstream, and an unaligned barrier \
     overtakes the buffered records (as here) but not a record being processed upstream.",
    "Each input channel holds at most 64 records (Flink counts network buffers of 32 KiB, \
     not records); a full channel stops its source.",
    "Checkpoints are triggered every interval from the job's (re)start; Flink picks a random \
     first delay. At most one is in progress, and a trigger that finds one runs as soon as it \
     completes (execution.checkpointing.min-pause is 0).",
    "A checkpoint's asynchronous phase takes a fixed time, and the JobManager's \
     notifyCheckpointComplete reaches the sink the moment the checkpoint completes, so the \
     Kafka transaction commits then; in Flink the notification comes a little later, and \
     the transaction is committed again after a restore if it was lost.",
    "An unaligned checkpoint is restored by replaying its stored in-flight records before the \
     sources resume; here that is the same as resuming the sources at the operator's \
     positions, because the records are still in the topic.",
    "A failure kills the whole job at once (Flink's failover region here is the whole \
     pipeline), and it restarts after a fixed delay (restart-strategy.type: fixed-delay); \
     since Flink 1.19 the default with checkpointing is exponential-delay, whose first \
     backoff is also 1 s.",
    "The microbatch job processes a batch's records one at a time in the order they were \
     written, on one core; Spark runs a task per partition in parallel. It restarts after \
     the same delay as the Flink jobs, which in practice depends on what restarts the \
     driver.",
    "The database sink stores each partition's next offset with every update (a microbatch: \
     the batch's updates in one transaction at its end), and skips an update whose offset is \
     below it; Spark's foreachBatch would store the batch id instead.",
    "Without checkpoints the Kafka consumer auto-commits the offsets its source has read (not \
     counted) every auto.commit.interval.ms; a restart from them skips what was read but not \
     counted.",
    "Zombie: the whole instance pauses (sources included) and, once it runs again, keeps \
     reading and writing until exactly heartbeat.interval later; every instance writes each \
     update to the results store at once.",
    "Time to count a record is the same for every record and every model; reading from \
     Kafka, snapshots' synchronous phase and commits take no time.",
];
