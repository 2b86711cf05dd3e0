//! The replication family's components, one per file.

pub mod acks_table;
pub mod brokers;
pub mod chart;
pub mod partition;
