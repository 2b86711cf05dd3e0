//! The exactly-once family's components, one per file.

pub mod chart;
pub mod lanes;
pub mod store;
