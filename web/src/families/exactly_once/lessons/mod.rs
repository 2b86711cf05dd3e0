//! The exactly-once family's lessons: their words, guided experiments and knob sections.

pub mod checkpoints;
pub mod effects;
