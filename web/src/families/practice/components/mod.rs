//! The practice family's components, one per file.

pub mod cost_meter;
pub mod goals;
pub mod hints;
pub mod verdict_json;
