//! The exactly-once family's knob table: every knob of an [`EosScenario`], written once, with
//! Flink's, Spark's and Kafka's names, unit, range, step and hint. Validation, the browser's
//! controls, the real-config panel and the docs read it.
//!
//! Setters keep a scenario runnable where one knob limits another: the slow partition is one
//! of the partitions, the heartbeat interval stays below the timeout, and the rate and the
//! length stop at what a run may hold ([`MAX_RECORDS`]). A crash or a pause timed after the
//! run's end simply never happens.

use super::scenario::{
    CrashMode, EosScenario, Fencing, Isolation, Mode, RestartFrom, SinkKind, MAX_DURATION_MS,
    MAX_KEYS, MAX_PARTITIONS, MAX_RECORDS,
};
use crate::family::knob::{
    number, options, real_number, set_choice, Bounds, Choice, Control, Knob, NumberControl,
    RunBudget,
};

/// Section headings, in the order a panel shows them.
pub mod section {
    pub const SINK: &str = "Sink";
    pub const CHECKPOINTS: &str = "Checkpoints (Flink)";
    pub const MICROBATCHES: &str = "Microbatches (Spark)";
    pub const NO_CHECKPOINTS: &str = "No checkpoints";
    pub const CRASHES: &str = "Crashes";
    pub const SLOW: &str = "Slow input partition";
    pub const ZOMBIE: &str = "Zombie and fencing";
    pub const INPUT: &str = "Input";
    pub const RUN: &str = "Run";
}

const MS: &str = "ms";
const RUN_MS: f64 = MAX_DURATION_MS as f64;

/// A time knob in ms whose slider stops at two minutes (the box takes up to `max_ms`), with
/// the real system's default where it differs from the lesson's.
const fn millis(
    min_ms: f64,
    max_ms: f64,
    config_default: Option<f64>,
    get: fn(&EosScenario) -> f64,
    set: fn(&mut EosScenario, f64),
) -> Control<EosScenario> {
    real_number(
        Bounds::new(min_ms, max_ms, MS),
        100.0,
        Some(120_000.0),
        config_default,
        get,
        set,
    )
}

