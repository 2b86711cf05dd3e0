//! The Streamlab playground: a Yew app that animates the simulation core.
//!
//! The core (`streamlab-sim`) does all the modelling; this crate only turns its plain-data
//! snapshots into pictures, its events into narration, and user input into new scenarios.
//! [`start`] installs the panic overlay, the test hooks, the bundle's family styles and the
//! charts' drawing before printing, then mounts [`app::App`] with the lessons of one bundle
//! (`bundles`): each binary in `src/bin/` is one bundle of the site.

pub mod app;
pub mod bundles;
pub mod catalog;
pub mod families;
pub mod gallery;
pub mod platform;
pub mod registry;
pub mod shell;
pub mod widgets;

// The unit tests run in the same headless Chromium as the integration tests.
#[cfg(test)]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app on the page's body, able to open `bundle`'s lessons.
pub fn start(bundle: &'static bundles::Bundle) {
    shell::panic_overlay::install();
    registry::install(bundle);
    shell::family_style::install(bundle.styles);
    shell::test_hooks::install();
    (bundle.install_hooks)();
    shell::host_api::install_window_api();
    shell::canvas::install();
    yew::Renderer::<app::App>::new().render();
}

/// The bundles' memory allocator: talc instead of the standard library's dlmalloc, about
/// 3 KiB gzipped smaller in every bundle, at about the same speed (BENCHMARKS.md). It grows the
/// WebAssembly memory as dlmalloc did, and no run depends on where anything is allocated.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
