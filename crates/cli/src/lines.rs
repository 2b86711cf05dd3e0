//! Reading JSON Lines on stdin and writing JSON on stdout, shared by the subcommands that
//! stream events (`window`, `join`, `topk`): every line is parsed on its own, strictly, and
//! every error names the input line; keys and ids are written back as JSON strings.

use crate::plain_event::parse_plain_event;
use crate::CliError;
use serde::Deserialize;
use std::borrow::Cow;
use std::io::{BufRead, Write};

/// A keyed event line, `{"key": "a", "time": 123456}` (the `window` and `topk` input). The
/// key borrows from the line unless it contains escapes, so most lines allocate nothing.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventLine<'a> {
    #[serde(borrow)]
    pub key: Cow<'a, str>,
    pub time: i64,
}

/// Reads `input` line by line (a last line without `\n` counts, `\r\n` is accepted) and
/// hands each line, with its number from 1, to `each`; an error from `each` is prefixed with
/// `stdin line N: `.
pub fn for_each_line(
    mut input: impl BufRead,
    mut each: impl FnMut(&[u8], u64) -> Result<(), String>,
) -> Result<(), CliError> {
    let mut line = Vec::new();
    let mut line_number: u64 = 0;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        line_number += 1;
        each(trim_line_end(&line), line_number)
            .map_err(|message| CliError::new(format!("stdin line {line_number}: {message}")))?;
    }
}

/// Strips the line terminator, `\n` or `\r\n`.
fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Parses one line as a JSON object of type `T` (whose derive should deny unknown fields).
/// serde's derive would also accept the field values as an array, so anything but an object
/// is refused first; `example` shows what a line should look like.
pub fn parse_object<'a, T: Deserialize<'a>>(line: &'a [u8], example: &str) -> Result<T, String> {
    match line.iter().find(|byte| !byte.is_ascii_whitespace()) {
        None => return Err(format!("empty line; expected an event like {example}")),
        Some(b'{') => {}
        Some(_) => return Err(format!("expected a JSON object like {example}")),
    }
    serde_json::from_slice(line).map_err(|error| describe_json_error(&error))
}

/// Parses an event line as [`EventLine`]: plain lines through the fast path, anything else
/// (including every bad line, so its error is the full parser's) through [`parse_object`].
pub fn parse_event<'a>(line: &'a [u8], example: &str) -> Result<EventLine<'a>, String> {
    match parse_plain_event(line) {
        Some((key, time)) => Ok(EventLine {
            key: Cow::Borrowed(key),
            time,
        }),
        None => parse_object(line, example),
    }
}

/// serde_json ends its messages with "at line 1 column N", which would be confusing next to
/// the stdin line number since each line is parsed on its own; keep only the column.
fn describe_json_error(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&suffix) {
        Some(bare) => format!("column {}: {bare}", error.column()),
        None => message,
    }
}

/// Writes `text` as a JSON string.
pub fn write_json_string(output: &mut impl Write, text: &str) -> std::io::Result<()> {
    // Serializing a str cannot fail except through the writer.
    serde_json::to_writer(&mut *output, text).map_err(std::io::Error::from)
}

/// Reads the config file at `path` as `T`; every error names the file.
pub fn read_config<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| CliError::new(format!("cannot read config {path}: {error}")))?;
    serde_json::from_str(&text).map_err(|error| CliError::new(format!("config {path}: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_and_their_endings_stripped() {
        let mut seen = Vec::new();
        for_each_line("a\r\nb\n\nc".as_bytes(), |line, n| {
            seen.push((String::from_utf8(line.to_vec()).unwrap(), n));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                ("a".into(), 1),
                ("b".into(), 2),
                ("".into(), 3),
                ("c".into(), 4)
            ]
        );
        let error = for_each_line("x\ny\n".as_bytes(), |_, n| {
            if n == 2 {
                Err("bad".into())
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert_eq!(error.0, "stdin line 2: bad");
    }
}
