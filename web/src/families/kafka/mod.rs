//! The consumer-group family: partitions, rebalances and delivery lessons.

pub mod components;
pub mod playground;
pub mod view_model;
