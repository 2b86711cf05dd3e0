//! The databases family's knob table: every knob of a [`DatabasesScenario`], written once,
//! with the real system's name (Kafka's topic configs, Debezium's connector settings, the
//! Elasticsearch sink's, Spring Retry's), unit, range, step and hint. Validation, the
//! browser's controls and the docs read it.
//!
//! Setters keep a scenario runnable where one knob limits another: the rate and the length
//! stop at what a run may hold ([`MAX_WRITES`]). An outage, a bootstrap or a snapshot timed
//! after the run's end simply never happens.

use super::scenario::{
    DatabasesScenario, Mode, OffsetReset, SnapshotMode, KAFKA_CLEANER_BACKOFF_MS,
    KAFKA_DELETE_RETENTION_MS, KAFKA_SEGMENT_MS, MAX_APP_SERVERS, MAX_DURATION_MS, MAX_KEYS,
    MAX_WRITES,
};
use crate::family::knob::{
    instant, number, options, real_number, set_choice, Bounds, Choice, Control, Knob,
    NumberControl, RunBudget,
};

/// Section headings, in the order a panel shows them.
pub mod section {
    pub const WRITES: &str = "Writes";
    pub const NETWORK: &str = "Network and failures";
    pub const RETRY: &str = "Try/catch (Spring Retry)";
    pub const CONNECTOR: &str = "CDC (Debezium, sink connector)";
    pub const OUTAGE: &str = "Connector outage";
    pub const TOPIC: &str = "Compacted topic";
    pub const ACCOUNTS: &str = "Accounts and the new consumer";
    pub const SNAPSHOT: &str = "Snapshot";
    pub const RUN: &str = "Run";
}

const MS: &str = "ms";
const RUN_MS: f64 = MAX_DURATION_MS as f64;

