//! The consumer-group family's knob table: every knob of a [`Scenario`] and of each group's
//! [`GroupConfig`], written once, with Kafka's (or Spring Kafka's) name, unit, range, step
//! and a one-line hint. Validation ([`Scenario::validate`]), the browser's controls, the
//! real-config panel and the knob reference in the docs all read it.
//!
//! Defaults are not repeated here: a knob's default is what `Scenario::default()` (or
//! `GroupConfig::named`) holds, which follows Kafka's defaults; where it does not, the row's
//! `config_default` says what Kafka's is.

use super::scenario::{
    AutoOffsetReset, Distribution, GroupConfig, ManualCommit, Scenario, DEFAULT_GROUP_IDS,
    MAX_GROUPS,
};
use super::sink::SinkMode;
use crate::assignor::Strategy;
use crate::family::knob::{
    number, options, set_choice, Bounds, Choice, Control, Knob, NumberControl,
};

/// Section headings, in the order a panel shows them.
pub mod section {
    pub const TOPIC: &str = "Topic";
    pub const PRODUCER: &str = "Producer";
    pub const GROUPS: &str = "Consumer groups";
    pub const RETENTION: &str = "Topic retention";
    pub const BROKER: &str = "Broker";
    pub const RUN: &str = "Run";
    /// Knobs only a headless run uses (the browser's clock runs on as long as you watch).
    pub const HEADLESS: &str = "Headless run";
    /// Per group: who reads and how fast.
    pub const GROUP: &str = "Group";
    /// Per group: the membership protocol's timeouts.
    pub const PROTOCOL: &str = "Group protocol";
    /// Per group: when offsets are committed.
    pub const COMMITS: &str = "Commits";
    /// Per group: the output store, crashes, offset resets and the error handler.
    pub const DELIVERY: &str = "Delivery";
}

const MS: &str = "ms";

