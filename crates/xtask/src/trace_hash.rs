//! The native side of the determinism check: the trace hash that the `streamlab` CLI prints
//! for the fixture scenario. The web tests compare it with the hash the same scenario gives in
//! WebAssembly, received through `STREAMLAB_NATIVE_TRACE_HASH`.

use crate::process::{self, cargo};
use crate::workspace::DETERMINISM_SCENARIO;
use std::path::Path;

/// Runs `streamlab simulate` on the fixture and returns the `trace_hash` it printed.
pub fn of_fixture_scenario() -> Result<String, String> {
    if !Path::new(DETERMINISM_SCENARIO).is_file() {
        return Err(format!(
            "{DETERMINISM_SCENARIO} is missing: the determinism check needs a fixture scenario"
        ));
    }
    let mut simulate = cargo();
    simulate.args([
        "run",
        "-q",
        "--release",
        "--locked",
        "-p",
        "streamlab-cli",
        "--",
    ]);
    simulate.args(["simulate", "--scenario", DETERMINISM_SCENARIO]);
    let line = process::describe(&simulate);
    println!("$ {line}");
    let stdout = process::stdout_of(&mut simulate).map_err(|error| {
        format!("{error}; the native trace hash comes from `streamlab simulate`, so this step fails until that command works")
    })?;
    let hash = top_level_string_field(&stdout, "trace_hash").ok_or_else(|| {
        format!("`{line}` printed no JSON object with a string field \"trace_hash\"")
    })?;
    if hash.is_empty() {
        return Err(format!("`{line}` printed an empty \"trace_hash\""));
    }
    Ok(hash)
}

/// The string value of `key` in the JSON object `json`, looking only at the object's own
/// fields: a nested object with the same key (an event, say) is not mistaken for it.
pub fn top_level_string_field(json: &str, key: &str) -> Option<String> {
    let mut reader = Reader { rest: json.trim() };
    reader.expect('{')?;
    loop {
        reader.skip_whitespace();
        if reader.eat('}') {
            return None;
        }
        let name = reader.string()?;
        reader.skip_whitespace();
        reader.expect(':')?;
        reader.skip_whitespace();
        if name == key && reader.rest.starts_with('"') {
            return reader.string();
        }
        reader.skip_value()?;
        reader.skip_whitespace();
        if !reader.eat(',') {
            return None;
        }
    }
}

/// Just enough of a JSON reader to walk one object's fields.
struct Reader<'a> {
    rest: &'a str,
}

impl Reader<'_> {
    fn skip_whitespace(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, expected: char) -> bool {
        match self.rest.strip_prefix(expected) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn expect(&mut self, expected: char) -> Option<()> {
        self.eat(expected).then_some(())
    }

    fn string(&mut self) -> Option<String> {
        self.expect('"')?;
        let text = self.rest;
        let mut value = String::new();
        let mut chars = text.char_indices();
        while let Some((index, c)) = chars.next() {
            match c {
                '"' => {
                    self.rest = &text[index + 1..];
                    return Some(value);
                }
                '\\' => {
                    let (_, escaped) = chars.next()?;
                    value.push(match escaped {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        'b' => '\u{8}',
                        'f' => '\u{c}',
                        'u' => {
                            let hex: String = (0..4)
                                .filter_map(|_| chars.next())
                                .map(|(_, c)| c)
                                .collect();
                            char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
                        }
                        other => other,
                    });
                }
                c => value.push(c),
            }
        }
        None
    }

    /// Skips one value of any kind, strings and nesting included.
    fn skip_value(&mut self) -> Option<()> {
        if self.rest.starts_with('"') {
            return self.string().map(drop);
        }
        let mut depth = 0usize;
        loop {
            self.skip_whitespace();
            let c = self.rest.chars().next()?;
            match c {
                '"' => {
                    self.string()?;
                    continue;
                }
                '{' | '[' => depth += 1,
                '}' | ']' if depth == 0 => return Some(()),
                '}' | ']' => depth -= 1,
                ',' if depth == 0 => return Some(()),
                _ => {}
            }
            self.rest = &self.rest[c.len_utf8()..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::top_level_string_field;

    #[test]
    fn reads_the_field_from_compact_and_pretty_output() {
        let compact = r#"{"records":12,"trace_hash":"9f2c01"}"#;
        assert_eq!(
            top_level_string_field(compact, "trace_hash").as_deref(),
            Some("9f2c01")
        );
        let pretty = "{\n  \"metrics\": {\"lag\": [1, 2, {\"x\": \"}\"}]},\n  \"trace_hash\": \"ab\\u0063d\"\n}\n";
        assert_eq!(
            top_level_string_field(pretty, "trace_hash").as_deref(),
            Some("abcd")
        );
    }

    #[test]
    fn ignores_nested_fields_of_the_same_name() {
        let nested = r#"{"events":[{"trace_hash":"wrong"}],"note":"a \"quoted\" word","trace_hash":"right"}"#;
        assert_eq!(
            top_level_string_field(nested, "trace_hash").as_deref(),
            Some("right")
        );
    }

    #[test]
    fn finds_nothing_when_the_field_is_absent_or_not_a_string() {
        assert_eq!(
            top_level_string_field(r#"{"events":[]}"#, "trace_hash"),
            None
        );
        assert_eq!(
            top_level_string_field(r#"{"trace_hash":42}"#, "trace_hash"),
            None
        );
        assert_eq!(top_level_string_field("not json", "trace_hash"), None);
        assert_eq!(top_level_string_field("", "trace_hash"), None);
    }
}
