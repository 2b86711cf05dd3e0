//! Flag parsing shared by every subcommand: `--name value` pairs, nothing positional.
//!
//! Kept tiny on purpose: each subcommand declares which flags it accepts, and anything else
//! (an unknown flag, a missing value, a repeated flag) is one clear error line.

use crate::CliError;
use std::collections::BTreeMap;
use std::ffi::OsString;

/// The `--name value` pairs of one invocation, checked against the names a subcommand accepts.
#[derive(Debug, Default)]
pub struct Flags {
    values: BTreeMap<String, String>,
}

impl Flags {
    /// Parses `args` accepting only the flags in `allowed` (names without the leading `--`).
    pub fn parse(args: &[OsString], allowed: &[&str]) -> Result<Self, CliError> {
        let mut values = BTreeMap::new();
        let mut iter = args.iter();
        while let Some(raw) = iter.next() {
            let raw = raw
                .to_str()
                .ok_or_else(|| CliError::new("an argument is not valid UTF-8"))?;
            let name = raw
                .strip_prefix("--")
                .ok_or_else(|| CliError::new(format!("unexpected argument {raw:?}")))?;
            if !allowed.contains(&name) {
                return Err(CliError::new(format!("unknown flag --{name}")));
            }
            let value = iter
                .next()
                .and_then(|v| v.to_str())
                .ok_or_else(|| CliError::new(format!("--{name} needs a value")))?;
            if values.insert(name.to_string(), value.to_string()).is_some() {
                return Err(CliError::new(format!("--{name} given twice")));
            }
        }
        Ok(Self { values })
    }

    /// The value of a flag that must be present.
    pub fn required(&self, name: &str) -> Result<&str, CliError> {
        self.optional(name)
            .ok_or_else(|| CliError::new(format!("missing --{name}")))
    }

    /// The value of a flag that may be absent.
    pub fn optional(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }
}