/// Every knob of the family.
pub const KNOBS: &[Knob<EosScenario>] = &[
    Knob {
        field: "sink.kind",
        label: "Sink",
        config_name: None,
        hint: "Where each count update goes: only the job's state, a Kafka topic, an email, an \
               idempotent webhook, or a database that stores the offsets too.",
        section: section::SINK,
        control: Control::Choice {
            options: options::<SinkKind>,
            get: |s| s.sink.kind.value(),
            set: |s, v| set_choice(&mut s.sink.kind, v),
        },
    },
    Knob {
        field: "sink.isolation_level",
        label: "Readers of the Kafka sink",
        config_name: Some("isolation.level"),
        hint: "read_committed readers skip aborted transactions; read_uncommitted (Kafka's \
               consumer default) see everything written.",
        section: section::SINK,
        control: Control::Choice {
            options: options::<Isolation>,
            get: |s| s.sink.isolation_level.value(),
            set: |s, v| set_choice(&mut s.sink.isolation_level, v),
        },
    },
    Knob {
        field: "checkpoint.interval_ms",
        label: "Checkpoint interval",
        config_name: Some("execution.checkpointing.interval"),
        hint: "How often the sources inject barriers; Flink checkpoints nothing unless it is \
               set.",
        section: section::CHECKPOINTS,
        control: millis(
            500.0,
            RUN_MS,
            None,
            |s| s.checkpoint.interval_ms as f64,
            |s, v| s.checkpoint.interval_ms = v as u64,
        ),
    },
    Knob {
        field: "checkpoint.unaligned",
        label: "Unaligned checkpoints",
        config_name: Some("execution.checkpointing.unaligned.enabled"),
        hint: "Barriers overtake the records in flight, which are stored with the checkpoint, \
               so no input waits (before Flink 1.20: execution.checkpointing.unaligned).",
        section: section::CHECKPOINTS,
        control: Control::Toggle {
            get: |s| s.checkpoint.unaligned,
            set: |s, v| s.checkpoint.unaligned = v,
        },
    },
    Knob {
        field: "checkpoint.upload_ms",
        label: "Snapshot upload",
        config_name: None,
        hint: "The asynchronous part of a snapshot: writing the state to durable storage. A \
               checkpoint counts only once this is done.",
        section: section::CHECKPOINTS,
        control: number(
            Bounds::new(0.0, 30_000.0, MS),
            50.0,
            None,
            |s| s.checkpoint.upload_ms as f64,
            |s, v| s.checkpoint.upload_ms = v as u64,
        ),
    },
    Knob {
        field: "microbatch.trigger_ms",
        label: "Trigger",
        config_name: Some("trigger(processingTime=...)"),
        hint: "A microbatch starts at every multiple of this, or as soon as the previous one \
               ends if that is later; 0 is Spark's default (one batch after another).",
        section: section::MICROBATCHES,
        control: millis(
            0.0,
            RUN_MS,
            Some(0.0),
            |s| s.microbatch.trigger_ms as f64,
            |s, v| s.microbatch.trigger_ms = v as u64,
        ),
    },
    Knob {
        field: "no_checkpoint.restart_from",
        label: "Restart from",
        config_name: Some("setStartingOffsets(OffsetsInitializer...)"),
        hint: "Without checkpoints the state starts empty; the sources start again at the \
               auto-committed offsets, or at the input's start.",
        section: section::NO_CHECKPOINTS,
        control: Control::Choice {
            options: options::<RestartFrom>,
            get: |s| s.no_checkpoint.restart_from.value(),
            set: |s, v| set_choice(&mut s.no_checkpoint.restart_from, v),
        },
    },
    Knob {
        field: "no_checkpoint.auto_commit_interval_ms",
        label: "Auto-commit interval",
        config_name: Some("auto.commit.interval.ms"),
        hint: "How often the Kafka consumer commits the offsets it has read (with \
               enable.auto.commit, which a job without checkpoints relies on).",
        section: section::NO_CHECKPOINTS,
        control: millis(
            100.0,
            RUN_MS,
            None,
            |s| s.no_checkpoint.auto_commit_interval_ms as f64,
            |s, v| s.no_checkpoint.auto_commit_interval_ms = v as u64,
        ),
    },
    Knob {
        field: "crash.mode",
        label: "Crashes",
        config_name: None,
        hint: "None, one at the time below, or random ones drawn from the seed; every model \
               fails at the same instants.",
        section: section::CRASHES,
        control: Control::Choice {
            options: options::<CrashMode>,
            get: |s| s.crash.mode.value(),
            set: |s, v| set_choice(&mut s.crash.mode, v),
        },
    },
    Knob {
        field: "crash.at_ms",
        label: "Crash at",
        config_name: None,
        hint: "When the job fails (with one crash).",
        section: section::CRASHES,
        control: millis(
            0.0,
            RUN_MS,
            None,
            |s| s.crash.at_ms as f64,
            |s, v| s.crash.at_ms = v as u64,
        ),
    },
    Knob {
        field: "crash.mean_interval_ms",
        label: "Mean time between crashes",
        config_name: None,
        hint: "With random crashes: the average gap, drawn from the seed.",
        section: section::CRASHES,
        control: millis(
            1_000.0,
            RUN_MS,
            None,
            |s| s.crash.mean_interval_ms as f64,
            |s, v| s.crash.mean_interval_ms = v as u64,
        ),
    },
    Knob {
        field: "crash.restart_delay_ms",
        label: "Restart delay",
        config_name: Some("restart-strategy.fixed-delay.delay"),
        hint: "How long after a failure the job runs again (Flink's fixed-delay strategy; \
               exponential-delay also starts at 1 s).",
        section: section::CRASHES,
        control: millis(
            0.0,
            600_000.0,
            None,
            |s| s.crash.restart_delay_ms as f64,
            |s, v| s.crash.restart_delay_ms = v as u64,
        ),
    },
    Knob {
        field: "slow_partition.enabled",
        label: "Slow input",
        config_name: None,
        hint: "One input's records and barriers take longer to reach the counter (a congested \
               link, or a busy task upstream).",
        section: section::SLOW,
        control: Control::Toggle {
            get: |s| s.slow_partition.enabled,
            set: |s, v| s.slow_partition.enabled = v,
        },
    },
    Knob {
        field: "slow_partition.partition",
        label: "Which partition",
        config_name: None,
        hint: "The slow input (from 0).",
        section: section::SLOW,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, (MAX_PARTITIONS - 1) as f64, "partition"),
            step: 1.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| f64::from(s.input.partitions.saturating_sub(1))),
            get: |s| f64::from(s.slow_partition.partition),
            set: |s, v| {
                s.slow_partition.partition = (v as u32).min(s.input.partitions.saturating_sub(1))
            },
        }),
    },
    Knob {
        field: "slow_partition.delay_ms",
        label: "Extra delay",
        config_name: None,
        hint: "How much longer each of its elements is in flight; an aligned checkpoint waits \
               that long for its barrier.",
        section: section::SLOW,
        control: number(
            Bounds::new(0.0, 30_000.0, MS),
            100.0,
            None,
            |s| s.slow_partition.delay_ms as f64,
            |s, v| s.slow_partition.delay_ms = v as u64,
        ),
    },
    Knob {
        field: "zombie.pause_at_ms",
        label: "Pause at",
        config_name: None,
        hint: "When the instance stops answering without dying (a long GC pause, a network \
               partition).",
        section: section::ZOMBIE,
        control: millis(
            0.0,
            RUN_MS,
            None,
            |s| s.zombie.pause_at_ms as f64,
            |s, v| s.zombie.pause_at_ms = v as u64,
        ),
    },
    Knob {
        field: "zombie.pause_ms",
        label: "Pause length",
        config_name: None,
        hint: "How long it stays stopped; longer than the heartbeat timeout and it is replaced \
               before it comes back.",
        section: section::ZOMBIE,
        control: millis(
            0.0,
            RUN_MS,
            None,
            |s| s.zombie.pause_ms as f64,
            |s, v| s.zombie.pause_ms = v as u64,
        ),
    },
    Knob {
        field: "zombie.heartbeat_timeout_ms",
        label: "Heartbeat timeout",
        config_name: Some("heartbeat.timeout"),
        hint: "How long the JobManager waits for a heartbeat before it restarts the job on \
               another instance.",
        section: section::ZOMBIE,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1_000.0, 600_000.0, MS),
            step: 1000.0,
            slider_max: Some(120_000.0),
            config_default: Some(50_000.0),
            max_for: None,
            get: |s| s.zombie.heartbeat_timeout_ms as f64,
            set: |s, v| {
                s.zombie.heartbeat_timeout_ms = v as u64;
                s.zombie.heartbeat_interval_ms = s
                    .zombie
                    .heartbeat_interval_ms
                    .min(s.zombie.heartbeat_timeout_ms);
            },
        }),
    },
    Knob {
        field: "zombie.heartbeat_interval_ms",
        label: "Heartbeat interval",
        config_name: Some("heartbeat.interval"),
        hint: "Once it runs again, the old instance learns at its next heartbeat that it was \
               replaced; until then it works, and writes.",
        section: section::ZOMBIE,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(100.0, 600_000.0, MS),
            step: 100.0,
            slider_max: Some(60_000.0),
            config_default: None,
            max_for: Some(|s| s.zombie.heartbeat_timeout_ms as f64),
            get: |s| s.zombie.heartbeat_interval_ms as f64,
            set: |s, v| {
                s.zombie.heartbeat_interval_ms = (v as u64).min(s.zombie.heartbeat_timeout_ms)
            },
        }),
    },
    Knob {
        field: "zombie.fencing",
        label: "Fencing",
        config_name: Some("transactional.id"),
        hint: "How the results store refuses an old instance: not at all, by an epoch it \
               checks, or by Kafka's producer epoch behind one fixed transactional.id.",
        section: section::ZOMBIE,
        control: Control::Choice {
            options: options::<Fencing>,
            get: |s| s.zombie.fencing.value(),
            set: |s, v| set_choice(&mut s.zombie.fencing, v),
        },
    },
    Knob {
        field: "input.partitions",
        label: "Partitions",
        config_name: None,
        hint: "Partitions of the input topic: one source reader and one input channel each.",
        section: section::INPUT,
        control: number(
            Bounds::new(1.0, MAX_PARTITIONS as f64, "partitions"),
            1.0,
            None,
            |s| f64::from(s.input.partitions),
            |s, v| {
                s.input.partitions = v as u32;
                s.slow_partition.partition = s
                    .slow_partition
                    .partition
                    .min(s.input.partitions.saturating_sub(1));
            },
        ),
    },
    Knob {
        field: "input.keys",
        label: "Keys",
        config_name: None,
        hint: "Distinct keys, each counted in the job's state; a key's partition is murmur2 \
               of its bytes.",
        section: section::INPUT,
        control: number(
            Bounds::new(1.0, MAX_KEYS as f64, "keys"),
            1.0,
            None,
            |s| f64::from(s.input.keys),
            |s, v| s.input.keys = v as u32,
        ),
    },
    Knob {
        field: "input.records_per_second",
        label: "Producer rate",
        config_name: None,
        hint: "Records per second written to the input (a run holds at most 100 000).",
        section: section::INPUT,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, 2_000.0, "records/s"),
            step: 1.0,
            slider_max: Some(500.0),
            config_default: None,
            max_for: Some(|s| f64::from(BUDGET.max_rate_per_s(s.duration_ms))),
            get: |s| f64::from(s.input.records_per_second),
            set: |s, v| {
                s.input.records_per_second = (v as u32).min(BUDGET.max_rate_per_s(s.duration_ms))
            },
        }),
    },
    Knob {
        field: "processing_ms",
        label: "Processing time",
        config_name: None,
        hint: "Time the counter spends on one record; the three models pay the same.",
        section: section::INPUT,
        control: number(
            Bounds::new(1.0, 1_000.0, MS),
            1.0,
            None,
            |s| s.processing_ms as f64,
            |s, v| s.processing_ms = v as u64,
        ),
    },
    Knob {
        field: "mode",
        label: "Comparison",
        config_name: None,
        hint: "The three recovery models side by side, or one instance paused and replaced.",
        section: section::RUN,
        control: Control::Choice {
            options: options::<Mode>,
            get: |s| s.mode.value(),
            set: |s, v| set_choice(&mut s.mode, v),
        },
    },
    Knob {
        field: "duration_ms",
        label: "Length",
        config_name: None,
        hint: "How long the producer writes; the run ends then.",
        section: section::RUN,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1_000.0, RUN_MS, MS),
            step: 1000.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| BUDGET.max_duration_ms(s.input.records_per_second) as f64),
            get: |s| s.duration_ms as f64,
            set: |s, v| {
                s.duration_ms = (v as u64).min(BUDGET.max_duration_ms(s.input.records_per_second))
            },
        }),
    },
    Knob {
        field: "seed",
        label: "Seed",
        config_name: None,
        hint: "Seed of the keys and of random crashes; same seed, same run.",
        section: section::RUN,
        control: Control::Whole {
            get: |s| s.seed,
            set: |s, v| s.seed = v,
        },
    },
];

