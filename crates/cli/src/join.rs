//! `streamlab join --config FILE`: reads two streams' events as JSON Lines on stdin, in
//! arrival order, runs them through the core's [`IntervalJoin`] or [`TemporalJoin`], and
//! prints matches, unmatched and late events, temporal answers and a summary as JSON Lines.
//!
//! This module owns the wire format: an event line is an object with exactly `side`
//! (`"left"` or `"right"`), `key`, `time` and `id`, plus `value` (any JSON, `null` deleting
//! the row) on the right side of a temporal join and nowhere else. Ids are unique across the
//! input. A version's value is printed as it was written, without its insignificant
//! whitespace. Every error names the config file or the input line; the summary comes only
//! after the whole input was read without error.

use crate::args::Flags;
use crate::lines::{for_each_line, parse_object, read_config, write_json_string};
use crate::CliError;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{BufRead, BufWriter, Write};
use streamlab_sim::joins::{
    IntervalJoin, JoinConfig, JoinOutput, JoinSummary, Side, TemporalJoin, TemporalOutput,
};

pub const HELP: &str = "\
usage: streamlab join --config FILE

Joins two streams given as JSON Lines on stdin, in arrival order:
{\"side\": \"left\", \"key\": \"u1\", \"time\": 1000, \"id\": \"s1\"}; for a temporal join the
right side is the table's changelog and carries \"value\" (any JSON; null deletes the key).
Prints matches, unmatched events, late events and a summary as JSON Lines.
FILE: {\"join\": \"interval\", \"lower\": -5000, \"upper\": 10000, \"outer\": \"inner\",
\"max_out_of_orderness\": 2000} (Flink's intervalJoin(...).between(lower, upper), bounds
inclusive; outer: inner, left or full) or {\"join\": \"temporal\", \"time\": \"event\",
\"max_out_of_orderness\": 0} (FOR SYSTEM_TIME AS OF; time: event or processing).";

const EXAMPLE: &str = "{\"side\": \"left\", \"key\": \"u1\", \"time\": 1000, \"id\": \"s1\"}";

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["config"])?;
    let path = flags.required("config")?;
    let config: JoinConfig = read_config(path)?;
    config
        .validate()
        .map_err(|error| CliError::new(format!("config {path}: {error}")))?;
    let stdin = std::io::stdin().lock();
    let stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    process(config, stdin, stdout)
}

/// One input line. `value` is `Some` whenever the field is present, `null` included.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinLine<'a> {
    #[serde(borrow)]
    side: Cow<'a, str>,
    #[serde(borrow)]
    key: Cow<'a, str>,
    time: i64,
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "present")]
    value: Option<&'a RawValue>,
}

/// Called only when `value` is in the line, so a `null` value reads as `Some("null")`.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

enum Operator {
    Interval(IntervalJoin<String, String>),
    Temporal(TemporalJoin<String, String, String>),
}

impl Operator {
    fn summary(&self) -> JoinSummary {
        match self {
            Operator::Interval(join) => join.summary(),
            Operator::Temporal(join) => join.summary(),
        }
    }
}

fn process(
    config: JoinConfig,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), CliError> {
    let mut operator = match config {
        JoinConfig::Interval(interval) => Operator::Interval(IntervalJoin::new(interval)),
        JoinConfig::Temporal(temporal) => Operator::Temporal(TemporalJoin::new(temporal)),
    };
    // The line each id was first seen on.
    let mut ids: BTreeMap<String, u64> = BTreeMap::new();
    let mut matched = Vec::new();
    let mut answered = Vec::new();
    for_each_line(input, |line, line_number| {
        let event: JoinLine = parse_object(line, EXAMPLE)?;
        let side = match &*event.side {
            "left" => Side::Left,
            "right" => Side::Right,
            other => {
                return Err(format!(
                    "unknown side {other:?}; expected \"left\" or \"right\""
                ))
            }
        };
        let wants_value = matches!(operator, Operator::Temporal(_)) && side == Side::Right;
        let value = match (wants_value, event.value) {
            (true, Some(raw)) => Some(compact(raw.get())).filter(|v| v != "null"),
            (true, None) => {
                return Err(
                    "missing field `value`: a right event of a temporal join is a \
                            version of the table's row (null deletes it)"
                        .into(),
                )
            }
            (false, Some(_)) => {
                return Err(
                    "unexpected field `value`: only the right side of a temporal \
                            join carries one"
                        .into(),
                )
            }
            (false, None) => None,
        };
        if let Some(first) = ids.get(&*event.id) {
            return Err(format!(
                "id {:?} was already used on line {first}",
                event.id
            ));
        }
        let (key, id) = (event.key.into_owned(), event.id.into_owned());
        let pushed = match &mut operator {
            Operator::Interval(join) => join.push(side, key, id.clone(), event.time, &mut matched),
            Operator::Temporal(join) => {
                join.push(side, key, id.clone(), event.time, value, &mut answered)
            }
        };
        pushed.map_err(|error| error.to_string())?;
        ids.insert(id, line_number);
        write_all(&mut output, &mut matched, &mut answered).map_err(|e| format!("i/o error: {e}"))
    })?;
    match &mut operator {
        Operator::Interval(join) => join.finish(&mut matched),
        Operator::Temporal(join) => join.finish(&mut answered),
    }
    write_all(&mut output, &mut matched, &mut answered)?;
    let summary = operator.summary();
    writeln!(
        output,
        "{{\"summary\":{{\"events\":{},\"late\":{},\"matches\":{},\"unmatched\":{}}}}}",
        summary.events, summary.late, summary.matches, summary.unmatched
    )?;
    output.flush()?;
    Ok(())
}

