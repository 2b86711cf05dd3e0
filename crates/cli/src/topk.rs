//! `streamlab topk --config FILE`: reads keyed events as JSON Lines on stdin, runs them
//! through the core's exact [`TopK`] (Flink SQL's window Top-N over tumbling or hopping
//! windows), and prints each window's top K when the watermark closes it, then a summary.
//!
//! An event line is exactly `{"key": "post-1", "time": 123}`, read as `streamlab window` reads
//! it (`keyed_event`, lines in a usual layout read where they lie).
//! Every error names the config file or the input line; the summary comes only after the
//! whole input was read without error.

use crate::args::Flags;
use crate::key::Key;
use crate::keyed_event::keyed_event;
use crate::lines::{for_each_event_line, read_config, write_json_utf8};
use crate::plain_event::parse_layout_line;
use crate::CliError;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, BufWriter, Write};
use streamlab_sim::joins::{TopK, TopKConfig, TopWindow};

pub const HELP: &str = "\
usage: streamlab topk --config FILE

The K most frequent keys of each event-time window, over JSON Lines events on stdin
({\"key\": \"post-1\", \"time\": 123}, in arrival order), printed as each window closes:
{\"start\":0,\"end\":60000,\"top\":[{\"key\":\"post-1\",\"count\":12}, ...]}, then a summary.
FILE: {\"window\": {\"type\": \"tumbling\", \"size\": 60000}, \"k\": 3, \"max_out_of_orderness\": 5000};
windows: tumbling or hopping (size, hop); 1 <= k <= 1000. Ties rank by key.";

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["config"])?;
    let path = flags.required("config")?;
    let config: TopKConfig = read_config(path)?;
    let operator =
        TopK::new(config).map_err(|error| CliError::new(format!("config {path}: {error}")))?;
    // A large buffer, as for `streamlab window`: fewer reads, fewer lines cut by its end.
    let stdin = BufReader::with_capacity(1 << 18, std::io::stdin().lock());
    let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    process(operator, stdin, stdout)
}

fn process(
    mut operator: TopK<Key>,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), CliError> {
    let mut closed = Vec::new();
    for_each_event_line(input, parse_layout_line, |line, _| {
        let (key, time_ms) = keyed_event(line, "{\"key\": \"post-1\", \"time\": 0}")?;
        operator
            .push(&key, time_ms, &mut closed)
            .map_err(|error| error.to_string())?;
        write_windows(&mut output, &mut closed).map_err(|e| format!("i/o error: {e}"))
    })?;
    operator.finish(&mut closed);
    write_windows(&mut output, &mut closed)?;
    let summary = operator.summary();
    writeln!(
        output,
        "{{\"summary\":{{\"events\":{},\"late\":{},\"windows\":{}}}}}",
        summary.events, summary.late, summary.windows
    )?;
    output.flush()?;
    Ok(())
}

fn write_windows(output: &mut impl Write, closed: &mut Vec<TopWindow<Key>>) -> std::io::Result<()> {
    for window in closed.drain(..) {
        write!(
            output,
            "{{\"start\":{},\"end\":{},\"top\":[",
            window.start_ms, window.end_ms
        )?;
        for (i, (key, count)) in window.top.iter().enumerate() {
            output.write_all(if i == 0 { b"{\"key\":" } else { b",{\"key\":" })?;
            write_json_utf8(output, key.text().as_bytes())?;
            write!(output, ",\"count\":{count}}}")?;
        }
        output.write_all(b"]}\n")?;
    }
    Ok(())
}