/// A run holds at most [`MAX_RECORDS`], at up to 2000 records a second.
const BUDGET: RunBudget = RunBudget {
    records: MAX_RECORDS,
    max_per_s: 2_000,
    min_ms: 1_000,
    max_ms: MAX_DURATION_MS,
};

impl Choice for Mode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            Mode::Recovery,
            "recovery",
            "three recovery models, side by side",
        ),
        (Mode::Zombie, "zombie", "an instance paused and replaced"),
    ];
}

impl Choice for SinkKind {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (SinkKind::State, "state", "the job's own state only"),
        (
            SinkKind::Kafka,
            "kafka",
            "a Kafka topic (transactional in Flink)",
        ),
        (SinkKind::Email, "email", "an email per update"),
        (
            SinkKind::Idempotent,
            "idempotent",
            "a webhook with an idempotency key",
        ),
        (
            SinkKind::Database,
            "database",
            "a database, offsets in the same transaction",
        ),
    ];
}

impl Choice for Isolation {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Isolation::ReadCommitted, "read_committed", "read_committed"),
        (
            Isolation::ReadUncommitted,
            "read_uncommitted",
            "read_uncommitted (Kafka's default)",
        ),
    ];
}

impl Choice for RestartFrom {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            RestartFrom::CommittedOffsets,
            "committed_offsets",
            "committedOffsets(): the auto-committed offsets",
        ),
        (
            RestartFrom::Earliest,
            "earliest",
            "earliest(): the input's start",
        ),
    ];
}

