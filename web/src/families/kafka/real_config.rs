//! The real configuration behind the consumer-group knobs: the Kafka consumer properties a
//! scenario stands for, with the topic and producer settings as comments. A pure function of
//! the scenario, so a test can check every mapping and the "real config" panel shows exactly
//! what the run used.

use streamlab_sim::family::knob::find;
use streamlab_sim::kafka::knobs::{CONSUMER_PROPERTIES, GROUP_KNOBS};
use streamlab_sim::kafka::scenario::{GroupConfig, ManualCommit};
use streamlab_sim::kafka::sink::SinkMode;
use streamlab_sim::kafka::Scenario;

/// A `consumer.properties` file for the first group's members (the group the lesson is about),
/// with the topic and producer settings as comments, since they live elsewhere in Kafka.
pub fn kafka_consumer_properties(scenario: &Scenario) -> String {
    let mut lines = vec![
        format!(
            "# Topic {}: num.partitions={} (set when the topic is created)",
            scenario.topic.name, scenario.topic.partitions
        ),
        format!(
            "# Producer: linger.ms={}; about {} records/s over {} keys",
            scenario.producer.linger_ms, scenario.producer.rate_per_s, scenario.producer.key_count
        ),
    ];
    lines.push(format!(
        "# Topic configs: retention.ms={} retention.bytes={}",
        scenario.topic.retention_ms, scenario.topic.retention_bytes
    ));
    let Some(group) = scenario.groups.first() else {
        return lines.join("\n");
    };
    lines.extend([
        format!("# {} consumers run with these properties", group.members),
        format!("group.id={}", group.group_id),
        format!(
            "partition.assignment.strategy={}",
            group.partition_assignment_strategy.kafka_class_name()
        ),
    ]);
    // Each property's name and value come from its knob's row, as the controls show them.
    lines.extend(CONSUMER_PROPERTIES.iter().filter_map(|field| {
        let knob = find(GROUP_KNOBS, field)?;
        Some(format!(
            "{}={}",
            knob.config_name?,
            knob.display_value(group)
        ))
    }));
    lines.extend(commit_lines(group));
    if group.static_membership {
        lines.push("# static membership: each instance sets its own, stable id".into());
        lines.push("group.instance.id=<unique per instance, e.g. the host name>".into());
    }
    if group.commit_on_revoke {
        lines.push(
            "# and a ConsumerRebalanceListener that calls commitSync() in onPartitionsRevoked"
                .into(),
        );
    }
    if scenario.groups.len() > 1 {
        let others: Vec<&str> = scenario.groups[1..]
            .iter()
            .map(|g| g.group_id.as_str())
            .collect();
        lines.push(format!(
            "# other groups reading the same topic: {}",
            others.join(", ")
        ));
    }
    lines.join("\n")
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
fn commit_lines(group: &GroupConfig) -> Vec<String> {
    let mut lines = Vec::new();
    let commit = match group.manual_commit {
        ManualCommit::None => None,
        ManualCommit::BeforeProcessing => Some("# consumer.commitSync() right after poll(), before processing"),
        ManualCommit::AfterEachRecord => Some("# consumer.commitSync(offset + 1) after each record's write"),
        ManualCommit::AfterBatch => Some("# consumer.commitSync() after the whole batch is processed"),
        ManualCommit::Transactional => Some(
            "# producer.sendOffsetsToTransaction(...) then commitTransaction(): offsets and output in one transaction",
        ),
    };
    lines.extend(commit.map(str::to_owned));
    if group.manual_commit == ManualCommit::Transactional {
        lines.extend(TRANSACTIONAL_NOTES.iter().map(|line| (*line).to_owned()));
    }
    if group.sink == SinkMode::Idempotent {
        lines.push(
            "# the output store ignores a write it already holds (keyed by partition and offset)"
                .into(),
        );
    }
    if group.sink == SinkMode::ByKey {
        lines.push(
            "# the output store upserts by record key and ignores a write older than the key's newest offset"
                .into(),
        );
    }
    let errors = &group.errors;
    if errors.poison_every_nth > 0
        || errors.poison_probability > 0.0
        || errors.transient_failure_probability > 0.0
    {
        lines.push(format!(
            "# Spring Kafka: new DefaultErrorHandler(new DeadLetterPublishingRecoverer(template), new FixedBackOff({}, {}))",
            errors.backoff_ms,
            errors.max_attempts.saturating_sub(1)
        ));
        lines.push(format!("# dead-letter topic: {}", errors.dead_letter_topic));
    }
    lines
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
}
