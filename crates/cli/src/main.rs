//! The `streamlab` command: the simulation core without a browser.
//!
//! `main` only calls [`try_main`] and turns any error into one line on stderr with exit
//! status 2, so bad input never produces a panic or a backtrace (see the CLI contract in the
//! README). Each subcommand lives in its own module and reads its own flags.

mod args;
mod assign;
mod grade;
mod join;
mod key;
mod keyed_event;
mod lines;
mod partition;
mod plain_event;
mod simulate;
mod topk;
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

/// Writes `text` and a newline to stdout. A reader that stopped reading (`| head`) is not an
/// error: the command has nothing more to say to it.
pub fn print_line(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

const USAGE: &str = "usage: streamlab <partition|assign|window|join|topk|simulate|grade> [flags]";

const HELP: &str = "\
usage: streamlab <subcommand> [flags]

Streamlab's simulation core without a browser: the same code, the same numbers.

subcommands:
  partition   the partition Kafka's default partitioner picks for each key on stdin
  assign      a Kafka assignor's assignment of the group on stdin
  window      an event-time window operator over JSON Lines events on stdin
  join        an interval or temporal join of two streams given as JSON Lines on stdin
  topk        the top K keys of each event-time window over JSON Lines events on stdin
  simulate    a lesson's preset or scenario, run headless, as JSON
  grade       a practice challenge's verdict on an attempt, as JSON

`streamlab <subcommand> --help` says more about each.";

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
    let asks_for_help = rest.len() == 1 && (rest[0] == "--help" || rest[0] == "-h");
    if asks_for_help {
        if let Some(help) = subcommand.to_str().and_then(help_of) {
            return print_line(help);
        }
    }
    match subcommand.to_str() {
        Some("partition") => partition::run(&rest),
        Some("assign") => assign::run(&rest),
        Some("window") => window::run(&rest),
        Some("join") => join::run(&rest),
        Some("topk") => topk::run(&rest),
        Some("simulate") => simulate::run(&rest),
        Some("grade") => grade::run(&rest),
        Some("--help") | Some("-h") | Some("help") => print_line(HELP),
        _ => Err(CliError::new(format!(
            "unknown subcommand {:?}; {USAGE}",
            subcommand.to_string_lossy()
        ))),
    }
}

/// The `--help` text of a subcommand.
fn help_of(subcommand: &str) -> Option<&'static str> {
    match subcommand {
        "partition" => Some(partition::HELP),
        "assign" => Some(assign::HELP),
        "window" => Some(window::HELP),
        "join" => Some(join::HELP),
        "topk" => Some(topk::HELP),
        "simulate" => Some(simulate::HELP),
        "grade" => Some(grade::HELP),
        _ => None,
    }
}
