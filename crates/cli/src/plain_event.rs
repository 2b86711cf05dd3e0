//! The fast path for event lines: reads `{"key": "a", "time": 123}` directly, without going
//! through serde, when the line has the plain shape producers write almost always, and says
//! `None` for anything else so the caller can hand the line to the full parser.
//!
//! Parsing was most of `streamlab window`'s time, and for the plain shape serde's generic
//! machinery (field-name matching, a visitor per value, UTF-8 checks over the whole line) does
//! far more than needed. The rule that keeps this safe: every line this accepts, the full
//! parser (`lines::parse_object::<EventLine>`) accepts too, with the same key and time. It
//! never produces an error of its own, so error messages, and which lines are errors, stay
//! exactly the full parser's. Property tests in `tests` hold it to that.
//!
//! Accepted: JSON whitespace anywhere between tokens; exactly the two members `key` and
//! `time`, in either order, their names written without escapes; a key without escapes or
//! control characters (any UTF-8 otherwise, which the caller checks); a time of 1 to 18
//! decimal digits without a leading zero (so it fits in an `i64`). Everything else (escapes,
//! signs, fractions, exponents, extra or repeated members, trailing text) goes to the full
//! parser.

/// The key and time of a plain event line, or `None` when the line needs the full parser.
///
/// The key comes as bytes, not checked to be UTF-8: the line is plain only if they are, and
/// the caller, which copies them anyway, checks them on the way more cheaply than
/// `str::from_utf8` does on a short key (see `Key::from_utf8`).
// Not inlined: inside the per-line loop the parser's running values were kept on the stack
// for lack of registers, and each digit and key byte waited on the previous one's store.
#[inline(never)]
pub fn parse_plain_event(line: &[u8]) -> Option<(&[u8], i64)> {
    let mut cursor = Cursor { bytes: line, at: 0 };
    cursor.expect(b'{')?;
    let mut key = None;
    let mut time_ms = None;
    for member in 0..2 {
        if member == 1 {
            cursor.expect(b',')?;
        }
        let name = cursor.plain_string()?;
        cursor.expect(b':')?;
        match name {
            b"key" if key.is_none() => key = Some(cursor.plain_string()?),
            b"time" if time_ms.is_none() => time_ms = Some(cursor.small_natural()?),
            _ => return None,
        }
    }
    cursor.expect(b'}')?;
    cursor.skip_whitespace();
    if cursor.at != line.len() {
        return None;
    }
    Some((key?, time_ms?))
}

/// The position of the first quote, backslash or control character in `bytes`: where a
/// string without escapes ends, or the reason it is not plain.
///
/// Eight bytes at a time: a byte-by-byte scan of the key was a tenth of `streamlab window`'s
/// time. In each test below (the classic "has a zero byte" trick), a borrow can only flag
/// bytes above a truly flagged one, so the lowest flagged byte is exact.
fn first_special_byte(bytes: &[u8]) -> Option<usize> {
    let mut words = bytes.chunks_exact(8);
    for (index, chunk) in (&mut words).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        let special = special_bytes(word);
        if special != 0 {
            return Some(index * 8 + (special.trailing_zeros() / 8) as usize);
        }
    }
    let checked = bytes.len() - words.remainder().len();
    let offset = words
        .remainder()
        .iter()
        .position(|&byte| is_special(byte))?;
    Some(checked + offset)
}

fn is_special(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// The high bit of each byte of `word` that is a quote, a backslash or below 0x20 (and
/// perhaps of some bytes above such a byte, never below the first).
fn special_bytes(word: u64) -> u64 {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let zero_bytes = |value: u64| value.wrapping_sub(ONES) & !value;
    let quotes = zero_bytes(word ^ (ONES * u64::from(b'"')));
    let backslashes = zero_bytes(word ^ (ONES * u64::from(b'\\')));
    let controls = word.wrapping_sub(ONES * 0x20) & !word;
    (quotes | backslashes | controls) & HIGHS
}

/// The longest time accepted here: 18 digits cannot overflow an `i64` (19 can).
const TIME_DIGITS_MAX: usize = 18;

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// Skips JSON's four whitespace bytes (not `is_ascii_whitespace`, which adds form feed).
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// Skips whitespace, then `byte`.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_whitespace();
        if self.bytes.get(self.at) != Some(&byte) {
            return None;
        }
        self.at += 1;
        Some(())
    }

    /// A string's raw bytes, when it has no escape and no control character (which JSON
    /// refuses unescaped) between its quotes.
    fn plain_string(&mut self) -> Option<&'a [u8]> {
        self.expect(b'"')?;
        let rest = &self.bytes[self.at..];
        let length = first_special_byte(rest)?;
        if rest[length] != b'"' {
            return None;
        }
        self.at += length + 1;
        Some(&rest[..length])
    }

    /// A non-negative integer of at most [`TIME_DIGITS_MAX`] digits, without a leading zero.
    /// What follows it is not checked here: a `.` or `e` makes the next `expect` fail.
    fn small_natural(&mut self) -> Option<i64> {
        self.skip_whitespace();
        let rest = &self.bytes[self.at..];
        let digits = rest.iter().take_while(|byte| byte.is_ascii_digit()).count();
        if digits == 0 || digits > TIME_DIGITS_MAX || (digits > 1 && rest[0] == b'0') {
            return None;
        }
        self.at += digits;
        Some(
            rest[..digits]
                .iter()
                .fold(0, |value, &digit| value * 10 + i64::from(digit - b'0')),
        )
    }
}

#[cfg(test)]
mod tests;