/// Every knob of the family.
pub const KNOBS: &[Knob<DatabasesScenario>] = &[
    Knob {
        field: "writes.per_second",
        label: "Writes per second",
        config_name: None,
        hint: "Updates arriving, on average; they come at random, so two of one key sometimes \
               arrive close together.",
        section: section::WRITES,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, 1_000.0, "writes/s"),
            step: 1.0,
            slider_max: Some(200.0),
            config_default: None,
            max_for: Some(|s| f64::from(BUDGET.max_rate_per_s(s.duration_ms))),
            get: |s| f64::from(s.writes.per_second),
            set: |s, v| s.writes.per_second = (v as u32).min(BUDGET.max_rate_per_s(s.duration_ms)),
        }),
    },
    Knob {
        field: "writes.keys",
        label: "Keys",
        config_name: None,
        hint: "Products (dual writes), accounts open at once (compaction), rows of the table \
               (snapshot). Fewer keys, more writes of each.",
        section: section::WRITES,
        control: number(
            Bounds::new(1.0, MAX_KEYS as f64, "keys"),
            1.0,
            Some(200.0),
            |s| f64::from(s.writes.keys),
            |s, v| s.writes.keys = v as u32,
        ),
    },
    Knob {
        field: "writes.app_servers",
        label: "Application servers",
        config_name: None,
        hint: "Servers behind a round-robin load balancer; each sends its writes on its own, \
               so two servers' writes of one product can cross.",
        section: section::WRITES,
        control: number(
            Bounds::new(1.0, MAX_APP_SERVERS as f64, "servers"),
            1.0,
            None,
            |s| f64::from(s.writes.app_servers),
            |s, v| s.writes.app_servers = v as u32,
        ),
    },
    Knob {
        field: "network.db_latency_ms",
        label: "Database latency",
        config_name: None,
        hint: "One way between a server and the database, at least.",
        section: section::NETWORK,
        control: number(
            Bounds::new(0.0, 10_000.0, MS),
            1.0,
            Some(200.0),
            |s| s.network.db_latency_ms as f64,
            |s, v| s.network.db_latency_ms = v as u64,
        ),
    },
    Knob {
        field: "network.index_latency_ms",
        label: "Index latency",
        config_name: None,
        hint: "One way between a server (or the sink connector) and the search index, at least.",
        section: section::NETWORK,
        control: number(
            Bounds::new(0.0, 10_000.0, MS),
            1.0,
            Some(200.0),
            |s| s.network.index_latency_ms as f64,
            |s, v| s.network.index_latency_ms = v as u64,
        ),
    },
    Knob {
        field: "network.jitter_ms",
        label: "Jitter",
        config_name: None,
        hint: "Each message takes up to this much longer, independently (queues, retransmits, \
               a GC pause). With none, no two writes can cross.",
        section: section::NETWORK,
        control: number(
            Bounds::new(0.0, 10_000.0, MS),
            1.0,
            Some(500.0),
            |s| s.network.jitter_ms as f64,
            |s, v| s.network.jitter_ms = v as u64,
        ),
    },
    Knob {
        field: "network.index_failure_rate",
        label: "Index write failures",
        config_name: None,
        hint: "Share of writes to the index that fail (a 503, a timeout): an exception in the \
               application, a retry in the sink connector.",
        section: section::NETWORK,
        control: number(
            Bounds::new(0.0, 0.9, "fraction"),
            0.01,
            None,
            |s| s.network.index_failure_rate,
            |s, v| s.network.index_failure_rate = v,
        ),
    },
    Knob {
        field: "retry.max_attempts",
        label: "Attempts",
        config_name: Some("maxAttempts"),
        hint: "@Retryable: attempts in all, the first included; after the last the catch block \
               gives up.",
        section: section::RETRY,
        control: number(
            Bounds::new(1.0, 10.0, "attempts"),
            1.0,
            None,
            |s| f64::from(s.retry.max_attempts),
            |s, v| s.retry.max_attempts = v as u32,
        ),
    },
    Knob {
        field: "retry.backoff_ms",
        label: "Back-off",
        config_name: Some("@Backoff(delay)"),
        hint: "The wait before each retry; newer writes of the key do not wait with it. \
               Spring Retry waits 1000 ms when neither delay nor value is set.",
        section: section::RETRY,
        control: real_number(
            Bounds::new(0.0, 60_000.0, MS),
            10.0,
            Some(5_000.0),
            Some(1_000.0),
            |s| s.retry.backoff_ms as f64,
            |s, v| s.retry.backoff_ms = v as u64,
        ),
    },
    Knob {
        field: "connector.poll_interval_ms",
        label: "Poll interval",
        config_name: Some("poll.interval.ms"),
        hint: "Debezium waits this long for new change events before handing a batch on: the \
               floor of the CDC lag.",
        section: section::CONNECTOR,
        control: real_number(
            Bounds::new(1.0, 60_000.0, MS),
            10.0,
            Some(5_000.0),
            Some(500.0),
            |s| s.connector.poll_interval_ms as f64,
            |s, v| s.connector.poll_interval_ms = v as u64,
        ),
    },
    Knob {
        field: "connector.pipeline_ms",
        label: "Kafka and sink",
        config_name: None,
        hint: "From the connector's batch to the sink's write: Kafka, the sink's fetch.",
        section: section::CONNECTOR,
        control: number(
            Bounds::new(0.0, 60_000.0, MS),
            10.0,
            Some(2_000.0),
            |s| s.connector.pipeline_ms as f64,
            |s, v| s.connector.pipeline_ms = v as u64,
        ),
    },
    Knob {
        field: "connector.retry_backoff_ms",
        label: "Sink retry back-off",
        config_name: Some("retry.backoff.ms"),
        hint: "The Elasticsearch sink waits this long before retrying a failed write, twice as \
               long each time after; the changes behind it wait.",
        section: section::CONNECTOR,
        control: real_number(
            Bounds::new(1.0, 60_000.0, MS),
            10.0,
            Some(2_000.0),
            Some(100.0),
            |s| s.connector.retry_backoff_ms as f64,
            |s, v| s.connector.retry_backoff_ms = v as u64,
        ),
    },
    Knob {
        field: "outage.enabled",
        label: "Stop the connectors",
        config_name: None,
        hint: "The CDC and outbox connectors stop for a while (a restart), then resume from the \
               position they had published.",
        section: section::OUTAGE,
        control: Control::Toggle {
            get: |s| s.outage.enabled,
            set: |s, v| s.outage.enabled = v,
        },
    },
    Knob {
        field: "outage.at_ms",
        label: "Stop at",
        config_name: None,
        hint: "When the connectors stop.",
        section: section::OUTAGE,
        control: instant(
            RUN_MS,
            300_000.0,
            |s| s.outage.at_ms as f64,
            |s, v| s.outage.at_ms = v as u64,
        ),
    },
    Knob {
        field: "outage.for_ms",
        label: "Down for",
        config_name: None,
        hint: "How long they stay down; the database's log keeps every change meanwhile.",
        section: section::OUTAGE,
        control: number(
            Bounds::new(0.0, RUN_MS, MS),
            1000.0,
            Some(120_000.0),
            |s| s.outage.for_ms as f64,
            |s, v| s.outage.for_ms = v as u64,
        ),
    },
    Knob {
        field: "topic.segment_ms",
        label: "Segment roll",
        config_name: Some("segment.ms"),
        hint: "The active segment closes once its first record is this old; only closed \
               segments are cleaned.",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(100.0, KAFKA_SEGMENT_MS, MS),
            100.0,
            Some(60_000.0),
            Some(KAFKA_SEGMENT_MS),
            |s| s.topic.segment_ms as f64,
            |s, v| s.topic.segment_ms = v as u64,
        ),
    },
    Knob {
        field: "topic.min_cleanable_dirty_ratio",
        label: "Dirty ratio to clean",
        config_name: Some("min.cleanable.dirty.ratio"),
        hint: "The cleaner cleans once the dirty head is more than this share of the cleanable \
               log: lower cleans more often, for more work.",
        section: section::TOPIC,
        control: number(
            Bounds::new(0.0, 1.0, "ratio"),
            0.05,
            None,
            |s| s.topic.min_cleanable_dirty_ratio,
            |s, v| s.topic.min_cleanable_dirty_ratio = v,
        ),
    },
    Knob {
        field: "topic.delete_retention_ms",
        label: "Tombstone retention",
        config_name: Some("delete.retention.ms"),
        hint: "How long a tombstone stays after the cleaner first kept it: a reader from offset \
               0 must finish within it to see every delete.",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(0.0, 604_800_000.0, MS),
            1000.0,
            Some(120_000.0),
            Some(KAFKA_DELETE_RETENTION_MS),
            |s| s.topic.delete_retention_ms as f64,
            |s, v| s.topic.delete_retention_ms = v as u64,
        ),
    },
    Knob {
        field: "topic.min_compaction_lag_ms",
        label: "Minimum compaction lag",
        config_name: Some("min.compaction.lag.ms"),
        hint: "A record stays uncleaned at least this long, so readers can see every recent \
               update.",
        section: section::TOPIC,
        control: number(
            Bounds::new(0.0, RUN_MS, MS),
            1000.0,
            Some(120_000.0),
            |s| s.topic.min_compaction_lag_ms as f64,
            |s, v| s.topic.min_compaction_lag_ms = v as u64,
        ),
    },
    Knob {
        field: "topic.cleaner_backoff_ms",
        label: "Cleaner back-off",
        config_name: Some("log.cleaner.backoff.ms"),
        hint: "How long the cleaner sleeps when it finds nothing to clean (a broker setting).",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(100.0, 600_000.0, MS),
            100.0,
            Some(30_000.0),
            Some(KAFKA_CLEANER_BACKOFF_MS),
            |s| s.topic.cleaner_backoff_ms as f64,
            |s, v| s.topic.cleaner_backoff_ms = v as u64,
        ),
    },
    Knob {
        field: "accounts.close_rate",
        label: "Accounts closed",
        config_name: None,
        hint: "Share of writes that close an account: a tombstone in the topic, an \
               AccountClosed event; a new account opens in its place.",
        section: section::ACCOUNTS,
        control: number(
            Bounds::new(0.0, 0.5, "fraction"),
            0.01,
            None,
            |s| s.accounts.close_rate,
            |s, v| s.accounts.close_rate = v,
        ),
    },
    Knob {
        field: "bootstrap.at_ms",
        label: "New consumer at",
        config_name: None,
        hint: "When a new consumer reads both logs from offset 0 (auto.offset.reset=earliest).",
        section: section::ACCOUNTS,
        control: instant(
            RUN_MS,
            300_000.0,
            |s| s.bootstrap.at_ms as f64,
            |s, v| s.bootstrap.at_ms = v as u64,
        ),
    },
    Knob {
        field: "snapshot.start_ms",
        label: "Bootstrap at",
        config_name: None,
        hint: "When the new store's bootstrap starts.",
        section: section::SNAPSHOT,
        control: instant(
            RUN_MS,
            300_000.0,
            |s| s.snapshot.start_ms as f64,
            |s, v| s.snapshot.start_ms = v as u64,
        ),
    },
    Knob {
        field: "snapshot.rows_per_second",
        label: "Snapshot speed",
        config_name: None,
        hint: "Rows the snapshot reads per second: the slower, the more writes happen during it.",
        section: section::SNAPSHOT,
        control: number(
            Bounds::new(1.0, 100_000.0, "rows/s"),
            1.0,
            Some(500.0),
            |s| f64::from(s.snapshot.rows_per_second),
            |s, v| s.snapshot.rows_per_second = v as u32,
        ),
    },
    Knob {
        field: "snapshot.tied_to_offset",
        label: "Snapshot tied to a log position",
        config_name: None,
        hint: "On: Debezium's way, one consistent read as of a position, then the log from \
               there. Off: SELECT * of the live table, then a consumer from auto.offset.reset.",
        section: section::SNAPSHOT,
        control: Control::Toggle {
            get: |s| s.snapshot.tied_to_offset,
            set: |s, v| s.snapshot.tied_to_offset = v,
        },
    },
    Knob {
        field: "snapshot.mode",
        label: "Snapshot mode",
        config_name: Some("snapshot.mode"),
        hint: "Debezium's choice of snapshot and stream, when the snapshot is tied to a \
               position.",
        section: section::SNAPSHOT,
        control: Control::Choice {
            options: options::<SnapshotMode>,
            get: |s| s.snapshot.mode.value(),
            set: |s, v| set_choice(&mut s.snapshot.mode, v),
        },
    },
    Knob {
        field: "snapshot.offset_reset",
        label: "Consumer starts at",
        config_name: Some("auto.offset.reset"),
        hint: "Where the hand-rolled copy's consumer of the change topic starts (untied \
               snapshot only).",
        section: section::SNAPSHOT,
        control: Control::Choice {
            options: options::<OffsetReset>,
            get: |s| s.snapshot.offset_reset.value(),
            set: |s, v| set_choice(&mut s.snapshot.offset_reset, v),
        },
    },
    Knob {
        field: "mode",
        label: "Comparison",
        config_name: None,
        hint: "Which comparison runs on this seed.",
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
        hint: "How long writes arrive; a dual-writes or snapshot run goes on until what is in \
               flight has landed.",
        section: section::RUN,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1_000.0, RUN_MS, MS),
            step: 1000.0,
            slider_max: Some(600_000.0),
            config_default: None,
            max_for: Some(|s| BUDGET.max_duration_ms(s.writes.per_second) as f64),
            get: |s| s.duration_ms as f64,
            set: |s, v| s.duration_ms = (v as u64).min(BUDGET.max_duration_ms(s.writes.per_second)),
        }),
    },
    Knob {
        field: "seed",
        label: "Seed",
        config_name: None,
        hint: "Seed of every draw; same seed, same run.",
        section: section::RUN,
        control: Control::Whole {
            get: |s| s.seed,
            set: |s, v| s.seed = v,
        },
    },
];

/// A run holds at most [`MAX_WRITES`], at up to 1000 writes a second.
const BUDGET: RunBudget = RunBudget {
    records: MAX_WRITES,
    max_per_s: 1_000,
    min_ms: 1_000,
    max_ms: MAX_DURATION_MS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::{check_table, number_knob};

    #[test]
    fn the_table_passes_the_checks_every_table_must() {
        check_table(KNOBS, super::super::PRESETS, &[]);
    }

    #[test]
    fn the_rate_and_the_length_stay_within_a_run() {
        let number = |field| number_knob(KNOBS, field);
        let mut scenario = DatabasesScenario::default();
        (number("duration_ms").set)(&mut scenario, RUN_MS);
        (number("writes.per_second").set)(&mut scenario, 1_000.0);
        assert!(scenario.expected_writes() <= MAX_WRITES);
        assert!(scenario.validate().is_ok(), "{:?}", scenario.validate());
    }
}
