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
//! Two layouts, Python's `json.dumps` and the compact one, are matched whole (`Layout`); any
//! other spacing or member order is read token by token (`parse_spaced`). A line in one of the
//! two layouts can also be read where it lies in the input's buffer, before its end is known
//! (`parse_layout_line`): it then says where the line ends, which spares the search for it.
//!
//! Accepted: JSON whitespace anywhere between tokens; exactly the two members `key` and
//! `time`, in either order, their names written without escapes; a key without escapes or
//! control characters (any UTF-8 otherwise, which the caller checks); a time of 1 to 18
//! decimal digits without a leading zero (so it fits in an `i64`). Everything else (escapes,
//! signs, fractions, exponents, extra or repeated members, trailing text) goes to the full
//! parser.

/// A plain event line's key and time.
///
/// The key comes as bytes, not checked to be UTF-8: the line is plain only if they are, and
/// the caller, which copies them anyway, checks them on the way more cheaply than
/// `str::from_utf8` does on a short key (see `Key::from_utf8`). The rest of the line comes
/// with them, so a caller may read the key in whole words past its end (`Key::from_utf8_in`).
#[derive(Debug, PartialEq, Eq)]
pub struct PlainEvent<'a> {
    /// The key's bytes and everything after them: the rest of the line, perhaps more.
    pub key_onward: &'a [u8],
    pub key_length: usize,
    pub time_ms: i64,
}

impl<'a> PlainEvent<'a> {
    #[cfg(test)]
    pub fn key(&self) -> &'a [u8] {
        &self.key_onward[..self.key_length]
    }
}

/// The key and time of a plain event line, or `None` when the line needs the full parser.
// Not inlined: inside the per-line loop the parser's running values were kept on the stack
// for lack of registers, and each digit and key byte waited on the previous one's store.
#[inline(never)]
pub fn parse_plain_event(line: &[u8]) -> Option<PlainEvent<'_>> {
    LAYOUTS
        .iter()
        .find_map(|layout| layout.parse(line))
        .or_else(|| parse_spaced(line))
}

/// The event of a line in one of the usual layouts that starts `bytes` and ends with `}\n`,
/// and the line's length with that `\n`; `None` for anything else (or a line not yet whole in
/// `bytes`), which the caller then cuts at its `\n` and parses as usual.
///
/// Why the line's end is where this says: nothing it reads before the `}` can be a `\n` (the
/// layout's fixed parts hold none, a plain key no control character, a time only digits), so
/// the first `\n` in `bytes` is the one after it, and the event is the one [`parse_plain_event`]
/// reads from the line. Only times of up to fifteen digits are read here; longer ones, and a
/// time that starts less than sixteen bytes before the end of `bytes`, go the usual way.
pub fn parse_layout_line(bytes: &[u8]) -> Option<(PlainEvent<'_>, usize)> {
    // Each layout in a call of its own, so its parts' lengths are constants there and the
    // comparisons are a few loads (through a loop over the layouts they were calls to memcmp).
    let [python, compact] = &LAYOUTS;
    python
        .parse_at_start(bytes)
        .or_else(|| compact.parse_at_start(bytes))
}

/// The exact layout of an event line most producers write, key first: Python's `json.dumps`
/// (`{"key": "a", "time": 1}`) and serde_json's or JavaScript's compact form
/// (`{"key":"a","time":1}`). A line in one of them is read by comparing its fixed parts as
/// wholes, in under half the instructions of reading it token by token (`parse_spaced`).
struct Layout {
    /// Everything before the key's first byte.
    open: &'static [u8],
    /// Everything from the key's closing quote to the time's first digit.
    middle: &'static [u8],
}

const LAYOUTS: [Layout; 2] = [
    Layout {
        open: b"{\"key\": \"",
        middle: b"\", \"time\": ",
    },
    Layout {
        open: b"{\"key\":\"",
        middle: b"\",\"time\":",
    },
];

