//! The Scenario: everything a run depends on, as one versioned serde tree.
//!
//! A share link, a CLI scenario file and the browser's knobs are all this one struct. Every
//! field documents its unit, its range and the Kafka setting it stands for; defaults equal
//! Kafka's unless the lesson needs another value, and then the field says why. [`KNOBS`] holds
//! each numeric knob's range once, so validation, the UI's sliders and the docs never disagree.

use crate::assignor::Strategy;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The format version written into every scenario; older versions keep decoding.
pub const SCENARIO_VERSION: u32 = 1;

/// Most groups a scenario may hold (one stored copy, read by up to three teams).
pub const MAX_GROUPS: usize = 3;

/// A complete, reproducible description of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// Format version of this struct (not a Kafka setting). Always [`SCENARIO_VERSION`] when
    /// written; a link from a newer Streamlab is refused with a message.
    pub version: u32,
    /// Seed of every random draw in the run (key choice, processing times). Any u64.
    pub seed: u64,
    /// How long a headless run (`streamlab simulate`) lasts, in simulated ms; 1..=3_600_000.
    pub duration_ms: u64,
    pub topic: TopicConfig,
    pub producer: ProducerConfig,
    /// The consumer groups reading the topic, 1..=3, each at its own position.
    pub groups: Vec<GroupConfig>,
}

/// The topic every producer writes to and every group reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TopicConfig {
    /// Topic name, shown in the diagram.
    pub name: String,
    /// Partition count (`num.partitions`, whose broker default is 1; the lesson starts at 6 so
    /// that sharing work is visible). Range 1..=64.
    pub partitions: u32,
}

/// How records are produced (the Kafka producer's side).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProducerConfig {
    /// Records produced per second, evenly spaced. Range 0..=100_000.
    pub rate_per_s: u32,
    /// Number of distinct keys; 0 sends null keys (the partitioner then spreads batches).
    /// Range 0..=100_000.
    pub key_count: u32,
    /// Zipf exponent of key popularity: 0 = every key equally likely, 1 = classic Zipf,
    /// 3 = one key takes nearly everything. Range 0.0..=3.0.
    pub key_skew: f64,
    /// `linger.ms`: how long a record waits in the producer before it is appended. Kafka 4.0's
    /// default is 5. Range 0..=10_000.
    pub linger_ms: u32,
}

/// One consumer group: its members and the consumer settings they all share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GroupConfig {
    /// `group.id`.
    pub group_id: String,
    /// Consumer processes in the group. Range 0..=32.
    pub members: u32,
    /// `partition.assignment.strategy`. Kafka's default list is [range, cooperative-sticky],
    /// which assigns by range until every member supports cooperative.
    pub partition_assignment_strategy: Strategy,
    /// `max.poll.records`: most records one `poll()` returns. Kafka default 500; 1..=10_000.
    pub max_poll_records: u32,
    /// `enable.auto.commit`: commit the positions inside `poll()` (Kafka default true).
    pub enable_auto_commit: bool,
    /// `auto.commit.interval.ms`: Kafka default 5000; range 1..=600_000.
    pub auto_commit_interval_ms: u32,
    /// `fetch.max.wait.ms`: how long an empty fetch waits for data. Kafka default 500;
    /// range 0..=60_000.
    pub fetch_max_wait_ms: u32,
    /// The application's work per record (not a Kafka setting).
    pub processing: ProcessingConfig,
}

/// How long the application takes to handle one record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProcessingConfig {
    /// Mean processing time per record in ms. Range 0..=10_000.
    pub time_ms: u32,
    /// How the time varies around the mean.
    pub distribution: Distribution,
}

