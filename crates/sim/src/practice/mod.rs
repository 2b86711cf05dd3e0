//! Practice: challenges built on the lessons' worlds, graded by goals measured on the run.
//!
//! The Inkwell challenge runs on the consumer-group world ([`crate::kafka`]). Inkwell's
//! events are read by three services, each its own consumer group, and each starts broken by
//! the model's own rules: search has one consumer for more events than one consumer can
//! handle, so it falls further behind every second; retention is shorter than the time
//! analytics falls behind while its warehouse is slow, so events are deleted before it reads
//! them; and the recommender, redeployed after a minute, comes back to a backlog with only a
//! little more capacity than the events need, so it never catches up: its twelve consumers
//! share four partitions, so eight sit idle (and cost, so the start is over budget too). A learner may change only
//! the knobs of [`knobs::KNOBS`] (partitions, retention, consumers per service); the goals
//! ([`verdict`]) are measured on the run ([`lag`]), and a cost meter ([`cost`]) with a budget
//! makes each service get only what its own deadline needs.
//!
//! # Pieces
//!
//! [`InkwellScenario`] (`scenario.rs`) is a submission: the knobs only, turned into a
//! consumer-group scenario with the challenge's fixed parts; [`InkwellWorld`] (`world.rs`)
//! runs it and measures the lag; [`Verdict`] (`verdict.rs`) is what `streamlab grade` prints
//! and the practice page draws.

pub mod cost;
pub mod knobs;
pub mod lag;
mod scenario;
mod verdict;
mod world;

pub use scenario::{
    Consumers, InkwellScenario, Service, DEPLOY_AT_MS, DEPLOY_DOWN_MS, DURATION_MS, RATE_PER_S,
    RECORD_BYTES, RETENTION_CHECK_INTERVAL_MS, SERVICES, WAREHOUSE_SLOW_AT_MS,
    WAREHOUSE_SLOW_FACTOR, WAREHOUSE_SLOW_FOR_MS,
};
pub use verdict::{
    link, Goal, Status, Verdict, CHALLENGE, RECOMMENDER_CATCH_UP_MS_MAX, SEARCH_LAG_MS_MAX,
};
pub use world::{grade, InkwellWorld};

use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;

/// The challenge's one preset: the broken start, under the challenge's name.
pub const PRESETS: &[Preset<InkwellScenario>] = &[Preset {
    slug: CHALLENGE,
    lesson: CHALLENGE,
    title: "Inkwell, broken",
    description: "search has one consumer for more than one can handle, retention is shorter \
                  than analytics falls behind while its warehouse is slow, and the \
                  recommender, redeployed at 60 s, comes back to a backlog it drains far too \
                  slowly: eight of its twelve consumers have no partition.",
    build: InkwellScenario::default,
}];

/// The practice page, whose links are changes to the broken start (part of the link format).
pub const LESSONS: &[LessonDefault<InkwellScenario>] = &[LessonDefault {
    slug: CHALLENGE,
    default: InkwellScenario::default,
}];

/// Where the challenge is simpler than running Inkwell on Kafka; the practice page lists
/// them (the consumer-group lessons list the world's own).
pub const SIMPLIFICATIONS: &[&str] = &[
    "Lag is measured in time: how long the oldest event a service has not processed has been \
     in the topic. Kafka reports lag in records; monitoring tools estimate the time from the \
     offsets, here it is exact.",
    "The cost meter's prices are round numbers of the challenge's own, not a cloud bill; a \
     partition's cost stands for the broker's files, replicas and coordination it needs.",
    "Retention's cost is what the topic holds once full at Inkwell's steady rate: retention.ms \
     of events plus one retention check, or retention.bytes per partition, whichever is less.",
    "The broker checks retention every 5 s (Kafka's log.retention.check.interval.ms defaults \
     to 5 minutes) and deletes record by record, not whole segments.",
    "Each consumer handles its records one at a time at a fixed cost per record; the only \
     slowdown is the warehouse's, and the only restart the recommender's deploy.",
    "Every service keeps Kafka's default auto.offset.reset=latest: a group whose position \
     retention deleted jumps to the end of the log, and everything it skips counts as lost.",
];
