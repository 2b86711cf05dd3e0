//! The Scenario: everything a run depends on, as one versioned serde tree.
//!
//! A share link, a CLI scenario file and the browser's knobs are all this one struct. Every
//! field documents its unit, its range and the Kafka setting it stands for; defaults equal
//! Kafka's unless the lesson needs another value, and then the field says why. The family's knob
//! table ([`super::knobs`]) holds each knob's range, name and hint once, so validation, the
//! UI's controls and the docs never disagree.

use crate::assignor::Strategy;
pub use crate::family::ScenarioError;
use crate::kafka::sink::SinkMode;
use serde::{Deserialize, Serialize};

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
    /// Broker settings that shape group membership.
    pub broker: BrokerConfig,
    /// Things that happen to members at given times (a crash, a restart, a pause), so that a
    /// link reproduces what the learner did. At most [`MAX_SCHEDULED_ACTIONS`].
    pub schedule: Vec<ScheduledAction>,
}

/// Most scheduled actions a scenario may carry.
pub const MAX_SCHEDULED_ACTIONS: usize = 200;

/// Group coordinator settings (broker side).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BrokerConfig {
    /// `group.initial.rebalance.delay.ms`: how long the coordinator waits for more members
    /// before a new group's first assignment. Kafka's default is 3000; the first lesson uses 0
    /// so the group is already formed when the picture starts. Range 0..=300_000.
    pub group_initial_rebalance_delay_ms: u32,
    /// `log.retention.check.interval.ms`: how often the broker looks for records to delete
    /// under `retention.ms` / `retention.bytes` (Kafka default 300000). Range 1..=3_600_000.
    pub log_retention_check_interval_ms: u32,
}

impl Default for BrokerConfig {
    fn default() -> Self {
        Self {
            group_initial_rebalance_delay_ms: 3000,
            log_retention_check_interval_ms: 300_000,
        }
    }
}

/// Something that happens to one member at a given time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduledAction {
    pub at_ms: u64,
    pub group_id: String,
    /// A member id such as `c2`; `Start` may name a new member (`c7`) to add one.
    pub member_id: String,
    pub action: MemberAction,
}

/// What happens to a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MemberAction {
    /// The process starts (or starts again) and joins the group.
    Start,
    /// `close()`: a clean shutdown. A dynamic member sends LeaveGroup (a rebalance at once); a
    /// static member (`group.instance.id`) does not, so the coordinator keeps its place until
    /// `session.timeout.ms` passes.
    Leave,
    /// The process dies without a word: no LeaveGroup, no more heartbeats.
    Crash,
    /// A clean leave now and a start `down_ms` later (a deploy, a restart).
    Restart { down_ms: u64 },
    /// A stop-the-world pause (a long GC): no processing and no heartbeats for `duration_ms`.
    Pause { duration_ms: u64 },
    /// Processing takes `factor` times longer for `duration_ms` (a slow downstream), while the
    /// heartbeat thread keeps running.
    SlowDown { duration_ms: u64, factor: u32 },
    /// The whole group's offsets are moved (`kafka-consumer-groups --reset-offsets`, or every
    /// member calling `seek()`): committed offsets and positions jump to `to`, and members
    /// drop the batch they hold. The member id is the one that runs the tool; the reset applies
    /// to every partition of the group. This is the "re-read after a bug fix" move.
    ResetOffsets { to: OffsetTarget },
    /// The member's application deletes what its group has consumed, as if the log were a
    /// queue: `Admin.deleteRecords()` (the `kafka-delete-records` tool) with
    /// `RecordsToDelete.beforeOffset(committed)` for every partition. The log start moves up to
    /// the group's committed offsets, for every group: a slower group, or one replaying, loses
    /// what it had not read yet.
    DeleteRecords,
}

/// Where a reset moves a group's offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OffsetTarget {
    /// The log start offset of each partition (`--to-earliest`).
    Earliest,
    /// The log end offset of each partition (`--to-latest`).
    Latest,
    /// The first record appended at or after `at_ms` (`--to-datetime`).
    Timestamp { at_ms: u64 },
}

/// `auto.offset.reset`: where a consumer starts when it has no valid committed offset (a new
/// group, or an offset that retention deleted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AutoOffsetReset {
    Earliest,
    /// Kafka's default.
    #[default]
    Latest,
    /// No reset: the consumer gets an OffsetOutOfRange error and reads nothing more from that
    /// partition.
    None,
}

