//! The exactly-once family's presets, one plain function each, named as links name them, and
//! its lessons' default scenarios. Each preset turns only the knobs its point needs; every
//! number it exists to show comes out of the model's rules.
//!
//! Two lessons: "checkpoints" (the three recovery models, barriers, alignment) and "effects"
//! (sinks inside and outside the job, zombies and fencing).

use super::scenario::{CrashMode, EosScenario, Fencing, Mode, SinkKind};
use crate::family::lesson::LessonDefault;

/// An exactly-once preset.
pub type Preset = crate::family::preset::Preset<EosScenario>;

/// Every preset of the family, in lesson order, with the lesson that offers it.
pub const PRESETS: &[Preset] = &[
    Preset {
        slug: "microbatch-vs-checkpoint",
        lesson: "checkpoints",
        title: "Microbatches against checkpoints",
        description: "The job fails at 24.3 s. The microbatch job runs its open batch again; \
                      the checkpointing job restores its last checkpoint and replays from its \
                      offsets: each counts some records twice (reprocessed_records), and both \
                      end with state_errors = 0. Without checkpoints the state is gone.",
        build: microbatch_vs_checkpoint,
    },
    Preset {
        slug: "checkpoint-restore-exactly-once-state",
        lesson: "checkpoints",
        title: "Every restore is exact",
        description: "Random failures, about one every 15 s: after each one the checkpointing \
                      and microbatch jobs restore a state equal to the exact count of the \
                      records before their positions (state_errors = 0); the job without \
                      checkpoints is short by everything it had counted.",
        build: checkpoint_restore_exactly_once_state,
    },
    Preset {
        slug: "alignment-stall",
        lesson: "checkpoints",
        title: "Alignment waits for the slow input",
        description: "Partition 2's records and barriers take 1.5 s longer to arrive: every \
                      aligned checkpoint holds the other three inputs back until its barrier \
                      comes (alignment_ms), and their records pile up meanwhile.",
        build: alignment_stall,
    },
    Preset {
        slug: "email-sent-twice",
        lesson: "effects",
        title: "The state is exact, the email went twice",
        description: "Each count update sends an email. After the failure at 24.3 s every \
                      job's state is exact again (state_errors = 0 for the checkpointing and \
                      microbatch jobs), but each replayed record sent its email again \
                      (external_duplicates): exactly-once inside, not outside.",
        build: email_sent_twice,
    },
    Preset {
        slug: "misconception-9",
        lesson: "effects",
        title: "Microbatching is not end-to-end exactly-once",
        description: "Spark commits each microbatch's state and offsets together, so its \
                      state is exact after the failure at 24.3 s (microbatch.state_errors = 0); \
                      but the batch it runs again sends its emails again \
                      (microbatch.external_duplicates > 0).",
        build: misconception_9,
    },
    Preset {
        slug: "idempotent-effect",
        lesson: "effects",
        title: "An idempotency key makes the repeat harmless",
        description: "The same calls carry the input record's partition and offset as an \
                      idempotency key; the receiver refuses the ones it has served \
                      (deduplicated), so no duplicate gets out (external_duplicates = 0).",
        build: idempotent_effect,
    },
    Preset {
        slug: "kafka-transactions",
        lesson: "effects",
        title: "A transactional Kafka sink and read_committed readers",
        description: "Flink writes to Kafka in a transaction per checkpoint: the failure \
                      aborts the open one and the replay writes again, so read_committed \
                      readers see each update once. Spark's Kafka sink is at-least-once: its \
                      rerun batch writes again.",
        build: kafka_transactions,
    },
    Preset {
        slug: "zombie-without-fencing",
        lesson: "effects",
        title: "A zombie overwrites newer counts",
        description: "The instance pauses at 15 s for 20 s; the JobManager gives up on it \
                      at 25 s and starts a replacement. When the old one runs again it goes on \
                      writing its older counts over the replacement's (stale_writes).",
        build: zombie_without_fencing,
    },
    Preset {
        slug: "zombie-fenced",
        lesson: "effects",
        title: "Fencing refuses the zombie",
        description: "The same pause, but every write carries its instance's epoch and the \
                      store refuses older ones: the zombie's writes are refused \
                      (stale_writes = 0).",
        build: zombie_fenced,
    },
];

/// The preset a link names, if any.
pub fn preset(name: &str) -> Option<EosScenario> {
    crate::family::preset::find(PRESETS, name).map(|p| (p.build)())
}

/// One failure at 24.3 s, the job's own state as the sink: the default.
pub fn microbatch_vs_checkpoint() -> EosScenario {
    EosScenario::default()
}

/// Random failures about 15 s apart over two minutes.
pub fn checkpoint_restore_exactly_once_state() -> EosScenario {
    let mut scenario = EosScenario::default();
    scenario.duration_ms = 120_000;
    scenario.crash.mode = CrashMode::Random;
    scenario.crash.mean_interval_ms = 15_000;
    scenario
}

/// Partition 2 (one key of eight) is 1.5 s slower; checkpoints every 5 s, aligned.
pub fn alignment_stall() -> EosScenario {
    let mut scenario = EosScenario::default();
    scenario.slow_partition.enabled = true;
    scenario.slow_partition.partition = 2;
    scenario.slow_partition.delay_ms = 1_500;
    scenario.crash.mode = CrashMode::None;
    scenario
}

/// An email per count update, one failure at 24.3 s.
pub fn email_sent_twice() -> EosScenario {
    let mut scenario = EosScenario::default();
    scenario.sink.kind = SinkKind::Email;
    scenario
}

/// Misconception 9 ("microbatching means end-to-end exactly-once"), refuted by the
/// microbatch job of the email run: exact state, repeated emails.
pub fn misconception_9() -> EosScenario {
    email_sent_twice()
}

/// The same calls with an idempotency key.
pub fn idempotent_effect() -> EosScenario {
    let mut scenario = email_sent_twice();
    scenario.sink.kind = SinkKind::Idempotent;
    scenario
}

/// A Kafka topic as the sink, read with read_committed.
pub fn kafka_transactions() -> EosScenario {
    let mut scenario = email_sent_twice();
    scenario.sink.kind = SinkKind::Kafka;
    scenario
}

/// One checkpointed job; its instance pauses at 15 s for 20 s, the heartbeat timeout is
/// 10 s, and nothing fences the results store.
pub fn zombie_without_fencing() -> EosScenario {
    let mut scenario = EosScenario::default();
    scenario.mode = Mode::Zombie;
    scenario.crash.mode = CrashMode::None;
    scenario
}

/// The same, with an epoch the store checks.
pub fn zombie_fenced() -> EosScenario {
    let mut scenario = zombie_without_fencing();
    scenario.zombie.fencing = Fencing::Epoch;
    scenario
}

/// The family's lessons, each with the scenario its links are patches against (part of the
/// link format: changing one changes what old links mean).
pub const LESSONS: &[LessonDefault<EosScenario>] = &[
    LessonDefault {
        slug: "checkpoints",
        default: microbatch_vs_checkpoint,
    },
    LessonDefault {
        slug: "effects",
        default: email_sent_twice,
    },
];
