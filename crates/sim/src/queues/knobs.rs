//! The queues family's knob table: every knob of a [`QueuesScenario`], written once, with the
//! real system's name (Kafka, RabbitMQ, Kinesis), unit, range, step and hint. Validation, the
//! browser's controls and the docs read it.
//!
//! Setters keep a scenario runnable where one knob limits another: the crashing consumer is
//! one of the consumers, the spread stays within the mean, the added partitions outnumber the
//! old ones, and the rate and the length stop at what a run may hold ([`MAX_RECORDS`]). A
//! crash, a late reader or added partitions timed after the run's end simply never happen.

use super::scenario::{
    Mode, QueuesScenario, ShareFailureAck, MAX_CONSUMERS, MAX_DURATION_MS, MAX_PARTITIONS,
    MAX_RECORDS,
};
use crate::family::knob::{
    instant, number, options, set_choice, Bounds, Choice, Control, Knob, NumberControl, RunBudget,
};

/// Section headings, in the order a panel shows them.
pub mod section {
    pub const READERS: &str = "Readers";
    pub const PROCESSING: &str = "Processing";
    pub const CRASH: &str = "Crash";
    pub const SHARE_GROUP: &str = "Share group (KIP-932)";
    pub const QUEUE: &str = "Queue (AMQP, RabbitMQ quorum queue)";
    pub const LATE_READER: &str = "Late reader";
    pub const BUFFERS: &str = "Buffers";
    pub const PARTITIONS: &str = "Adding partitions";
    pub const KINESIS: &str = "Kinesis";
    pub const PRODUCER: &str = "Producer";
    pub const RUN: &str = "Run";
}

const MS: &str = "ms";
const RUN_MS: f64 = MAX_DURATION_MS as f64;

