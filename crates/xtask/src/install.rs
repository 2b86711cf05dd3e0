//! Installing what the pipeline needs, only when it is missing or at the wrong version.
//!
//! A fresh machine has cargo (with rustup), Node.js and npm; everything else comes from here:
//! the wasm32 target, Trunk, the wasm-bindgen CLI at exactly Cargo.lock's version, the npm
//! packages (binaryen's wasm-opt, terser and playwright-core, from package-lock.json) and Debian's
//! Chromium with its ChromeDriver. Every check is local, so a warm run installs nothing and
//! touches no network; once the crates are fetched, cargo is told to stay offline.

use crate::pins;
use crate::process::{self, cargo, find_on_path, first_line_quietly, succeeds_quietly};
use crate::workspace::{self, NODE_MODULES};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Newer Trunk releases need a newer rustc than the project's; `--locked` because its
/// unlocked dependency set no longer compiles.
pub const TRUNK_VERSION: &str = "0.21.14";
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Debian's paths for the browser and its WebDriver.
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// A copy of the package-lock.json that node_modules was installed from: when it still equals
/// the current lockfile, `npm ci` (which deletes and reinstalls everything) is skipped.
const NPM_STAMP: &str = "node_modules/.xtask-installed-package-lock.json";
const PACKAGE_LOCK: &str = "package-lock.json";

/// Puts the npm packages' binaries (wasm-opt) and cargo-installed tools first on PATH, for
/// xtask and everything it starts.
pub fn put_tools_on_path() -> Result<(), String> {
    let mut dirs = vec![workspace::root().join(NODE_MODULES).join(".bin")];
    dirs.extend(cargo_bin_dir());
    if let Some(current) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&current));
    }
    let path = std::env::join_paths(dirs).map_err(|error| format!("cannot build PATH: {error}"))?;
    std::env::set_var("PATH", path);
    Ok(())
}

fn cargo_bin_dir() -> Option<PathBuf> {
    Some(cargo_home()?.join("bin"))
}

/// Cargo's home folder (`$CARGO_HOME`, else `~/.cargo`): its tools and the crates' sources.
pub fn cargo_home() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
}

/// Everything `trunk build` needs: the wasm32 target, Trunk, the wasm-bindgen CLI, wasm-opt,
/// and the crates themselves.
pub fn site_tools() -> Result<(), String> {
    wasm_target()?;
    trunk()?;
    wasm_bindgen_cli()?;
    npm_packages()?;
    crate_sources()
}

fn wasm_target() -> Result<(), String> {
    let sysroot = process::stdout_of(Command::new("rustc").args(["--print", "sysroot"]))?;
    let target_dir = Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(WASM_TARGET);
    if target_dir.is_dir() {
        return present(&format!("Rust target {WASM_TARGET}"));
    }
    installing(&format!("Rust target {WASM_TARGET}"));
    process::run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

fn trunk() -> Result<(), String> {
    let wanted = format!("trunk {TRUNK_VERSION}");
    if first_line_quietly(Command::new("trunk").arg("--version")).as_deref() == Some(&wanted) {
        return present(&wanted);
    }
    installing(&format!("{wanted} (several minutes on a cold machine)"));
    process::run(cargo().args(["install", "trunk", "--version", TRUNK_VERSION, "--locked"]))
}

fn wasm_bindgen_cli() -> Result<(), String> {
    let version = pins::wasm_bindgen_version()?;
    let wanted = format!("wasm-bindgen {version}");
    let cli = first_line_quietly(Command::new("wasm-bindgen").arg("--version"));
    let runner_present = find_on_path("wasm-bindgen-test-runner").is_some();
    if cli.as_deref() == Some(&wanted) && runner_present {
        return present(&format!("{wanted} CLI and test runner"));
    }
    installing(&format!("{wanted} CLI and test runner (a few minutes)"));
    // Not `--locked`: the CLI's own lockfile names a dependency version that the registry
    // mirror lacks, and its unlocked build works.
    process::run(cargo().args([
        "install",
        "wasm-bindgen-cli",
        "--version",
        &version,
        "--force",
    ]))
}

/// binaryen (wasm-opt), terser and playwright-core, exactly as package-lock.json pins them.
pub fn npm_packages() -> Result<(), String> {
    let lock = std::fs::read(PACKAGE_LOCK)
        .map_err(|error| format!("cannot read {PACKAGE_LOCK}: {error}"))?;
    let installed = std::fs::read(NPM_STAMP).ok();
    let binaries_present = ["wasm-opt"]
        .iter()
        .all(|name| Path::new(NODE_MODULES).join(".bin").join(name).exists());
    if installed.as_deref() == Some(lock.as_slice()) && binaries_present {
        return present(&format!("npm packages of {PACKAGE_LOCK}"));
    }
    if find_on_path("npm").is_none() {
        return Err("npm not found: install Node.js 20 or newer with npm".to_string());
    }
    installing(&format!("npm packages of {PACKAGE_LOCK}"));
    process::run(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]))?;
    std::fs::write(NPM_STAMP, &lock).map_err(|error| format!("cannot write {NPM_STAMP}: {error}"))
}

/// Downloads the locked crates if some are missing, then keeps every later cargo command
/// offline so a warm run never waits on the registry.
fn crate_sources() -> Result<(), String> {
    if succeeds_quietly(cargo().args(["fetch", "--locked", "--offline"])) {
        present("crates locked in Cargo.lock")?;
    } else {
        installing("crates locked in Cargo.lock");
        process::run(cargo().args(["fetch", "--locked"]))?;
    }
    std::env::set_var("CARGO_NET_OFFLINE", "true");
    Ok(())
}

/// Debian's Chromium and ChromeDriver, for wasm-bindgen tests and the end-to-end tests.
pub fn browser() -> Result<(), String> {
    if Path::new(CHROMIUM).is_file() && Path::new(CHROMEDRIVER).is_file() {
        return present("Chromium and ChromeDriver");
    }
    installing("Chromium and ChromeDriver from Debian's packages");
    let as_root = |program: &str| {
        let running_as_root =
            first_line_quietly(Command::new("id").arg("-u")).as_deref() == Some("0");
        if running_as_root {
            Command::new(program)
        } else {
            let mut sudo = Command::new("sudo");
            sudo.arg(program);
            sudo
        }
    };
    process::run(as_root("apt-get").arg("update"))?;
    process::run(as_root("apt-get").args(["install", "-y", "chromium", "chromium-driver"]))
}

fn present(what: &str) -> Result<(), String> {
    println!("install: {what}: present");
    Ok(())
}

fn installing(what: &str) {
    println!("install: {what}: installing");
}
