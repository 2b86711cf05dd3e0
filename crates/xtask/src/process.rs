//! Running other programs: each command is echoed before it runs, so a log shows exactly what
//! to type to reproduce a step, and a failure names the command and its exit status.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A `cargo` command using the same cargo that runs xtask (cargo sets `CARGO` for `cargo run`),
/// so a toolchain override applies to every step.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// How the command reads on a shell line, for the echo and for error messages.
pub fn describe(command: &Command) -> String {
    let program = Path::new(command.get_program());
    // Only the file name: an absolute cargo path from `$CARGO` says nothing useful.
    let mut line = program
        .file_name()
        .unwrap_or(program.as_os_str())
        .to_string_lossy()
        .into_owned();
    for arg in command.get_args() {
        let arg = arg.to_string_lossy();
        line.push(' ');
        if arg.is_empty() || arg.contains(char::is_whitespace) {
            line.push_str(&format!("'{arg}'"));
        } else {
            line.push_str(&arg);
        }
    }
    line
}

/// Runs the command with inherited output; an error if it cannot start or exits non-zero.
pub fn run(command: &mut Command) -> Result<(), String> {
    let line = describe(command);
    println!("$ {line}");
    let status = command
        .status()
        .map_err(|error| cannot_start(&line, &error))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// Runs the command without echoing it, stderr inherited, and returns its stdout.
pub fn stdout_of(command: &mut Command) -> Result<String, String> {
    let line = describe(command);
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| cannot_start(&line, &error))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!("`{line}` failed ({})", output.status))
    }
}

/// Runs the command silently and returns its first line of stdout, or `None` when the
/// program is missing or fails: the way to ask a tool for its version.
pub fn first_line_quietly(command: &mut Command) -> Option<String> {
    let output = command
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout.lines().next().map(|line| line.trim().to_string())
}

/// Whether the command runs and exits zero, with all output discarded.
pub fn succeeds_quietly(command: &mut Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// The first executable called `name` on PATH, like `which`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

fn cannot_start(line: &str, error: &std::io::Error) -> String {
    format!("cannot start `{line}`: {error}")
}
