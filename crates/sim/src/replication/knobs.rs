//! The replication family's knob table: every knob of a [`ReplicationScenario`], written once,
//! with Kafka's name, unit, range, step and hint. Validation, the browser's controls, the
//! real-config panel and the docs read it.
//!
//! Setters keep a scenario runnable where Kafka would refuse a combination: `acks` other than
//! `all`, or `retries=0`, turn `enable.idempotence` off (Kafka throws a `ConfigException` when
//! idempotence is set explicitly with either), and turning idempotence on sets `acks=all`;
//! `request.timeout.ms` stays within `delivery.timeout.ms`; the replication factor stays within
//! the brokers; the rate and the length stop at what a run may hold ([`MAX_RECORDS`]). Faults are
//! not knobs: the picture's buttons and the presets schedule them.

use super::scenario::{
    Acks, ReplicationScenario, MAX_BROKERS, MAX_DURATION_MS, MAX_PARTITIONS, MAX_RECORDS,
};
use crate::family::knob::{
    options, real_number, set_choice, Bounds, Choice, Control, Knob, NumberControl, RunBudget,
};

/// Section headings, in the order a panel shows them.
pub mod section {
    pub const PRODUCER: &str = "Producer";
    pub const TOPIC: &str = "Topic";
    pub const BROKERS: &str = "Brokers and network";
    pub const RUN: &str = "Run";
}

const MS: &str = "ms";

/// A run holds at most [`MAX_RECORDS`], at up to 5000 records a second; the length has no
/// floor of its own here (the knob's range gives it one).
const BUDGET: RunBudget = RunBudget {
    records: MAX_RECORDS,
    max_per_s: 5_000,
    min_ms: 0,
    max_ms: MAX_DURATION_MS,
};

