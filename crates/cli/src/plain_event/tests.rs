//! The fast path against the full parser: on lines assembled from plain and awkward pieces
//! (whitespace, member order, escapes, unicode, invalid UTF-8, numbers at the edges of `i64`,
//! extra or repeated members, trailing text), whatever the fast path accepts the full parser
//! accepts with the same key and time, and the plain lines producers write are all accepted.

use crate::lines::{parse_object, EventLine};
use proptest::prelude::*;

/// What the fast path makes of a line, with the key checked to be UTF-8 as its callers do;
/// also checks that what it hands over after the key is the rest of the line (callers read
/// the key in words that run past its end).
fn parse_plain_event(line: &[u8]) -> Option<(&str, i64)> {
    let event = super::parse_plain_event(line)?;
    assert!(line.ends_with(event.key_onward), "{line:?}: {event:?}");
    Some((std::str::from_utf8(event.key()).ok()?, event.time_ms))
}

/// What the full parser makes of a line: the key and time, or `None` for an error.
fn full_parse(line: &[u8]) -> Option<(String, i64)> {
    let event: EventLine = parse_object(line, "{}").ok()?;
    Some((event.key.into_owned(), event.time))
}

fn pieces(options: &[&'static str]) -> BoxedStrategy<Vec<u8>> {
    let options: Vec<Vec<u8>> = options
        .iter()
        .map(|text| text.as_bytes().to_vec())
        .collect();
    prop::sample::select(options).boxed()
}

/// Mostly one of `usual`, sometimes one of `odd`: a line has a score of pieces, and a few odd
/// ones per line keep most lines close to valid, where the edge cases are.
fn usually(usual: BoxedStrategy<Vec<u8>>, odd: BoxedStrategy<Vec<u8>>) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![14 => usual, 1 => odd].boxed()
}

/// JSON's whitespace: space, tab, carriage return and line feed.
fn json_whitespace() -> BoxedStrategy<Vec<u8>> {
    pieces(&["", "", "", " ", "  ", "\t", "\r", "\n", " \t "])
}

/// Mostly JSON's whitespace; sometimes form feed or no-break space, which are not.
fn whitespace() -> BoxedStrategy<Vec<u8>> {
    usually(json_whitespace(), pieces(&["\u{c}", "\u{a0}"]))
}

/// Key values: mostly plain (unicode included), sometimes escaped, with raw control
/// characters or bytes that are not UTF-8, or not a string at all.
fn key_value() -> BoxedStrategy<Vec<u8>> {
    let plain = prop::string::string_regex("[^\"\\\\\\x00-\\x1f]{0,8}")
        .expect("valid regex")
        .prop_map(|key| format!("\"{key}\"").into_bytes());
    let odd = pieces(&[
        "\"a\\\"b\"",
        "\"a\\\\\"",
        "\"\\u00e9\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud83d\"",
        "\"a\\n\"",
        "\"a\\x\"",
        "\"a\u{1}b\"",
        "\"a\tb\"",
        "\"unterminated",
        "1",
        "null",
        "[\"a\"]",
        "{}",
    ]);
    let raw_bytes = prop::collection::vec(any::<u8>(), 0..6)
        .prop_map(|bytes| [vec![b'"'], bytes, vec![b'"']].concat());
    usually(plain.boxed(), prop_oneof![odd, raw_bytes].boxed())
}

/// Time values: mostly naturals of every length, sometimes the numbers and non-numbers
/// around them.
fn time_value() -> BoxedStrategy<Vec<u8>> {
    let natural = prop_oneof![
        (0u64..100_000_000).prop_map(|value| value.to_string().into_bytes()),
        any::<u64>().prop_map(|value| value.to_string().into_bytes()),
        pieces(&["0", "999999999999999999", "9223372036854775807"]),
    ];
    let odd = pieces(&[
        "00",
        "01",
        "-0",
        "-5",
        "1.0",
        "1e3",
        "1E3",
        "1.",
        "+1",
        "1000000000000000000",
        "9223372036854775808",
        "-9223372036854775808",
        "18446744073709551616",
        "\"5\"",
        "null",
        "true",
        "",
    ]);
    usually(natural.boxed(), odd)
}

