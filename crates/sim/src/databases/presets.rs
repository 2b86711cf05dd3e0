//! The databases family's presets, one plain function each, named as links name them, and
//! its lessons' default scenarios. Each preset turns only the knobs its point needs; every
//! number it exists to show comes out of the model's rules.
//!
//! Two lessons: "dual-writes" (the race, try/catch, CDC, the outbox) and "bootstrapping"
//! (compaction, tombstones and a new consumer from offset 0, an event-sourced log beside it,
//! and a snapshot tied to its log position or not). Misconceptions 5 and 6 of the course have
//! their refuting runs here too.

use super::scenario::{DatabasesScenario, Mode, OffsetReset, SnapshotMode};
use crate::family::lesson::LessonDefault;

/// A databases preset.
pub type Preset = crate::family::preset::Preset<DatabasesScenario>;

/// Every preset of the family, in lesson order, with the lesson that offers it.
pub const PRESETS: &[Preset] = &[
    Preset {
        slug: "dual-write-race",
        lesson: "dual-writes",
        title: "The dual-write race",
        description: "Two servers write the same products to the database and then to the \
                      index; nothing ever fails, yet writes cross on the way to the index and \
                      some products end with an older value there than in the database. CDC \
                      and the outbox, fed by the database's own order, end equal.",
        build: dual_write_race,
    },
    Preset {
        slug: "dual-write-try-catch",
        lesson: "dual-writes",
        title: "A try/catch does not fix it",
        description: "One index write in ten fails. Plain dual writes lose them; the try/catch \
                      retries and loses fewer, but a retry lands after newer writes of its \
                      product, and the race is still there. The connectors retry in order and \
                      end equal.",
        build: dual_write_try_catch,
    },
    Preset {
        slug: "cdc-converges",
        lesson: "dual-writes",
        title: "CDC lags, then converges",
        description: "The connectors stop for 10 s: the CDC index falls behind and its lag \
                      climbs, then it catches up from the database's log and ends equal to the \
                      database, with failing index writes retried in order.",
        build: cdc_converges,
    },
    Preset {
        slug: "misconception-5",
        lesson: "dual-writes",
        title: "A try/catch does not fix dual writes",
        description: "The try/catch retries every failed index write and loses almost none, \
                      yet products still end with an older value in its index than in the \
                      database (try_catch.divergent_keys > 0): a retry lands after newer \
                      writes, and writes that never failed still cross on the network.",
        build: dual_write_try_catch,
    },
    Preset {
        slug: "outbox-converges",
        lesson: "dual-writes",
        title: "The outbox converges",
        description: "The row and an outbox row commit in one transaction; the outbox router \
                      publishes the outbox rows in commit order. The index lags by a poll \
                      interval and ends equal to the database.",
        build: outbox_converges,
    },
    Preset {
        slug: "compaction-bootstrap",
        lesson: "bootstrapping",
        title: "Bootstrapping from a compacted topic",
        description: "3,000 writes to 50 accounts over five minutes; the cleaner keeps the \
                      latest record per account. A new consumer reading from offset 0 reads \
                      about one record per open account and rebuilds them all.",
        build: compaction_bootstrap,
    },
    Preset {
        slug: "tombstone-deletes-key",
        lesson: "bootstrapping",
        title: "A tombstone deletes its key",
        description: "The first account to close leaves a tombstone. The cleaner removes the \
                      account's old balances at once, keeps the tombstone for \
                      delete.retention.ms, then removes it too: no record of the account is \
                      left.",
        build: tombstone_deletes_key,
    },
    Preset {
        slug: "event-sourcing-is-not-cdc",
        lesson: "bootstrapping",
        title: "Event sourcing is not CDC",
        description: "Ten accounts, many deposits and withdrawals each. The CDC topic compacts \
                      to one record per account; the event-sourced log of the same accounts \
                      must keep every event, because a balance is the sum of them all.",
        build: event_sourcing_is_not_cdc,
    },
    Preset {
        slug: "misconception-6",
        lesson: "bootstrapping",
        title: "CDC is not event sourcing",
        description: "The CDC topic holds each account's row as it now is, so compaction may \
                      keep only the latest. The event-sourced log holds what happened; cut it \
                      down to each account's last event the same way and almost every balance \
                      comes out wrong (event_sourced.wrong_if_compacted > 0).",
        build: event_sourcing_is_not_cdc,
    },
    Preset {
        slug: "snapshot-without-offset",
        lesson: "bootstrapping",
        title: "A snapshot without its log position",
        description: "A SELECT * copies the live table while writes go on, then a consumer \
                      starts at the end of the change topic: the writes to rows already copied \
                      are missed, and those rows stay wrong until they change again.",
        build: snapshot_without_offset,
    },
    Preset {
        slug: "snapshot-with-offset",
        lesson: "bootstrapping",
        title: "A snapshot tied to its log position",
        description: "Debezium's snapshot.mode=initial: one consistent read as of a log \
                      position, then every change after that position. Nothing is missed, \
                      nothing applied twice.",
        build: snapshot_with_offset,
    },
];

