//! Where things are in the repository.
//!
//! xtask changes into the repository root before doing anything, so every other module names
//! files by these repo-relative paths and the commands work from any directory.

use std::path::PathBuf;

/// The repository root: two levels above this crate's manifest (crates/xtask).
///
/// `cargo xtask` (an alias of `cargo run`) tells the process where the manifest is now; the
/// path compiled in is only the fallback. A build copied from another checkout (a `target/`
/// reused to save time) would otherwise act on the checkout it was compiled in.
pub fn root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest_dir
        .ancestors()
        .nth(2)
        .expect("crates/xtask sits two levels below the repository root")
        .to_path_buf()
}

/// The lockfile whose wasm-bindgen version the CLI tools must match.
pub const CARGO_LOCK: &str = "Cargo.lock";
/// Trunk's configuration; it names the wasm-bindgen and wasm-opt versions Trunk accepts.
pub const TRUNK_TOML: &str = "Trunk.toml";
/// The page Trunk builds from.
pub const INDEX_HTML: &str = "index.html";
/// Where Trunk writes the static site.
pub const DIST_DIR: &str = "dist";
/// The copy of [`INDEX_HTML`] that `cargo xtask profile` builds from, beside it, for a moment.
pub const PROFILE_INDEX_HTML: &str = "index.profile.html";
/// Where `cargo xtask profile` builds the site whose wasm keeps its function names.
pub const PROFILE_DIST_DIR: &str = "target/profile-dist";
/// The npm packages' install folder; its `.bin` holds wasm-opt.
pub const NODE_MODULES: &str = "node_modules";
/// The package whose wasm-bindgen tests run in the browser.
pub const WEB_PACKAGE: &str = "streamlab-web";
/// The scenario whose trace hash must be the same natively and in WebAssembly.
pub const DETERMINISM_SCENARIO: &str = "tests/fixtures/determinism.json";
/// The end-to-end test folder, run by `node --test`.
pub const E2E_TESTS: &str = "tests/e2e/";
/// The script that opens the built site and runs the in-browser benchmark.
pub const BROWSER_BENCH: &str = "tests/bench/browser-bench.mjs";
/// The script that profiles a lesson's fresh knob settings in Chromium.
pub const PROFILE_SCRIPT: &str = "tests/bench/profile-knob.mjs";