/// The shape of per-record processing times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Distribution {
    /// Every record takes exactly the mean.
    #[default]
    Constant,
    /// Uniform between 0 and twice the mean.
    Uniform,
    /// Exponential with the given mean: mostly quick, sometimes slow.
    Exponential,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            version: SCENARIO_VERSION,
            seed: 42,
            duration_ms: 60_000,
            topic: TopicConfig::default(),
            producer: ProducerConfig::default(),
            groups: vec![GroupConfig::default()],
        }
    }
}

impl Default for TopicConfig {
    fn default() -> Self {
        Self {
            name: "events".into(),
            partitions: 6,
        }
    }
}

impl Default for ProducerConfig {
    fn default() -> Self {
        Self {
            rate_per_s: 200,
            key_count: 50,
            key_skew: 0.0,
            linger_ms: 5,
        }
    }
}

impl Default for GroupConfig {
    fn default() -> Self {
        Self::named(DEFAULT_GROUP_IDS[0])
    }
}

impl Default for ProcessingConfig {
    fn default() -> Self {
        Self {
            time_ms: 10,
            distribution: Distribution::Constant,
        }
    }
}

/// Group ids the lessons use, after the three services of the seed story (search, analytics,
/// a recommender) reading one stream of events.
pub const DEFAULT_GROUP_IDS: [&str; MAX_GROUPS] = ["search", "analytics", "recommender"];

impl GroupConfig {
    /// A group with Kafka's default consumer settings and three members.
    pub fn named(group_id: &str) -> Self {
        Self {
            group_id: group_id.into(),
            members: 3,
            partition_assignment_strategy: Strategy::Range,
            max_poll_records: 500,
            enable_auto_commit: true,
            auto_commit_interval_ms: 5000,
            fetch_max_wait_ms: 500,
            processing: ProcessingConfig::default(),
        }
    }
}

/// The documented range of one numeric knob.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnobRange {
    /// Path of the field in the scenario (`groups[].max_poll_records`).
    pub field: &'static str,
    /// The real system's name for it, or `None` for an application-level knob.
    pub config_name: Option<&'static str>,
    pub min: f64,
    pub max: f64,
    pub unit: &'static str,
}

const fn knob(
    field: &'static str,
    config_name: Option<&'static str>,
    min: f64,
    max: f64,
    unit: &'static str,
) -> KnobRange {
    KnobRange {
        field,
        config_name,
        min,
        max,
        unit,
    }
}

/// Every numeric knob's range, in one place.
pub const KNOBS: &[KnobRange] = &[
    knob("duration_ms", None, 1.0, 3_600_000.0, "ms"),
    knob("topic.partitions", Some("num.partitions"), 1.0, 64.0, "partitions"),
    knob("producer.rate_per_s", None, 0.0, 100_000.0, "records/s"),
    knob("producer.key_count", None, 0.0, 100_000.0, "keys"),
    knob("producer.key_skew", None, 0.0, 3.0, "Zipf exponent"),
    knob("producer.linger_ms", Some("linger.ms"), 0.0, 10_000.0, "ms"),
    knob("groups[].members", None, 0.0, 32.0, "members"),
    knob("groups[].max_poll_records", Some("max.poll.records"), 1.0, 10_000.0, "records"),
    knob(
        "groups[].auto_commit_interval_ms",
        Some("auto.commit.interval.ms"),
        1.0,
        600_000.0,
        "ms",
    ),
    knob("groups[].fetch_max_wait_ms", Some("fetch.max.wait.ms"), 0.0, 60_000.0, "ms"),
    knob("groups[].processing.time_ms", None, 0.0, 10_000.0, "ms/record"),
];

/// The range of the knob at `field`; panics on a typo, which tests catch at once.
pub fn knob_range(field: &str) -> KnobRange {
    *KNOBS
        .iter()
        .find(|k| k.field == field)
        .unwrap_or_else(|| panic!("no knob named {field}"))
}

/// Why a scenario cannot run: one line naming the field and the allowed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError(pub String);

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScenarioError {}

