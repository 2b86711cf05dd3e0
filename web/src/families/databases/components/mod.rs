//! The databases family's pieces of the page: the four lanes of the dual-writes comparison,
//! the compacted log beside the event-sourced one, the snapshot's rows, and what the time
//! chart plots.

pub mod bootstrap;
pub mod chart;
pub mod compaction;
pub mod sync;