/// Every knob of the family.
pub const KNOBS: &[Knob<QueuesScenario>] = &[
    Knob {
        field: "consumers",
        label: "Consumers",
        config_name: None,
        hint: "Consumers of each reader: group members, share-group members, queue consumers. \
               Try more than the partitions.",
        section: section::READERS,
        control: number(
            Bounds::new(1.0, MAX_CONSUMERS as f64, "consumers"),
            1.0,
            None,
            |s| f64::from(s.consumers),
            |s, v| {
                s.consumers = v as u32;
                s.crash.consumer = s.crash.consumer.min(s.consumers - 1);
            },
        ),
    },
    Knob {
        field: "topic.partitions",
        label: "Partitions",
        config_name: Some("num.partitions"),
        hint: "Partitions of the topic; a consumer group uses at most one consumer per \
               partition, a share group as many as it has.",
        section: section::READERS,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, MAX_PARTITIONS as f64, "partitions"),
            step: 1.0,
            slider_max: Some(24.0),
            config_default: Some(1.0),
            max_for: None,
            get: |s| f64::from(s.topic.partitions),
            set: |s, v| {
                s.topic.partitions = v as u32;
                s.repartition.new_partitions = s
                    .repartition
                    .new_partitions
                    .max((s.topic.partitions + 1).min(MAX_PARTITIONS));
            },
        }),
    },
    Knob {
        field: "processing.mean_ms",
        label: "Processing time",
        config_name: None,
        hint: "Mean time to process one record; the same record costs the same in every reader.",
        section: section::PROCESSING,
        control: number(
            Bounds::new(1.0, 60_000.0, MS),
            1.0,
            Some(500.0),
            |s| s.processing.mean_ms as f64,
            |s, v| {
                s.processing.mean_ms = v as u64;
                s.processing.spread_ms = s.processing.spread_ms.min(s.processing.mean_ms);
            },
        ),
    },
    Knob {
        field: "processing.spread_ms",
        label: "Spread",
        config_name: None,
        hint: "Each attempt takes the mean plus or minus up to this much.",
        section: section::PROCESSING,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, 60_000.0, MS),
            step: 1.0,
            slider_max: Some(500.0),
            config_default: None,
            max_for: Some(|s| s.processing.mean_ms as f64),
            get: |s| s.processing.spread_ms as f64,
            set: |s, v| s.processing.spread_ms = (v as u64).min(s.processing.mean_ms),
        }),
    },
    Knob {
        field: "processing.failure_rate",
        label: "Failure rate",
        config_name: None,
        hint: "Share of attempts that fail: retried in place (consumer group), released or \
               rejected (share group), nacked and requeued (queue).",
        section: section::PROCESSING,
        control: number(
            Bounds::new(0.0, 0.9, "fraction"),
            0.01,
            None,
            |s| s.processing.failure_rate,
            |s, v| s.processing.failure_rate = v,
        ),
    },
    Knob {
        field: "crash.enabled",
        label: "Crash a consumer",
        config_name: None,
        hint: "One consumer's process dies at the time below, in every reader and lane at once.",
        section: section::CRASH,
        control: Control::Toggle {
            get: |s| s.crash.enabled,
            set: |s, v| s.crash.enabled = v,
        },
    },
    Knob {
        field: "crash.at_ms",
        label: "Crash at",
        config_name: None,
        hint: "When the consumer's process dies.",
        section: section::CRASH,
        control: instant(
            RUN_MS,
            120_000.0,
            |s| s.crash.at_ms as f64,
            |s, v| s.crash.at_ms = v as u64,
        ),
    },
    Knob {
        field: "crash.consumer",
        label: "Which consumer",
        config_name: None,
        hint: "The consumer (from 0) of each reader that dies.",
        section: section::CRASH,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, (MAX_CONSUMERS - 1) as f64, "consumer"),
            step: 1.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| f64::from(s.consumers.saturating_sub(1))),
            get: |s| f64::from(s.crash.consumer),
            set: |s, v| s.crash.consumer = (v as u32).min(s.consumers.saturating_sub(1)),
        }),
    },
    Knob {
        field: "crash.restart_after_ms",
        label: "Back after",
        config_name: None,
        hint: "How long until its process is back; 0 means it stays down.",
        section: section::CRASH,
        control: number(
            Bounds::new(0.0, RUN_MS, MS),
            1000.0,
            Some(120_000.0),
            |s| s.crash.restart_after_ms as f64,
            |s, v| s.crash.restart_after_ms = v as u64,
        ),
    },
    Knob {
        field: "session_timeout_ms",
        label: "Session timeout",
        config_name: Some("session.timeout.ms · group.share.session.timeout.ms"),
        hint: "How long the coordinator waits for a dead member's heartbeat before giving its \
               partitions to others.",
        section: section::CRASH,
        control: number(
            Bounds::new(1_000.0, 1_800_000.0, MS),
            1000.0,
            Some(120_000.0),
            |s| s.session_timeout_ms as f64,
            |s, v| s.session_timeout_ms = v as u64,
        ),
    },
    Knob {
        field: "share.record_lock_duration_ms",
        label: "Record lock duration",
        config_name: Some("group.share.record.lock.duration.ms"),
        hint: "How long an acquired record stays locked to its consumer before it is Available \
               to others (group override: share.record.lock.duration.ms).",
        section: section::SHARE_GROUP,
        control: number(
            Bounds::new(1_000.0, 60_000.0, MS),
            1000.0,
            None,
            |s| s.share.record_lock_duration_ms as f64,
            |s, v| s.share.record_lock_duration_ms = v as u64,
        ),
    },
    Knob {
        field: "share.delivery_count_limit",
        label: "Delivery count limit",
        config_name: Some("group.share.delivery.count.limit"),
        hint: "Deliveries after which a released or timed-out record is Archived (group \
               override: share.delivery.count.limit).",
        section: section::SHARE_GROUP,
        control: number(
            Bounds::new(2.0, 10.0, "deliveries"),
            1.0,
            None,
            |s| f64::from(s.share.delivery_count_limit),
            |s, v| s.share.delivery_count_limit = v as u32,
        ),
    },
    Knob {
        field: "share.partition_max_record_locks",
        label: "Record locks per partition",
        config_name: Some("group.share.partition.max.record.locks"),
        hint: "Most records in flight between the share-partition start and end offsets (SPSO, \
               SPEO).",
        section: section::SHARE_GROUP,
        control: number(
            Bounds::new(100.0, 10_000.0, "records"),
            100.0,
            None,
            |s| f64::from(s.share.partition_max_record_locks),
            |s, v| s.share.partition_max_record_locks = v as u32,
        ),
    },
    Knob {
        field: "share.max_poll_records",
        label: "Records per poll",
        config_name: Some("max.poll.records"),
        hint: "Most records one poll acquires, all under one lock: a big batch can starve the \
               other members.",
        section: section::SHARE_GROUP,
        control: number(
            Bounds::new(1.0, 10_000.0, "records"),
            1.0,
            Some(1_000.0),
            |s| f64::from(s.share.max_poll_records),
            |s, v| s.share.max_poll_records = v as u32,
        ),
    },
    Knob {
        field: "share.on_failure",
        label: "A failed record is",
        config_name: Some("AcknowledgeType"),
        hint: "How a share consumer acknowledges a record it failed to process.",
        section: section::SHARE_GROUP,
        control: Control::Choice {
            options: options::<ShareFailureAck>,
            get: |s| s.share.on_failure.value(),
            set: |s, v| set_choice(&mut s.share.on_failure, v),
        },
    },
    Knob {
        field: "queue.prefetch_count",
        label: "Prefetch",
        config_name: Some("basic.qos prefetch_count"),
        hint: "Most unacknowledged messages the broker pushes to one consumer; 0 is no limit.",
        section: section::QUEUE,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, 65_535.0, "messages"),
            step: 1.0,
            slider_max: Some(500.0),
            config_default: Some(0.0),
            max_for: None,
            get: |s| f64::from(s.queue.prefetch_count),
            set: |s, v| s.queue.prefetch_count = v as u32,
        }),
    },
    Knob {
        field: "queue.consumer_timeout_ms",
        label: "Consumer timeout",
        config_name: Some("consumer_timeout"),
        hint: "A delivery unacknowledged this long closes the consumer's channel and returns \
               its messages.",
        section: section::QUEUE,
        control: number(
            Bounds::new(1_000.0, 86_400_000.0, MS),
            1000.0,
            Some(3_600_000.0),
            |s| s.queue.consumer_timeout_ms as f64,
            |s, v| s.queue.consumer_timeout_ms = v as u64,
        ),
    },
    Knob {
        field: "queue.delivery_limit",
        label: "Delivery limit",
        config_name: Some("x-delivery-limit"),
        hint: "A message returned more often than this goes to the dead-letter queue.",
        section: section::QUEUE,
        control: number(
            Bounds::new(0.0, 1_000.0, "returns"),
            1.0,
            Some(50.0),
            |s| f64::from(s.queue.delivery_limit),
            |s, v| s.queue.delivery_limit = v as u32,
        ),
    },
    Knob {
        field: "late_reader.enabled",
        label: "A reader joins later",
        config_name: None,
        hint: "A new reader arrives and counts what it can still read of the past.",
        section: section::LATE_READER,
        control: Control::Toggle {
            get: |s| s.late_reader.enabled,
            set: |s, v| s.late_reader.enabled = v,
        },
    },
    Knob {
        field: "late_reader.start_ms",
        label: "Joins at",
        config_name: None,
        hint: "When the new reader arrives (on the log it reads from the earliest offset, \
               auto.offset.reset=earliest).",
        section: section::LATE_READER,
        control: instant(
            RUN_MS,
            120_000.0,
            |s| s.late_reader.start_ms as f64,
            |s, v| s.late_reader.start_ms = v as u64,
        ),
    },
    Knob {
        field: "topic.retention_ms",
        label: "Retention",
        config_name: Some("retention.ms"),
        hint: "How long the log keeps a record, read or not; the readers lessons need at least \
               the run's length.",
        section: section::LATE_READER,
        control: number(
            Bounds::new(1_000.0, 2_592_000_000.0, MS),
            1000.0,
            Some(604_800_000.0),
            |s| s.topic.retention_ms as f64,
            |s, v| s.topic.retention_ms = v as u64,
        ),
    },
    Knob {
        field: "backpressure.small_buffer_records",
        label: "Small buffer",
        config_name: None,
        hint: "The drop and block lanes' fixed buffer (a pipe's or a socket's), and the direct \
               lane's receive buffer.",
        section: section::BUFFERS,
        control: number(
            Bounds::new(1.0, 100_000.0, "records"),
            1.0,
            Some(1_000.0),
            |s| f64::from(s.backpressure.small_buffer_records),
            |s, v| s.backpressure.small_buffer_records = v as u32,
        ),
    },
    Knob {
        field: "backpressure.memory_buffer_records",
        label: "Memory buffer",
        config_name: None,
        hint: "The buffer lane's in-memory buffer: it grows while the consumer lags and dies \
               with its process.",
        section: section::BUFFERS,
        control: number(
            Bounds::new(1.0, 1_000_000.0, "records"),
            100.0,
            Some(200_000.0),
            |s| f64::from(s.backpressure.memory_buffer_records),
            |s, v| s.backpressure.memory_buffer_records = v as u32,
        ),
    },
    Knob {
        field: "backpressure.spill_to_disk",
        label: "Spill to disk",
        config_name: None,
        hint: "When the memory buffer is full, write further records to disk (they survive a \
               crash) instead of dropping them.",
        section: section::BUFFERS,
        control: Control::Toggle {
            get: |s| s.backpressure.spill_to_disk,
            set: |s, v| s.backpressure.spill_to_disk = v,
        },
    },
    Knob {
        field: "repartition.at_ms",
        label: "Add partitions at",
        config_name: Some("kafka-topics.sh --alter --partitions"),
        hint: "When the topic gains partitions.",
        section: section::PARTITIONS,
        control: instant(
            RUN_MS,
            120_000.0,
            |s| s.repartition.at_ms as f64,
            |s, v| s.repartition.at_ms = v as u64,
        ),
    },
    Knob {
        field: "repartition.new_partitions",
        label: "Partitions after",
        config_name: Some("--partitions"),
        hint: "The new partition count, more than before (Kafka never removes partitions).",
        section: section::PARTITIONS,
        control: number(
            Bounds::new(2.0, MAX_PARTITIONS as f64, "partitions"),
            1.0,
            Some(24.0),
            |s| f64::from(s.repartition.new_partitions),
            |s, v| {
                s.repartition.new_partitions =
                    (v as u32).max((s.topic.partitions + 1).min(MAX_PARTITIONS))
            },
        ),
    },
    Knob {
        field: "kinesis.shards",
        label: "Shards",
        config_name: Some("ShardCount"),
        hint: "Each shard takes at most 1,000 records and 1 MiB per second of writes.",
        section: section::KINESIS,
        control: number(
            Bounds::new(1.0, MAX_PARTITIONS as f64, "shards"),
            1.0,
            Some(16.0),
            |s| f64::from(s.kinesis.shards),
            |s, v| s.kinesis.shards = v as u32,
        ),
    },
    Knob {
        field: "producer.record_bytes",
        label: "Record size",
        config_name: None,
        hint: "Bytes per record (Kinesis counts the partition key too), against a shard's \
               1 MiB per second.",
        section: section::KINESIS,
        control: number(
            Bounds::new(1.0, 1_048_576.0, "bytes"),
            1.0,
            Some(10_000.0),
            |s| f64::from(s.producer.record_bytes),
            |s, v| s.producer.record_bytes = v as u32,
        ),
    },
    Knob {
        field: "producer.records_per_second",
        label: "Producer rate",
        config_name: None,
        hint: "Records per second the producer sends, or would like to (a run holds at most \
               200 000 records).",
        section: section::PRODUCER,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, 10_000.0, "records/s"),
            step: 1.0,
            slider_max: Some(3_000.0),
            config_default: None,
            max_for: Some(|s| f64::from(BUDGET.max_rate_per_s(s.duration_ms))),
            get: |s| f64::from(s.producer.records_per_second),
            set: |s, v| {
                s.producer.records_per_second = (v as u32).min(BUDGET.max_rate_per_s(s.duration_ms))
            },
        }),
    },
    Knob {
        field: "producer.keys",
        label: "Keys",
        config_name: None,
        hint: "Distinct record keys; order is promised per key, and a key's partition is \
               murmur2 of its bytes.",
        section: section::PRODUCER,
        control: number(
            Bounds::new(1.0, 10_000.0, "keys"),
            1.0,
            Some(256.0),
            |s| f64::from(s.producer.keys),
            |s, v| s.producer.keys = v as u32,
        ),
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
        hint: "How long the producer produces; the run ends then.",
        section: section::RUN,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1_000.0, RUN_MS, MS),
            step: 1000.0,
            slider_max: Some(600_000.0),
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
        hint: "Seed of every draw; same seed, same run.",
        section: section::RUN,
        control: Control::Whole {
            get: |s| s.seed,
            set: |s, v| s.seed = v,
        },
    },
];