/// The knobs of the whole scenario (topic, producer, broker, the run).
pub const SCENARIO_KNOBS: &[Knob<Scenario>] = &[
    Knob {
        field: "topic.partitions",
        label: "Partitions",
        config_name: Some("num.partitions"),
        hint: "Independent logs; the most members one group can keep busy.",
        section: section::TOPIC,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, 64.0, "partitions"),
            step: 1.0,
            slider_max: None,
            config_default: Some(1.0),
            max_for: None,
            get: |s| f64::from(s.topic.partitions),
            set: |s, v| s.topic.partitions = v as u32,
        }),
    },
    Knob {
        field: "producer.rate_per_s",
        label: "Produce rate",
        config_name: None,
        hint: "Records sent per second, evenly spaced.",
        section: section::PRODUCER,
        control: number(
            Bounds::new(0.0, 100_000.0, "records/s"),
            1.0,
            Some(2_000.0),
            |s| f64::from(s.producer.rate_per_s),
            |s, v| s.producer.rate_per_s = v as u32,
        ),
    },
    Knob {
        field: "producer.key_count",
        label: "Keys",
        config_name: None,
        hint: "Distinct keys; 0 sends null keys, spread by the sticky partitioner.",
        section: section::PRODUCER,
        control: number(
            Bounds::new(0.0, 100_000.0, "keys"),
            1.0,
            Some(200.0),
            |s| f64::from(s.producer.key_count),
            |s, v| s.producer.key_count = v as u32,
        ),
    },
    Knob {
        field: "producer.key_skew",
        label: "Key skew",
        config_name: None,
        hint: "0: all keys equally busy. 2: one hot key takes most records.",
        section: section::PRODUCER,
        control: number(
            Bounds::new(0.0, 3.0, "Zipf exponent"),
            0.1,
            None,
            |s| s.producer.key_skew,
            |s, v| s.producer.key_skew = v,
        ),
    },
    Knob {
        field: "producer.linger_ms",
        label: "Linger",
        config_name: Some("linger.ms"),
        hint: "How long a record waits in the producer before it is appended (Kafka 4.0's default).",
        section: section::PRODUCER,
        control: number(
            Bounds::new(0.0, 10_000.0, MS),
            1.0,
            Some(200.0),
            |s| f64::from(s.producer.linger_ms),
            |s, v| s.producer.linger_ms = v as u32,
        ),
    },
    Knob {
        field: "groups",
        label: "Groups",
        config_name: None,
        hint: "Teams reading the same topic, each at its own position.",
        section: section::GROUPS,
        control: number(
            Bounds::new(1.0, MAX_GROUPS as f64, "groups"),
            1.0,
            None,
            |s| s.groups.len() as f64,
            |s, v| set_group_count(s, v as usize),
        ),
    },
    Knob {
        field: "topic.retention_ms",
        label: "Retention time",
        config_name: Some("retention.ms"),
        hint: "Records older than this are deleted, read or not (seven days by default; -1 keeps them).",
        section: section::RETENTION,
        control: number(
            Bounds::new(-1.0, 604_800_000.0, MS),
            1000.0,
            Some(120_000.0),
            |s| s.topic.retention_ms as f64,
            |s, v| s.topic.retention_ms = v as i64,
        ),
    },
    Knob {
        field: "topic.retention_bytes",
        label: "Retention size",
        config_name: Some("retention.bytes"),
        hint: "A partition larger than this deletes its oldest records (-1: no limit).",
        section: section::RETENTION,
        control: number(
            Bounds::new(-1.0, 1_000_000_000.0, "bytes"),
            1000.0,
            Some(10_000_000.0),
            |s| s.topic.retention_bytes as f64,
            |s, v| s.topic.retention_bytes = v as i64,
        ),
    },
    Knob {
        field: "topic.record_bytes",
        label: "Record size",
        config_name: None,
        hint: "Bytes one record takes on the broker, for retention.bytes.",
        section: section::RETENTION,
        control: number(
            Bounds::new(1.0, 1_000_000.0, "bytes"),
            100.0,
            Some(10_000.0),
            |s| f64::from(s.topic.record_bytes),
            |s, v| s.topic.record_bytes = v as u32,
        ),
    },
    Knob {
        field: "broker.log_retention_check_interval_ms",
        label: "Retention check",
        config_name: Some("log.retention.check.interval.ms"),
        hint: "How often the broker deletes what has expired: the log start jumps at each check.",
        section: section::RETENTION,
        control: number(
            Bounds::new(1.0, 3_600_000.0, MS),
            1000.0,
            Some(300_000.0),
            |s| f64::from(s.broker.log_retention_check_interval_ms),
            |s, v| s.broker.log_retention_check_interval_ms = v as u32,
        ),
    },
    Knob {
        field: "broker.group_initial_rebalance_delay_ms",
        label: "Initial rebalance delay",
        config_name: Some("group.initial.rebalance.delay.ms"),
        hint: "How long a new group waits for more members before its first assignment.",
        section: section::BROKER,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, 300_000.0, MS),
            step: 100.0,
            slider_max: Some(10_000.0),
            config_default: Some(3_000.0),
            max_for: None,
            get: |s| f64::from(s.broker.group_initial_rebalance_delay_ms),
            set: |s, v| s.broker.group_initial_rebalance_delay_ms = v as u32,
        }),
    },
    Knob {
        field: "seed",
        label: "Seed",
        config_name: None,
        hint: "Every random draw comes from this number: same seed, same run. Any whole number \
               0–18446744073709551615.",
        section: section::RUN,
        control: Control::Whole {
            get: |s| s.seed,
            set: |s, v| s.seed = v,
        },
    },
    Knob {
        field: "duration_ms",
        label: "Duration",
        config_name: None,
        hint: "How long `streamlab simulate` runs the scenario.",
        section: section::HEADLESS,
        control: number(
            Bounds::new(1.0, 3_600_000.0, MS),
            1000.0,
            None,
            |s| s.duration_ms as f64,
            |s, v| s.duration_ms = v as u64,
        ),
    },
];