/// When the application commits on its own (with `enable.auto.commit` false, or besides it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ManualCommit {
    /// No manual commits: only `enable.auto.commit` and the rebalance listener commit.
    #[default]
    None,
    /// `commitSync()` of the poll's positions right after `poll()`, before any processing.
    BeforeProcessing,
    /// `commitSync()` of one offset after each record's write.
    AfterEachRecord,
    /// `commitSync()` after the whole batch a `poll()` returned is processed.
    AfterBatch,
    /// The offset is written in the same transaction as the output (Kafka transactions with
    /// `sendOffsetsToTransaction`, or an output store that keeps the offsets); a member that is
    /// no longer the owner is fenced and its writes abort.
    Transactional,
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
    /// `retention.ms`: records older than this are deleted (Kafka default 604800000, seven
    /// days; -1 keeps them for ever). Range -1..=604_800_000.
    pub retention_ms: i64,
    /// `retention.bytes`: a partition larger than this deletes its oldest records (Kafka
    /// default -1, no limit). Range -1..=1_000_000_000.
    pub retention_bytes: i64,
    /// Size of one record on the broker in bytes, for `retention.bytes` (not a Kafka setting).
    /// Range 1..=1_000_000.
    pub record_bytes: u32,
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
    /// `partition.assignment.strategy`. Kafka's default list is [range, cooperative-sticky]:
    /// every member lists range first, so the group assigns by range; moving to
    /// cooperative-sticky takes a rolling bounce that removes range from the list.
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
    /// `session.timeout.ms`: a member that sends no heartbeat for this long is declared dead.
    /// Kafka default 45000; the broker allows 6000..=1_800_000.
    pub session_timeout_ms: u32,
    /// `heartbeat.interval.ms`: how often the heartbeat thread reports in (Kafka default 3000;
    /// range 1..=600_000, and below `session.timeout.ms`).
    pub heartbeat_interval_ms: u32,
    /// `max.poll.interval.ms`: longest time between two `poll()` calls before the member is
    /// removed from the group; also how long a rebalance waits for members to rejoin.
    /// Kafka default 300000; range 1..=3_600_000.
    pub max_poll_interval_ms: u32,
    /// Static membership: each member sets `group.instance.id`, so a restart within
    /// `session.timeout.ms` gets its old partitions back without a rebalance.
    pub static_membership: bool,
    /// A rebalance listener that commits in `onPartitionsRevoked`. Matters when
    /// `enable.auto.commit` is false; auto-commit already commits before every rebalance.
    pub commit_on_revoke: bool,
    /// When the application commits by itself (`commitSync()` placement, or transactions).
    pub manual_commit: ManualCommit,
    /// The output store's behaviour with a repeated write (not a Kafka setting).
    pub sink: SinkMode,
    /// `auto.offset.reset`: earliest, latest (Kafka default) or none.
    pub auto_offset_reset: AutoOffsetReset,
    /// When the group's members start, in ms. 0 means from the beginning, with committed
    /// offset 0 everywhere (as if the group existed before the first record); a later start is
    /// a new group with no committed offsets, so `auto.offset.reset` decides where it begins.
    /// Range 0..=3_600_000.
    pub start_ms: u64,
    /// Random crashes: the mean time between two crashes of one member, in ms (exponential,
    /// drawn from the scenario's seed); 0 = never. Range 0..=3_600_000.
    pub crash_mean_interval_ms: u64,
    /// How long a randomly crashed member stays down before it restarts, in ms.
    /// Range 0..=3_600_000.
    pub crash_down_ms: u64,
    /// Lag (records waiting in one partition) that raises an alert, as a monitoring rule on
    /// `records-lag` would; 0 = alert at 100, 1 000, 10 000 and 100 000. Range 0..=10_000_000.
    pub lag_alert_records: u64,
    /// Records the application cannot process, and what its error handler does about them.
    pub errors: ErrorHandling,
}

/// Poison records and the error handler (Kafka's consumer has none built in; the names follow
/// Spring Kafka's `DefaultErrorHandler` and `DeadLetterPublishingRecoverer`, and Kafka
/// Connect's `errors.*` settings).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ErrorHandling {
    /// Every n-th record of each partition (offsets n-1, 2n-1, ...) always fails; 0 = none.
    /// Range 0..=1_000_000.
    pub poison_every_nth: u64,
    /// Each record always fails with this probability, decided by the seed; 0 = none.
    /// Range 0.0..=1.0.
    pub poison_probability: f64,
    /// Each attempt at any record fails with this probability (a timeout, a deadlock): a
    /// transient error that a retry may get past. Decided by the seed per partition, offset and
    /// attempt, so the same run fails the same attempts. 0 = none. Range 0.0..=1.0.
    pub transient_failure_probability: f64,
    /// Deliveries of a failing record before it is given up: `FixedBackOff`'s maxAttempts
    /// retries plus the first try. Spring's default is 10 (9 retries). Range 1..=1_000.
    pub max_attempts: u32,
    /// Wait between two attempts (`FixedBackOff` interval; Spring's default handler uses 0).
    /// Range 0..=600_000.
    pub backoff_ms: u64,
    /// `errors.deadletterqueue.topic.name`: where a record goes once its attempts are used up
    /// (Spring's default is `<topic>.DLT`). Empty: it is logged and skipped, as Spring's
    /// default recoverer does, and counts as lost.
    pub dead_letter_topic: String,
}

