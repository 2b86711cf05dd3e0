//! `streamlab grade (--preset NAME | --scenario FILE)`: a practice challenge's verdict on a
//! submitted attempt, so a course can grade it without a browser.
//!
//! The core runs the attempt and builds the verdict (`streamlab_sim::practice::grade`); this
//! module reads the flags and prints it: one JSON object with `passed`, and each goal with its
//! measured value and status, the cost meter and the link that opens the attempt on the
//! practice page. A verdict that fails is an answer, not an error: the exit status is 0 for
//! any verdict and 2 only for input the challenge cannot read.

use crate::args::Flags;
use crate::{print_line, CliError};
use std::ffi::OsString;
use streamlab_sim::practice::{self, InkwellScenario};

pub const HELP: &str = "\
usage: streamlab grade --preset NAME
       streamlab grade --scenario FILE

Runs a practice challenge's attempt to its end and prints its verdict as one JSON object:
`passed`, each goal with its measured value, limit and status, the cost meter, and the link
that opens the attempt on the practice page.

  --preset NAME      a challenge's starting point (`inkwell`: the Inkwell challenge, broken)
  --scenario FILE    an attempt: the challenge's knobs as JSON, as the practice page exports
                     them; knobs left out keep the broken start's values";

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["preset", "scenario"])?;
    let (scenario, source) = match (flags.optional("preset"), flags.optional("scenario")) {
        (Some(name), None) => (preset(name)?, format!("preset {name}")),
        (None, Some(path)) => (read(path)?, format!("scenario {path}")),
        (None, None) => return Err(CliError::new("missing --preset or --scenario")),
        (Some(_), Some(_)) => {
            return Err(CliError::new(
                "give one of --preset and --scenario, not both",
            ))
        }
    };
    let verdict =
        practice::grade(&scenario).map_err(|e| CliError::new(format!("{source}: {e}")))?;
    let json = serde_json::to_string(&verdict).expect("a verdict is plain data");
    print_line(&json)
}

fn preset(name: &str) -> Result<InkwellScenario, CliError> {
    let known = practice::PRESETS;
    known
        .iter()
        .find(|p| p.slug == name)
        .map(|p| (p.build)())
        .ok_or_else(|| {
            let names: Vec<&str> = known.iter().map(|p| p.slug).collect();
            CliError::new(format!(
                "unknown challenge {name:?}; known: {}",
                names.join(", ")
            ))
        })
}

fn read(path: &str) -> Result<InkwellScenario, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::new(format!("cannot read scenario {path}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| CliError::new(format!("scenario {path}: {e}")))
}
