//! `streamlab simulate` (placeholder until implemented).

use crate::CliError;
use std::ffi::OsString;

pub fn run(_args: &[OsString]) -> Result<(), CliError> {
    Err(CliError::new("not implemented yet"))
}
