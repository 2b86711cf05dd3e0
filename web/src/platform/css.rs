//! The style sheets a bundle embeds, minified at compile time.
//!
//! Each family's sheet (`static/families/*.css`) is compiled into its bundle's wasm and added
//! to the page when the bundle starts. Trunk minifies only the sheets index.html links, so the
//! embedded ones kept their comments and indentation; [`minified_css!`] drops both while the
//! bundle is compiled, and the source files stay readable.
//!
//! The rules are the safe subset of a minifier: comments go, a run of white space becomes one
//! space, and no space is kept next to `{`, `}`, `;` or `,`, nor a `;` right before `}`.
//! Spaces next to `:`, `(`, `)` and the combinators stay, since `a :hover` and `and (` mean
//! something different without them (a declaration's `color:red` measured no smaller
//! gzipped: the page's text repeats `: `). Quoted strings are copied as they are.

/// A sheet's text with comments and needless white space left out, as a `&'static str`
/// built while the bundle compiles. `$path` is relative to the calling file, as for
/// `include_str!`.
#[macro_export]
macro_rules! minified_css {
    ($path:literal) => {{
        const SOURCE: &str = include_str!($path);
        const BYTES: [u8; $crate::platform::css::minified_len(SOURCE)] =
            $crate::platform::css::minify(SOURCE);
        match ::core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => panic!("minifying a style sheet split a character"),
        }
    }};
}

/// How long `source` is once minified: the `N` of [`minify`].
pub const fn minified_len(source: &str) -> usize {
    write_minified(source.as_bytes(), &mut [])
}

/// `source` minified, as `N` bytes ([`minified_len`]).
pub const fn minify<const N: usize>(source: &str) -> [u8; N] {
    let mut out = [0; N];
    write_minified(source.as_bytes(), &mut out);
    out
}

/// Bytes where white space next to them is never needed.
const fn is_tight(byte: u8) -> bool {
    matches!(byte, b'{' | b'}' | b';' | b',')
}

const fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\t' | b'\r' | b'\x0c')
}

/// Writes `source` minified into `out` as far as it fits and returns the minified length.
const fn write_minified(source: &[u8], out: &mut [u8]) -> usize {
    let (mut read, mut written) = (0, 0);
    // The byte written last (a sheet starts as if after a `}`), and whether a comment or
    // white space was skipped since: kept here rather than read back from `out`, which the
    // measuring pass leaves empty.
    let (mut previous, mut gap) = (b'}', false);
    while read < source.len() {
        let byte = source[read];
        if byte == b'/' && read + 1 < source.len() && source[read + 1] == b'*' {
            read = comment_end(source, read + 2);
            gap = true;
        } else if is_space(byte) {
            read += 1;
            gap = true;
        } else {
            if gap && !is_tight(previous) && !is_tight(byte) {
                written = put(out, written, b' ');
            }
            gap = false;
            if byte == b'}' && previous == b';' {
                written -= 1;
            }
            let end = if byte == b'"' || byte == b'\'' {
                string_end(source, read)
            } else {
                read + 1
            };
            while read < end {
                written = put(out, written, source[read]);
                read += 1;
            }
            previous = source[end - 1];
        }
    }
    written
}

/// The index just past the `*/` that closes a comment whose text starts at `from` (the end of
/// the sheet if it never closes).
const fn comment_end(source: &[u8], mut from: usize) -> usize {
    while from + 1 < source.len() {
        if source[from] == b'*' && source[from + 1] == b'/' {
            return from + 2;
        }
        from += 1;
    }
    source.len()
}

/// The index just past the quote that closes the string opening at `start`, skipping
/// backslash escapes (the end of the sheet if it never closes).
const fn string_end(source: &[u8], start: usize) -> usize {
    let quote = source[start];
    let mut at = start + 1;
    while at < source.len() {
        if source[at] == b'\\' {
            at += 2;
            continue;
        }
        if source[at] == quote {
            return at + 1;
        }
        at += 1;
    }
    source.len()
}

/// Writes `byte` at `at` if `out` has room (measuring passes an empty `out`).
const fn put(out: &mut [u8], at: usize, byte: u8) -> usize {
    if at < out.len() {
        out[at] = byte;
    }
    at + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn minified(source: &str) -> String {
        let mut out = vec![0; minified_len(source)];
        write_minified(source.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[wasm_bindgen_test]
    fn comments_and_layout_go_and_rules_stay() {
        let sheet =
            "/* the lanes */\n.lane rect,\n.lane  text {\n  fill: red;\n  stroke: 1px;\n}\n";
        assert_eq!(
            minified(sheet),
            ".lane rect,.lane text{fill: red;stroke: 1px}"
        );
    }

    #[wasm_bindgen_test]
    fn spaces_that_change_a_selector_or_a_query_stay() {
        let sheet = ".a :hover>b {}\n@media screen and (max-width: 40em) { .x { margin: 0 auto } }\na: b { c: d }";
        assert_eq!(
            minified(sheet),
            ".a :hover>b{}@media screen and (max-width: 40em){.x{margin: 0 auto}}a: b{c: d}"
        );
    }

    #[wasm_bindgen_test]
    fn quoted_text_is_copied_as_written() {
        let sheet = ".q::before { content: \"a  /* b */ \\\" c;\" ; }";
        assert_eq!(
            minified(sheet),
            ".q::before{content: \"a  /* b */ \\\" c;\"}"
        );
    }

    #[wasm_bindgen_test]
    fn a_family_sheet_shrinks_and_keeps_every_rule() {
        let source = include_str!("../../../static/families/kafka.css");
        let sheet = crate::minified_css!("../../../static/families/kafka.css");
        assert!(
            sheet.len() * 10 < source.len() * 8,
            "{} of {}",
            sheet.len(),
            source.len()
        );
        assert!(!sheet.contains("/*") && !sheet.contains('\n'));
        let count = |text: &str, c: char| text.matches(c).count();
        assert_eq!(
            count(sheet, '{'),
            count(source, '{') - count_in_comments(source, '{')
        );
    }

    /// How many `c` the comments of `source` hold.
    fn count_in_comments(source: &str, c: char) -> usize {
        source
            .split("/*")
            .skip(1)
            .map(|after| after.split("*/").next().unwrap_or("").matches(c).count())
            .sum()
    }
}
