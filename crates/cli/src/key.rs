//! [`Key`], the key type `streamlab window` runs the operator with: a string kept inline when
//! it is short, so the operator's key table holds the bytes themselves.
//!
//! The operator looks up every event's key in its table. With `String` keys each lookup
//! followed a pointer from the table entry to the key's bytes elsewhere on the heap, a cache
//! miss that profiles put at about a sixth of the run on 10 k keys in random order. A key of
//! up to [`INLINE_BYTES_MAX`] bytes (every key in the benchmarks, and most real ones) sits in
//! the entry itself; a longer one is boxed as before. Panes carry a copy of their key, which
//! for an inline key is no allocation either. Equality, hashing and order are those of the
//! key's bytes, so the operator orders output exactly as with `String` keys.
//!
//! An inline key is three aligned words rather than a byte array: a key is built from its
//! line in registers (`from_utf8_in`) and moved, compared and hashed a word at a time, so no
//! read of it waits on narrower writes of the same bytes (a store-forwarding stall that a
//! byte array behind the variant's tag cost on every event).

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::num::NonZeroU64;

/// Longest key kept inline: the third word holds six key bytes and the length.
const INLINE_BYTES_MAX: usize = 22;

/// How many bytes [`Key::from_utf8_in`] reads from a key's start: three words.
const WORDS_READ: usize = 24;

/// Where the third word keeps the key's length (plus one, so the word is never zero).
const LENGTH_SHIFT: u32 = 56;

#[derive(Clone, Debug)]
pub enum Key {
    /// A key of at most [`INLINE_BYTES_MAX`] bytes, a valid UTF-8 string.
    Inline(InlineKey),
    /// A key longer than [`INLINE_BYTES_MAX`] bytes.
    Boxed(Box<str>),
}

/// A short key's bytes as little-endian words, every byte past its length zero (so two
/// inline keys are equal exactly when their words are): bytes 0 to 15 in `low`, 16 to 21 in
/// the six low bytes of `high`, whose top byte is the length plus one. That top byte keeps
/// `high` from being zero, which lets `Key` keep its variant there and stay 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InlineKey {
    low: [u64; 2],
    high: NonZeroU64,
}

// The key table's entry is one cache line: this key and the fixed windows' 40 bytes of state.
const _: () = assert!(std::mem::size_of::<Key>() == 24);

impl Key {
    pub fn new(text: &str) -> Self {
        if text.len() > INLINE_BYTES_MAX {
            return Key::Boxed(text.into());
        }
        Self::inline(text.as_bytes())
    }

    /// The key `bytes` spell, or `None` when they are not UTF-8. An ASCII key (the usual
    /// kind) is checked with `is_ascii`, which unlike `str::from_utf8` is inlined and costs a
    /// few instructions on a short key; that call was 5 % of `streamlab window`'s time.
    pub fn from_utf8(bytes: &[u8]) -> Option<Self> {
        if bytes.len() > INLINE_BYTES_MAX || !bytes.is_ascii() {
            return std::str::from_utf8(bytes).ok().map(Key::new);
        }
        Some(Self::inline(bytes))
    }

    /// `bytes` (UTF-8, at most [`INLINE_BYTES_MAX`] long) as an inline key.
    fn inline(bytes: &[u8]) -> Self {
        let mut padded = [0; WORDS_READ];
        padded[..bytes.len()].copy_from_slice(bytes);
        let words = masked_words(&padded, bytes.len());
        Key::Inline(InlineKey::from_words(words, bytes.len()))
    }

    /// The key the first `length` bytes of `onward` spell, or `None` when they are not
    /// UTF-8: [`from_utf8`](Self::from_utf8) for a key with bytes after it to spare, which
    /// lets a short ASCII key be read in whole words ([`InlineKey::read_ascii`]).
    // Inlined so the key's words go from registers to the batch: returned through memory,
    // they were read back as a 16-byte load of two 8-byte stores, which must wait for both.
    #[inline(always)]
    pub fn from_utf8_in(onward: &[u8], length: usize) -> Option<Self> {
        match InlineKey::read_ascii(onward, length) {
            Some(key) => Some(Key::Inline(key)),
            None => Self::from_utf8(&onward[..length]),
        }
    }

    /// The key as a string.
    pub fn text(&self) -> KeyText<'_> {
        match self {
            Key::Inline(key) => KeyText::Inline {
                bytes: key.bytes(),
                length: key.length(),
            },
            Key::Boxed(text) => KeyText::Boxed(text),
        }
    }
}

