//! The real configuration behind the consumer-group knobs: the Kafka consumer properties a
//! scenario stands for, with the topic and producer settings as comments. A pure function of
//! the scenario, so a test can check every mapping and the "real config" panel shows exactly
//! what the run used.

use std::fmt::Write as _;
use streamlab_sim::family::knob::find;
use streamlab_sim::kafka::knobs::{CONSUMER_PROPERTIES, GROUP_KNOBS};
use streamlab_sim::kafka::scenario::{GroupConfig, ManualCommit};
use streamlab_sim::kafka::sink::SinkMode;
use streamlab_sim::kafka::Scenario;

/// A `consumer.properties` file for the first group's members (the group the lesson is about),
/// with the topic and producer settings as comments, since they live elsewhere in Kafka.
pub fn kafka_consumer_properties(scenario: &Scenario) -> String {
    let mut lines = Lines::default();
    lines.put(format_args!(
        "# Topic {}: num.partitions={} (set when the topic is created)",
        scenario.topic.name, scenario.topic.partitions
    ));
    lines.put(format_args!(
        "# Producer: linger.ms={}; about {} records/s over {} keys",
        scenario.producer.linger_ms, scenario.producer.rate_per_s, scenario.producer.key_count
    ));
    lines.put(format_args!(
        "# Topic configs: retention.ms={} retention.bytes={}",
        scenario.topic.retention_ms, scenario.topic.retention_bytes
    ));
    let Some(group) = scenario.groups.first() else {
        return lines.0;
    };
    lines.put(format_args!(
        "# {} consumers run with these properties",
        group.members
    ));
    lines.put(format_args!("group.id={}", group.group_id));
    lines.put(format_args!(
        "partition.assignment.strategy={}",
        group.partition_assignment_strategy.kafka_class_name()
    ));
    // Each property's name and value come from its knob's row, as the controls show them.
    for field in CONSUMER_PROPERTIES {
        if let Some(knob) = find(GROUP_KNOBS, field) {
            if let Some(name) = knob.config_name {
                lines.put(format_args!("{name}={}", knob.display_value(group)));
            }
        }
    }
    commit_lines(&mut lines, group);
    if group.static_membership {
        lines.put(format_args!(
            "# static membership: each instance sets its own, stable id"
        ));
        lines.put(format_args!(
            "group.instance.id=<unique per instance, e.g. the host name>"
        ));
    }
    if group.commit_on_revoke {
        lines.put(format_args!(
            "# and a ConsumerRebalanceListener that calls commitSync() in onPartitionsRevoked"
        ));
    }
    if let [_, others @ ..] = &scenario.groups[..] {
        if !others.is_empty() {
            lines.put(format_args!("# other groups reading the same topic: "));
            for (i, other) in others.iter().enumerate() {
                let comma = if i == 0 { "" } else { ", " };
                let _ = write!(lines.0, "{comma}{}", other.group_id);
            }
        }
    }
    lines.0
}

/// A properties file's text, a line at a time (no newline after the last).
#[derive(Default)]
struct Lines(String);

impl Lines {
    fn put(&mut self, line: std::fmt::Arguments) {
        if !self.0.is_empty() {
            self.0.push('\n');
        }
        let _ = self.0.write_fmt(line);
    }
}

/// What "offsets in the output's transaction" needs in a real deployment: the guarantee holds
/// only when whoever reads the output skips aborted writes, or when the output is a database
/// that stores the offset itself.
const TRANSACTIONAL_NOTES: &[&str] = &[
    "# readers of the output topic need isolation.level=read_committed (the default, read_uncommitted, also sees aborted writes)",
    "isolation.level=read_committed",
    "# or, for a database output: store the offset in the same database transaction and seek() to it in onPartitionsAssigned",
];

/// How the application commits and handles failures: code, not properties, so comments.
fn commit_lines(lines: &mut Lines, group: &GroupConfig) {
    let commit = match group.manual_commit {
        ManualCommit::None => None,
        ManualCommit::BeforeProcessing => Some("# consumer.commitSync() right after poll(), before processing"),
        ManualCommit::AfterEachRecord => Some("# consumer.commitSync(offset + 1) after each record's write"),
        ManualCommit::AfterBatch => Some("# consumer.commitSync() after the whole batch is processed"),
        ManualCommit::Transactional => Some(
            "# producer.sendOffsetsToTransaction(...) then commitTransaction(): offsets and output in one transaction",
        ),
    };
    if let Some(commit) = commit {
        lines.put(format_args!("{commit}"));
    }
    if group.manual_commit == ManualCommit::Transactional {
        for note in TRANSACTIONAL_NOTES {
            lines.put(format_args!("{note}"));
        }
    }
    if group.sink == SinkMode::Idempotent {
        lines.put(format_args!(
            "# the output store ignores a write it already holds (keyed by partition and offset)"
        ));
    }
    if group.sink == SinkMode::ByKey {
        lines.put(format_args!(
            "# the output store upserts by record key and ignores a write older than the key's newest offset"
        ));
    }
    let errors = &group.errors;
    if errors.poison_every_nth > 0
        || errors.poison_probability > 0.0
        || errors.transient_failure_probability > 0.0
    {
        lines.put(format_args!(
            "# Spring Kafka: new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template), new FixedBackOff({}, {}))",
            errors.backoff_ms,
            errors.max_attempts.saturating_sub(1)
        ));
        lines.put(format_args!(
            "# dead-letter topic: {}",
            errors.dead_letter_topic
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_consumer_properties_name_every_group_knob_with_its_value() {
        let mut scenario = Scenario::default();
        let group = &mut scenario.groups[0];
        group.max_poll_records = 50;
        group.enable_auto_commit = false;
        group.session_timeout_ms = 10_000;
        let properties = kafka_consumer_properties(&scenario);
        for line in [
            "max.poll.records=50",
            "enable.auto.commit=false",
            "session.timeout.ms=10000",
            "auto.commit.interval.ms=5000",
            "max.poll.interval.ms=300000",
        ] {
            assert!(
                properties.lines().any(|l| l == line),
                "{line} in\n{properties}"
            );
        }
        assert!(!properties.contains("group.instance.id"));
    }

    #[wasm_bindgen_test]
    fn static_membership_and_the_strategy_class_appear() {
        let mut scenario = Scenario::default();
        scenario.groups[0].static_membership = true;
        scenario.groups[0].partition_assignment_strategy =
            streamlab_sim::assignor::Strategy::CooperativeSticky;
        let properties = kafka_consumer_properties(&scenario);
        assert!(properties.contains("group.instance.id="));
        assert!(properties.contains(
            "partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
        ));
    }

    #[wasm_bindgen_test]
    fn the_file_ends_with_the_other_groups_and_no_blank_line() {
        let mut scenario = Scenario::default();
        scenario.groups.push(GroupConfig::named("analytics"));
        scenario.groups.push(GroupConfig::named("recommender"));
        scenario.groups[0].manual_commit = ManualCommit::Transactional;
        let properties = kafka_consumer_properties(&scenario);
        let lines: Vec<&str> = properties.split('\n').collect();
        assert!(lines[0].starts_with("# Topic "), "{properties}");
        assert_eq!(
            lines.last(),
            Some(&"# other groups reading the same topic: analytics, recommender")
        );
        assert!(lines.iter().all(|line| !line.is_empty()), "{properties}");
        let notes = lines.iter().position(|l| *l == TRANSACTIONAL_NOTES[0]);
        let notes = notes.expect("the transactional notes");
        assert_eq!(lines[notes..notes + 3], TRANSACTIONAL_NOTES[..]);
    }
}
