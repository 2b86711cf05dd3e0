//! Quoting what came from outside (a piece of the address, a name inside a link) in a message,
//! a few dozen characters of it at most. An address can be hundreds of kilobytes long, and a
//! banner that echoed it whole would run off the page; the start of it is enough for the
//! learner to recognise what was not understood. Every message that quotes such input goes
//! through [`quote`] (our own messages) or [`shorten`] (a library's message that quotes the
//! input itself), so the cut is made the same way, in one place ([`clip`]).

/// Most characters of the input a message quotes, counted after escaping.
pub const QUOTED_CHARS_MAX: usize = 40;

/// Most characters of a library's message (a JSON error that quotes a value from the link).
pub const DETAIL_CHARS_MAX: usize = 120;

/// The ellipsis that says the quote was cut.
const CUT: &str = "…";

/// `input` in double quotes, escaped as `{:?}` escapes a string (except that a single quote
/// is escaped too), at most [`QUOTED_CHARS_MAX`] characters of it, with an ellipsis after
/// the closing quote when there was more.
pub fn quote(input: &str) -> String {
    let (kept, cut) = clip(input.escape_debug(), QUOTED_CHARS_MAX);
    format!("\"{kept}\"{cut}")
}

/// A message from elsewhere that may quote the input, at most [`DETAIL_CHARS_MAX`]
/// characters of it, with an ellipsis when there was more.
pub fn shorten(message: &str) -> String {
    let (kept, cut) = clip(message.chars(), DETAIL_CHARS_MAX);
    format!("{kept}{cut}")
}

/// The first `max_chars` characters, and the ellipsis if any were left over (else "").
/// Lazy, so a huge input is never escaped or copied whole.
fn clip(mut chars: impl Iterator<Item = char>, max_chars: usize) -> (String, &'static str) {
    let kept: String = chars.by_ref().take(max_chars).collect();
    let cut = if chars.next().is_some() { CUT } else { "" };
    (kept, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_input_is_quoted_as_debug_quotes_it() {
        for input in ["", "nope", "s=2.AAAA", "tab\there", "say \"hi\""] {
            assert_eq!(quote(input), format!("{input:?}"));
        }
    }

    #[test]
    fn an_input_of_exactly_the_limit_is_not_cut() {
        let input = "a".repeat(QUOTED_CHARS_MAX);
        assert_eq!(quote(&input), format!("\"{input}\""));
    }

    #[test]
    fn a_long_input_keeps_its_start_and_says_it_was_cut() {
        let input = format!("s={}", "A".repeat(200 * 1024));
        let quoted = quote(&input);
        assert_eq!(
            quoted,
            format!("\"s={}\"…", "A".repeat(QUOTED_CHARS_MAX - 2))
        );
        assert_eq!(quoted.chars().count(), QUOTED_CHARS_MAX + 3);
    }

    #[test]
    fn escapes_count_towards_the_limit() {
        // Each control character escapes to six characters: the quote stays short anyway.
        let quoted = quote(&"\u{1}".repeat(1000));
        assert!(quoted.chars().count() <= QUOTED_CHARS_MAX + 3, "{quoted}");
        assert!(quoted.starts_with("\"\\u{1}") && quoted.ends_with('…'));
    }

    #[test]
    fn the_cut_never_splits_a_character() {
        let quoted = quote(&"é".repeat(100));
        assert_eq!(quoted, format!("\"{}\"…", "é".repeat(QUOTED_CHARS_MAX)));
    }

    #[test]
    fn a_long_message_is_shortened_a_short_one_kept() {
        assert_eq!(shorten("expected `,`"), "expected `,`");
        let long = format!("unknown variant `{}`", "x".repeat(10_000));
        let short = shorten(&long);
        assert_eq!(short.chars().count(), DETAIL_CHARS_MAX + 1);
        assert!(short.starts_with("unknown variant `xxx") && short.ends_with('…'));
    }
}
