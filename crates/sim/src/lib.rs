//! Streamlab's deterministic simulation core, arranged by what it simulates.
//!
//! Each lesson family has a world of its own: [`kafka`] (a topic, a producer and consumer
//! groups: the partitions, rebalances and delivery lessons), [`eventtime`] (devices, delays,
//! watermarks and windows) and [`queues`] (a log read as a consumer group, a share group and a
//! queue; backpressure, direct delivery, added partitions and Kinesis shard limits) and
//! [`replication`] (brokers, leaders and followers, the ISR and the high watermark, acks,
//! failover clean and unclean, and what each loses).
//! [`databases`] keeps a derived store in step with a database (dual writes, CDC, the outbox),
//! compacts a topic beside an event-sourced log, and bootstraps a store from a snapshot.
//! [`window`] is the event-time window operator of the `window` CLI contract and [`assignor`]
//! Kafka's partition assignors; both are shared operators. [`replay`]
//! is the machinery every family shares: seeded random streams, portable sorts, the trace hash,
//! the seekable timeline and share links.
//!
//! A scenario (plain, versioned, serde) builds a world; `advance_to` moves simulated time
//! forward (integer milliseconds); the UI and the CLI read plain-data snapshots, metrics and
//! typed events out of it. The core reads no wall clock, draws every random number from one
//! seeded generator, iterates no `HashMap`, and does its float math through `libm`, so one
//! scenario gives the same run bit for bit natively and in WebAssembly.

pub mod assignor;
pub mod databases;
pub mod eventtime;
pub mod exactly_once;
pub mod family;
pub mod headless;
pub mod invariant;
pub mod joins;
pub mod kafka;
pub mod misconceptions;
pub mod practice;
pub mod queues;
pub mod quote;
pub mod replay;
pub mod replication;
pub mod window;
