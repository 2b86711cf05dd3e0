//! Streamlab's deterministic simulation core.
//!
//! Everything a lesson shows comes from here: a [`Scenario`] (plain, versioned, serde) builds a
//! [`World`]; [`World::advance_to`] moves simulated time forward (integer milliseconds); the UI
//! and the CLI read plain-data [`Snapshot`]s, metrics and typed events out of it. The core
//! reads no wall clock, draws every random number from one seeded generator, iterates no
//! `HashMap`, and does its float math through `libm`, so one scenario gives the same run bit for
//! bit natively and in WebAssembly.

pub mod assignor;
pub mod events;
pub mod eventtime;
pub mod group;
pub mod invariants;
pub mod metrics;
pub mod partitioner;
pub mod presets;
pub mod producer;
pub mod quote;
pub mod rng;
pub mod scenario;
pub mod share;
pub mod sink;
pub mod snapshot;
pub mod sort;
pub mod timeline;
pub mod topic;
pub mod trace;
pub mod window;
pub mod world;

pub use events::{Event, EventKind};
pub use scenario::Scenario;
pub use snapshot::Snapshot;
pub use world::World;