/// A run holds at most [`MAX_RECORDS`], at up to 10,000 records a second.
const BUDGET: RunBudget = RunBudget {
    records: MAX_RECORDS,
    max_per_s: 10_000,
    min_ms: 1_000,
    max_ms: MAX_DURATION_MS,
};

impl Choice for Mode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Mode::Readers, "readers", "three readers of one topic"),
        (
            Mode::Backpressure,
            "backpressure",
            "a producer faster than its consumer",
        ),
        (Mode::Direct, "direct", "direct delivery next to a broker"),
        (Mode::Repartition, "repartition", "adding partitions"),
        (Mode::Kinesis, "kinesis", "Kinesis shard limits"),
    ];
}

impl Choice for ShareFailureAck {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            ShareFailureAck::Release,
            "release",
            "RELEASE (Available for another delivery)",
        ),
        (
            ShareFailureAck::Reject,
            "reject",
            "REJECT (Archived, never delivered again)",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::{check_table, number_knob};

    #[test]
    fn the_table_passes_the_checks_every_table_must() {
        check_table(KNOBS, super::super::PRESETS, &[]);
    }

    #[test]
    fn dependent_knobs_keep_the_scenario_runnable() {
        let number = |field| number_knob(KNOBS, field);
        let mut scenario = QueuesScenario::default();
        scenario.crash.consumer = 5;
        (number("consumers").set)(&mut scenario, 2.0);
        assert_eq!(scenario.crash.consumer, 1);
        (number("topic.partitions").set)(&mut scenario, 8.0);
        assert!(scenario.repartition.new_partitions > 8);
        (number("processing.mean_ms").set)(&mut scenario, 4.0);
        assert_eq!(scenario.processing.spread_ms, 4);
        (number("duration_ms").set)(&mut scenario, 3_600_000.0);
        (number("producer.records_per_second").set)(&mut scenario, 10_000.0);
        assert!(scenario.record_count() <= MAX_RECORDS);
        assert!(scenario.validate().is_ok(), "{:?}", scenario.validate());
    }
}
