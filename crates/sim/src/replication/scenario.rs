//! The replication scenario: a few brokers, one topic whose partitions are replicated across
//! them, one producer with Kafka's durability settings, and a list of faults (a broker that
//! crashes, is cut off from the others, or fetches slowly) at given times. Each field names
//! its unit and the real setting it stands for; the knob table (`knobs.rs`) holds the ranges,
//! and validation reads them there. Defaults are Kafka's where Kafka has one; where the lesson
//! starts elsewhere (three replicas, Kafka's `default.replication.factor` is 1) the knob table
//! says so.

use crate::family::knob::Choice;
use serde::{Deserialize, Serialize};

/// Most brokers a cluster may have.
pub const MAX_BROKERS: u32 = 5;
/// Most partitions the topic may have.
pub const MAX_PARTITIONS: u32 = 4;
/// Most records one run may send (`duration_ms · records_per_second / 1000`): three lanes
/// hold every record in every replica's log, and a knob change rebuilds the run in a browser.
pub const MAX_RECORDS: u64 = 60_000;
/// The record the producer sends as `partition`'s `seq`-th of `partitions`: records go
/// round-robin over the partitions, numbered in the order they are handed to `send()`.
pub fn record_of(partitions: u32, partition: u32, seq: u32) -> u32 {
    seq * partitions + partition
}

/// Longest run: ten minutes of simulated time.
pub const MAX_DURATION_MS: u64 = 600_000;
/// Most faults a scenario may schedule.
pub const MAX_FAULTS: usize = 64;

/// A complete, reproducible description of one replication run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReplicationScenario {
    /// Seed of every draw (network jitter, retry back-off jitter). Any u64.
    pub seed: u64,
    /// How long the producer sends, in ms; the run ends then.
    pub duration_ms: u64,
    pub cluster: ClusterSpec,
    pub topic: TopicSpec,
    pub producer: ProducerSpec,
    /// What happens to brokers, and when, in any order (the run sorts them by time).
    pub faults: Vec<Fault>,
}

impl Default for ReplicationScenario {
    fn default() -> Self {
        Self {
            seed: 1,
            duration_ms: 60_000,
            cluster: ClusterSpec::default(),
            topic: TopicSpec::default(),
            producer: ProducerSpec::default(),
            faults: Vec::new(),
        }
    }
}

/// The brokers and the network between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClusterSpec {
    /// Brokers, numbered from 1.
    pub brokers: u32,
    /// KRaft `broker.session.timeout.ms`: how long the controller waits without a heartbeat
    /// before it fences a broker (moves its leaderships away, drops it from ISRs).
    pub broker_session_timeout_ms: u64,
    /// `replica.lag.time.max.ms`: a follower that has not caught up with the leader's log end
    /// for this long leaves the ISR.
    pub replica_lag_time_max_ms: u64,
    /// `replica.fetch.wait.max.ms`: how long a leader holds a follower's fetch when it has no
    /// new records for it.
    pub replica_fetch_wait_max_ms: u64,
    /// Time a follower takes between receiving a fetch response and asking for more (writing
    /// to its log, its own load), in ms. A slow-follower fault adds to it.
    pub follower_delay_ms: u64,
    /// One-way network delay between any two nodes, in ms; each message takes between this
    /// and twice this (the seed decides).
    pub network_delay_ms: u64,
}

impl Default for ClusterSpec {
    fn default() -> Self {
        Self {
            brokers: 3,
            broker_session_timeout_ms: 9_000,
            replica_lag_time_max_ms: 30_000,
            replica_fetch_wait_max_ms: 500,
            follower_delay_ms: 5,
            network_delay_ms: 1,
        }
    }
}

/// The topic and its replication settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TopicSpec {
    pub partitions: u32,
    /// Replicas of each partition (`--replication-factor`; the broker's
    /// `default.replication.factor` is 1).
    pub replication_factor: u32,
    /// `min.insync.replicas`: with `acks=all`, the fewest in-sync replicas a write needs.
    pub min_insync_replicas: u32,
    /// `unclean.leader.election.enable`: whether a replica outside the ISR may become leader
    /// when no in-sync replica is left.
    pub unclean_leader_election_enable: bool,
}

impl Default for TopicSpec {
    fn default() -> Self {
        Self {
            partitions: 2,
            replication_factor: 3,
            min_insync_replicas: 1,
            unclean_leader_election_enable: false,
        }
    }
}

/// `acks`: when the leader answers a produce request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Acks {
    /// `acks=0`: the producer does not wait for an answer at all.
    #[serde(rename = "0")]
    Zero,
    /// `acks=1`: the leader answers once the records are in its own log.
    #[serde(rename = "1")]
    One,
    /// `acks=all` (`-1`): the leader answers once every in-sync replica has them.
    #[default]
    #[serde(rename = "all")]
    All,
}

