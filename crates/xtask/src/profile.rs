//! `cargo xtask profile LESSON`: where one lesson's fresh knob settings spend their time in
//! Chromium, by function.
//!
//! The shipped site's wasm keeps no function names (wasm-opt drops them), so a profile of it
//! names functions only by number. This builds a copy of the site exactly as `dist` does,
//! except that every bundle's wasm-opt also gets `-g`, which keeps the names; it goes to its
//! own folder so dist/ stays the shipped build. Then [`PROFILE_SCRIPT`] profiles the lesson.

use crate::dist;
use crate::install;
use crate::process;
use crate::workspace::{INDEX_HTML, PROFILE_DIST_DIR, PROFILE_INDEX_HTML, PROFILE_SCRIPT};
use std::path::Path;
use std::process::{Command, ExitCode};

/// The attribute that passes each bundle's extra options to wasm-opt in index.html.
const WASM_OPT_PARAMS: &str = "data-wasm-opt-params=\"";
/// wasm-opt's option that keeps the wasm's names section.
const KEEP_NAMES: &str = "-g";

pub fn run(rest: &[String]) -> Result<ExitCode, String> {
    let lesson = lesson_of(rest)?;
    install::site_tools()?;
    install::browser()?;
    build_with_names()?;
    process::run(
        Command::new("node")
            .arg(PROFILE_SCRIPT)
            .arg(PROFILE_DIST_DIR)
            .arg(lesson),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The one argument, a lesson's slug (not an option).
fn lesson_of(rest: &[String]) -> Result<&str, String> {
    match rest {
        [lesson] if !lesson.starts_with('-') => Ok(lesson),
        _ => {
            Err("`profile` takes one lesson's slug, e.g. `cargo xtask profile replication`".into())
        }
    }
}

/// Builds the site with wasm names into [`PROFILE_DIST_DIR`], from a copy of index.html beside
/// it (Trunk resolves the page's links from the page's folder), removed afterwards.
fn build_with_names() -> Result<(), String> {
    let html = std::fs::read_to_string(INDEX_HTML)
        .map_err(|error| format!("cannot read {INDEX_HTML}: {error}"))?;
    let html = page_keeping_names(&html)?;
    std::fs::write(PROFILE_INDEX_HTML, html)
        .map_err(|error| format!("cannot write {PROFILE_INDEX_HTML}: {error}"))?;
    let built = process::run(dist::trunk().args([
        "build",
        PROFILE_INDEX_HTML,
        "--release",
        "--offline",
        "--locked",
        "--dist",
        PROFILE_DIST_DIR,
    ]));
    let removed = std::fs::remove_file(PROFILE_INDEX_HTML);
    built?;
    removed.map_err(|error| format!("cannot remove {PROFILE_INDEX_HTML}: {error}"))?;
    rename_page(Path::new(PROFILE_DIST_DIR))
}

/// `html` with wasm-opt told to keep names for every bundle, or an error if it names none (the
/// profile would show numbers, not names).
fn page_keeping_names(html: &str) -> Result<String, String> {
    match keeping_names(html) {
        (_, 0) => Err(format!(
            "{INDEX_HTML} passes no options to wasm-opt ({WASM_OPT_PARAMS}…)"
        )),
        (html, _) => Ok(html),
    }
}

/// `html` with wasm-opt told to keep names for every bundle, and how many bundles that is.
fn keeping_names(html: &str) -> (String, usize) {
    let bundles = html.matches(WASM_OPT_PARAMS).count();
    let html = html.replace(WASM_OPT_PARAMS, &format!("{WASM_OPT_PARAMS}{KEEP_NAMES} "));
    (html, bundles)
}

/// Trunk names the built page after its source; the site is served from index.html.
fn rename_page(dir: &Path) -> Result<(), String> {
    let built = dir.join(PROFILE_INDEX_HTML);
    if !built.exists() {
        return Ok(());
    }
    std::fs::rename(&built, dir.join(INDEX_HTML))
        .map_err(|error| format!("cannot rename {}: {error}", built.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bundle keeps its own options and gains `-g`; nothing else in the page changes.
    #[test]
    fn every_bundle_keeps_its_names_and_its_own_options() {
        let html = "<link data-bin=\"a\" data-wasm-opt-params=\"--low-memory-unused\" />\n\
                    <link data-bin=\"b\" data-wasm-opt-params=\"--low-memory-unused --converge\" />";
        let (kept, bundles) = keeping_names(html);
        assert_eq!(bundles, 2);
        assert_eq!(
            kept,
            "<link data-bin=\"a\" data-wasm-opt-params=\"-g --low-memory-unused\" />\n\
             <link data-bin=\"b\" data-wasm-opt-params=\"-g --low-memory-unused --converge\" />"
        );
    }

    #[test]
    fn it_takes_exactly_one_lesson() {
        let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        assert_eq!(lesson_of(&args(&["replication"])), Ok("replication"));
        for wrong in [&[][..], &["queues", "replication"], &["--lesson"]] {
            assert!(lesson_of(&args(wrong)).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn a_page_with_no_wasm_opt_options_is_refused() {
        assert!(page_keeping_names("<link data-bin=\"a\" />").is_err());
        let page = page_keeping_names("<link data-wasm-opt-params=\"\" />").unwrap();
        assert!(page.contains("data-wasm-opt-params=\"-g \""));
    }

    /// The built page, named after its source, is served as index.html; a build that named it
    /// index.html already is left alone.
    #[test]
    fn the_built_page_becomes_index_html() {
        let dir = std::env::temp_dir().join(format!("xtask-profile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(PROFILE_INDEX_HTML), "built").unwrap();
        rename_page(&dir).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join(INDEX_HTML)).unwrap(),
            "built"
        );
        assert!(!dir.join(PROFILE_INDEX_HTML).exists());
        rename_page(&dir).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join(INDEX_HTML)).unwrap(),
            "built"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The real page: each Rust bundle it builds is one that gets `-g`.
    #[test]
    fn the_sites_page_names_every_bundle_it_builds() {
        let html = std::fs::read_to_string(crate::workspace::root().join(INDEX_HTML)).unwrap();
        let built_bundles = html.matches("data-bin=").count();
        assert!(built_bundles > 1);
        assert_eq!(keeping_names(&html).1, built_bundles);
    }
}
