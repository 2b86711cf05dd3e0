//! The tool versions the repository pins, read from the files that pin them.
//!
//! The wasm-bindgen CLI must be the exact version of the `wasm-bindgen` library in Cargo.lock
//! (the two share an unversioned wire format), and Trunk.toml must name that same version so
//! Trunk uses the CLI on PATH instead of trying to download one. These readers understand just
//! enough of the two TOML files for that: xtask stays free of dependencies.

use crate::workspace::{CARGO_LOCK, TRUNK_TOML};

/// The version of `wasm-bindgen` that Cargo.lock locks, checked against Trunk.toml.
pub fn wasm_bindgen_version() -> Result<String, String> {
    let lock = read(CARGO_LOCK)?;
    let locked = locked_version(&lock, "wasm-bindgen")
        .map_err(|problem| format!("{CARGO_LOCK}: {problem}"))?;
    let trunk_toml = read(TRUNK_TOML)?;
    let for_trunk = table_string(&trunk_toml, "tools", "wasm_bindgen")
        .ok_or_else(|| format!("{TRUNK_TOML} has no `wasm_bindgen = \"...\"` under [tools]"))?;
    if for_trunk != locked {
        return Err(format!(
            "{TRUNK_TOML} asks for wasm-bindgen {for_trunk} but {CARGO_LOCK} locks {locked}; \
             make [tools] wasm_bindgen say \"{locked}\""
        ));
    }
    Ok(locked)
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|error| format!("cannot read {path}: {error}"))
}

/// The version Cargo.lock records for `package`; an error if it has none or several.
pub fn locked_version(lock: &str, package: &str) -> Result<String, String> {
    let mut versions = Vec::new();
    for block in lock.split("[[package]]").skip(1) {
        if quoted_value(block, "name") == Some(package) {
            if let Some(version) = quoted_value(block, "version") {
                versions.push(version.to_string());
            }
        }
    }
    match versions.as_slice() {
        [version] => Ok(version.clone()),
        [] => Err(format!("no package {package:?}")),
        several => Err(format!(
            "several versions of {package:?}: {}",
            several.join(", ")
        )),
    }
}

/// The string value of `key` inside the `[table]` section of a TOML file.
pub fn table_string<'a>(toml: &'a str, table: &str, key: &str) -> Option<&'a str> {
    let header = format!("[{table}]");
    let mut in_table = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_table = line == header;
        } else if in_table {
            if let Some(value) = quoted_value(line, key) {
                return Some(value);
            }
        }
    }
    None
}

/// The value of the first `key = "value"` line in `text`.
fn quoted_value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once('=')?;
        if name.trim() != key {
            return None;
        }
        let value = value.trim();
        // A trailing comment after the closing quote is allowed.
        let value = value.strip_prefix('"')?;
        value.split_once('"').map(|(inside, _)| inside)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "wasm-bindgen-macro",
]

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"
"#;

    #[test]
    fn finds_the_locked_version_of_exactly_the_named_package() {
        assert_eq!(
            locked_version(LOCK, "wasm-bindgen"),
            Ok("0.2.130".to_string())
        );
    }

    #[test]
    fn a_missing_or_duplicated_package_is_an_error() {
        assert!(locked_version(LOCK, "yew").is_err());
        let twice = format!("{LOCK}\n[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.99\"\n");
        let error = locked_version(&twice, "wasm-bindgen").unwrap_err();
        assert!(error.contains("0.2.130, 0.2.99"), "{error}");
    }

    #[test]
    fn reads_a_key_only_from_its_own_table() {
        let toml = "[build]\nwasm_bindgen = \"wrong\"\n\n[tools]\nwasm_bindgen = \"0.2.130\" # pinned\nwasm_opt = \"version_132\"\n";
        assert_eq!(table_string(toml, "tools", "wasm_bindgen"), Some("0.2.130"));
        assert_eq!(table_string(toml, "tools", "wasm_opt"), Some("version_132"));
        assert_eq!(table_string(toml, "serve", "wasm_opt"), None);
    }
}