fn check(field: &str, value: f64) -> Result<(), ScenarioError> {
    let range = knob_range(field);
    // `!(a <= v)` also rejects NaN, which a plain `v < a` would let through.
    if !(range.min <= value && value <= range.max) {
        return Err(ScenarioError(format!(
            "{field} is {value}, outside its range {}..={} {}",
            range.min, range.max, range.unit
        )));
    }
    Ok(())
}

impl Scenario {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.version == 0 || self.version > SCENARIO_VERSION {
            return Err(ScenarioError(format!(
                "scenario version {} is not one this Streamlab reads (1..={SCENARIO_VERSION})",
                self.version
            )));
        }
        check("duration_ms", self.duration_ms as f64)?;
        check("topic.partitions", f64::from(self.topic.partitions))?;
        check("producer.rate_per_s", f64::from(self.producer.rate_per_s))?;
        check("producer.key_count", f64::from(self.producer.key_count))?;
        check("producer.key_skew", self.producer.key_skew)?;
        check("producer.linger_ms", f64::from(self.producer.linger_ms))?;
        if self.groups.is_empty() || self.groups.len() > MAX_GROUPS {
            return Err(ScenarioError(format!(
                "groups has {} entries; a scenario has 1..={MAX_GROUPS} groups",
                self.groups.len()
            )));
        }
        for group in &self.groups {
            group.validate()?;
        }
        self.check_unique_group_ids()
    }

    fn check_unique_group_ids(&self) -> Result<(), ScenarioError> {
        for (i, group) in self.groups.iter().enumerate() {
            if self.groups[..i].iter().any(|g| g.group_id == group.group_id) {
                return Err(ScenarioError(format!(
                    "group.id {:?} appears twice; each group needs its own id",
                    group.group_id
                )));
            }
        }
        Ok(())
    }
}

impl GroupConfig {
    fn validate(&self) -> Result<(), ScenarioError> {
        if self.group_id.is_empty() || self.group_id.len() > 64 {
            return Err(ScenarioError(
                "group.id must be 1..=64 characters long".to_string(),
            ));
        }
        check("groups[].members", f64::from(self.members))?;
        check("groups[].max_poll_records", f64::from(self.max_poll_records))?;
        check(
            "groups[].auto_commit_interval_ms",
            f64::from(self.auto_commit_interval_ms),
        )?;
        check("groups[].fetch_max_wait_ms", f64::from(self.fetch_max_wait_ms))?;
        check("groups[].processing.time_ms", f64::from(self.processing.time_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_scenario_is_valid_and_uses_kafka_defaults() {
        let scenario = Scenario::default();
        scenario.validate().unwrap();
        let group = &scenario.groups[0];
        assert_eq!(group.max_poll_records, 500);
        assert!(group.enable_auto_commit);
        assert_eq!(group.auto_commit_interval_ms, 5000);
        assert_eq!(group.fetch_max_wait_ms, 500);
        assert_eq!(group.partition_assignment_strategy, Strategy::Range);
    }

    #[test]
    fn out_of_range_values_name_the_field() {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = 65;
        let error = scenario.validate().unwrap_err().0;
        assert!(error.contains("topic.partitions"), "{error}");

        let mut scenario = Scenario::default();
        scenario.producer.key_skew = f64::NAN;
        assert!(scenario.validate().unwrap_err().0.contains("key_skew"));

        let mut scenario = Scenario::default();
        scenario.groups = vec![GroupConfig::named("a"), GroupConfig::named("a")];
        assert!(scenario.validate().unwrap_err().0.contains("twice"));
    }

    #[test]
    fn missing_fields_take_defaults_and_unknown_fields_are_refused() {
        let scenario: Scenario = serde_json::from_str(r#"{"seed": 9}"#).unwrap();
        assert_eq!(scenario.seed, 9);
        assert_eq!(scenario.topic.partitions, 6);
        assert!(serde_json::from_str::<Scenario>(r#"{"sede": 9}"#).is_err());
    }
}
