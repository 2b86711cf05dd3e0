//! The queues family's lessons: their words, guided experiments and options.

pub mod backpressure;
pub mod queues;
