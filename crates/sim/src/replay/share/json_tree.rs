//! A link's JSON text read into a `serde_json::Value` tree, with the decimals read by a
//! function the caller chooses.
//!
//! A link is JSON, and reading it with `serde_json`'s text reader linked that reader, its
//! exact float algorithm (the `float_roundtrip` feature, big-number arithmetic and tables)
//! and a second copy of every scenario's `Deserialize` code into each lesson's bundle: some
//! 16 KiB gzipped, the largest single cost of the consumer-group bundles. This reader builds
//! the same tree serde_json builds, and the scenario is then read off the tree, whose
//! `Deserialize` code the bundle needs anyway. Decimals are the one part that needs care:
//! the nearest double to a decimal is what `str::parse` computes natively, and in the
//! browser the page's own `Number` computes the same without Rust's tables
//! ([`ReadDecimal`]).
//!
//! It reads what RFC 8259 allows and nothing else (no comments, no trailing commas, no
//! leading zeros, no control characters in strings, no lone surrogates), as serde_json does,
//! and nests at most [`MAX_DEPTH`] deep, so a crafted link cannot exhaust the stack. Integers
//! keep every digit (a seed may be any `u64`); one too large for `u64`, or below `i64::MIN`,
//! becomes a double, as in serde_json.

use serde_json::{Map, Number, Value};

/// The double nearest to a JSON number with a fraction or an exponent (`-1.5e3`), or `None`
/// if the text is not one. Natively [`nearest_double`]; the web passes the page's parser.
pub type ReadDecimal = fn(&str) -> Option<f64>;

/// Rust's own reading of a decimal: exact, round to nearest.
pub fn nearest_double(text: &str) -> Option<f64> {
    text.parse().ok()
}

/// Deepest nesting of arrays and objects accepted: serde_json's default limit (it counts down
/// from 128 and refuses the level that reaches zero).
pub const MAX_DEPTH: usize = 127;

/// The tree `text` spells, or why it is not JSON.
pub fn read(text: &[u8], read_decimal: ReadDecimal) -> Result<Value, String> {
    let text = std::str::from_utf8(text).map_err(|_| "it is not UTF-8".to_string())?;
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
        read_decimal,
    };
    let value = reader.value(0)?;
    reader.skip_blanks();
    match reader.peek() {
        None => Ok(value),
        Some(_) => Err(reader.fault("trailing characters")),
    }
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    read_decimal: ReadDecimal,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn fault(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Consumes `byte` after any blanks, or says it was expected.
    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_blanks();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.fault(&format!("expected `{}`", byte as char)))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        self.skip_blanks();
        match self.peek() {
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(_) => Err(self.fault("expected a value")),
            None => Err(self.fault("the text ends where a value should be")),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, String> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.fault("expected a value"))
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, String> {
        self.deep_enough(depth)?;
        self.at += 1;
        let mut map = Map::new();
        self.skip_blanks();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.skip_blanks();
            if self.peek() != Some(b'"') {
                return Err(self.fault("expected a field name"));
            }
            let key = self.string()?;
            self.expect(b':')?;
            let value = self.value(depth)?;
            // A name given twice keeps its last value, as serde_json's tree does.
            map.insert(key, value);
            if self.more(b'}')? {
                continue;
            }
            return Ok(Value::Object(map));
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, String> {
        self.deep_enough(depth)?;
        self.at += 1;
        let mut items = Vec::new();
        self.skip_blanks();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            if self.more(b']')? {
                continue;
            }
            return Ok(Value::Array(items));
        }
    }

    fn deep_enough(&self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(self.fault("it nests too deep"));
        }
        Ok(())
    }

    /// After an item: `true` on a comma (another item follows), `false` on `close`.
    fn more(&mut self, close: u8) -> Result<bool, String> {
        self.skip_blanks();
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                Ok(true)
            }
            Some(byte) if byte == close => {
                self.at += 1;
                Ok(false)
            }
            _ => Err(self.fault(&format!("expected `,` or `{}`", close as char))),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The text is UTF-8 and the stops are ASCII, so the run is whole characters.
            out.push_str(std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                Some(_) => return Err(self.fault("a control character in a string")),
                None => return Err(self.fault("a string that never ends")),
            }
        }
    }

    /// The character an escape spells, the backslash already read.
    fn escape(&mut self) -> Result<char, String> {
        let byte = self
            .peek()
            .ok_or_else(|| self.fault("a string that never ends"))?;
        self.at += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.fault("an unknown escape")),
        })
    }

    /// `\uXXXX`, or a surrogate pair of two, the `\u` already read.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.text[self.at..].starts_with(b"\\u") {
                    return Err(self.fault("a lone surrogate"));
                }
                self.at += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.fault("a lone surrogate"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.fault("a lone surrogate")),
            code => code,
        };
        char::from_u32(code).ok_or_else(|| self.fault("an invalid escape"))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.fault("a short escape"))?;
        let mut code = 0;
        for &digit in digits {
            let value = (digit as char)
                .to_digit(16)
                .ok_or_else(|| self.fault("an invalid escape"))?;
            code = code * 16 + value;
        }
        self.at += 4;
        Ok(code)
    }

    fn number(&mut self) -> Result<Number, String> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.fault("a number without digits")),
        }
        let mut whole = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.required_digits()?;
            whole = false;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.required_digits()?;
            whole = false;
        }
        let text = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
        if whole {
            if let Some(number) = whole_number(text, negative) {
                return Ok(number);
            }
        }
        (self.read_decimal)(text)
            .and_then(Number::from_f64)
            .ok_or_else(|| self.fault("a number out of range"))
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), String> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.fault("a number without digits"));
        }
        self.digits();
        Ok(())
    }
}

