//! The consumer-group family's components, one per file.

pub mod client_metrics;
pub mod counters;
pub mod delivery_cells;
pub mod delivery_log;
pub mod delivery_panel;
pub mod diagram;
pub mod diagram_layout;
pub mod lag_chart;
pub mod lanes;
pub mod member_label;
pub mod membership;
pub mod pointer_tip;
pub mod record_cells;
#[cfg(test)]
mod test_support;
pub mod timelines;
