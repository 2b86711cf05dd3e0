//! The event-time family: which clock, watermarks and windows lessons.

pub mod components;
pub mod device_marks;
pub mod link;
pub mod playground;
pub mod windows_view;