impl InlineKey {
    /// The first `length` bytes of `onward` as a key, read as three whole words with the
    /// bytes past `length` masked to zero, with no copy through memory; `None` unless they
    /// are ASCII, at most [`INLINE_BYTES_MAX`] long and followed by enough bytes (the rest of
    /// their line) to make up [`WORDS_READ`].
    fn read_ascii(onward: &[u8], length: usize) -> Option<Self> {
        let words = onward
            .get(..WORDS_READ)
            .filter(|_| length <= INLINE_BYTES_MAX)?;
        let words = masked_words(words, length);
        const HIGH_BITS: u64 = u64::from_le_bytes([0x80; 8]);
        let ascii = (words[0] | words[1] | words[2]) & HIGH_BITS == 0;
        ascii.then(|| Self::from_words(words, length))
    }

    /// The key whose bytes are the first `length` (at most [`INLINE_BYTES_MAX`]) bytes of the
    /// little-endian `words`, which are zero past them.
    fn from_words([first, second, third]: [u64; 3], length: usize) -> Self {
        let high = third | (length as u64 + 1) << LENGTH_SHIFT;
        Self {
            low: [first, second],
            // Never zero (the length part is at least one): the fallback is never taken.
            high: NonZeroU64::new(high).unwrap_or(NonZeroU64::MAX),
        }
    }

    fn length(&self) -> usize {
        (self.high.get() >> LENGTH_SHIFT) as usize - 1
    }

    /// The key's bytes, then zeros; the last byte is the length's (past any key).
    fn bytes(&self) -> [u8; WORDS_READ] {
        let mut bytes = [0; WORDS_READ];
        let words = [self.low[0], self.low[1], self.high.get()];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        bytes
    }

    /// Byte order: the words read big-endian compare as the bytes do, and the third word's
    /// lowest byte (the length, once big-endian) breaks ties between a key and the same key
    /// followed by zero bytes, shorter first, as `[u8]` orders them.
    fn order_words(&self) -> [u64; 3] {
        [
            self.low[0].swap_bytes(),
            self.low[1].swap_bytes(),
            self.high.get().swap_bytes(),
        ]
    }
}

/// The first [`WORDS_READ`] bytes of `bytes` as little-endian words, every byte from `length`
/// on set to zero.
fn masked_words(bytes: &[u8], length: usize) -> [u64; 3] {
    let word = |index: usize| {
        let eight = bytes[index * 8..index * 8 + 8]
            .try_into()
            .expect("eight bytes");
        u64::from_le_bytes(eight) & low_bytes_mask(length.saturating_sub(index * 8))
    };
    [word(0), word(1), word(2)]
}

/// A word's lowest `count` bytes set (all of them from eight on).
fn low_bytes_mask(count: usize) -> u64 {
    u64::MAX
        .checked_shr(8 * (8 - count.min(8)) as u32)
        .unwrap_or(0)
}

/// A key's text: an inline key's bytes copied out of its words, a boxed key's borrowed.
/// (`as_str` cannot be had: an inline key's words cannot be viewed as bytes in safe Rust.)
pub enum KeyText<'a> {
    Inline {
        bytes: [u8; WORDS_READ],
        length: usize,
    },
    Boxed(&'a str),
}

impl KeyText<'_> {
    /// The text's bytes, UTF-8 by construction (not checked again: writers take the bytes).
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            KeyText::Inline { bytes, length } => &bytes[..*length],
            KeyText::Boxed(text) => text.as_bytes(),
        }
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Key::Inline(key), Key::Inline(other)) => key == other,
            (Key::Boxed(text), Key::Boxed(other)) => text == other,
            // Whether a key is inline depends on its length alone.
            _ => false,
        }
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Key::Inline(key) => {
                state.write_u64(key.low[0]);
                state.write_u64(key.low[1]);
                state.write_u64(key.high.get());
            }
            Key::Boxed(text) => state.write(text.as_bytes()),
        }
    }
}

