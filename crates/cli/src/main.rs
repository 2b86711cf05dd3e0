//! The `streamlab` command: the simulation core without a browser.
//!
//! `main` only calls [`try_main`] and turns any error into one line on stderr with exit
//! status 2, so bad input never produces a panic or a backtrace (see the CLI contract in the
//! README). Each subcommand lives in its own module and reads its own flags.

mod args;
mod assign;
mod partition;
mod simulate;
mod window;

use std::process::ExitCode;

/// One line naming what was wrong with the input; printed as `streamlab: <message>`.
#[derive(Debug)]
pub struct CliError(pub String);

impl CliError {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl From<std::io::Error> for CliError {
    fn from(error: std::io::Error) -> Self {
        Self(format!("i/o error: {error}"))
    }
}

const USAGE: &str = "usage: streamlab <partition|assign|window|simulate> [flags]";

fn main() -> ExitCode {
    match try_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError(message)) => {
            // One line, always: a message with a newline inside would break that promise.
            eprintln!("streamlab: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn try_main() -> Result<(), CliError> {
    let mut argv = std::env::args_os().skip(1);
    let subcommand = argv
        .next()
        .ok_or_else(|| CliError::new(format!("missing subcommand; {USAGE}")))?;
    let rest: Vec<std::ffi::OsString> = argv.collect();
    match subcommand.to_str() {
        Some("partition") => partition::run(&rest),
        Some("assign") => assign::run(&rest),
        Some("window") => window::run(&rest),
        Some("simulate") => simulate::run(&rest),
        Some("--help") | Some("-h") | Some("help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(CliError::new(format!(
            "unknown subcommand {:?}; {USAGE}",
            subcommand.to_string_lossy()
        ))),
    }
}