/// A member: `name`, a colon and `value`, whitespace around each.
fn member(name: BoxedStrategy<Vec<u8>>, value: BoxedStrategy<Vec<u8>>) -> BoxedStrategy<Vec<u8>> {
    let colon = usually(pieces(&[":"]), pieces(&["", "::", "="]));
    (name, whitespace(), colon, whitespace(), value)
        .prop_map(|(name, before, colon, after, value)| {
            [name, before, colon, after, value].concat()
        })
        .boxed()
}

fn odd_name() -> BoxedStrategy<Vec<u8>> {
    pieces(&[
        "\"k\\u0065y\"",
        "\"Key\"",
        "\"keys\"",
        "\"extra\"",
        "\"\"",
        "key",
    ])
}

/// The members of a line: mostly `key` and `time` once each, in either order; sometimes any
/// zero to three members, repeats and strangers included.
fn members() -> BoxedStrategy<Vec<Vec<u8>>> {
    let key = || member(usually(pieces(&["\"key\""]), odd_name()), key_value());
    let time = || member(usually(pieces(&["\"time\""]), odd_name()), time_value());
    let pair = (key(), time(), any::<bool>()).prop_map(|(key, time, key_first)| {
        if key_first {
            vec![key, time]
        } else {
            vec![time, key]
        }
    });
    let any_member = prop_oneof![key(), time(), member(odd_name(), time_value())];
    let any_members = prop::collection::vec(any_member, 0..4);
    prop_oneof![6 => pair, 1 => any_members].boxed()
}

/// A whole line: braces around the members, separated by commas, whitespace and text around
/// them, each of which is sometimes something else.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let open = usually(pieces(&["{"]), pieces(&["", "[", "{{"]));
    let comma = usually(pieces(&[","]), pieces(&["", ";", ",,"]));
    let close = usually(pieces(&["}"]), pieces(&["", "]", "}}", "},"]));
    let tail = usually(pieces(&[""]), pieces(&["x", "{}", "\u{0}"]));
    let spaced_members = members().prop_flat_map(|members| {
        let count = members.len();
        (
            Just(members),
            prop::collection::vec((whitespace(), whitespace()), count),
        )
    });
    (
        whitespace(),
        open,
        spaced_members,
        comma,
        close,
        whitespace(),
        tail,
    )
        .prop_map(
            |(lead, open, (members, spaces), comma, close, tail_space, tail)| {
                let members: Vec<Vec<u8>> = members
                    .into_iter()
                    .zip(spaces)
                    .map(|(member, (before, after))| [before, member, after].concat())
                    .collect();
                [
                    lead,
                    open,
                    members.join(&comma[..]),
                    close,
                    tail_space,
                    tail,
                ]
                .concat()
            },
        )
}