fn write_all(
    output: &mut impl Write,
    matched: &mut Vec<JoinOutput<String, String>>,
    answered: &mut Vec<TemporalOutput<String, String, String>>,
) -> std::io::Result<()> {
    for record in matched.drain(..) {
        match record {
            JoinOutput::Late { id, .. } => write_late(output, &id)?,
            JoinOutput::Match {
                key,
                left,
                right,
                left_time_ms,
                right_time_ms,
            } => {
                fields(output, &[("key", &key), ("left", &left), ("right", &right)])?;
                writeln!(
                    output,
                    ",\"left_time\":{left_time_ms},\"right_time\":{right_time_ms}}}"
                )?;
            }
            JoinOutput::Unmatched {
                side,
                key,
                id,
                time_ms,
            } => {
                fields(output, &[("key", &key)])?;
                match side {
                    Side::Left => {
                        output.write_all(b",\"left\":")?;
                        write_json_string(output, &id)?;
                        writeln!(output, ",\"right\":null,\"left_time\":{time_ms}}}")?;
                    }
                    Side::Right => {
                        output.write_all(b",\"left\":null,\"right\":")?;
                        write_json_string(output, &id)?;
                        writeln!(output, ",\"right_time\":{time_ms}}}")?;
                    }
                }
            }
        }
    }
    for record in answered.drain(..) {
        match record {
            TemporalOutput::Late { id, .. } => write_late(output, &id)?,
            TemporalOutput::Answer {
                key,
                left,
                left_time_ms,
                version,
            } => {
                fields(output, &[("key", &key), ("left", &left)])?;
                write!(output, ",\"left_time\":{left_time_ms},\"right\":")?;
                match version.and_then(|v| Some((v.id, v.value?))) {
                    Some((id, value)) => {
                        write_json_string(output, &id)?;
                        writeln!(output, ",\"value\":{value}}}")?;
                    }
                    None => writeln!(output, "null,\"value\":null}}")?,
                }
            }
        }
    }
    Ok(())
}

fn write_late(output: &mut impl Write, id: &str) -> std::io::Result<()> {
    output.write_all(b"{\"late\":")?;
    write_json_string(output, id)?;
    output.write_all(b"}\n")
}

/// Opens an object with string fields, `{"key":"u1","left":"s1"`, for the caller to close.
fn fields(output: &mut impl Write, pairs: &[(&str, &str)]) -> std::io::Result<()> {
    output.write_all(b"{")?;
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            output.write_all(b",")?;
        }
        write!(output, "\"{name}\":")?;
        write_json_string(output, value)?;
    }
    Ok(())
}

/// `raw` (valid JSON) without the whitespace JSON ignores: everything outside strings.
fn compact(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in raw.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(config: &str, input: &str) -> Result<String, String> {
        let config: JoinConfig = serde_json::from_str(config).expect("test config parses");
        let mut output = Vec::new();
        process(config, input.as_bytes(), &mut output).map_err(|CliError(message)| message)?;
        Ok(String::from_utf8(output).expect("output is UTF-8"))
    }

    #[test]
    fn values_keep_their_text_without_insignificant_whitespace() {
        assert_eq!(
            compact(r#"{ "a" : [1, 2.50], "b": "x y \" z" }"#),
            r#"{"a":[1,2.50],"b":"x y \" z"}"#
        );
        let out = run_text(
            r#"{"join":"temporal","time":"processing","max_out_of_orderness":0}"#,
            "{\"side\":\"right\",\"key\":\"u\",\"time\":0,\"id\":\"v1\",\"value\": {\"tier\": \"gold\"}}\n\
             {\"side\":\"left\",\"key\":\"u\",\"time\":5,\"id\":\"o1\"}\n",
        )
        .unwrap();
        assert_eq!(
            out,
            "{\"key\":\"u\",\"left\":\"o1\",\"left_time\":5,\"right\":\"v1\",\"value\":{\"tier\":\"gold\"}}\n\
             {\"summary\":{\"events\":2,\"late\":0,\"matches\":1,\"unmatched\":0}}\n"
        );
    }

    #[test]
    fn a_value_where_none_belongs_or_none_where_one_does_is_refused() {
        let interval =
            r#"{"join":"interval","lower":0,"upper":1,"outer":"inner","max_out_of_orderness":0}"#;
        let error = run_text(
            interval,
            "{\"side\":\"left\",\"key\":\"u\",\"time\":0,\"id\":\"a\",\"value\":1}\n",
        );
        assert!(error.unwrap_err().contains("unexpected field `value`"));
        let temporal = r#"{"join":"temporal","time":"event","max_out_of_orderness":0}"#;
        let error = run_text(
            temporal,
            "{\"side\":\"right\",\"key\":\"u\",\"time\":0,\"id\":\"a\"}\n",
        );
        assert!(error
            .unwrap_err()
            .starts_with("stdin line 1: missing field `value`"));
    }
}