impl Default for ErrorHandling {
    fn default() -> Self {
        Self {
            poison_every_nth: 0,
            poison_probability: 0.0,
            transient_failure_probability: 0.0,
            max_attempts: 10,
            backoff_ms: 0,
            dead_letter_topic: String::new(),
        }
    }
}

impl ErrorHandling {
    /// Whether the record at `partition`/`offset` always fails, in the run seeded `seed`.
    pub fn is_poison(&self, seed: u64, partition: u32, offset: u64) -> bool {
        let nth = self.poison_every_nth > 0 && (offset + 1) % self.poison_every_nth == 0;
        nth || (self.poison_probability > 0.0
            && crate::replay::rng::unit_hash(seed, u64::from(partition), offset)
                < self.poison_probability)
    }

    /// Whether attempt `attempt` (1 = the first try) at `partition`/`offset` fails: always for
    /// a poison record, otherwise with `transient_failure_probability`, drawn independently
    /// per attempt from the seed.
    pub fn attempt_fails(&self, seed: u64, partition: u32, offset: u64, attempt: u32) -> bool {
        if self.is_poison(seed, partition, offset) {
            return true;
        }
        // A salt per attempt keeps these draws apart from the poison rule's and each other's.
        let salt = 0x7EA5_1E47_u64 ^ u64::from(attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.transient_failure_probability > 0.0
            && crate::replay::rng::unit_hash(seed ^ salt, u64::from(partition), offset)
                < self.transient_failure_probability
    }
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
            broker: BrokerConfig {
                group_initial_rebalance_delay_ms: 0,
                ..BrokerConfig::default()
            },
            schedule: Vec::new(),
        }
    }
}

impl Default for TopicConfig {
    fn default() -> Self {
        Self {
            name: DEFAULT_TOPIC.into(),
            partitions: 6,
            retention_ms: 604_800_000,
            retention_bytes: -1,
            record_bytes: 1_000,
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
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 3_000,
            max_poll_interval_ms: 300_000,
            static_membership: false,
            commit_on_revoke: false,
            manual_commit: ManualCommit::None,
            sink: SinkMode::Plain,
            auto_offset_reset: AutoOffsetReset::Latest,
            start_ms: 0,
            crash_mean_interval_ms: 0,
            crash_down_ms: 10_000,
            lag_alert_records: 0,
            errors: ErrorHandling::default(),
        }
    }
}

/// The topic every lesson's producer writes to.
pub const DEFAULT_TOPIC: &str = "events";

/// The dead-letter topic Spring's `DeadLetterPublishingRecoverer` names for `topic`.
pub fn dead_letter_topic_for(topic: &str) -> String {
    format!("{topic}.DLT")
}

/// Highest member number a scenario may name (`c64`): the 32 a group starts with plus room
/// for members that join later.
pub const MAX_MEMBER_NUMBER: u32 = 64;

/// Whether `id` is `c1`..=`c64`.
pub fn is_member_id(id: &str) -> bool {
    id.strip_prefix('c')
        .filter(|digits| !digits.starts_with('0'))
        .and_then(|digits| digits.parse::<u32>().ok())
        .is_some_and(|n| (1..=MAX_MEMBER_NUMBER).contains(&n))
}

/// Packs a consumer-group scenario into a link, as a change to the core's default scenario.
pub fn encode_link(scenario: &Scenario) -> String {
    crate::replay::share::encode_against(&Scenario::default(), scenario)
}

/// Reads a link made by [`encode_link`] (or any version 1 link) back into a valid scenario.
pub fn decode_link(link: &str) -> Result<Scenario, crate::replay::share::ShareError> {
    let scenario: Scenario = crate::replay::share::decode_against(
        &Scenario::default(),
        link,
        crate::replay::share::nearest_double,
    )?;
    scenario
        .validate()
        .map_err(|e| crate::replay::share::unreadable(&e.message))?;
    Ok(scenario)
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
        let error = scenario.validate().unwrap_err().message;
        assert!(error.contains("topic.partitions"), "{error}");

        let mut scenario = Scenario::default();
        scenario.producer.key_skew = f64::NAN;
        assert!(scenario
            .validate()
            .unwrap_err()
            .message
            .contains("key_skew"));

        let mut scenario = Scenario::default();
        scenario.groups = vec![GroupConfig::named("a"), GroupConfig::named("a")];
        assert!(scenario.validate().unwrap_err().message.contains("twice"));
    }

    #[test]
    fn missing_fields_take_defaults_and_unknown_fields_are_refused() {
        let scenario: Scenario = serde_json::from_str(r#"{"seed": 9}"#).unwrap();
        assert_eq!(scenario.seed, 9);
        assert_eq!(scenario.topic.partitions, 6);
        assert!(serde_json::from_str::<Scenario>(r#"{"sede": 9}"#).is_err());
    }
}
