//! The shell every lesson family runs in: the playground that owns the clock, the runs and
//! the scenario, share links and the address bar, embed mode and the page around it, exports,
//! the test hooks, and the components every lesson shows (transport, scrubber, narration,
//! share bar, tools, lesson text).

pub mod address_bar;
pub mod canvas;
pub mod clock;
pub mod compare;
pub mod components;
pub mod embed;
pub mod export;
pub mod family;
pub mod family_style;
pub mod host_api;
pub mod kept_runs;
pub mod link;
pub mod nearby_runs;
pub mod page;
pub mod panic_overlay;
pub mod playground;
pub mod rebuild;
pub mod rehearsal;
pub mod run;

pub mod svg_png;
pub mod test_hooks;
