//! The playground's components, one per file.

pub mod counters;
pub mod diagram;
pub mod error_banner;
pub mod eventtime_chart;
pub mod eventtime_counters;
pub mod eventtime_knobs;
pub mod eventtime_strip;
pub mod group_knobs;
pub mod knob_label;
pub mod knob_panel;
pub mod lag_chart;
pub mod lesson_text;
pub mod membership;
pub mod narration;
pub mod number_knob;
pub mod presets_bar;
pub mod select_knob;
pub mod share_bar;
pub mod site_header;
pub mod timelines;
pub mod toggle_knob;
pub mod transport;
