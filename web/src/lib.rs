//! The Streamlab playground: a Yew app that animates the simulation core.
//!
//! The core (`streamlab-sim`) does all the modelling; this crate only turns its plain-data
//! snapshots into pictures, its events into narration, and user input into new scenarios.
//! [`start`] installs the panic overlay and the test hooks, then mounts [`app::App`].

pub mod address_bar;
pub mod app;
pub mod browser;
pub mod clock;
pub mod components;
pub mod derive;
pub mod device_marks;
pub mod embed;
pub mod eventtime_link;
pub mod eventtime_playground;
pub mod eventtime_windows_view;
pub mod export;
pub mod gallery;
pub mod lessons;
pub mod link;
pub mod page;
pub mod palette;
pub mod panic_overlay;
pub mod playground;
pub mod plot;
pub mod real_config;
pub mod shared;
pub mod svg_png;
pub mod test_hooks;
pub mod theme;

// The unit tests run in the same headless Chromium as the integration tests.
#[cfg(test)]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app on the page's body.
pub fn start() {
    panic_overlay::install();
    test_hooks::install();
    yew::Renderer::<app::App>::new().render();
}