/// The knobs of one consumer group (the table is applied to `groups[i]`).
pub const GROUP_KNOBS: &[Knob<GroupConfig>] = &[
    Knob {
        field: "groups[].members",
        label: "Members",
        config_name: None,
        hint: "Consumer processes in this group.",
        section: section::GROUP,
        control: number(
            Bounds::new(0.0, 32.0, "members"),
            1.0,
            None,
            |g| f64::from(g.members),
            |g, v| g.members = v as u32,
        ),
    },
    Knob {
        field: "groups[].processing.time_ms",
        label: "Processing time",
        config_name: None,
        hint: "The application's work per record, one record at a time.",
        section: section::GROUP,
        control: number(
            Bounds::new(0.0, 10_000.0, "ms/record"),
            1.0,
            Some(100.0),
            |g| f64::from(g.processing.time_ms),
            |g, v| g.processing.time_ms = v as u32,
        ),
    },
    Knob {
        field: "groups[].processing.distribution",
        label: "Processing spread",
        config_name: None,
        hint: "How processing time varies around its mean.",
        section: section::GROUP,
        control: Control::Choice {
            options: options::<Distribution>,
            get: |g| g.processing.distribution.value(),
            set: |g, v| set_choice(&mut g.processing.distribution, v),
        },
    },
    Knob {
        field: "groups[].max_poll_records",
        label: "Max poll records",
        config_name: Some("max.poll.records"),
        hint: "Most records one poll() returns.",
        section: section::GROUP,
        control: number(
            Bounds::new(1.0, 10_000.0, "records"),
            1.0,
            Some(1_000.0),
            |g| f64::from(g.max_poll_records),
            |g, v| g.max_poll_records = v as u32,
        ),
    },
    Knob {
        field: "groups[].partition_assignment_strategy",
        label: "Assignor",
        config_name: Some("partition.assignment.strategy"),
        hint: "How partitions are dealt out to members (Kafka's default list is range then cooperative-sticky, so a group runs range until a rolling bounce removes it).",
        section: section::GROUP,
        control: Control::Choice {
            options: options::<Strategy>,
            get: |g| g.partition_assignment_strategy.value(),
            set: |g, v| set_choice(&mut g.partition_assignment_strategy, v),
        },
    },
    Knob {
        field: "groups[].fetch_max_wait_ms",
        label: "Fetch wait",
        config_name: Some("fetch.max.wait.ms"),
        hint: "How long an empty fetch waits for records to arrive.",
        section: section::GROUP,
        control: number(
            Bounds::new(0.0, 60_000.0, MS),
            10.0,
            Some(5_000.0),
            |g| f64::from(g.fetch_max_wait_ms),
            |g, v| g.fetch_max_wait_ms = v as u32,
        ),
    },
    Knob {
        field: "groups[].session_timeout_ms",
        label: "Session timeout",
        config_name: Some("session.timeout.ms"),
        hint: "Silence after which the coordinator declares a member dead.",
        section: section::PROTOCOL,
        control: number(
            Bounds::new(6_000.0, 1_800_000.0, MS),
            1000.0,
            Some(120_000.0),
            |g| f64::from(g.session_timeout_ms),
            |g, v| g.session_timeout_ms = v as u32,
        ),
    },
    Knob {
        field: "groups[].heartbeat_interval_ms",
        label: "Heartbeat interval",
        config_name: Some("heartbeat.interval.ms"),
        hint: "How often the heartbeat thread reports in; also how soon a member hears of a rebalance.",
        section: section::PROTOCOL,
        control: number(
            Bounds::new(1.0, 600_000.0, MS),
            100.0,
            Some(15_000.0),
            |g| f64::from(g.heartbeat_interval_ms),
            |g, v| g.heartbeat_interval_ms = v as u32,
        ),
    },
    Knob {
        field: "groups[].max_poll_interval_ms",
        label: "Max poll interval",
        config_name: Some("max.poll.interval.ms"),
        hint: "Longest batch before the member is removed; also the rebalance timeout.",
        section: section::PROTOCOL,
        control: number(
            Bounds::new(1.0, 3_600_000.0, MS),
            1000.0,
            Some(600_000.0),
            |g| f64::from(g.max_poll_interval_ms),
            |g, v| g.max_poll_interval_ms = v as u32,
        ),
    },
    Knob {
        field: "groups[].static_membership",
        label: "Static membership",
        config_name: Some("group.instance.id"),
        hint: "Each member keeps an instance id: a quick restart gets its partitions back with no rebalance.",
        section: section::PROTOCOL,
        control: Control::Toggle {
            get: |g| g.static_membership,
            set: |g, v| g.static_membership = v,
        },
    },
    Knob {
        field: "groups[].enable_auto_commit",
        label: "Auto-commit",
        config_name: Some("enable.auto.commit"),
        hint: "Commit the positions inside poll() every auto.commit.interval.ms, and before every rebalance.",
        section: section::COMMITS,
        control: Control::Toggle {
            get: |g| g.enable_auto_commit,
            set: |g, v| g.enable_auto_commit = v,
        },
    },
    Knob {
        field: "groups[].auto_commit_interval_ms",
        label: "Auto-commit interval",
        config_name: Some("auto.commit.interval.ms"),
        hint: "How often poll() commits: a crash repeats up to this much work, plus the batch in hand.",
        section: section::COMMITS,
        control: number(
            Bounds::new(1.0, 600_000.0, MS),
            100.0,
            Some(30_000.0),
            |g| f64::from(g.auto_commit_interval_ms),
            |g, v| g.auto_commit_interval_ms = v as u32,
        ),
    },
    Knob {
        field: "groups[].manual_commit",
        label: "Manual commit",
        config_name: Some("commitSync()"),
        hint: "Where the application commits by itself (turn auto-commit off to see it alone).",
        section: section::COMMITS,
        control: Control::Choice {
            options: options::<ManualCommit>,
            get: |g| g.manual_commit.value(),
            set: |g, v| set_choice(&mut g.manual_commit, v),
        },
    },
    Knob {
        field: "groups[].commit_on_revoke",
        label: "Commit on revoke",
        config_name: Some("onPartitionsRevoked"),
        hint: "A rebalance listener that commits before giving partitions up.",
        section: section::COMMITS,
        control: Control::Toggle {
            get: |g| g.commit_on_revoke,
            set: |g, v| g.commit_on_revoke = v,
        },
    },
    Knob {
        field: "groups[].sink",
        label: "Sink",
        config_name: None,
        hint: "What the output store does with a write it has already seen. Upsert by key keeps, \
               per key, the highest input offset applied and ignores one that is not newer, so a \
               replay never writes an old value back; a null key has nothing to upsert by and is \
               appended.",
        section: section::DELIVERY,
        control: Control::Choice {
            options: options::<SinkMode>,
            get: |g| g.sink.value(),
            set: |g, v| set_choice(&mut g.sink, v),
        },
    },
    Knob {
        field: "groups[].crash_mean_interval_ms",
        label: "Random crashes: mean interval",
        config_name: None,
        hint: "Each member crashes at random times this far apart on average (0: never); drawn from the seed.",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 3_600_000.0, MS),
            1000.0,
            Some(60_000.0),
            |g| g.crash_mean_interval_ms as f64,
            |g, v| g.crash_mean_interval_ms = v as u64,
        ),
    },
    Knob {
        field: "groups[].crash_down_ms",
        label: "Down time after a crash",
        config_name: None,
        hint: "How long a randomly crashed member stays down before it starts again.",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 3_600_000.0, MS),
            1000.0,
            Some(60_000.0),
            |g| g.crash_down_ms as f64,
            |g, v| g.crash_down_ms = v as u64,
        ),
    },
    Knob {
        field: "groups[].auto_offset_reset",
        label: "Offset reset",
        config_name: Some("auto.offset.reset"),
        hint: "Where to read when there is no valid committed offset.",
        section: section::DELIVERY,
        control: Control::Choice {
            options: options::<AutoOffsetReset>,
            get: |g| g.auto_offset_reset.value(),
            set: |g, v| set_choice(&mut g.auto_offset_reset, v),
        },
    },
    Knob {
        field: "groups[].start_ms",
        label: "Group starts at",
        config_name: None,
        hint: "0: the group read from the start, offset 0 committed. Later: a new group, placed by auto.offset.reset.",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 3_600_000.0, MS),
            1000.0,
            Some(120_000.0),
            |g| g.start_ms as f64,
            |g, v| g.start_ms = v as u64,
        ),
    },
    Knob {
        field: "groups[].lag_alert_records",
        label: "Lag alert",
        config_name: None,
        hint: "Narrate an alert when a partition's lag passes this (0: at 100, 1000, ...).",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 10_000_000.0, "records"),
            50.0,
            Some(5_000.0),
            |g| g.lag_alert_records as f64,
            |g, v| g.lag_alert_records = v as u64,
        ),
    },
    Knob {
        field: "groups[].errors.poison_every_nth",
        label: "Poison: every n-th record",
        config_name: None,
        hint: "These records always fail processing (0: none).",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 1_000_000.0, "records"),
            1.0,
            Some(5_000.0),
            |g| g.errors.poison_every_nth as f64,
            |g, v| g.errors.poison_every_nth = v as u64,
        ),
    },
    Knob {
        field: "groups[].errors.poison_probability",
        label: "Poison: probability",
        config_name: None,
        hint: "Each record always fails with this probability, decided by the seed.",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 1.0, "probability"),
            0.001,
            Some(0.1),
            |g| g.errors.poison_probability,
            |g, v| g.errors.poison_probability = v,
        ),
    },
    Knob {
        field: "groups[].errors.transient_failure_probability",
        label: "Transient failures",
        config_name: None,
        hint: "Any attempt fails with this probability (a timeout, a lock), drawn from the seed per \
               record and attempt: most failing records get through on a retry and reach the sink \
               once; only one that fails every attempt goes to the dead-letter topic.",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 1.0, "per attempt"),
            0.001,
            None,
            |g| g.errors.transient_failure_probability,
            |g, v| g.errors.transient_failure_probability = v,
        ),
    },
    Knob {
        field: "groups[].errors.max_attempts",
        label: "Attempts",
        config_name: Some("FixedBackOff maxAttempts + 1"),
        hint: "Deliveries before the error handler gives up (Spring's DefaultErrorHandler).",
        section: section::DELIVERY,
        control: number(
            Bounds::new(1.0, 1_000.0, "attempts"),
            1.0,
            Some(20.0),
            |g| f64::from(g.errors.max_attempts),
            |g, v| g.errors.max_attempts = v as u32,
        ),
    },
    Knob {
        field: "groups[].errors.backoff_ms",
        label: "Back-off",
        config_name: Some("FixedBackOff interval"),
        hint: "Wait between attempts; the member reads nothing else meanwhile.",
        section: section::DELIVERY,
        control: number(
            Bounds::new(0.0, 600_000.0, MS),
            100.0,
            Some(10_000.0),
            |g| g.errors.backoff_ms as f64,
            |g, v| g.errors.backoff_ms = v as u64,
        ),
    },
    Knob {
        field: "groups[].errors.dead_letter_topic",
        label: "Dead-letter topic",
        config_name: Some("errors.deadletterqueue.topic.name"),
        hint: "Publish a given-up record to <topic>.DLT; without it the record is skipped and lost.",
        section: section::DELIVERY,
        control: Control::Toggle {
            get: |g| !g.errors.dead_letter_topic.is_empty(),
            set: |g, v| {
                g.errors.dead_letter_topic = if v {
                    super::scenario::dead_letter_topic_for(super::scenario::DEFAULT_TOPIC)
                } else {
                    String::new()
                }
            },
        },
    },
];

