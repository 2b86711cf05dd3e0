//! Controls shared by every family's knob panel (the edit they send, number, toggle, choice, whole number, the
//! label with the real config name, the rows of a knob table), the gallery's thumbnails and a
//! time chart families fill with their own series, and a family's figures by their names.

pub mod edit;
pub mod figure_counters;
pub mod knob_label;
pub mod knob_rows;
pub mod lesson_thumbnail;
pub mod number_knob;
pub mod select_knob;
pub mod time_chart;
pub mod toggle_knob;
pub mod whole_knob;
