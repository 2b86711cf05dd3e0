//! Reading JSON Lines on stdin and writing JSON on stdout, shared by the subcommands that
//! stream events (`window`, `join`, `topk`): every line is parsed on its own, strictly, and
//! every error names the input line; keys and ids are written back as JSON strings.

use crate::plain_event::PlainEvent;
use crate::CliError;
use serde::Deserialize;
use std::borrow::Cow;
use std::io::{BufRead, ErrorKind, Write};

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
/// hands each line, with its number from 1, to `each`; an error from `each` is located with
/// [`LineError::at_line`] (a message about the line is prefixed with `stdin line N: `).
///
/// Lines are handed out straight from `input`'s buffer; only a line cut by the buffer's end is
/// copied, so with a large buffer almost no line is.
pub fn for_each_line<E: LineError>(
    input: impl BufRead,
    mut each: impl FnMut(&[u8], u64) -> Result<(), E>,
) -> Result<(), CliError> {
    for_each_event_line(
        input,
        |_| None,
        |line, line_number| each(line.bytes, line_number),
    )
}

/// A line as [`for_each_event_line`] hands it over.
pub struct Line<'a> {
    /// The line without its terminator.
    pub bytes: &'a [u8],
    /// The line's event, when the reader read it where it lay in the input's buffer.
    pub event: Option<PlainEvent<'a>>,
}

/// [`for_each_line`] for event lines, with `read_in_place` tried first on each line where it
/// lies in the buffer, before its end is known: given the buffer from the line's start, it
/// gives the line's event and the line's length with its `\n`, or `None` to have the line cut
/// at its `\n` and handed over without an event. A line read in place is not searched for its
/// end, which costs as much as reading the plainest lines does. The reader must read exactly
/// one whole line, or nothing (see `plain_event::parse_layout_line`).
pub fn for_each_event_line<E: LineError>(
    mut input: impl BufRead,
    mut read_in_place: impl FnMut(&[u8]) -> Option<(PlainEvent<'_>, usize)>,
    mut each: impl FnMut(Line<'_>, u64) -> Result<(), E>,
) -> Result<(), CliError> {
    let mut partial = Vec::new();
    let mut line_number: u64 = 0;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => return Err(error.into()),
        };
        if buffer.is_empty() {
            break;
        }
        let mut line_start = 0;
        if !partial.is_empty() {
            // The line the last buffer cut ends in this one, or runs on past it.
            let Some(line_end) = memchr::memchr(b'\n', buffer) else {
                partial.extend_from_slice(buffer);
                let length = buffer.len();
                input.consume(length);
                continue;
            };
            partial.extend_from_slice(&buffer[..line_end]);
            line_number += 1;
            hand_over(&mut each, &partial, None, line_number)?;
            partial.clear();
            line_start = line_end + 1;
        }
        while line_start < buffer.len() {
            let rest = &buffer[line_start..];
            let (line_length, event) = match read_in_place(rest) {
                Some((event, line_length)) => (line_length, Some(event)),
                None => match memchr::memchr(b'\n', rest) {
                    Some(line_end) => (line_end + 1, None),
                    None => break,
                },
            };
            line_number += 1;
            hand_over(&mut each, &rest[..line_length], event, line_number)?;
            line_start += line_length;
        }
        partial.extend_from_slice(&buffer[line_start..]);
        let length = buffer.len();
        input.consume(length);
    }
    if !partial.is_empty() {
        hand_over(&mut each, &partial, None, line_number + 1)?;
    }
    Ok(())
}

/// Hands a line to `each` without its terminator; an error is located at `line_number`.
fn hand_over<'a, E: LineError>(
    each: &mut impl FnMut(Line<'a>, u64) -> Result<(), E>,
    bytes: &'a [u8],
    event: Option<PlainEvent<'a>>,
    line_number: u64,
) -> Result<(), CliError> {
    let line = Line {
        bytes: trim_line_end(bytes),
        event,
    };
    each(line, line_number).map_err(|error| error.at_line(line_number))
}

/// What a line handler of [`for_each_line`] fails with.
pub trait LineError {
    /// The error as reported, given the number of the line being handled.
    fn at_line(self, line_number: u64) -> CliError;
}

/// A message about the line being handled.
impl LineError for String {
    fn at_line(self, line_number: u64) -> CliError {
        CliError::new(format!("stdin line {line_number}: {self}"))
    }
}

