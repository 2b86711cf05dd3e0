//! The databases family's lessons: their words, guided experiments and knob sections.

pub mod bootstrapping;
pub mod dual_writes;