impl Layout {
    fn parse<'a>(&self, line: &'a [u8]) -> Option<PlainEvent<'a>> {
        let key_onward = line.strip_prefix(self.open)?;
        let key_length = first_special_byte(key_onward)?;
        let after_key = &key_onward[key_length..];
        let digits = after_key.strip_prefix(self.middle)?.strip_suffix(b"}")?;
        // The line up to the time's last digit: with the opening and the middle, at least
        // seventeen bytes, so its last sixteen can be read as two words.
        let until_digits_end = &line[..line.len() - 1];
        Some(PlainEvent {
            key_onward,
            key_length,
            time_ms: natural_at_end(until_digits_end, digits.len())?,
        })
    }

    /// See [`parse_layout_line`].
    #[inline(always)]
    fn parse_at_start<'a>(&self, bytes: &'a [u8]) -> Option<(PlainEvent<'a>, usize)> {
        let key_onward = bytes.strip_prefix(self.open)?;
        let key_length = first_special_byte(key_onward)?;
        let digits_onward = key_onward[key_length..].strip_prefix(self.middle)?;
        let (time_ms, digit_count) = leading_natural(digits_onward)?;
        let digits_end = bytes.len() - digits_onward.len() + digit_count;
        let line_length = digits_end + 2;
        if bytes.get(digits_end..line_length)? != b"}\n" {
            return None;
        }
        let event = PlainEvent {
            key_onward,
            key_length,
            time_ms,
        };
        Some((event, line_length))
    }
}

/// The natural number `bytes` starts with, as [`natural`] reads it, and its digit count, read
/// as two words: `None` when `bytes` holds fewer than sixteen bytes, or starts with sixteen
/// digits. The words that find where the digits end also give their value, so a time read in
/// place is loaded once and checked once.
// Inlined into each layout's reading: as a call it was 6 % of `streamlab window`'s time.
#[inline(always)]
fn leading_natural(bytes: &[u8]) -> Option<(i64, usize)> {
    let word = |start: usize| {
        let eight: [u8; 8] = bytes.get(start..start + 8)?.try_into().ok()?;
        Some(u64::from_le_bytes(eight))
    };
    let (first, second) = (word(0)?, word(8)?);
    let (first_flags, second_flags) = (non_digit_bytes(first), non_digit_bytes(second));
    let count = if first_flags != 0 {
        first_flags.trailing_zeros() as usize / 8
    } else if second_flags != 0 {
        8 + second_flags.trailing_zeros() as usize / 8
    } else {
        return None;
    };
    // A first digit 0 is the number 0 alone, or a leading zero: `natural` tells which.
    if count == 0 || bytes[0] == b'0' {
        return Some((natural(&bytes[..count])?, count));
    }
    // The digits go to a word's high bytes; the bytes shifted in are zeros, which count as 0.
    let value = if count <= 8 {
        digits_value(first << (8 * (8 - count)))
    } else {
        let low_digits = count - 8;
        let low = digits_value(second << (8 * (8 - low_digits)));
        digits_value(first) * POWERS_OF_TEN[low_digits] + low
    };
    Some((value, count))
}

/// 10 to the power of the index, up to what [`leading_natural`] needs.
const POWERS_OF_TEN: [i64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// Flags (non-zero bytes) the bytes of `word` that are not ASCII digits, and perhaps some bytes
/// above such a byte, never below the first.
///
/// A byte is a digit when it is 0x30..=0x3F and still below 0x40 once six is added. Adding six
/// carries into the next byte only out of a byte of 0xFA or more, itself no digit, so the
/// lowest flagged byte is exact.
fn non_digit_bytes(word: u64) -> u64 {
    const HIGH_NIBBLES: u64 = u64::from_le_bytes([0xF0; 8]);
    const SIXES: u64 = u64::from_le_bytes([0x06; 8]);
    const DIGIT_HIGH_NIBBLES: u64 = u64::from_le_bytes([0x30; 8]);
    let high = word & HIGH_NIBBLES;
    let high_after_six = word.wrapping_add(SIXES) & HIGH_NIBBLES;
    (high ^ DIGIT_HIGH_NIBBLES) | (high_after_six ^ DIGIT_HIGH_NIBBLES)
}

/// The last `count` bytes of `text` as a non-negative integer, as [`natural`] reads them; up to
/// sixteen digits (a time in epoch milliseconds has thirteen) are read eight at a time
/// ([`eight_digits`]) when `text` holds sixteen bytes.
fn natural_at_end(text: &[u8], count: usize) -> Option<i64> {
    let digits = &text[text.len() - count..];
    // A first digit 0 is the number 0 alone, or a leading zero: `natural` tells which.
    if count == 0 || count > 16 || text.len() < 16 || digits[0] == b'0' {
        return natural(digits);
    }
    let word = |from_end: usize| {
        let start = text.len() - from_end;
        text[start..start + 8].try_into().expect("eight bytes")
    };
    if count <= 8 {
        return eight_digits(word(8), count);
    }
    let high = eight_digits(word(16), count - 8)?;
    Some(high * 100_000_000 + eight_digits(word(8), 8)?)
}

/// The last `count` (1 to 8) bytes of `word` as a decimal number, if they are all digits.
///
/// Reading a time digit by digit is a chain of multiplications each waiting on the one
/// before; this reads them at once (the bytes before the digits are taken as zeros, then
/// neighbouring digits are combined in pairs, pairs in fours and fours in the eight).
fn eight_digits(word: [u8; 8], count: usize) -> Option<i64> {
    const ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);
    // The digits are the high bytes of the little-endian word; the low ones become '0'.
    let before = (1u64 << (8 * (8 - count))) - 1;
    let word = (u64::from_le_bytes(word) & !before) | (ZEROS & before);
    if non_digit_bytes(word) != 0 {
        return None;
    }
    Some(digits_value(word))
}

