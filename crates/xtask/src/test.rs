//! `cargo xtask test`: every check CI runs, in order, after installing what is missing.
//!
//! Steps keep going after a failure where later steps still say something (a formatting slip
//! should not hide a failing test), and are skipped only when they cannot mean anything (no
//! end-to-end tests without a built site). The run ends with one line,
//! `xtask: N passed, N failed`, counting steps; a skipped step counts as failed because it
//! proved nothing.

use crate::install::{self, WASM_TARGET};
use crate::process::{self, cargo};
use crate::workspace::{E2E_TESTS, WEB_PACKAGE};
use crate::{dist, trace_hash};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Read by the web crate's wasm tests, which compare it with the hash they compute in the
/// browser for the same scenario.
const NATIVE_TRACE_HASH_VAR: &str = "STREAMLAB_NATIVE_TRACE_HASH";

enum Outcome {
    Passed,
    Failed(String),
    Skipped(String),
}

struct Report {
    steps: Vec<(&'static str, Outcome, f64)>,
}

impl Report {
    fn step<T>(
        &mut self,
        name: &'static str,
        body: impl FnOnce() -> Result<T, String>,
    ) -> Option<T> {
        println!("\n==> {name}");
        let started = Instant::now();
        let result = body();
        let seconds = started.elapsed().as_secs_f64();
        let (outcome, value) = match result {
            Ok(value) => (Outcome::Passed, Some(value)),
            Err(message) => {
                println!("FAILED: {name}: {message}");
                (Outcome::Failed(message), None)
            }
        };
        self.steps.push((name, outcome, seconds));
        value
    }

    fn skip(&mut self, name: &'static str, reason: &str) {
        println!("\n==> {name}\nSKIPPED: {reason}");
        self.steps
            .push((name, Outcome::Skipped(reason.to_string()), 0.0));
    }

    fn finish(self) -> ExitCode {
        println!("\n==> summary");
        let mut failed = 0;
        for (name, outcome, seconds) in &self.steps {
            let verdict = match outcome {
                Outcome::Passed => "ok".to_string(),
                Outcome::Failed(message) => format!("FAILED: {message}"),
                Outcome::Skipped(reason) => format!("SKIPPED: {reason}"),
            };
            if !matches!(outcome, Outcome::Passed) {
                failed += 1;
            }
            println!("{seconds:>7.1}s  {name}: {verdict}");
        }
        let passed = self.steps.len() - failed;
        println!("xtask: {passed} passed, {failed} failed");
        if failed > 0 {
            // A build that runs out of disk can fail far from any message saying so (a
            // linker stopped mid-write); the free space next to the verdict says it at once.
            if let Some(free) = free_disk() {
                println!("{free}");
            }
        }
        if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }
}

pub fn run() -> Result<ExitCode, String> {
    println!("==> install what is missing");
    install::site_tools()?;
    install::browser()?;

    let mut report = Report { steps: Vec::new() };
    report.step("cargo fmt --check", || {
        process::run(cargo().args(["fmt", "--all", "--check"]))
    });
    // The web crate pulls in Yew, which is slow to build natively and only ever runs in the
    // browser, so it is linted and tested on wasm32 only.
    report.step("clippy: native crates", || {
        clippy(&["--workspace", "--exclude", WEB_PACKAGE])
    });
    report.step("clippy: web on wasm32", || {
        clippy(&["-p", WEB_PACKAGE, "--target", WASM_TARGET])
    });
    report.step("native tests", || {
        process::run(cargo().args(["test", "--locked", "--workspace", "--exclude", WEB_PACKAGE]))
    });
    let native_hash = report.step("native trace hash of the determinism scenario", || {
        let hash = trace_hash::of_fixture_scenario()?;
        println!("{NATIVE_TRACE_HASH_VAR}={hash}");
        Ok(hash)
    });
    report.step("web tests on wasm32 in headless Chromium", || {
        let mut web_tests = cargo();
        web_tests.args([
            "test",
            "--locked",
            "-p",
            WEB_PACKAGE,
            "--target",
            WASM_TARGET,
        ]);
        // wasm-bindgen-test-runner drives Chromium through this ChromeDriver, with the
        // browser flags in web/webdriver.json.
        web_tests.env("CHROMEDRIVER", install::CHROMEDRIVER);
        let browser_tmp = BrowserTmp::create()?;
        web_tests.env("TMPDIR", browser_tmp.path());
        match &native_hash {
            Some(hash) => {
                web_tests.env(NATIVE_TRACE_HASH_VAR, hash);
            }
            None => {
                // Still run the other web tests; the failed step above already fails the run.
                println!(
                    "note: {NATIVE_TRACE_HASH_VAR} is unset because the native hash step failed"
                );
                web_tests.env_remove(NATIVE_TRACE_HASH_VAR);
            }
        }
        process::run(&mut web_tests)
    });
    let site_built = report
        .step("site build (trunk, release)", dist::build)
        .is_some();
    if site_built {
        report.step("end-to-end tests against dist/", || {
            process::run(Command::new("node").args(["--test", E2E_TESTS]))
        });
    } else {
        report.skip("end-to-end tests against dist/", "the site did not build");
    }
    Ok(report.finish())
}

/// Clippy on `scope` (package selection and target) with every warning an error.
fn clippy(scope: &[&str]) -> Result<(), String> {
    process::run(cargo().args(["clippy", "--locked"]).args(scope).args([
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))
}

/// `df`'s line for the folder the builds write to: its size, use and free space.
fn free_disk() -> Option<String> {
    let table = process::stdout_of(Command::new("df").args(["-h", "."])).ok()?;
    let line = table.lines().last()?.split_whitespace().collect::<Vec<_>>();
    let [_, size, used, free, ..] = line.as_slice() else {
        return None;
    };
    Some(format!("disk: {free} free of {size} ({used} used)"))
}

/// A temporary folder for the browser of the web tests, removed when dropped.
///
/// ChromeDriver ends Chromium without letting it delete its profile, so each test binary
/// left a profile folder of about 100 MB in the system's temporary folder, run after run.
struct BrowserTmp(PathBuf);

impl BrowserTmp {
    fn create() -> Result<Self, String> {
        let path = std::env::current_dir()
            .map_err(|error| format!("cannot read the current folder: {error}"))?
            .join("target")
            .join("browser-tmp");
        std::fs::create_dir_all(&path)
            .map_err(|error| format!("cannot create {}: {error}", path.display()))?;
        Ok(Self(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for BrowserTmp {
    fn drop(&mut self) {
        // Best effort: a folder left behind is what happened before, not a failure.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
