//! `streamlab simulate (--preset NAME | --scenario FILE) [--duration-ms N]` and
//! `streamlab simulate --list`: any lesson family's preset or scenario, run headless.
//!
//! The core's headless runner does the work (`streamlab_sim::headless`); this module reads the
//! flags and prints. The report is one JSON object: the family, the preset and its lesson, the
//! trace hash the browser shows for the same link, the family's figures under their stable
//! names, every event with its narration, and the family's details. A scenario file may be
//! any family's exported scenario JSON; it runs in the first family that reads it.

use crate::args::Flags;
use crate::{print_line, CliError};
use std::ffi::OsString;
use streamlab_sim::headless::{self, HeadlessError, PresetEntry, RunOptions};

pub const HELP: &str = "\
usage: streamlab simulate --preset NAME [--duration-ms N] [--at-ms N]
       streamlab simulate --scenario FILE [--duration-ms N] [--at-ms N]
       streamlab simulate --link LINK [--at-ms N]
       streamlab simulate --list

Runs a lesson's preset, a scenario file (the JSON a lesson exports, of any lesson family)
or a share link to its end and prints one JSON object: the family, the trace hash, the
figures by name, every event with its narration, and the family's details.

  --preset NAME      a preset by name (`--list` shows them all, with their lessons)
  --scenario FILE    a scenario file
  --link LINK        a lesson's address, such as '#/rebalances?s=2.…&t=52000'; it stops
                     at the link's time, as the paused lesson shows it
  --duration-ms N    run for N ms instead of the scenario's own duration (for event-time
                     scenarios: how long the devices produce)
  --at-ms N          stop at N ms, as a lesson paused there shows it
  --list             list every preset: name, lesson, title";

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    if args.len() == 1 && args[0] == "--list" {
        return print_line(&list(&headless::presets()));
    }
    let flags = Flags::parse(
        args,
        &["scenario", "preset", "link", "duration-ms", "at-ms"],
    )?;
    let options = RunOptions {
        duration_ms: flags
            .optional("duration-ms")
            .map(|raw| ms("--duration-ms", raw))
            .transpose()?,
        at_ms: flags
            .optional("at-ms")
            .map(|raw| ms("--at-ms", raw))
            .transpose()?,
    };
    let sources = ["scenario", "preset", "link"].map(|name| flags.optional(name));
    let report = match sources {
        [Some(path), None, None] => headless::run_json(&read(path)?, options)
            .map_err(|e| CliError::new(format!("scenario {path}: {e}")))?,
        [None, Some(name), None] => headless::run_preset(name, options).map_err(cli_error)?,
        [None, None, Some(link)] => {
            if options.duration_ms.is_some() {
                return Err(CliError::new(
                    "--duration-ms would change the link's scenario; give --at-ms to stop earlier",
                ));
            }
            headless::run_link(link, options).map_err(cli_error)?
        }
        [None, None, None] => {
            return Err(CliError::new(
                "missing --scenario, --preset, --link or --list",
            ))
        }
        _ => {
            return Err(CliError::new(
                "give one of --scenario, --preset and --link, not both",
            ))
        }
    };
    print_line(&report.to_string())
}

fn cli_error(error: HeadlessError) -> CliError {
    CliError::new(error.to_string())
}

fn read(path: &str) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::new(format!("cannot read scenario {path}: {e}")))
}

/// A whole number of milliseconds; each family checks a duration against its own range.
fn ms(flag: &str, raw: &str) -> Result<u64, CliError> {
    raw.parse::<u64>().map_err(|_| {
        CliError::new(format!(
            "{flag} must be a whole number of milliseconds, got {raw:?}"
        ))
    })
}

/// One preset a line, in columns: name, lesson, title.
fn list(presets: &[PresetEntry]) -> String {
    let slug_width = presets.iter().map(|p| p.slug.len()).max().unwrap_or(0);
    let lesson_width = presets.iter().map(|p| p.lesson.len()).max().unwrap_or(0);
    let lines: Vec<String> = presets
        .iter()
        .map(|p| {
            format!(
                "{:slug_width$}  {:lesson_width$}  {}",
                p.slug, p.lesson, p.title
            )
        })
        .collect();
    lines.join("\n")
}