/// The eight digits of `word`, first digit in the lowest byte, as a number; only each byte's
/// low four bits are read, so a zero byte counts as the digit 0.
fn digits_value(word: u64) -> i64 {
    let pairs = ((word & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(10 << 8 | 1)) >> 8;
    let fours = ((pairs & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1)) >> 16;
    let eight = ((fours & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1)) >> 32;
    eight as i64
}

/// Reads a plain line token by token, whatever its whitespace and member order.
fn parse_spaced(line: &[u8]) -> Option<PlainEvent<'_>> {
    let mut cursor = Cursor { bytes: line, at: 0 };
    cursor.expect(b'{')?;
    // Each member's name is matched as a whole literal rather than read as a string and then
    // compared: the fewer steps per line, the faster (a name with an escape is not matched,
    // which is right: only the full parser decodes escapes).
    let event = if cursor.name(KEY_NAME) {
        let (key_onward, key_length) = cursor.plain_string()?;
        cursor.expect(b',')?;
        cursor.name(TIME_NAME).then_some(())?;
        PlainEvent {
            key_onward,
            key_length,
            time_ms: cursor.small_natural()?,
        }
    } else if cursor.name(TIME_NAME) {
        let time_ms = cursor.small_natural()?;
        cursor.expect(b',')?;
        cursor.name(KEY_NAME).then_some(())?;
        let (key_onward, key_length) = cursor.plain_string()?;
        PlainEvent {
            key_onward,
            key_length,
            time_ms,
        }
    } else {
        return None;
    };
    cursor.expect(b'}')?;
    cursor.skip_whitespace();
    (cursor.at == line.len()).then_some(event)
}

/// The two members' names as they appear in a line, quotes included.
const KEY_NAME: &[u8] = b"\"key\"";
const TIME_NAME: &[u8] = b"\"time\"";

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

/// `digits` as a non-negative integer, if they are 1 to [`TIME_DIGITS_MAX`] decimal digits
/// without a leading zero.
fn natural(digits: &[u8]) -> Option<i64> {
    let leading_zero = digits.len() > 1 && digits[0] == b'0';
    if digits.is_empty() || digits.len() > TIME_DIGITS_MAX || leading_zero {
        return None;
    }
    digits.iter().try_fold(0, |value: i64, &byte| {
        let digit = byte.wrapping_sub(b'0');
        (digit <= 9).then(|| value * 10 + i64::from(digit))
    })
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

    /// Skips whitespace, then `name` (quoted) and the colon after it, if they are next; says
    /// whether they were (and moves past them only then).
    fn name(&mut self, name: &[u8]) -> bool {
        let start = self.at;
        self.skip_whitespace();
        if self.bytes[self.at..].starts_with(name) {
            self.at += name.len();
            if self.expect(b':').is_some() {
                return true;
            }
        }
        self.at = start;
        false
    }

    /// A string's raw bytes and all that follows them, and its length, when it has no escape
    /// and no control character (which JSON refuses unescaped) between its quotes.
    fn plain_string(&mut self) -> Option<(&'a [u8], usize)> {
        self.expect(b'"')?;
        let onward = &self.bytes[self.at..];
        let length = first_special_byte(onward)?;
        if onward[length] != b'"' {
            return None;
        }
        self.at += length + 1;
        Some((onward, length))
    }

    /// A non-negative integer of at most [`TIME_DIGITS_MAX`] digits, without a leading zero.
    /// What follows it is not checked here: a `.` or `e` makes the next `expect` fail.
    fn small_natural(&mut self) -> Option<i64> {
        self.skip_whitespace();
        let rest = &self.bytes[self.at..];
        let digits = rest.iter().take_while(|byte| byte.is_ascii_digit()).count();
        let value = natural(&rest[..digits])?;
        self.at += digits;
        Some(value)
    }
}

#[cfg(test)]
mod tests;