/// The rows of [`GROUP_KNOBS`] that are Kafka consumer properties, in the order a
/// `consumer.properties` file lists them: the real-config panel prints `name=value` for each,
/// both read from the row. The other rows are the application's code (commits, the sink, the
/// error handler) or the assignor, whose property takes a class name.
pub const CONSUMER_PROPERTIES: &[&str] = &[
    "groups[].max_poll_records",
    "groups[].enable_auto_commit",
    "groups[].auto_commit_interval_ms",
    "groups[].fetch_max_wait_ms",
    "groups[].session_timeout_ms",
    "groups[].heartbeat_interval_ms",
    "groups[].max_poll_interval_ms",
    "groups[].auto_offset_reset",
];

/// Adds or removes groups, each new one with Kafka's defaults and the next unused id.
fn set_group_count(scenario: &mut Scenario, count: usize) {
    let count = count.clamp(1, MAX_GROUPS);
    scenario.groups.truncate(count);
    while scenario.groups.len() < count {
        let id = DEFAULT_GROUP_IDS
            .iter()
            .find(|id| scenario.groups.iter().all(|g| g.group_id != **id))
            .expect("fewer groups than default ids");
        scenario.groups.push(GroupConfig::named(id));
    }
}

impl Choice for Strategy {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Strategy::Range, "range", "range"),
        (Strategy::RoundRobin, "roundrobin", "roundrobin"),
        (Strategy::Sticky, "sticky", "sticky"),
        (
            Strategy::CooperativeSticky,
            "cooperative-sticky",
            "cooperative-sticky",
        ),
    ];
}

