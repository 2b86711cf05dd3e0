//! The replication family's lesson: its words, guided experiments and knob sections.

pub mod replication;
