//! The Inkwell challenge's scenario: only the knobs a learner may turn, and the fixed
//! consumer-group scenario they are applied to.
//!
//! A submission is an [`InkwellScenario`]: the topic's partitions and retention, and how many
//! consumers each service runs. Everything else (the produce rate, each service's work per
//! record, the warehouse slowdown analytics suffers, the recommender's deploy) is fixed by
//! the challenge and added by [`InkwellScenario::to_kafka`], so a submission cannot make the
//! problem easier than it is: it can only change what an engineer at Inkwell could change.
//! The scheduled events are built per consumer, so a service given more consumers has all of
//! them slowed or redeployed.

use crate::family::ScenarioError;
use crate::kafka::scenario::{
    GroupConfig, MemberAction, Scenario, ScheduledAction, SCENARIO_VERSION as KAFKA_VERSION,
};
use serde::{Deserialize, Serialize};

/// The format version of [`InkwellScenario`]; older versions keep decoding.
pub const SCENARIO_VERSION: u32 = 1;

/// How long every attempt runs, in simulated ms: the goals are judged at its end.
pub const DURATION_MS: u64 = 180_000;

/// Records Inkwell's producers send per second, evenly spaced.
pub const RATE_PER_S: u32 = 300;

/// Bytes one record takes on the broker (what retention keeps).
pub const RECORD_BYTES: u32 = 1_000;

/// How often the broker deletes what retention says has expired. Kafka's default
/// `log.retention.check.interval.ms` is 300000; a challenge three minutes long checks every
/// 5 s, so a deletion is never more than 5 s late.
pub const RETENTION_CHECK_INTERVAL_MS: u32 = 5_000;

/// The three services, in the order they are listed, drawn and given their groups.
pub const SERVICES: [Service; 3] = [Service::Search, Service::Analytics, Service::Recommender];

/// A service reading Inkwell's events, as its own consumer group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Service {
    Search,
    Analytics,
    Recommender,
}

impl Service {
    /// Its `group.id`, and its name in the verdict and the figures.
    pub fn name(self) -> &'static str {
        match self {
            Service::Search => "search",
            Service::Analytics => "analytics",
            Service::Recommender => "recommender",
        }
    }

    /// Its place in [`SERVICES`] and in the consumer-group scenario's groups.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The application's work per record, in ms: what one consumer of the service can do
    /// is 1000 / this records a second, whatever the knobs say.
    pub fn processing_time_ms(self) -> u32 {
        match self {
            Service::Search => 5,
            Service::Analytics => 4,
            Service::Recommender => 12,
        }
    }
}

/// Analytics writes to a warehouse that slows to a fifth of its speed for a minute.
pub const WAREHOUSE_SLOW_AT_MS: u64 = 30_000;
pub const WAREHOUSE_SLOW_FOR_MS: u64 = 60_000;
pub const WAREHOUSE_SLOW_FACTOR: u32 = 5;

/// The recommender's new version is deployed: every consumer stops at this time and starts
/// again [`DEPLOY_DOWN_MS`] later (loading its model), then resumes at its committed offsets.
pub const DEPLOY_AT_MS: u64 = 60_000;
pub const DEPLOY_DOWN_MS: u64 = 20_000;

/// What a learner may change: everything a submission holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InkwellScenario {
    /// Format version of this struct. Always [`SCENARIO_VERSION`] when written.
    pub version: u32,
    /// The topic's partition count: the most consumers one service can keep busy.
    pub partitions: u32,
    /// `retention.ms` of the topic: records older than this are deleted, read or not
    /// (-1 keeps them for ever).
    pub retention_ms: i64,
    /// `retention.bytes` of the topic: a partition larger than this deletes its oldest
    /// records (-1: no limit).
    pub retention_bytes: i64,
    /// Consumers each service runs.
    pub consumers: Consumers,
}

/// How many consumers (members of its consumer group) each service runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Consumers {
    pub search: u32,
    pub analytics: u32,
    pub recommender: u32,
}

impl Consumers {
    pub fn of(&self, service: Service) -> u32 {
        match service {
            Service::Search => self.search,
            Service::Analytics => self.analytics,
            Service::Recommender => self.recommender,
        }
    }

    pub fn total(&self) -> u32 {
        self.search + self.analytics + self.recommender
    }
}

