//! The joins family's lessons: their words, guided experiments and knob sections.

pub mod stream_joins;
pub mod top_k;
