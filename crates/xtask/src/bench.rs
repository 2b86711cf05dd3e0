//! `cargo xtask bench`: the core's Criterion benchmarks and the in-browser benchmark, with the
//! figures gathered at the end in one block that can be pasted into BENCHMARKS.md by hand.

use crate::dist;
use crate::install;
use crate::process::{self, cargo};
use crate::workspace::BROWSER_BENCH;
use std::io::{BufRead, BufReader};
use std::process::{Command, ExitCode, Stdio};

pub fn run() -> Result<ExitCode, String> {
    install::site_tools()?;
    install::browser()?;
    let mut figures = Vec::new();
    let mut failures = Vec::new();

    println!("==> core benchmarks (cargo bench -p streamlab-sim)");
    match echo_and_collect(cargo().args(["bench", "--locked", "-p", "streamlab-sim"])) {
        Ok(output) => figures.extend(criterion_figures(&output)),
        Err(error) => failures.push(error),
    }

    println!("\n==> browser benchmark ({BROWSER_BENCH})");
    match dist::build().and_then(|()| echo_and_collect(Command::new("node").arg(BROWSER_BENCH))) {
        Ok(output) => figures.extend(
            output
                .lines()
                .filter(|line| line.starts_with("browser "))
                .map(str::to_string),
        ),
        Err(error) => failures.push(error),
    }

    println!(
        "\n==> figures ({}, {})",
        machine_description(),
        rustc_version()
    );
    for line in &figures {
        println!("{line}");
    }
    if failures.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        for failure in &failures {
            eprintln!("xtask: {failure}");
        }
        Ok(ExitCode::FAILURE)
    }
}

/// Runs the command, printing its stdout as it comes, and returns that stdout.
fn echo_and_collect(command: &mut Command) -> Result<String, String> {
    let line = process::describe(command);
    println!("$ {line}");
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start `{line}`: {error}"))?;
    let mut collected = String::new();
    if let Some(stdout) = child.stdout.take() {
        for output_line in BufReader::new(stdout).lines().map_while(Result::ok) {
            println!("{output_line}");
            collected.push_str(&output_line);
            collected.push('\n');
        }
    }
    let status = child.wait().map_err(|error| format!("`{line}`: {error}"))?;
    if status.success() {
        Ok(collected)
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// Criterion's result lines, `name time: [low estimate high]`, joined with the name when
/// Criterion put a long name on a line of its own.
pub fn criterion_figures(output: &str) -> Vec<String> {
    let mut figures = Vec::new();
    let mut previous = "";
    for line in output.lines() {
        if let Some(at) = line.find("time:") {
            let name = line[..at].trim();
            let name = if name.is_empty() {
                previous.trim()
            } else {
                name
            };
            figures.push(format!("{name} {}", line[at..].trim()));
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    figures
}

fn machine_description() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|line| {
            line.strip_prefix("model name")?
                .split_once(':')
                .map(|(_, model)| model.trim())
        })
        .unwrap_or("unknown CPU");
    let cores = std::thread::available_parallelism().map_or(0, |cores| cores.get());
    format!("{model}, {cores} cores")
}

fn rustc_version() -> String {
    process::first_line_quietly(Command::new("rustc").arg("--version")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::criterion_figures;

    #[test]
    fn collects_short_and_wrapped_criterion_names() {
        let output = "\
Benchmarking simulate/small: Analyzing
simulate/small          time:   [1.2010 ms 1.2100 ms 1.2200 ms]
                        thrpt:  [8.1 Melem/s 8.2 Melem/s 8.3 Melem/s]
simulate/a_rather_long_benchmark_name_that_wraps
                        time:   [30.1 ms 30.4 ms 30.9 ms]
Found 2 outliers among 100 measurements (2.00%)
";
        assert_eq!(
            criterion_figures(output),
            [
                "simulate/small time:   [1.2010 ms 1.2100 ms 1.2200 ms]",
                "simulate/a_rather_long_benchmark_name_that_wraps time:   [30.1 ms 30.4 ms 30.9 ms]",
            ]
        );
    }
}