/// The plain lines the fast path is for: both members once, either order, any whitespace.
fn plain_line() -> impl Strategy<Value = (Vec<u8>, String, i64)> {
    let key = prop::string::string_regex("[^\"\\\\\\x00-\\x1f]{0,12}").expect("valid regex");
    (
        key,
        0i64..=999_999_999_999_999_999,
        any::<bool>(),
        prop::collection::vec(json_whitespace(), 6),
    )
        .prop_map(|(key, time, key_first, spaces)| {
            let space = |index: usize| String::from_utf8(spaces[index].clone()).unwrap();
            let key_member = format!("\"key\"{}:{}\"{key}\"", space(0), space(1));
            let time_member = format!("\"time\"{}:{}{time}", space(2), space(3));
            let (first, second) = if key_first {
                (key_member, time_member)
            } else {
                (time_member, key_member)
            };
            let line = format!(
                "{}{{{}{first}{},{}{second}{}}}{}",
                space(4),
                space(5),
                space(4),
                space(5),
                space(0),
                space(1)
            );
            (line.into_bytes(), key, time)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn whatever_the_fast_path_accepts_the_full_parser_reads_the_same(line in line()) {
        if let Some((key, time)) = parse_plain_event(&line) {
            prop_assert_eq!(
                full_parse(&line),
                Some((key.to_string(), time)),
                "line {:?}",
                String::from_utf8_lossy(&line)
            );
        }
    }

    #[test]
    fn plain_lines_take_the_fast_path((line, key, time) in plain_line()) {
        prop_assert_eq!(parse_plain_event(&line), Some((key.as_str(), time)));
        prop_assert_eq!(full_parse(&line), Some((key, time)));
    }
}

/// A line in one of the usual layouts, or nearly (each part is sometimes something else),
/// ended by `\n` and followed by more of the buffer: a next line, or anything.
fn layout_line_in_buffer() -> impl Strategy<Value = Vec<u8>> {
    let layout = prop_oneof![
        8 => (0..super::LAYOUTS.len()).prop_map(|index| {
            let layout = &super::LAYOUTS[index];
            (layout.open.to_vec(), layout.middle.to_vec())
        }),
        1 => (pieces(&["{\"key\":  \"", " {\"key\":\"", "{\"key\": \""]),
            pieces(&["\",\"time\": ", "\", \"time\":", "\",\"time\":"])),
    ];
    let close = usually(
        pieces(&["}\n"]),
        pieces(&["}", "}\r\n", "} \n", "}}\n", "\n"]),
    );
    let time = prop_oneof![
        3 => (0i64..1_000_000_000_000_000).prop_map(|time| time.to_string().into_bytes()),
        1 => time_value(),
    ];
    let after = prop_oneof![
        3 => pieces(&["{\"key\": \"next\", \"time\": 12}\n", "\n\n", ""]),
        1 => prop::collection::vec(any::<u8>(), 0..40),
    ];
    (layout, key_value(), time, close, after).prop_map(
        |((open, middle), key, time, close, after)| {
            // The layout's opening and middle hold the key's quotes.
            let unquoted = key
                .strip_prefix(b"\"")
                .and_then(|key| key.strip_suffix(b"\""));
            let key = unquoted.map(<[u8]>::to_vec).unwrap_or(key);
            [open, key, middle, time, close, after].concat()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// A line read where it lies is read as the line alone would be, and its length is
    /// exactly up to its `\n`.
    #[test]
    fn a_line_read_in_place_ends_at_its_newline_and_reads_as_the_line_alone(
        buffer in layout_line_in_buffer(),
    ) {
        if let Some((event, length)) = super::parse_layout_line(&buffer) {
            let line = &buffer[..length - 1];
            let shown = String::from_utf8_lossy(&buffer).into_owned();
            prop_assert_eq!(buffer.iter().position(|&byte| byte == b'\n'), Some(length - 1));
            prop_assert!(buffer.ends_with(event.key_onward), "{}", shown);
            let key = std::str::from_utf8(event.key()).ok();
            if let Some(key) = key {
                prop_assert_eq!(parse_plain_event(line), Some((key, event.time_ms)), "{}", shown);
                prop_assert_eq!(full_parse(line), Some((key.to_string(), event.time_ms)));
            }
        }
    }

    /// Lines in the usual layouts are read in place whenever sixteen bytes follow the time's
    /// first digit and the time has at most fifteen digits.
    #[test]
    fn lines_in_the_usual_layouts_are_read_in_place(
        layout in 0..super::LAYOUTS.len(),
        key in "[^\"\\\\\\x00-\\x1f]{0,30}",
        time in prop_oneof![0i64..1000, 0i64..=999_999_999_999_999],
    ) {
        let layout = &super::LAYOUTS[layout];
        let next = b"{\"key\":\"k\",\"time\":1}\n";
        let line = [layout.open, key.as_bytes(), layout.middle, time.to_string().as_bytes()].concat();
        let buffer = [&line[..], b"}\n", next].concat();
        let (event, length) = super::parse_layout_line(&buffer).expect("read in place");
        prop_assert_eq!((event.key(), event.time_ms), (key.as_bytes(), time));
        prop_assert_eq!(length, line.len() + 2);
    }
}

#[test]
fn a_line_not_yet_whole_or_with_a_long_time_is_left_to_the_line_reader() {
    let whole = b"{\"key\":\"k\",\"time\":1}\n{\"key\":\"k\",\"time\":2}\n";
    assert!(super::parse_layout_line(whole).is_some());
    for cut in 0..whole.len() / 2 {
        assert_eq!(
            super::parse_layout_line(&whole[..cut]),
            None,
            "cut at {cut}"
        );
    }
    let sixteen_digits = b"{\"key\":\"k\",\"time\":1234567890123456}\n...............";
    assert_eq!(super::parse_layout_line(sixteen_digits), None);
    let fifteen_digits = b"{\"key\":\"k\",\"time\":123456789012345}\n...............";
    let (event, _) = super::parse_layout_line(fifteen_digits).expect("read in place");
    assert_eq!(event.time_ms, 123_456_789_012_345);
}

#[test]
fn the_contracts_lines_take_the_fast_path() {
    let lines: [(&[u8], (&str, i64)); 4] = [
        (b"{\"key\": \"a\", \"time\": 123456}", ("a", 123456)),
        (b" { \"time\":0,\"key\":\"\xc3\xa9\" } ", ("\u{e9}", 0)),
        (
            b"{\"key\":\"user-00123\",\"time\":1700000}",
            ("user-00123", 1700000),
        ),
        (
            b"{\"key\": \"\", \"time\": 999999999999999999}",
            ("", 999_999_999_999_999_999),
        ),
    ];
    for (line, expected) in lines {
        assert_eq!(parse_plain_event(line), Some(expected));
    }
}

/// The usual layouts take the short path (reading them token by token would give the same
/// answer, several times slower), and only the layout each describes does.
#[test]
fn the_usual_layouts_are_matched_whole() {
    let python = b"{\"key\": \"user-00123\", \"time\": 1700000}";
    let compact = b"{\"key\":\"user-00123\",\"time\":1700000}";
    let parse = |layout: usize, line: &'static [u8]| {
        let event = super::LAYOUTS[layout].parse(line)?;
        Some((event.key(), event.time_ms))
    };
    let expected = Some((&b"user-00123"[..], 1_700_000));
    assert_eq!(parse(0, python), expected);
    assert_eq!(parse(1, compact), expected);
    assert_eq!(parse(0, compact), None);
    assert_eq!(parse(1, python), None);
}

/// The two layouts matched whole refuse what the token-by-token reading refuses.
#[test]
fn lines_in_the_usual_layouts_are_held_to_the_same_rules() {
    for (open, middle) in [
        ("{\"key\": \"", "\", \"time\": "),
        ("{\"key\":\"", "\",\"time\":"),
    ] {
        let line = |key: &str, time: &str| format!("{open}{key}{middle}{time}}}").into_bytes();
        assert_eq!(parse_plain_event(&line("k", "0")), Some(("k", 0)));
        assert_eq!(parse_plain_event(&line("k", "10")), Some(("k", 10)));
        for (key, time) in [
            ("k", "01"),
            ("k", ""),
            ("k", "-1"),
            ("k", "1.5"),
            ("k", "1e3"),
            ("k", "1000000000000000000"),
            ("a\\\"b", "1"),
            ("a\u{1}b", "1"),
            ("k", "1}"),
        ] {
            let line = line(key, time);
            assert_eq!(
                parse_plain_event(&line),
                None,
                "{}",
                String::from_utf8_lossy(&line)
            );
        }
    }
}

#[test]
fn unusual_lines_are_left_to_the_full_parser() {
    let unusual: [&[u8]; 12] = [
        b"{\"key\":\"a\\\"b\",\"time\":1}",
        b"{\"key\":\"a\",\"time\":-1}",
        b"{\"key\":\"a\",\"time\":1.0}",
        b"{\"key\":\"a\",\"time\":1000000000000000000}",
        b"{\"key\":\"a\",\"time\":01}",
        b"{\"key\":\"a\",\"time\":1,\"extra\":2}",
        b"{\"key\":\"a\",\"key\":\"b\"}",
        b"{\"key\":\"\xff\",\"time\":1}",
        b"{\"key\":\"a\",\"time\":1} x",
        b"\x0c{\"key\":\"a\",\"time\":1}",
        // A name without its colon, then a whole member: not a line the fast path may skip.
        b"{\"key\" \"time\":1,\"key\":\"a\"}",
        b"{\"ke\\u0079\":\"a\",\"time\":1}",
    ];
    for line in unusual {
        assert_eq!(
            parse_plain_event(line),
            None,
            "{}",
            String::from_utf8_lossy(line)
        );
    }
}

proptest! {
    /// The word-at-a-time scan against the obvious byte-by-byte one, on bytes that are
    /// mostly plain with special ones (and bytes at the tests' edges) sprinkled in.
    #[test]
    fn the_first_special_byte_is_found_as_byte_by_byte(
        bytes in prop::collection::vec(
            prop_oneof![
                8 => b'a'..=b'z',
                1 => prop::sample::select(vec![
                    b'"', b'\\', 0x00, 0x01, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80,
                    0xa2, 0xdc, 0xff,
                ]),
                1 => any::<u8>(),
            ],
            0..40,
        )
    ) {
        let expected = bytes.iter().position(|&byte| super::is_special(byte));
        prop_assert_eq!(super::first_special_byte(&bytes), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn a_time_at_a_lines_end_reads_as_digit_by_digit(
        before in proptest::collection::vec(any::<u8>(), 0..20),
        digits in proptest::collection::vec(
            prop_oneof![4 => b'0'..=b'9', 1 => any::<u8>()], 1..20),
    ) {
        let mut text = before;
        text.extend_from_slice(&digits);
        prop_assert_eq!(super::natural_at_end(&text, digits.len()), super::natural(&digits));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn a_leading_natural_reads_as_digit_by_digit(
        bytes in proptest::collection::vec(
            prop_oneof![
                12 => b'0'..=b'9',
                1 => prop::sample::select(vec![b'/', b':', b'}', 0xFA, 0xFF, b'0' + 0x80]),
                1 => any::<u8>(),
            ],
            0..24,
        ),
    ) {
        let count = bytes.iter().take_while(|byte| byte.is_ascii_digit()).count();
        let read_here = bytes.len() >= 16 && count < 16;
        let expected = read_here
            .then(|| super::natural(&bytes[..count]).map(|value| (value, count)))
            .flatten();
        prop_assert_eq!(super::leading_natural(&bytes), expected);
    }
}

#[test]
fn eight_digits_read_every_length_and_refuse_a_byte_beside_the_digit_range() {
    for count in 1..=8 {
        let digits = &b"98765432"[8 - count..];
        let mut word = *b"\", \"x\": ";
        word[8 - count..].copy_from_slice(digits);
        let expected: i64 = std::str::from_utf8(digits).unwrap().parse().unwrap();
        assert_eq!(
            super::eight_digits(word, count),
            Some(expected),
            "{count} digits"
        );
        for odd in [b'/', b':', 0xFA, 0xFF, b'0' + 0x80] {
            let mut word = word;
            word[7] = odd;
            assert_eq!(
                super::eight_digits(word, count),
                None,
                "{count} digits ending in {odd:#x}"
            );
        }
    }
}