impl Acks {
    /// Every setting, in the order the comparison lists them.
    pub const ALL_SETTINGS: [Acks; 3] = [Acks::Zero, Acks::One, Acks::All];

    /// Its name in the figures (`acks_all`).
    pub fn figure_name(self) -> &'static str {
        match self {
            Acks::Zero => "acks_0",
            Acks::One => "acks_1",
            Acks::All => "acks_all",
        }
    }
}

impl Choice for Acks {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Acks::Zero, "0", "0: do not wait"),
        (Acks::One, "1", "1: the leader has it"),
        (Acks::All, "all", "all: every in-sync replica has it"),
    ];
}

/// The producer and its delivery settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProducerSpec {
    /// Records the application sends per second, spread round-robin over the partitions.
    pub records_per_second: u32,
    pub acks: Acks,
    /// `enable.idempotence`: the broker drops a retried batch it already has, recognised by
    /// the producer id and sequence number. Requires `acks=all` and `retries` > 0.
    pub enable_idempotence: bool,
    /// `retries`: how often a batch is sent again after a transient error.
    pub retries: u32,
    /// `request.timeout.ms`: how long the producer waits for an answer before it gives the
    /// request up (and retries it).
    pub request_timeout_ms: u64,
    /// `delivery.timeout.ms`: how long after `send()` a record may take, retries included,
    /// before its callback reports failure.
    pub delivery_timeout_ms: u64,
    /// `retry.backoff.ms`: the first wait before a retry; it doubles on each failure.
    pub retry_backoff_ms: u64,
    /// `retry.backoff.max.ms`: the longest wait before a retry.
    pub retry_backoff_max_ms: u64,
}

impl Default for ProducerSpec {
    fn default() -> Self {
        Self {
            records_per_second: 200,
            acks: Acks::All,
            enable_idempotence: true,
            retries: i32::MAX as u32,
            request_timeout_ms: 30_000,
            delivery_timeout_ms: 120_000,
            retry_backoff_ms: 100,
            retry_backoff_max_ms: 1_000,
        }
    }
}

/// Something that happens to one broker at one time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fault {
    pub at_ms: u64,
    /// The broker's id, from 1.
    pub broker: u32,
    pub kind: FaultKind,
    /// For `slow`: how much longer each of its fetches takes, in ms.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_ms: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// What a fault does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The broker's process dies; its log stays on disk.
    Crash,
    /// The broker's process starts again.
    Restart,
    /// A network partition cuts the broker off from the other brokers and the controller
    /// (clients still reach it).
    Isolate,
    /// The network partition heals.
    Heal,
    /// As a follower, each of its fetches takes `extra_ms` longer (a slow disk, a long pause).
    Slow,
    /// It fetches at its normal pace again.
    Normal,
}

impl Fault {
    pub fn new(at_ms: u64, broker: u32, kind: FaultKind) -> Self {
        Self {
            at_ms,
            broker,
            kind,
            extra_ms: 0,
        }
    }

    pub fn slow(at_ms: u64, broker: u32, extra_ms: u64) -> Self {
        Self {
            at_ms,
            broker,
            kind: FaultKind::Slow,
            extra_ms,
        }
    }
}

impl ReplicationScenario {
    /// Records the producer sends over the run.
    pub fn record_count(&self) -> u64 {
        self.duration_ms * u64::from(self.producer.records_per_second) / 1000
    }

    /// The record the producer sends as partition `partition`'s `seq`-th.
    pub fn record_of(&self, partition: usize, seq: u32) -> u32 {
        record_of(self.topic.partitions, partition as u32, seq)
    }

    /// When record `index` is handed to `send()`, in ms.
    pub fn send_ms(&self, index: u64) -> u64 {
        index * 1000 / u64::from(self.producer.records_per_second.max(1))
    }

    /// The faults in time order (stable, so two at the same instant keep their order).
    pub fn sorted_faults(&self) -> Vec<Fault> {
        let mut faults = self.faults.clone();
        crate::replay::sort::sort_by_key(&mut faults, |f| f.at_ms);
        faults
    }

    /// The brokers (0-based) holding partition `partition`'s replicas, preferred leader first:
    /// replica `i` on broker `(partition + i) mod brokers`, so leaders spread over the brokers.
    pub fn replicas_of(&self, partition: u32) -> Vec<u32> {
        (0..self.topic.replication_factor)
            .map(|i| (partition + i) % self.cluster.brokers)
            .collect()
    }
}
