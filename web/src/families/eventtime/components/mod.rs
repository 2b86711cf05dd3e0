//! The event-time family's components, one per file.

pub mod clocks_chart;
pub mod clocks_counters;
pub mod device_legend;
pub mod record_timestamps;
pub mod strip;
pub mod watermark_chart;
pub mod watermark_counters;
pub mod watermark_dots;
pub mod watermark_panes;
pub mod windows_chart;