/// An error that already names its line: a handler that holds lines back (to process
/// several at once) reports an earlier line's error this way.
impl LineError for CliError {
    fn at_line(self, _line_number: u64) -> CliError {
        self
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

/// Writes `text` as a JSON string, exactly as serde_json would.
pub fn write_json_string(output: &mut impl Write, text: &str) -> std::io::Result<()> {
    write_json_utf8(output, text.as_bytes())
}

/// [`write_json_string`] for text held as bytes that are UTF-8, which a key written in every
/// pane would otherwise be checked to be each time.
///
/// # Panics
/// If a string that needs escaping is not UTF-8 (a caller's bug).
pub fn write_json_utf8(output: &mut impl Write, utf8: &[u8]) -> std::io::Result<()> {
    // serde_json escapes only quotes, backslashes and control characters; keys rarely hold
    // any, and writing those as they are skips its per-byte escape table.
    let plain = utf8
        .iter()
        .all(|&byte| byte >= 0x20 && byte != b'"' && byte != b'\\');
    if plain {
        output.write_all(b"\"")?;
        output.write_all(utf8)?;
        return output.write_all(b"\"");
    }
    let text = std::str::from_utf8(utf8).expect("text written as a JSON string is UTF-8");
    // Serializing a str cannot fail except through the writer.
    serde_json::to_writer(&mut *output, text).map_err(std::io::Error::from)
}

/// Writes `value` in decimal, as `Display` would, without going through the formatter.
pub fn write_integer(output: &mut impl Write, value: impl itoa::Integer) -> std::io::Result<()> {
    output.write_all(itoa::Buffer::new().format(value).as_bytes())
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
    use crate::plain_event::{parse_layout_line, parse_plain_event};

    #[test]
    fn lines_are_numbered_and_their_endings_stripped() {
        let mut seen = Vec::new();
        for_each_line("a\r\nb\n\nc".as_bytes(), |line, n| {
            seen.push((String::from_utf8(line.to_vec()).unwrap(), n));
            Ok::<(), String>(())
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
                Err(String::from("bad"))
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert_eq!(error.0, "stdin line 2: bad");
        let located = for_each_line("x\ny\n".as_bytes(), |_, _| {
            Err(CliError::new("stdin line 7: held back"))
        })
        .unwrap_err();
        assert_eq!(located.0, "stdin line 7: held back");
    }

    /// A reader that hands out at most `chunk` bytes per fill, so lines are cut by buffer
    /// ends at every position.
    fn chunked(text: &[u8], chunk: usize) -> impl BufRead + '_ {
        std::io::BufReader::with_capacity(chunk, text)
    }

    #[test]
    fn lines_cut_by_the_buffer_end_are_whole() {
        let text = b"first\r\nsecond line\n\nlast\r";
        for chunk in 1..=text.len() + 1 {
            let mut seen = Vec::new();
            for_each_line(chunked(text, chunk), |line, n| {
                seen.push((String::from_utf8(line.to_vec()).unwrap(), n));
                Ok::<(), String>(())
            })
            .unwrap();
            let expected = [("first", 1), ("second line", 2), ("", 3), ("last", 4)];
            let expected: Vec<(String, u64)> =
                expected.iter().map(|&(line, n)| (line.into(), n)).collect();
            assert_eq!(seen, expected, "chunk {chunk}");
        }
    }

    /// A reader that is interrupted before each of its two lines, then fails for good.
    struct Interrupted {
        fills: usize,
    }

    impl std::io::Read for Interrupted {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            unreachable!("read through BufRead")
        }
    }

    impl BufRead for Interrupted {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            self.fills += 1;
            match self.fills {
                1 | 3 => Err(ErrorKind::Interrupted.into()),
                2 => Ok(b"one\n"),
                4 => Ok(b"two\n"),
                _ => Err(std::io::Error::other("disk on fire")),
            }
        }

        fn consume(&mut self, _: usize) {}
    }

    #[test]
    fn an_interrupted_read_is_retried_and_any_other_error_ends_the_input() {
        let mut seen = Vec::new();
        let error = for_each_line(Interrupted { fills: 0 }, |line, n| {
            seen.push((String::from_utf8(line.to_vec()).unwrap(), n));
            Ok::<(), String>(())
        })
        .unwrap_err();
        assert_eq!(seen, [("one".into(), 1), ("two".into(), 2)]);
        assert!(error.0.contains("disk on fire"), "{}", error.0);
    }

    #[test]
    fn event_lines_read_in_place_or_cut_by_the_buffer_end_are_the_same_lines() {
        let text: &[u8] = b"{\"key\": \"a\", \"time\": 1}\n{\"key\":\"b\",\"time\":22}\r\n\
            \n {\"time\": 3, \"key\": \"c\"}\n{\"key\":\"d\",\"time\":4}\n\
            {\"key\":\"e\",\"time\":55}\n{\"key\":\"f\",\"time\":6}";
        let lines: Vec<&[u8]> = text.split(|&byte| byte == b'\n').collect();
        let mut read_in_place_most = 0;
        for chunk in 1..=text.len() + 1 {
            let mut seen = Vec::new();
            let mut read_in_place = 0;
            for_each_event_line(chunked(text, chunk), parse_layout_line, |line, n| {
                if let Some(event) = line.event {
                    read_in_place += 1;
                    let alone = parse_plain_event(line.bytes).expect("a plain line");
                    assert_eq!(event.key(), alone.key(), "line {n}, chunk {chunk}");
                    assert_eq!(event.time_ms, alone.time_ms, "line {n}, chunk {chunk}");
                }
                seen.push((line.bytes.to_vec(), n));
                Ok::<(), String>(())
            })
            .unwrap();
            let expected: Vec<(Vec<u8>, u64)> = (lines.iter().zip(1..))
                .map(|(line, n)| (trim_line_end(line).to_vec(), n))
                .collect();
            assert_eq!(seen, expected, "chunk {chunk}");
            read_in_place_most = read_in_place_most.max(read_in_place);
        }
        // Whole in one buffer, the lines in a usual layout ended by `}\n` are read in place:
        // all but the one with `\r\n`, the spaced one and the last, which has no `\n`.
        assert_eq!(read_in_place_most, 3);
    }

    proptest::proptest! {
        #[test]
        fn json_strings_are_written_as_serde_json_writes_them(text in "\\PC*|[\\x00-\\x7f]*") {
            let mut written = Vec::new();
            write_json_string(&mut written, &text).unwrap();
            proptest::prop_assert_eq!(written, serde_json::to_vec(&text).unwrap());
        }

        #[test]
        fn integers_are_written_as_display_writes_them(value: i64, count: u64) {
            let mut written = Vec::new();
            write_integer(&mut written, value).unwrap();
            write_integer(&mut written, count).unwrap();
            proptest::prop_assert_eq!(written, format!("{value}{count}").into_bytes());
        }
    }
}