impl Choice for CrashMode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (CrashMode::None, "none", "none"),
        (CrashMode::At, "at", "one, at a set time"),
        (CrashMode::Random, "random", "random, from the seed"),
    ];
}

impl Choice for Fencing {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Fencing::None, "none", "none: every write lands"),
        (Fencing::Epoch, "epoch", "an epoch the store checks"),
        (
            Fencing::TransactionalId,
            "transactional_id",
            "one transactional.id (Kafka's producer epoch)",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::{check_table, number_knob};

    #[test]
    fn the_table_passes_the_checks_every_table_must() {
        check_table(KNOBS, super::super::PRESETS, &[]);
    }

    #[test]
    fn dependent_knobs_keep_the_scenario_runnable() {
        let number = |field| number_knob(KNOBS, field);
        let mut scenario = EosScenario::default();
        scenario.slow_partition.partition = 3;
        (number("input.partitions").set)(&mut scenario, 2.0);
        assert_eq!(scenario.slow_partition.partition, 1);
        (number("zombie.heartbeat_timeout_ms").set)(&mut scenario, 4_000.0);
        assert_eq!(scenario.zombie.heartbeat_interval_ms, 4_000);
        (number("duration_ms").set)(&mut scenario, 600_000.0);
        (number("input.records_per_second").set)(&mut scenario, 2_000.0);
        assert!(scenario.record_count() <= MAX_RECORDS);
        assert_eq!(scenario.validate(), Ok(()));
    }
}