/// A JSON integer as serde_json's tree holds it: `u64` when not negative, `i64` when
/// negative (`-0` is the double `-0.0` there); `None` when it fits neither, and is a double.
fn whole_number(text: &str, negative: bool) -> Option<Number> {
    if !negative {
        return text.parse::<u64>().ok().map(Number::from);
    }
    match text.parse::<i64>().ok()? {
        0 => None,
        n => Some(Number::from(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tree(text: &str) -> Result<Value, String> {
        read(text.as_bytes(), nearest_double)
    }

    /// serde_json's own tree of `text` (with `float_roundtrip`, as the workspace builds it).
    fn reference(text: &str) -> Result<Value, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn every_kind_of_value_reads_as_serde_json_reads_it() {
        for text in [
            "0",
            "-0",
            "7",
            "-12",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "0.1",
            "-0.0",
            "0.30000000000000004",
            "1e3",
            "1E-3",
            "2.5e+10",
            "1e-400",
            "123456789012345678901234567890",
            "true",
            "false",
            "null",
            r#""""#,
            r#""plain""#,
            r#""esc \" \\ \/ \b \f \n \r \t""#,
            r#""\u00e9\u2014\ud83d\ude00 é""#,
            "[]",
            "[1, [2, [3]], {}]",
            r#" { "a" : 1 , "b" : [true, null], "c": {"d": "e"} } "#,
            r#"{"a": 1, "a": 2}"#,
            "\t\r\n 5 \n",
        ] {
            assert_eq!(tree(text).ok(), reference(text).ok(), "{text}");
            assert!(tree(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn what_json_forbids_is_refused_as_serde_json_refuses_it() {
        for text in [
            "",
            " ",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "1e+",
            "+1",
            "NaN",
            "Infinity",
            "1e400",
            "-1e400",
            "tru",
            "nul",
            "[1,]",
            "[1 2]",
            "{\"a\":1,}",
            "{a:1}",
            "{\"a\" 1}",
            "{\"a\":}",
            "[",
            "{",
            "\"open",
            "\"tab\there\"",
            r#""\x""#,
            r#""\u12""#,
            r#""\ud83d""#,
            r#""\ud83dx""#,
            r#""\ude00""#,
            "1 2",
            "[] []",
            "// comment\n1",
        ] {
            assert!(reference(text).is_err(), "serde_json takes {text:?}");
            assert!(tree(text).is_err(), "{text:?}");
        }
        assert!(read(b"\"\xff\"", nearest_double).is_err(), "not UTF-8");
    }

    #[test]
    fn nesting_stops_at_the_limit() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(tree(&deep(MAX_DEPTH)).is_ok());
        assert!(tree(&deep(MAX_DEPTH + 1)).unwrap_err().contains("too deep"));
        let objects = |n: usize| format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n));
        assert!(tree(&objects(MAX_DEPTH)).is_ok());
        assert!(tree(&objects(MAX_DEPTH + 1)).is_err());
        assert_eq!(
            tree(&deep(MAX_DEPTH)).ok(),
            reference(&deep(MAX_DEPTH)).ok()
        );
    }

    #[test]
    fn the_decimal_reader_decides_the_fractions_and_never_the_integers() {
        fn tenfold(text: &str) -> Option<f64> {
            text.parse::<f64>().ok().map(|v| v * 10.0)
        }
        let read_with = |text: &str| read(text.as_bytes(), tenfold).unwrap();
        assert_eq!(read_with("1.5"), Value::from(15.0));
        assert_eq!(read_with("2e1"), Value::from(200.0));
        assert_eq!(read_with("18446744073709551615"), Value::from(u64::MAX));
        assert_eq!(read_with("-3"), Value::from(-3));
        assert_eq!(
            read_with("18446744073709551616"),
            Value::from(u64::MAX as f64 * 10.0)
        );
        assert!(read(b"1.5", |_| None).is_err());
    }

    #[test]
    fn a_fault_names_where_it_is() {
        assert_eq!(tree("[1,]").unwrap_err(), "expected a value at byte 3");
        assert_eq!(
            tree("{\"a\":1 x").unwrap_err(),
            "expected `,` or `}` at byte 7"
        );
        assert_eq!(tree("1 2").unwrap_err(), "trailing characters at byte 2");
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |v| v.is_finite())
                .prop_map(Value::from),
            any::<String>().prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn what_serde_json_writes_reads_back_as_the_same_tree(value in any_value()) {
            let compact = serde_json::to_string(&value).unwrap();
            prop_assert_eq!(tree(&compact).unwrap(), value.clone());
            let pretty = serde_json::to_string_pretty(&value).unwrap();
            prop_assert_eq!(tree(&pretty).unwrap(), value);
        }

        #[test]
        fn any_text_reads_as_serde_json_reads_it(text in "[\\[\\]{}\",:0-9eE.+\\- a-z\\\\]{0,24}") {
            prop_assert_eq!(tree(&text).ok(), reference(&text).ok());
        }
    }
}