/// The broken start: search runs one consumer for work that needs two, retention is 30 s
/// (someone cut it to save disk), shorter than analytics falls behind while its warehouse is
/// slow, and the recommender's team scaled it to twelve consumers, of which the topic's four
/// partitions keep only four busy, barely faster than the events arrive. The eight idle ones
/// cost as much as busy ones, which puts the start over the budget too.
impl Default for InkwellScenario {
    fn default() -> Self {
        Self {
            version: SCENARIO_VERSION,
            partitions: 4,
            retention_ms: 30_000,
            retention_bytes: -1,
            consumers: Consumers::default(),
        }
    }
}

impl Default for Consumers {
    fn default() -> Self {
        Self {
            search: 1,
            analytics: 2,
            recommender: 12,
        }
    }
}

impl InkwellScenario {
    /// Every knob inside its range, and a version this Streamlab reads.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.version == 0 || self.version > SCENARIO_VERSION {
            return Err(ScenarioError::new(
                "version",
                format!(
                    "scenario version {} is not one this Streamlab reads (1..={SCENARIO_VERSION})",
                    self.version
                ),
            ));
        }
        crate::family::knob::check_numbers(super::knobs::KNOBS, self)
    }

    /// The consumer-group scenario this attempt runs: the challenge's fixed producer,
    /// services and events, with the learner's knobs.
    pub fn to_kafka(&self) -> Scenario {
        let mut scenario = Scenario {
            version: KAFKA_VERSION,
            duration_ms: DURATION_MS,
            ..Scenario::default()
        };
        scenario.topic.name = "inkwell.events".into();
        scenario.topic.partitions = self.partitions;
        scenario.topic.retention_ms = self.retention_ms;
        scenario.topic.retention_bytes = self.retention_bytes;
        scenario.topic.record_bytes = RECORD_BYTES;
        scenario.broker.log_retention_check_interval_ms = RETENTION_CHECK_INTERVAL_MS;
        scenario.producer.rate_per_s = RATE_PER_S;
        // Many keys, evenly busy: every partition gets about the same share of the events,
        // so what a consumer can do is set by how many partitions it owns.
        scenario.producer.key_count = 1_000;
        scenario.groups = SERVICES
            .iter()
            .map(|&service| {
                let mut group = GroupConfig::named(service.name());
                group.members = self.consumers.of(service);
                group.processing.time_ms = service.processing_time_ms();
                group
            })
            .collect();
        scenario.schedule = self.schedule();
        scenario
    }

    /// The warehouse slowdown for every analytics consumer and the deploy for every
    /// recommender consumer.
    fn schedule(&self) -> Vec<ScheduledAction> {
        let every = |service: Service, at_ms: u64, action: MemberAction| {
            (1..=self.consumers.of(service)).map(move |m| ScheduledAction {
                at_ms,
                group_id: service.name().into(),
                member_id: format!("c{m}"),
                action,
            })
        };
        let slow = MemberAction::SlowDown {
            duration_ms: WAREHOUSE_SLOW_FOR_MS,
            factor: WAREHOUSE_SLOW_FACTOR,
        };
        let deploy = MemberAction::Restart {
            down_ms: DEPLOY_DOWN_MS,
        };
        every(Service::Analytics, WAREHOUSE_SLOW_AT_MS, slow)
            .chain(every(Service::Recommender, DEPLOY_AT_MS, deploy))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_parts_follow_the_consumer_counts() {
        let mut scenario = InkwellScenario::default();
        scenario.consumers.analytics = 3;
        scenario.consumers.recommender = 6;
        let kafka = scenario.to_kafka();
        kafka.validate().unwrap();
        let slowed = kafka
            .schedule
            .iter()
            .filter(|a| a.group_id == "analytics")
            .count();
        let deployed = kafka
            .schedule
            .iter()
            .filter(|a| a.group_id == "recommender")
            .count();
        assert_eq!((slowed, deployed), (3, 6));
        assert_eq!(kafka.groups[2].members, 6);
        assert_eq!(kafka.groups[0].processing.time_ms, 5);
    }

    #[test]
    fn a_submission_names_only_knobs_and_the_rest_comes_from_the_default() {
        let partial: InkwellScenario =
            serde_json::from_str(r#"{"partitions": 6, "consumers": {"search": 2}}"#).unwrap();
        assert_eq!(partial.partitions, 6);
        assert_eq!(partial.consumers.search, 2);
        assert_eq!(partial.consumers.recommender, 12);
        assert_eq!(partial.retention_ms, 30_000);
        let tampered = serde_json::from_str::<InkwellScenario>(r#"{"rate_per_s": 10}"#);
        assert!(tampered.unwrap_err().to_string().contains("unknown field"));
    }
}
