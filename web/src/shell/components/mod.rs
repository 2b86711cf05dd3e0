//! The shell's parts, one per file: what every lesson page shows whatever its family. A part
//! that holds state, or whose props stay equal between frames, is a Yew component; one that
//! re-renders on every frame anyway is a plain function returning `Html`, which spares every
//! bundle a component's lifecycle code.

pub mod compare_panel;
pub mod embed_button;
pub mod embed_challenge;
pub mod error_banner;
pub mod family_knobs;
pub mod lesson_text;
pub mod lesson_tools;
pub mod misconception_banner;
pub mod narration;
pub mod presets_bar;
pub mod rebuild_notice;
pub mod share_bar;
pub mod shortcut_sheet;
pub mod site_header;
pub mod theme_switcher;
pub mod timeline_scrubber;
pub mod transport;