/// Every knob of the family.
pub const KNOBS: &[Knob<ReplicationScenario>] = &[
    Knob {
        field: "producer.acks",
        label: "Acknowledgements",
        config_name: Some("acks"),
        hint:
            "When the leader answers: never (0), once it has the records (1), once every in-sync \
               replica has them (all). The other two settings run beside it for comparison.",
        section: section::PRODUCER,
        control: Control::Choice {
            options: options::<Acks>,
            get: |s| s.producer.acks.value(),
            set: |s, v| {
                set_choice(&mut s.producer.acks, v);
                if s.producer.acks != Acks::All {
                    s.producer.enable_idempotence = false;
                }
            },
        },
    },
    Knob {
        field: "producer.enable_idempotence",
        label: "Idempotent producer",
        config_name: Some("enable.idempotence"),
        hint: "The leader recognises a retried batch by producer id and sequence number and does \
               not write it twice. Needs acks=all and retries > 0; turning it on sets acks=all.",
        section: section::PRODUCER,
        control: Control::Toggle {
            get: |s| s.producer.enable_idempotence,
            set: |s, v| {
                s.producer.enable_idempotence = v;
                if v {
                    s.producer.acks = Acks::All;
                    s.producer.retries = s.producer.retries.max(1);
                }
            },
        },
    },
    Knob {
        field: "producer.retries",
        label: "Retries",
        config_name: Some("retries"),
        hint: "How often a batch is sent again after a transient error; 0 gives the error to the \
               application at once (and turns idempotence off).",
        section: section::PRODUCER,
        control: real_number(
            Bounds::new(0.0, i32::MAX as f64, "retries"),
            1.0,
            Some(20.0),
            None,
            |s| f64::from(s.producer.retries),
            |s, v| {
                s.producer.retries = v as u32;
                if s.producer.retries == 0 {
                    s.producer.enable_idempotence = false;
                }
            },
        ),
    },
    Knob {
        field: "producer.request_timeout_ms",
        label: "Request timeout",
        config_name: Some("request.timeout.ms"),
        hint: "How long the producer waits for an answer before it sends the batch again. Kafka \
               advises more than replica.lag.time.max.ms, or a stuck follower causes retries.",
        section: section::PRODUCER,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(100.0, 300_000.0, MS),
            step: 100.0,
            slider_max: Some(120_000.0),
            config_default: None,
            max_for: Some(|s| s.producer.delivery_timeout_ms as f64),
            get: |s| s.producer.request_timeout_ms as f64,
            set: |s, v| {
                s.producer.request_timeout_ms = (v as u64).min(s.producer.delivery_timeout_ms)
            },
        }),
    },
    Knob {
        field: "producer.delivery_timeout_ms",
        label: "Delivery timeout",
        config_name: Some("delivery.timeout.ms"),
        hint: "How long after send() a record may take, retries included, before its callback \
               reports failure. At least request.timeout.ms.",
        section: section::PRODUCER,
        control: real_number(
            Bounds::new(100.0, 600_000.0, MS),
            1000.0,
            Some(300_000.0),
            None,
            |s| s.producer.delivery_timeout_ms as f64,
            |s, v| {
                s.producer.delivery_timeout_ms = v as u64;
                s.producer.request_timeout_ms = s
                    .producer
                    .request_timeout_ms
                    .min(s.producer.delivery_timeout_ms);
            },
        ),
    },
    Knob {
        field: "producer.retry_backoff_ms",
        label: "Retry back-off",
        config_name: Some("retry.backoff.ms"),
        hint: "The first wait before a retry; it doubles on every failure, with 20 % jitter.",
        section: section::PRODUCER,
        control: real_number(
            Bounds::new(0.0, 10_000.0, MS),
            10.0,
            Some(2_000.0),
            None,
            |s| s.producer.retry_backoff_ms as f64,
            |s, v| s.producer.retry_backoff_ms = v as u64,
        ),
    },
    Knob {
        field: "producer.retry_backoff_max_ms",
        label: "Longest retry back-off",
        config_name: Some("retry.backoff.max.ms"),
        hint: "The back-off stops doubling here.",
        section: section::PRODUCER,
        control: real_number(
            Bounds::new(1.0, 60_000.0, MS),
            100.0,
            Some(10_000.0),
            None,
            |s| s.producer.retry_backoff_max_ms as f64,
            |s, v| s.producer.retry_backoff_max_ms = v as u64,
        ),
    },
    Knob {
        field: "producer.records_per_second",
        label: "Send rate",
        config_name: None,
        hint: "Records the application sends per second, round-robin over the partitions.",
        section: section::PRODUCER,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, 5_000.0, "records/s"),
            step: 10.0,
            slider_max: Some(2_000.0),
            config_default: None,
            max_for: Some(|s| f64::from(BUDGET.max_rate_per_s(s.duration_ms))),
            get: |s| f64::from(s.producer.records_per_second),
            set: |s, v| {
                s.producer.records_per_second = (v as u32).min(BUDGET.max_rate_per_s(s.duration_ms))
            },
        }),
    },
    Knob {
        field: "topic.partitions",
        label: "Partitions",
        config_name: Some("num.partitions"),
        hint: "Partitions of the topic; their leaders spread over the brokers.",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(1.0, MAX_PARTITIONS as f64, "partitions"),
            1.0,
            None,
            Some(1.0),
            |s| f64::from(s.topic.partitions),
            |s, v| s.topic.partitions = v as u32,
        ),
    },
    Knob {
        field: "topic.replication_factor",
        label: "Replication factor",
        config_name: Some("default.replication.factor"),
        hint: "Copies of each partition, the leader included, each on its own broker.",
        section: section::TOPIC,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, MAX_BROKERS as f64, "replicas"),
            step: 1.0,
            slider_max: None,
            config_default: Some(1.0),
            max_for: Some(|s| f64::from(s.cluster.brokers)),
            get: |s| f64::from(s.topic.replication_factor),
            set: |s, v| s.topic.replication_factor = (v as u32).clamp(1, s.cluster.brokers),
        }),
    },
    Knob {
        field: "topic.min_insync_replicas",
        label: "Min in-sync replicas",
        config_name: Some("min.insync.replicas"),
        hint: "With acks=all, the fewest in-sync replicas (leader included) a write needs; fewer, \
               and it is refused with NotEnoughReplicas. Ignored by acks=0 and 1.",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(1.0, MAX_BROKERS as f64, "replicas"),
            1.0,
            None,
            None,
            |s| f64::from(s.topic.min_insync_replicas),
            |s, v| s.topic.min_insync_replicas = v as u32,
        ),
    },
    Knob {
        field: "topic.unclean_leader_election_enable",
        label: "Unclean leader election",
        config_name: Some("unclean.leader.election.enable"),
        hint: "When no in-sync replica is left, elect one that is out of sync rather than stay \
               offline: available again, but acknowledged writes it lacks are lost.",
        section: section::TOPIC,
        control: Control::Toggle {
            get: |s| s.topic.unclean_leader_election_enable,
            set: |s, v| s.topic.unclean_leader_election_enable = v,
        },
    },
    Knob {
        field: "cluster.brokers",
        label: "Brokers",
        config_name: None,
        hint:
            "Brokers in the cluster, numbered from 1. Faults on brokers that no longer exist are \
               dropped.",
        section: section::BROKERS,
        control: real_number(
            Bounds::new(1.0, MAX_BROKERS as f64, "brokers"),
            1.0,
            None,
            None,
            |s| f64::from(s.cluster.brokers),
            |s, v| {
                s.cluster.brokers = v as u32;
                s.topic.replication_factor = s.topic.replication_factor.min(s.cluster.brokers);
                let brokers = s.cluster.brokers;
                s.faults.retain(|f| f.broker <= brokers);
            },
        ),
    },
    Knob {
        field: "cluster.replica_lag_time_max_ms",
        label: "Replica lag time",
        config_name: Some("replica.lag.time.max.ms"),
        hint: "A follower that has not caught up with the leader's log end for this long leaves \
               the ISR (checked every half of it).",
        section: section::BROKERS,
        control: real_number(
            Bounds::new(1_000.0, 300_000.0, MS),
            1000.0,
            Some(60_000.0),
            None,
            |s| s.cluster.replica_lag_time_max_ms as f64,
            |s, v| s.cluster.replica_lag_time_max_ms = v as u64,
        ),
    },
    Knob {
        field: "cluster.replica_fetch_wait_max_ms",
        label: "Fetch wait",
        config_name: Some("replica.fetch.wait.max.ms"),
        hint: "How long a leader holds a follower's fetch when it has nothing new for it.",
        section: section::BROKERS,
        control: real_number(
            Bounds::new(1.0, 10_000.0, MS),
            10.0,
            Some(2_000.0),
            None,
            |s| s.cluster.replica_fetch_wait_max_ms as f64,
            |s, v| s.cluster.replica_fetch_wait_max_ms = v as u64,
        ),
    },
    Knob {
        field: "cluster.broker_session_timeout_ms",
        label: "Broker session timeout",
        config_name: Some("broker.session.timeout.ms"),
        hint: "How long the controller waits without a heartbeat before it fences a broker and \
               moves its leaderships: the least a failover takes.",
        section: section::BROKERS,
        control: real_number(
            Bounds::new(1_000.0, 120_000.0, MS),
            1000.0,
            Some(30_000.0),
            None,
            |s| s.cluster.broker_session_timeout_ms as f64,
            |s, v| s.cluster.broker_session_timeout_ms = v as u64,
        ),
    },
    Knob {
        field: "cluster.follower_delay_ms",
        label: "Follower delay",
        config_name: None,
        hint: "Time a follower takes to write what it fetched before it fetches again; the gap \
               acks=1 can lose in a crash, and what acks=all waits for.",
        section: section::BROKERS,
        control: real_number(
            Bounds::new(0.0, 10_000.0, MS),
            1.0,
            Some(500.0),
            None,
            |s| s.cluster.follower_delay_ms as f64,
            |s, v| s.cluster.follower_delay_ms = v as u64,
        ),
    },
    Knob {
        field: "cluster.network_delay_ms",
        label: "Network delay",
        config_name: None,
        hint: "One-way delay between any two nodes; each message takes between this and twice \
               this.",
        section: section::BROKERS,
        control: real_number(
            Bounds::new(0.0, 1_000.0, MS),
            1.0,
            Some(100.0),
            None,
            |s| s.cluster.network_delay_ms as f64,
            |s, v| s.cluster.network_delay_ms = v as u64,
        ),
    },
    Knob {
        field: "duration_ms",
        label: "Run length",
        config_name: None,
        hint: "How long the producer sends; the run ends then.",
        section: section::RUN,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1_000.0, MAX_DURATION_MS as f64, MS),
            step: 1000.0,
            slider_max: Some(300_000.0),
            config_default: None,
            max_for: Some(|s| BUDGET.max_duration_ms(s.producer.records_per_second) as f64),
            get: |s| s.duration_ms as f64,
            set: |s, v| {
                s.duration_ms =
                    (v as u64).min(BUDGET.max_duration_ms(s.producer.records_per_second))
            },
        }),
    },
    Knob {
        field: "seed",
        label: "Seed",
        config_name: None,
        hint: "Seed of every draw (network jitter, back-off jitter); same seed, same run.",
        section: section::RUN,
        control: Control::Whole {
            get: |s| s.seed,
            set: |s, v| s.seed = v,
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::{check_table, find};

    #[test]
    fn the_table_passes_the_checks_every_table_must() {
        // The faults are a list of what happens to brokers and when, not one value a knob
        // could set.
        check_table(KNOBS, super::super::PRESETS, &["faults"]);
    }

    fn set(scenario: &mut ReplicationScenario, field: &str, value: f64) {
        match &find(KNOBS, field).unwrap().control {
            Control::Number(n) => (n.set)(scenario, value),
            Control::Toggle { set, .. } => set(scenario, value != 0.0),
            _ => panic!("{field} is not a number"),
        }
    }

    #[test]
    fn setters_keep_kafkas_idempotence_rules() {
        let mut s = ReplicationScenario::default();
        (match &find(KNOBS, "producer.acks").unwrap().control {
            Control::Choice { set, .. } => *set,
            _ => unreachable!(),
        })(&mut s, "1");
        assert_eq!(s.producer.acks, Acks::One);
        assert!(
            !s.producer.enable_idempotence,
            "acks=1 turns idempotence off"
        );
        set(&mut s, "producer.enable_idempotence", 1.0);
        assert_eq!(s.producer.acks, Acks::All, "idempotence needs acks=all");
        set(&mut s, "producer.retries", 0.0);
        assert!(!s.producer.enable_idempotence, "retries=0 turns it off");
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn setters_keep_knobs_within_each_other() {
        let mut s = ReplicationScenario::default();
        set(&mut s, "producer.delivery_timeout_ms", 10_000.0);
        assert_eq!(s.producer.request_timeout_ms, 10_000);
        set(&mut s, "cluster.brokers", 2.0);
        assert_eq!(s.topic.replication_factor, 2);
        set(&mut s, "producer.records_per_second", 5_000.0);
        assert!(s.record_count() <= MAX_RECORDS);
        assert_eq!(s.validate(), Ok(()));
    }
}
