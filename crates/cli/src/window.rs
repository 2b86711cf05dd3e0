//! `streamlab window --config FILE`: reads events as JSON Lines on stdin, runs them through the
//! simulation core's [`WindowOperator`], and prints panes, side-output records and a final
//! summary as JSON Lines on stdout.
//!
//! This module owns the wire format and nothing else: parsing is strict (an event line must
//! be an object with exactly `key`, a string, and `time`, an integer; the config file is
//! checked by the core), every error names the config file or the input line number, and the
//! summary line is printed only after the whole input was read without error, so a consumer
//! can tell a complete run by it. Output written before a bad line is left as it is.

use crate::args::Flags;
use crate::key::Key;
use crate::keyed_event::keyed_event;
use crate::lines::{for_each_event_line, read_config, write_integer, write_json_utf8, LineError};
use crate::plain_event::parse_layout_line;
use crate::CliError;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, BufWriter, Write};
use streamlab_sim::window::{Output, Summary, Timing, WindowConfig, WindowOperator};

pub const HELP: &str = "\
usage: streamlab window --config FILE

Runs an event-time window over JSON Lines events on stdin ({\"key\": \"a\", \"time\": 123}, in
arrival order) and prints the panes, side-output records and a summary as JSON Lines.
FILE: {\"window\": {\"type\": \"tumbling\", \"size\": 60000}, \"max_out_of_orderness\": 5000,
\"allowed_lateness\": 10000, \"late\": \"drop\"}; windows: tumbling, hopping (size, hop),
session (gap) and Kafka Streams' sliding (time_difference).";

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["config"])?;
    let config_path = flags.required("config")?;
    let operator = load_operator(config_path)?;
    // Lines are parsed in place in this buffer (see `for_each_line`); a large one means fewer
    // reads and fewer lines cut by its end.
    let stdin = BufReader::with_capacity(1 << 18, std::io::stdin().lock());
    let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    process(operator, stdin, stdout)
}

fn load_operator(config_path: &str) -> Result<WindowOperator<Key>, CliError> {
    let config: WindowConfig = read_config(config_path)?;
    WindowOperator::new(config)
        .map_err(|error| CliError::new(format!("config {config_path}: {error}")))
}

/// How many events are read before they go to the operator together: enough for its
/// look-ahead (`WindowOperator::push_all`) to pay, few enough to stay in cache.
const BATCH_EVENTS: usize = 256;

fn process(
    mut operator: WindowOperator<Key>,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), CliError> {
    let mut produced = Vec::new();
    let mut batch = Batch::default();
    for_each_event_line(input, parse_layout_line, |line, line_number| {
        match keyed_event(line, "{\"key\": \"a\", \"time\": 0}") {
            Ok(event) => batch.add(event, line_number),
            Err(message) => {
                // Events before the bad line go through (and out) first, as if read one by one.
                batch.flush(&mut operator, &mut produced, &mut output)?;
                return Err(message.at_line(line_number));
            }
        }
        if batch.events.len() == BATCH_EVENTS {
            batch.flush(&mut operator, &mut produced, &mut output)?;
        }
        Ok(())
    })?;
    batch.flush(&mut operator, &mut produced, &mut output)?;
    operator.finish(&mut produced);
    write_outputs(&mut output, &mut produced)?;
    write_summary(&mut output, operator.summary())?;
    output.flush()?;
    Ok(())
}

/// Events read but not yet pushed, from consecutive lines (every line is an event or an
/// error, and an error flushes the batch), so event `i` is on line `first_line + i`.
#[derive(Default)]
struct Batch {
    events: Vec<(Key, i64)>,
    first_line: u64,
}

impl Batch {
    fn add(&mut self, event: (Key, i64), line_number: u64) {
        if self.events.is_empty() {
            self.first_line = line_number;
        }
        self.events.push(event);
    }

    /// Pushes the batch and writes what it produced; a refused event is reported on its own
    /// line, after the output of the events before it.
    fn flush(
        &mut self,
        operator: &mut WindowOperator<Key>,
        produced: &mut Vec<Output<Key>>,
        output: &mut impl Write,
    ) -> Result<(), CliError> {
        let pushed = operator.push_all(&self.events, produced);
        let written = write_outputs(output, produced);
        let last_line = self.first_line + self.events.len().saturating_sub(1) as u64;
        self.events.clear();
        if let Err((index, error)) = pushed {
            return Err(error.to_string().at_line(self.first_line + index as u64));
        }
        written.map_err(|error| format!("i/o error: {error}").at_line(last_line))
    }
}