impl Ord for Key {
    /// The order of the bytes, which for UTF-8 is `str`'s order.
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Key::Inline(key), Key::Inline(other)) => key.order_words().cmp(&other.order_words()),
            _ => self.text().as_bytes().cmp(other.text().as_bytes()),
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::{InlineKey, Key};
    use proptest::prelude::*;
    use std::collections::BTreeSet;
    use std::hash::{BuildHasher, RandomState};

    /// Short and long keys, so inline keys meet boxed ones around the limit; zero bytes, so
    /// a key meets itself followed by zeros.
    fn text() -> impl Strategy<Value = String> {
        prop_oneof!["\\PC{0,8}", "[ab]{20,24}", "\\PC{18,30}", "[a\0]{0,23}"]
    }

    /// Valid strings and any bytes at all.
    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            text().prop_map(String::into_bytes),
            prop::collection::vec(any::<u8>(), 0..30),
        ]
    }

    proptest! {
        #[test]
        fn keys_compare_and_hash_as_their_strings(a in text(), b in text()) {
            let (key_a, key_b) = (Key::new(&a), Key::new(&b));
            let text_a = key_a.text();
            prop_assert_eq!(text_a.as_bytes(), a.as_bytes());
            prop_assert_eq!(key_a == key_b, a == b);
            prop_assert_eq!(key_a.cmp(&key_b), a.cmp(&b));
            prop_assert_eq!(key_a.partial_cmp(&key_b), a.partial_cmp(&b));
            if a == b {
                let state = RandomState::new();
                prop_assert_eq!(state.hash_one(&key_a), state.hash_one(&key_b));
            }
        }

        #[test]
        fn keys_from_bytes_are_the_keys_of_their_strings(bytes in bytes()) {
            let expected = std::str::from_utf8(&bytes).ok().map(Key::new);
            prop_assert_eq!(Key::from_utf8(&bytes), expected);
        }

        /// Whatever follows the key on its line, and however much of it there is (short or
        /// long enough to read the key in words).
        #[test]
        fn keys_read_in_words_are_the_keys_of_their_strings(
            bytes in bytes(),
            after in prop::collection::vec(any::<u8>(), 0..30),
        ) {
            let expected = std::str::from_utf8(&bytes).ok().map(Key::new);
            let onward = [bytes.as_slice(), &after].concat();
            prop_assert_eq!(Key::from_utf8_in(&onward, bytes.len()), expected.clone());
            let long_onward = [bytes.as_slice(), &after, &[b'"'; 24]].concat();
            prop_assert_eq!(Key::from_utf8_in(&long_onward, bytes.len()), expected);
        }

        /// Short ASCII keys, the usual kind, take the short path whenever the line is long
        /// enough: it is why that path exists.
        #[test]
        fn short_ascii_keys_are_read_in_words(text in "[ -~]{0,22}", after in "[ -~]{24}") {
            let onward = format!("{text}{after}");
            let read = InlineKey::read_ascii(onward.as_bytes(), text.len()).map(Key::Inline);
            prop_assert_eq!(read, Some(Key::new(&text)));
        }
    }

    /// A byte past ASCII anywhere in the key, alone or with another one a word further on,
    /// sends it to the full UTF-8 check: the key is read exactly, or refused when invalid.
    #[test]
    fn non_ascii_bytes_anywhere_are_noticed() {
        let padding = [b'"'; 24];
        for position in 0..22 {
            let with = |bytes: &[(usize, u8)]| {
                let mut key = vec![b'a'; 22];
                for &(at, byte) in bytes.iter().filter(|(at, _)| *at < 22) {
                    key[at] = byte;
                }
                let onward = [key.as_slice(), &padding].concat();
                let read = InlineKey::read_ascii(&onward, key.len());
                (Key::from_utf8_in(&onward, key.len()), read)
            };
            let invalid = with(&[(position, 0xFF)]);
            assert_eq!(invalid, (None, None), "0xFF at {position}");
            let invalid_twice = with(&[(position, 0xFF), (position + 8, 0xFF)]);
            assert_eq!(invalid_twice, (None, None), "0xFF at {position} and 8 on");
        }
        // A two-byte letter within the 22 bytes.
        for position in 0..21 {
            let text = format!("{}é{}", "a".repeat(position), "a".repeat(20 - position));
            let onward = [text.as_bytes(), &padding].concat();
            let read = InlineKey::read_ascii(&onward, text.len());
            assert_eq!(read, None, "é at {position}");
            let key = Key::from_utf8_in(&onward, text.len());
            assert_eq!(key, Some(Key::new(&text)), "é at {position}");
        }
    }

    /// Different keys are spread over hashes (all in one bucket, the operator's table would
    /// still be right, but would scan every key at every event).
    #[test]
    fn different_keys_hash_differently() {
        let state = RandomState::new();
        let texts = (0..1000).map(|index| format!("user-{index:05}"));
        let long_texts = (0..1000).map(|index| format!("a-rather-long-key-{index:08}"));
        let hashes: BTreeSet<u64> = texts
            .chain(long_texts)
            .map(|text| state.hash_one(Key::new(&text)))
            .collect();
        assert_eq!(hashes.len(), 2000);
    }
}