impl Choice for Distribution {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Distribution::Constant, "constant", "constant"),
        (Distribution::Uniform, "uniform", "uniform 0–2× mean"),
        (Distribution::Exponential, "exponential", "exponential"),
    ];
}

impl Choice for ManualCommit {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            ManualCommit::None,
            "none",
            "none (auto-commit / listener only)",
        ),
        (
            ManualCommit::BeforeProcessing,
            "before-processing",
            "commitSync() before processing",
        ),
        (
            ManualCommit::AfterEachRecord,
            "after-each-record",
            "commitSync() after each record",
        ),
        (
            ManualCommit::AfterBatch,
            "after-batch",
            "commitSync() after each batch",
        ),
        (
            ManualCommit::Transactional,
            "transactional",
            "in the output's transaction",
        ),
    ];
}

impl Choice for SinkMode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (SinkMode::Plain, "plain", "plain: every write is an effect"),
        (
            SinkMode::Idempotent,
            "idempotent",
            "idempotent: keyed by partition+offset",
        ),
        (
            SinkMode::ByKey,
            "by-key",
            "upsert by key: newest offset wins",
        ),
    ];
}

impl Choice for AutoOffsetReset {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (AutoOffsetReset::Earliest, "earliest", "earliest"),
        (AutoOffsetReset::Latest, "latest", "latest"),
        (AutoOffsetReset::None, "none", "none"),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::{
        check_choices_spell_the_json, check_fields_named_once, check_numbers, check_table, find,
    };