/// The preset a link names, if any.
pub fn preset(name: &str) -> Option<DatabasesScenario> {
    crate::family::preset::find(PRESETS, name).map(|p| (p.build)())
}

/// Two servers, eight products, 40 updates a second for a minute; every message takes 2–5 ms
/// plus up to 80 ms of jitter, so writes of one product a few tens of ms apart can cross.
/// No write ever fails.
pub fn dual_write_race() -> DatabasesScenario {
    let mut scenario = DatabasesScenario::default();
    scenario.writes.per_second = 40;
    scenario.writes.keys = 8;
    scenario.network.jitter_ms = 80;
    scenario
}

/// The race's world with one index write in ten failing, and the try/catch retrying after
/// 500 ms, three attempts in all.
pub fn dual_write_try_catch() -> DatabasesScenario {
    let mut scenario = dual_write_race();
    scenario.network.index_failure_rate = 0.1;
    scenario.retry.backoff_ms = 500;
    scenario
}

/// The race's world with one index write in twenty failing, and the connectors down from 20 s
/// to 30 s.
pub fn cdc_converges() -> DatabasesScenario {
    let mut scenario = dual_write_race();
    scenario.network.index_failure_rate = 0.05;
    scenario.outage.enabled = true;
    scenario.outage.at_ms = 20_000;
    scenario.outage.for_ms = 10_000;
    scenario
}

/// The race's world with a slower outbox relay (a poll every second).
pub fn outbox_converges() -> DatabasesScenario {
    let mut scenario = dual_write_race();
    scenario.connector.poll_interval_ms = 1_000;
    scenario
}

/// 50 accounts, 10 writes a second for five minutes, 1 s segments and a cleaner that checks
/// every second; the new consumer arrives at 4 min 50 s.
pub fn compaction_bootstrap() -> DatabasesScenario {
    let mut scenario = DatabasesScenario::default();
    scenario.mode = Mode::Compaction;
    scenario.duration_ms = 300_000;
    scenario.writes.per_second = 10;
    scenario.writes.keys = 50;
    scenario.topic.segment_ms = 1_000;
    scenario.topic.cleaner_backoff_ms = 1_000;
    scenario.bootstrap.at_ms = 290_000;
    scenario
}

/// 20 accounts, one write in twenty closing one, 30 s of tombstone retention, two minutes.
pub fn tombstone_deletes_key() -> DatabasesScenario {
    let mut scenario = DatabasesScenario::default();
    scenario.mode = Mode::Compaction;
    scenario.duration_ms = 120_000;
    scenario.writes.per_second = 10;
    scenario.writes.keys = 20;
    scenario.accounts.close_rate = 0.05;
    scenario.topic.segment_ms = 2_000;
    scenario.topic.cleaner_backoff_ms = 1_000;
    scenario.topic.delete_retention_ms = 30_000;
    scenario.bootstrap.at_ms = 115_000;
    scenario
}

/// Ten accounts and no closings, ten writes a second for two minutes: about 120 events each.
pub fn event_sourcing_is_not_cdc() -> DatabasesScenario {
    let mut scenario = DatabasesScenario::default();
    scenario.mode = Mode::Compaction;
    scenario.duration_ms = 120_000;
    scenario.writes.per_second = 10;
    scenario.writes.keys = 10;
    scenario.accounts.close_rate = 0.0;
    scenario.topic.segment_ms = 2_000;
    scenario.topic.cleaner_backoff_ms = 1_000;
    scenario.bootstrap.at_ms = 115_000;
    scenario
}

/// 100 rows, 50 writes a second for 16 s; at 10 s a copy reads 20 rows a second (5 s, about
/// 250 writes meanwhile), untied from the log, then a consumer starts at the topic's end. The
/// writes stop a second later, so most rows the copy got wrong are never written again.
pub fn snapshot_without_offset() -> DatabasesScenario {
    let mut scenario = snapshot_with_offset();
    scenario.snapshot.tied_to_offset = false;
    scenario.snapshot.offset_reset = OffsetReset::Latest;
    scenario
}

/// The same table and writes, bootstrapped the way Debezium's `snapshot.mode=initial` does.
pub fn snapshot_with_offset() -> DatabasesScenario {
    let mut scenario = DatabasesScenario::default();
    scenario.mode = Mode::Snapshot;
    scenario.duration_ms = 16_000;
    scenario.writes.per_second = 50;
    scenario.writes.keys = 100;
    scenario.snapshot.start_ms = 10_000;
    scenario.snapshot.rows_per_second = 20;
    scenario.snapshot.tied_to_offset = true;
    scenario.snapshot.mode = SnapshotMode::Initial;
    scenario
}

/// The family's lessons, each with the scenario its links are patches against (part of the
/// link format: changing one changes what old links mean).
pub const LESSONS: &[LessonDefault<DatabasesScenario>] = &[
    LessonDefault {
        slug: "dual-writes",
        default: dual_write_race,
    },
    LessonDefault {
        slug: "bootstrapping",
        default: compaction_bootstrap,
    },
];
