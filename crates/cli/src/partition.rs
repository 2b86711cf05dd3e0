//! `streamlab partition --partitions N`: the partition Kafka's default partitioner picks for
//! each key read from stdin.
//!
//! A key is the bytes of one line without its trailing `\n`: a `\r` before it belongs to the
//! key, the bytes need not be UTF-8, and a last line without `\n` is a key too. Keys are
//! streamed, so input of any length runs in constant memory.

use crate::args::Flags;
use crate::CliError;
use std::ffi::OsString;
use std::io::{BufRead, BufWriter, Write};
use streamlab_sim::kafka::partitioner::partition_for_key;

/// Kafka stores partition counts in a Java `int`.
const MAX_PARTITIONS: u32 = i32::MAX as u32;

pub const HELP: &str = "\
usage: streamlab partition --partitions N

Reads keys from stdin, one per line (the bytes of a line without its trailing newline),
and prints for each the partition Kafka's default partitioner picks on a topic of N
partitions: murmur2 of the key, made positive, modulo N. 1 <= N <= 2147483647.";

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["partitions"])?;
    let partition_count = parse_partition_count(flags.required("partitions")?)?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    print_partitions(stdin, BufWriter::new(stdout), partition_count)
}

/// `1..=2147483647`, written as plain decimal digits.
fn parse_partition_count(raw: &str) -> Result<u32, CliError> {
    raw.bytes()
        .all(|byte| byte.is_ascii_digit())
        .then(|| raw.parse::<u32>().ok())
        .flatten()
        .filter(|count| (1..=MAX_PARTITIONS).contains(count))
        .ok_or_else(|| {
            CliError::new(format!(
                "--partitions must be a whole number from 1 to {MAX_PARTITIONS}, got {raw:?}"
            ))
        })
}

fn print_partitions(
    mut keys: impl BufRead,
    mut out: impl Write,
    partition_count: u32,
) -> Result<(), CliError> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if keys.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let key = line.strip_suffix(b"\n").unwrap_or(&line);
        writeln!(out, "{}", partition_for_key(key, partition_count))?;
    }
    out.flush()?;
    Ok(())
}
