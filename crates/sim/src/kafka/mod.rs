//! The consumer-group world: a topic split into partitions, a producer, consumer groups with
//! the classic rebalance protocol, commits, retention, poison records and each group's output
//! store. It runs the partitions, rebalances and delivery lessons.

pub mod client_metrics;
mod commit_json;
pub mod events;
pub mod group;
pub mod invariants;
pub mod key_draw;
pub mod knobs;
pub mod metrics;
pub mod partitioner;
pub mod presets;
pub mod producer;
pub mod recent_effects;
pub mod refutations;
pub mod scenario;
mod simulation;
pub mod sink;
pub mod snapshot;
pub mod stall_tally;
pub mod topic;
pub mod validate;
pub mod world;

pub use events::{Event, EventKind};
pub use scenario::Scenario;
pub use snapshot::Snapshot;
pub use world::World;