    #[test]
    fn the_tables_pass_the_checks_every_table_must() {
        // The format version, the topic's name (a label) and the scheduled actions (a
        // timeline, not one value) have no knob; a group's fields are the group table's.
        check_table(
            SCENARIO_KNOBS,
            super::super::presets::PRESETS,
            &["schedule", "topic.name", "version"],
        );
        let presets = super::super::presets::PRESETS.iter().map(|p| (p.build)());
        for scenario in presets.chain([Scenario::default()]) {
            for group in &scenario.groups {
                check_numbers(GROUP_KNOBS, group).unwrap();
            }
        }
        check_choices_spell_the_json(GROUP_KNOBS);
        let group_fields = GROUP_KNOBS.iter().map(|k| k.field);
        check_fields_named_once(SCENARIO_KNOBS.iter().map(|k| k.field).chain(group_fields));
    }

    #[test]
    fn the_poll_interval_shows_its_real_name_and_default() {
        let scenario = Scenario::default();
        let poll = find(GROUP_KNOBS, "groups[].max_poll_interval_ms").unwrap();
        assert_eq!(poll.config_name, Some("max.poll.interval.ms"));
        assert_eq!(poll.display_value(&scenario.groups[0]), "300000");
    }

    #[test]
    fn every_consumer_property_is_a_row_with_its_kafka_name() {
        for field in CONSUMER_PROPERTIES {
            let knob = find(GROUP_KNOBS, field).unwrap_or_else(|| panic!("{field}"));
            let name = knob
                .config_name
                .unwrap_or_else(|| panic!("{field} has no Kafka name"));
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b == b'.'),
                "{name} is not a property name"
            );
        }
    }

    #[test]
    fn the_group_count_knob_adds_groups_with_unused_ids() {
        let knob = find(SCENARIO_KNOBS, "groups").unwrap();
        let number = knob.number().unwrap();
        let mut scenario = Scenario::default();
        (number.set)(&mut scenario, 3.0);
        let ids: Vec<&str> = scenario
            .groups
            .iter()
            .map(|g| g.group_id.as_str())
            .collect();
        assert_eq!(ids, ["search", "analytics", "recommender"]);
        (number.set)(&mut scenario, 1.0);
        assert_eq!(scenario.groups.len(), 1);
    }

    #[test]
    fn the_dead_letter_toggle_names_the_topic_as_spring_does() {
        let knob = find(GROUP_KNOBS, "groups[].errors.dead_letter_topic").unwrap();
        let Control::Toggle { get, set } = knob.control else {
            panic!("a toggle");
        };
        let mut group = GroupConfig::named("search");
        set(&mut group, true);
        assert_eq!(group.errors.dead_letter_topic, "events.DLT");
        assert!(get(&group));
        set(&mut group, false);
        assert!(!get(&group));
    }
}