/// Writes each record as one JSON line. Pieces go straight to the (buffered) output: with
/// about one pane per six events, `write!`'s formatting machinery showed in profiles.
fn write_outputs(output: &mut impl Write, produced: &mut Vec<Output<Key>>) -> std::io::Result<()> {
    for record in produced.drain(..) {
        match record {
            Output::Pane(pane) => {
                output.write_all(b"{\"key\":")?;
                write_json_utf8(output, pane.key.text().as_bytes())?;
                output.write_all(b",\"start\":")?;
                write_integer(output, pane.start_ms)?;
                output.write_all(b",\"end\":")?;
                write_integer(output, pane.end_ms)?;
                output.write_all(b",\"count\":")?;
                write_integer(output, pane.count)?;
                output.write_all(match pane.timing {
                    Timing::OnTime => b",\"timing\":\"on_time\"}\n",
                    Timing::Late => b",\"timing\":\"late\"}\n",
                })?;
            }
            Output::Side { key, time_ms } => {
                output.write_all(b"{\"key\":")?;
                write_json_utf8(output, key.text().as_bytes())?;
                output.write_all(b",\"time\":")?;
                write_integer(output, time_ms)?;
                output.write_all(b",\"side\":true}\n")?;
            }
        }
    }
    Ok(())
}

fn write_summary(output: &mut impl Write, summary: Summary) -> std::io::Result<()> {
    writeln!(
        output,
        "{{\"summary\":{{\"events\":{},\"dropped\":{},\"panes\":{}}}}}",
        summary.events, summary.dropped, summary.panes
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(config: &str, input: &str) -> Result<String, String> {
        let config: WindowConfig = serde_json::from_str(config).expect("test config parses");
        let operator = WindowOperator::new(config).expect("test config is valid");
        let mut output = Vec::new();
        process(operator, input.as_bytes(), &mut output).map_err(|CliError(message)| message)?;
        Ok(String::from_utf8(output).expect("output is UTF-8"))
    }

    const TUMBLING: &str = r#"{"window":{"type":"tumbling","size":10},
        "max_out_of_orderness":0,"allowed_lateness":0,"late":"side"}"#;

    #[test]
    fn keys_with_quotes_and_unicode_are_escaped_as_json() {
        let output = run_text(TUMBLING, "{\"key\":\"a\\\"b\\u00e9\\n\",\"time\":1}\n").unwrap();
        assert_eq!(
            output,
            "{\"key\":\"a\\\"bé\\n\",\"start\":0,\"end\":10,\"count\":1,\"timing\":\"on_time\"}\n\
             {\"summary\":{\"events\":1,\"dropped\":0,\"panes\":1}}\n"
        );
    }

    #[test]
    fn raw_unicode_and_long_keys_come_out_as_they_went_in() {
        let long = "k".repeat(40);
        let input =
            format!("{{\"key\": \"é日\", \"time\": 1}}\n{{\"key\":\"{long}\",\"time\":2}}\n");
        let output = run_text(TUMBLING, &input).unwrap();
        assert_eq!(
            output,
            format!(
                "{{\"key\":\"{long}\",\"start\":0,\"end\":10,\"count\":1,\"timing\":\"on_time\"}}\n\
                 {{\"key\":\"é日\",\"start\":0,\"end\":10,\"count\":1,\"timing\":\"on_time\"}}\n\
                 {{\"summary\":{{\"events\":2,\"dropped\":0,\"panes\":2}}}}\n"
            )
        );
    }

    #[test]
    fn crlf_line_endings_and_a_missing_final_newline_are_accepted() {
        let output = run_text(
            TUMBLING,
            "{\"key\":\"a\",\"time\":1}\r\n{\"key\":\"a\",\"time\":2}",
        )
        .unwrap();
        assert!(output.contains("\"count\":2"), "{output}");
    }

    #[test]
    fn a_key_that_is_not_utf8_is_refused_even_in_a_usual_layout() {
        let config: WindowConfig = serde_json::from_str(TUMBLING).expect("test config parses");
        let operator = WindowOperator::new(config).expect("test config is valid");
        let input = b"{\"key\":\"a\",\"time\":1}\n{\"key\":\"\xff\",\"time\":2}\n\
            {\"key\":\"a\",\"time\":3}\n";
        let mut output = Vec::new();
        let CliError(error) = process(operator, &input[..], &mut output).unwrap_err();
        assert!(error.starts_with("stdin line 2: column "), "{error}");
        assert!(output.is_empty(), "no pane closed before the bad line");
    }

    #[test]
    fn json_errors_name_the_column_not_serde_jsons_line_one() {
        let error = run_text(
            TUMBLING,
            "{\"key\":\"a\",\"time\":1}\n{\"key\":\"a\",\"time\":}\n",
        )
        .unwrap_err();
        assert!(error.starts_with("stdin line 2: column "), "{error}");
        assert!(!error.contains("line 1"), "{error}");
    }
}
