//! Running the `streamlab` binary as a user would, shared by the CLI's integration tests:
//! arguments, bytes on stdin, and the contract's way of refusing bad input.

// Each test binary compiles this module and uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `streamlab <subcommand> <args>` with `stdin` piped in.
pub fn run(subcommand: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_streamlab"))
        .arg(subcommand)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // A command that rejects its flags may exit before reading; a closed pipe is fine then.
    let _ = child.stdin.take().expect("piped stdin").write_all(stdin);
    child.wait_with_output().expect("the binary finishes")
}

/// The contract's refusal: exit status 2, nothing on stdout, one line on stderr that starts
/// `streamlab: ` and names `mentions`, and no panic.
pub fn assert_rejected(output: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(output.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(stderr.ends_with('\n'), "{stderr:?}");
    assert!(stderr.starts_with("streamlab: "), "{stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr:?}");
    assert!(
        stderr.contains(mentions),
        "{stderr:?} should mention {mentions:?}"
    );
}
