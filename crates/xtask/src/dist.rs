//! The static site in dist/: building it with Trunk and checking that it can be hosted anywhere.
//!
//! Trunk.toml sets `public_url = "./"`, so every asset URL in the generated index.html is
//! relative and the folder works from any sub-path of any static host. [`build`] verifies that
//! on every build, because one absolute URL would only break once deployed under a sub-path,
//! and prints the gzipped size of what a visitor downloads to open a lesson, per bundle.

use crate::install;
use crate::process;
use crate::short_imports;
use crate::weight::{bundle_weights, loader_table, BuiltFile};
use crate::workspace::{DIST_DIR, INDEX_HTML};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What opening one lesson may download gzipped (one bundle's wasm and JavaScript glue, and the
/// style sheets) before we warn.
const DOWNLOAD_GZIP_BUDGET_BYTES: u64 = 300 * 1024;

/// rustc's opt-level for the browser build, overriding the release profile's 3 for Trunk's
/// cargo only (the native CLI and benchmarks keep 3). Gzipped wasm + js, measured: with the
/// first lesson 3 gave 344 KiB and "s" 285 KiB; with two lessons "s" gave 323 KiB and "z"
/// 294 KiB, the only one under budget. `window.__streamlab.bench()` in Chromium still ran ten
/// simulated minutes of the default lesson in about 0.1 s with "z" (between as fast as "s" and
/// 1.7 times slower, on a busy machine).
const WEB_OPT_LEVEL: &str = "z";

/// The variable that passes rustc flags to the wasm build alone.
const WASM_RUSTFLAGS_VAR: &str = "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS";

/// A `trunk` command that builds the web crate at [`WEB_OPT_LEVEL`], with the crates' source
/// paths made machine-independent ([`wasm_rustflags`]).
pub fn trunk() -> Command {
    let mut trunk = Command::new("trunk");
    trunk.env("CARGO_PROFILE_RELEASE_OPT_LEVEL", WEB_OPT_LEVEL);
    // The bundles built with the core at speed (Cargo.toml) keep the rest at the same size.
    trunk.env("CARGO_PROFILE_RELEASE_CORE_SPEED_OPT_LEVEL", WEB_OPT_LEVEL);
    let flags = wasm_rustflags(
        install::cargo_home().as_deref(),
        std::env::var(WASM_RUSTFLAGS_VAR).ok().as_deref(),
    );
    trunk.env(WASM_RUSTFLAGS_VAR, flags);
    trunk
}

/// The wasm build's rustc flags: `existing` (the caller's own), then a remap of cargo's
/// registry folder. A panic location names its source file, and a dependency's lies under
/// `$CARGO_HOME/registry/src/`, an absolute path of the machine that built the site: the
/// shipped bundles would carry it and differ from one machine to the next. The variable
/// splits on spaces, so a home whose path has one is left as it is.
fn wasm_rustflags(cargo_home: Option<&Path>, existing: Option<&str>) -> String {
    let registry = cargo_home.map(|home| home.join("registry").join("src"));
    let remap = registry
        .map(|folder| folder.display().to_string())
        .filter(|folder| !folder.contains(char::is_whitespace))
        .map(|folder| format!("--remap-path-prefix={folder}=registry"));
    [existing, remap.as_deref()]
        .into_iter()
        .flatten()
        .filter(|flags| !flags.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `cargo xtask dist`: installs the build tools, then builds and checks the site.
pub fn run() -> Result<(), String> {
    install::site_tools()?;
    build()?;
    println!(
        "dist: the site is in {DIST_DIR}/; copy that folder to any static host, under any path"
    );
    Ok(())
}

/// Builds dist/ in release mode with wasm-opt, then checks and reports it.
pub fn build() -> Result<(), String> {
    process::run(trunk().args(["build", INDEX_HTML, "--release", "--offline", "--locked"]))?;
    shrink_bundles()?;
    let built_index = Path::new(DIST_DIR).join(INDEX_HTML);
    let html = std::fs::read_to_string(&built_index)
        .map_err(|error| format!("cannot read {}: {error}", built_index.display()))?;
    let absolute = absolute_urls(&html);
    if !absolute.is_empty() {
        return Err(format!(
            "{} refers to absolute URLs ({}), which break when the site is hosted under a sub-path; \
             keep public_url = \"./\" in Trunk.toml",
            built_index.display(),
            absolute.join(", ")
        ));
    }
    report_sizes()
}

/// Shrinks each bundle's pair of files after Trunk: short import names in both
/// ([`short_imports`]), then its JavaScript glue minified in place with terser (package.json).
/// Trunk builds the bundles as workers and leaves their wasm-bindgen glue as written, about
/// 60 KB of it per bundle; every lesson downloads one, and minified it gzips about 2 KiB
/// smaller.
fn shrink_bundles() -> Result<(), String> {
    let names: Vec<String> = std::fs::read_dir(DIST_DIR)
        .map_err(|error| format!("cannot list {DIST_DIR}: {error}"))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    for bundle in bundle_names(&names) {
        let renamed = shorten_imports_in(Path::new(DIST_DIR), &bundle)?;
        println!("dist: {bundle}: {renamed} imports named shortly");
        let js_path = Path::new(DIST_DIR).join(format!("{bundle}.js"));
        process::run(
            Command::new("terser")
                .arg(&js_path)
                .args(["--module", "--compress", "--mangle", "--output"])
                .arg(&js_path),
        )?;
    }
    Ok(())
}

/// Renames the imports of `bundle`'s wasm and glue in `dir`, in place; returns how many.
fn shorten_imports_in(dir: &Path, bundle: &str) -> Result<usize, String> {
    let wasm_path = dir.join(format!("{bundle}_bg.wasm"));
    let js_path = dir.join(format!("{bundle}.js"));
    let read_error = |error: std::io::Error| format!("cannot read {bundle}'s files: {error}");
    let wasm = std::fs::read(&wasm_path).map_err(read_error)?;
    let js = std::fs::read_to_string(&js_path).map_err(read_error)?;
    let (wasm, js, renamed) = short_imports::shorten(&wasm, &js, &format!("./{bundle}_bg.js"))
        .map_err(|error| format!("{bundle}: {error}"))?;
    let write_error = |error: std::io::Error| format!("cannot write {bundle}'s files: {error}");
    std::fs::write(&wasm_path, wasm).map_err(write_error)?;
    std::fs::write(&js_path, js).map_err(write_error)?;
    Ok(renamed)
}

/// The bundles among a folder's file names: each `<name>` whose `<name>_bg.wasm` has its
/// `<name>.js` beside it, in name order.
fn bundle_names(names: &[String]) -> Vec<String> {
    let mut bundles: Vec<String> = names
        .iter()
        .filter_map(|name| name.strip_suffix("_bg.wasm"))
        .filter(|bundle| names.contains(&format!("{bundle}.js")))
        .map(str::to_string)
        .collect();
    bundles.sort();
    bundles
}

/// Quoted strings in `html` that start with `/`, `//`, `http:` or `https:`: every one is a URL
/// that does not resolve relative to the page.
pub fn absolute_urls(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (index, quote) in html
        .char_indices()
        .filter(|(_, c)| matches!(c, '"' | '\'' | '`'))
    {
        let after = &html[index + 1..];
        let looks_absolute = ["/", "http:", "https:"]
            .iter()
            .any(|start| after.starts_with(start));
        // A closing quote right before a self-closing tag's `/>` is not a URL.
        if looks_absolute && !after.starts_with("/>") {
            let end = after
                .find(|c: char| c == quote || c.is_whitespace())
                .unwrap_or(after.len());
            found.push(after[..end].to_string());
        }
    }
    found
}

fn report_sizes() -> Result<(), String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(DIST_DIR)
        .map_err(|error| format!("cannot list {DIST_DIR}: {error}"))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    println!("{:<48} {:>10} {:>10}", "file", "bytes", "gzipped");
    let mut files = Vec::new();
    for path in &paths {
        let bytes = path.metadata().map(|meta| meta.len()).unwrap_or(0);
        let gzipped_bytes = gzipped_size(path)?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        println!("{name:<48} {bytes:>10} {gzipped_bytes:>10}");
        files.push(BuiltFile {
            name: name.to_string(),
            gzipped_bytes,
        });
    }
    let html = std::fs::read_to_string(Path::new(DIST_DIR).join(INDEX_HTML)).unwrap_or_default();
    let weights = bundle_weights(&files, &loader_table(&html));
    println!(
        "dist: what opening a lesson downloads, per bundle (its wasm + js and the style sheets, gzipped; budget {} KiB):",
        DOWNLOAD_GZIP_BUDGET_BYTES / 1024
    );
    for weight in &weights {
        let lessons = if weight.lessons.is_empty() {
            "the gallery alone".to_string()
        } else {
            weight.lessons.join(", ")
        };
        println!(
            "dist:   {:<14} {:>7.1} KiB  {lessons}",
            weight.name,
            weight.download_bytes as f64 / 1024.0
        );
    }
    let over: Vec<&str> = weights
        .iter()
        .filter(|weight| weight.download_bytes > DOWNLOAD_GZIP_BUDGET_BYTES)
        .map(|weight| weight.name.as_str())
        .collect();
    if !over.is_empty() {
        println!(
            "dist: warning: over budget: {}; look for a heavy dependency or debug code in release",
            over.join(", ")
        );
    }
    Ok(())
}

/// The size `gzip -9` makes of the file: what a static host that compresses would send.
fn gzipped_size(file: &Path) -> Result<u64, String> {
    let output = Command::new("gzip")
        .args(["-9", "--stdout"])
        .arg(file)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run gzip to measure {}: {error}", file.display()))?;
    if !output.status.success() {
        return Err(format!("gzip failed on {}", file.display()));
    }
    Ok(output.stdout.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::{absolute_urls, bundle_names, shorten_imports_in, wasm_rustflags};
    use std::path::Path;

    #[test]
    fn a_bundles_two_files_are_rewritten_in_place_with_short_import_names() {
        let dir = std::env::temp_dir().join(format!("xtask-shorten-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A header, then an import section: one function `__wbg_a_00` from `./x_bg.js`.
        let mut wasm = b"\0asm\x01\0\0\0\x02\x18\x01\x09./x_bg.js".to_vec();
        wasm.extend_from_slice(b"\x0a__wbg_a_00\x00\x00");
        std::fs::write(dir.join("x_bg.wasm"), &wasm).unwrap();
        std::fs::write(dir.join("x.js"), "const i = { __wbg_a_00: f };").unwrap();
        assert_eq!(shorten_imports_in(&dir, "x").unwrap(), 1);
        let js = std::fs::read_to_string(dir.join("x.js")).unwrap();
        let short_wasm = std::fs::read(dir.join("x_bg.wasm")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(js, "const i = { $0: f };");
        assert!(short_wasm.ends_with(b"\x02$0\x00\x00"), "{short_wasm:?}");
        assert!(
            shorten_imports_in(&dir, "x").is_err(),
            "no files, no rewrite"
        );
    }

    #[test]
    fn only_a_bundles_pair_of_files_is_shrunk() {
        // The loader's own script is inside index.html; a stray script with no wasm beside it
        // is not a bundle's.
        let names: Vec<String> = [
            "kafka_bg.wasm",
            "kafka.js",
            "index.html",
            "app-1a2b.css",
            "gallery.js",
            "gallery_bg.wasm",
            "stray.js",
            "lonely_bg.wasm",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(bundle_names(&names), ["gallery", "kafka"]);
    }

    #[test]
    fn the_wasm_build_remaps_the_registry_after_the_callers_own_flags() {
        let home = Path::new("/home/someone/.cargo");
        assert_eq!(
            wasm_rustflags(Some(home), None),
            "--remap-path-prefix=/home/someone/.cargo/registry/src=registry"
        );
        assert_eq!(
            wasm_rustflags(Some(home), Some("-C debuginfo=1")),
            "-C debuginfo=1 --remap-path-prefix=/home/someone/.cargo/registry/src=registry"
        );
        assert_eq!(
            wasm_rustflags(None, Some("-C debuginfo=1")),
            "-C debuginfo=1"
        );
        assert_eq!(wasm_rustflags(None, Some("  ")), "");
        let spaced = Path::new("/home/some one/.cargo");
        assert_eq!(
            wasm_rustflags(Some(spaced), None),
            "",
            "cannot be said in the variable"
        );
    }

    #[test]
    fn relative_asset_urls_pass() {
        let html = r#"<link rel="stylesheet" href="./base-1a2b.css" integrity="sha384-x"/>
<script type="module">import init from './streamlab-web-3c4d.js';
init({ module_or_path: './streamlab-web-3c4d_bg.wasm' });</script>
<noscript>Streamlab doesn't run without JavaScript.</noscript>"#;
        assert_eq!(absolute_urls(html), Vec::<String>::new());
    }

    #[test]
    fn root_relative_protocol_relative_and_remote_urls_are_found() {
        let html = r#"<link href="/base.css"><script src='//cdn.example/x.js'></script>
<img src="https://example.org/a.png">"#;
        assert_eq!(
            absolute_urls(html),
            [
                "/base.css",
                "//cdn.example/x.js",
                "https://example.org/a.png"
            ]
        );
    }
}
