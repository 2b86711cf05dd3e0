//! The consumer-group family's lessons: their words, guided experiments and options.

pub mod delivery;
pub mod partitions;
pub mod rebalances;
