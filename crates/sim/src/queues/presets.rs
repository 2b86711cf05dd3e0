//! The queues family's presets, one plain function each, named as links name them, and its
//! lessons' default scenarios. Each preset turns only the knobs its point needs; every
//! number it exists to show comes out of the model's rules.
//!
//! Two lessons: "queues" (one topic read three ways, the late reader, adding partitions) and
//! "backpressure" (drop, buffer, block and the log; direct delivery; Kinesis shard limits).

use super::scenario::{Mode, QueuesScenario};
use crate::family::lesson::LessonDefault;

/// A queues preset.
pub type Preset = crate::family::preset::Preset<QueuesScenario>;

/// Every preset of the family, in lesson order, with the lesson that offers it.
pub const PRESETS: &[Preset] = &[
    Preset {
        slug: "share-group-scales-past-partitions",
        lesson: "queues",
        title: "A share group scales past the partitions",
        description: "12 consumers on 3 partitions, a producer faster than 3 can keep up with, \
                      2% of attempts failing: the consumer group uses 3, retries in place and \
                      falls behind; the share group and the queue use all 12 and keep up, but \
                      invert per-key order, in parallel and when a failed record comes back.",
        build: share_group_scales_past_partitions,
    },
    Preset {
        slug: "queue-redelivery-reorders",
        lesson: "queues",
        title: "Redelivery reorders a queue",
        description: "Two consumers, 50 prefetched messages each; one crashes at 15 s. The \
                      broker redelivers its unacknowledged messages after newer ones of the \
                      same keys were done. The groups wait for the session timeout (the share \
                      group's locks run out first) and resume in order.",
        build: queue_redelivery_reorders,
    },
    Preset {
        slug: "late-reader-log-vs-queue",
        lesson: "queues",
        title: "A reader that comes late",
        description: "A new reader arrives at 30 s: the log still holds every record, the \
                      queue has deleted every message it delivered.",
        build: late_reader_log_vs_queue,
    },
    Preset {
        slug: "adding-partitions-moves-keys",
        lesson: "queues",
        title: "Adding partitions moves keys",
        description: "A lagging topic grows from 3 to 6 partitions at 30 s: about half the \
                      keys move, and their new records are processed before the old ones \
                      still waiting in the old partitions.",
        build: adding_partitions_moves_keys,
    },
    Preset {
        slug: "backpressure-drop-buffer-block",
        lesson: "backpressure",
        title: "Drop, buffer, block, or a log",
        description: "A producer twice as fast as its consumer, whose process dies at 40 s \
                      for 5 s: the drop lane drops, the memory buffer loses all it held, the \
                      blocking producer slows down, and the log loses nothing.",
        build: backpressure_drop_buffer_block,
    },
    Preset {
        slug: "direct-vs-broker",
        lesson: "backpressure",
        title: "Direct delivery loses what arrives while the consumer is down",
        description: "The consumer is down from 20 s to 30 s: direct delivery loses what was \
                      sent meanwhile, the broker keeps it.",
        build: direct_vs_broker,
    },
    Preset {
        slug: "kinesis-shard-limit",
        lesson: "backpressure",
        title: "A Kinesis shard's write limit",
        description: "2,600 records per second over 2 shards: each shard takes at most 1,000 \
                      records per second, the rest is throttled.",
        build: kinesis_shard_limit,
    },
];

/// The preset a link names, if any.
pub fn preset(name: &str) -> Option<QueuesScenario> {
    crate::family::preset::find(PRESETS, name).map(|p| (p.build)())
}

/// 12 consumers on 3 partitions; 400 records/s at about 20 ms each, so 3 consumers manage
/// about 150/s and 12 about 600/s; one attempt in fifty fails (released by the share group,
/// nacked and requeued by the queue, retried in place by the consumer group).
pub fn share_group_scales_past_partitions() -> QueuesScenario {
    let mut scenario = QueuesScenario::default();
    scenario.producer.records_per_second = 400;
    scenario.topic.partitions = 3;
    scenario.consumers = 12;
    scenario.processing.failure_rate = 0.02;
    scenario
}

