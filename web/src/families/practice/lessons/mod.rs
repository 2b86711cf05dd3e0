//! The practice family's pages: their words, hints and options.

pub mod inkwell;
