//! `cargo xtask`: the project's build, serve, test and benchmark pipeline, in plain Rust.
//!
//! Every command first makes sure the tools it needs are installed (see [`install`]), so a
//! fresh machine needs nothing but cargo, Node.js and npm to start. `main` only calls
//! [`try_main`]; any error ends the run with one line on stderr and a non-zero exit status.

mod bench;
mod dist;
mod install;
mod pins;
mod process;
mod profile;
mod serve;
mod short_imports;
mod test;
mod trace_hash;
mod weight;
mod workspace;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  serve [--port N]   build the playground and serve it on http://127.0.0.1:N/ (default 8080),
                     rebuilding when a source file changes
  test               install what is missing, then run every check CI runs
  dist               build the static site into dist/ (relative URLs: host it under any path)
  bench              run the core's benchmarks and the in-browser benchmark
  profile LESSON     where LESSON's fresh knob settings spend their time in Chromium, by
                     function (e.g. `cargo xtask profile replication`)";

fn main() -> ExitCode {
    match try_main() {
        Ok(outcome) => outcome,
        Err(message) => {
            eprintln!("xtask: {}", message.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

fn try_main() -> Result<ExitCode, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return Ok(ExitCode::from(2));
    };
    let command = command.as_str();
    if matches!(command, "help" | "--help" | "-h") {
        println!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    }
    std::env::set_current_dir(workspace::root())
        .map_err(|error| format!("cannot enter the repository root: {error}"))?;
    install::put_tools_on_path()?;
    match command {
        "serve" => serve::run(serve::Options::parse(rest)?).map(|()| ExitCode::SUCCESS),
        "test" => no_arguments(command, rest).and_then(|()| test::run()),
        "dist" => no_arguments(command, rest)
            .and_then(|()| dist::run())
            .map(|()| ExitCode::SUCCESS),
        "bench" => no_arguments(command, rest).and_then(|()| bench::run()),
        "profile" => profile::run(rest),
        _ => Err(format!(
            "unknown command {command:?}; `cargo xtask help` lists them"
        )),
    }
}

fn no_arguments(command: &str, rest: &[String]) -> Result<(), String> {
    match rest.first() {
        None => Ok(()),
        Some(extra) => Err(format!("`{command}` takes no arguments, got {extra:?}")),
    }
}
