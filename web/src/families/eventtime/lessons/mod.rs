//! The event-time family's lessons: their words, guided experiments and options.

pub mod watermarks;
pub mod which_clock;
pub mod windows;