/// Two consumers of each reader, 120 records/s against about 100/s of processing, so the
/// queue's prefetch buffers fill; consumer 0 dies at 15 s and stays down. The run lasts until
/// after the session timeout (45 s) has removed it from the groups.
pub fn queue_redelivery_reorders() -> QueuesScenario {
    let mut scenario = QueuesScenario::default();
    scenario.duration_ms = 70_000;
    scenario.producer.records_per_second = 120;
    scenario.producer.keys = 8;
    scenario.consumers = 2;
    scenario.queue.prefetch_count = 50;
    scenario.crash.enabled = true;
    scenario.crash.at_ms = 15_000;
    scenario.crash.consumer = 0;
    scenario
}

/// Readers with room to spare (100 records/s, 4 consumers of about 50/s each) and a new
/// reader at 30 s.
pub fn late_reader_log_vs_queue() -> QueuesScenario {
    let mut scenario = QueuesScenario::default();
    scenario.producer.records_per_second = 100;
    scenario.topic.partitions = 4;
    scenario.consumers = 4;
    scenario.late_reader.enabled = true;
    scenario.late_reader.start_ms = 30_000;
    scenario
}

/// 400 records/s over 256 keys into 3 partitions that manage about 300/s, so a backlog builds;
/// at 30 s the topic grows to 6 partitions, one consumer each.
pub fn adding_partitions_moves_keys() -> QueuesScenario {
    let mut scenario = QueuesScenario::default();
    scenario.mode = Mode::Repartition;
    scenario.producer.records_per_second = 400;
    scenario.producer.keys = 256;
    scenario.topic.partitions = 3;
    scenario.consumers = 6;
    scenario.processing.mean_ms = 10;
    scenario.processing.spread_ms = 5;
    scenario.repartition.at_ms = 30_000;
    scenario.repartition.new_partitions = 6;
    scenario
}

/// 200 records/s into a consumer that manages about 100/s; its process dies at 40 s and is
/// back 5 s later.
pub fn backpressure_drop_buffer_block() -> QueuesScenario {
    let mut scenario = QueuesScenario::default();
    scenario.mode = Mode::Backpressure;
    scenario.producer.records_per_second = 200;
    scenario.processing.mean_ms = 10;
    scenario.processing.spread_ms = 2;
    scenario.crash.enabled = true;
    scenario.crash.at_ms = 40_000;
    scenario.crash.restart_after_ms = 5_000;
    scenario
}

/// 50 records/s into a consumer that manages about 100/s, down from 20 s to 30 s.
pub fn direct_vs_broker() -> QueuesScenario {
    let mut scenario = QueuesScenario::default();
    scenario.mode = Mode::Direct;
    scenario.producer.records_per_second = 50;
    scenario.processing.mean_ms = 10;
    scenario.processing.spread_ms = 2;
    scenario.crash.enabled = true;
    scenario.crash.at_ms = 20_000;
    scenario.crash.restart_after_ms = 10_000;
    scenario
}

/// 2,600 records/s of 200 bytes over 64 keys into 2 shards, for 30 s.
pub fn kinesis_shard_limit() -> QueuesScenario {
    let mut scenario = QueuesScenario::default();
    scenario.mode = Mode::Kinesis;
    scenario.duration_ms = 30_000;
    scenario.producer.records_per_second = 2_600;
    scenario.producer.keys = 64;
    scenario.kinesis.shards = 2;
    scenario
}

/// The family's lessons, each with the scenario its links are patches against (part of the
/// link format: changing one changes what old links mean).
pub const LESSONS: &[LessonDefault<QueuesScenario>] = &[
    LessonDefault {
        slug: "queues",
        default: share_group_scales_past_partitions,
    },
    LessonDefault {
        slug: "backpressure",
        default: backpressure_drop_buffer_block,
    },
];
