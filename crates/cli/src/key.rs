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

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// Longest key kept inline: with the length byte and the variant's tag the key is 24 bytes,
/// the size of a `String`.
const INLINE_BYTES_MAX: usize = 22;

#[derive(Clone, Debug)]
pub enum Key {
    /// `bytes[..length]` is the key, a valid UTF-8 string; the rest is zero, so two inline
    /// keys are equal exactly when their arrays are.
    Inline {
        length: u8,
        bytes: [u8; INLINE_BYTES_MAX],
    },
    /// A key longer than [`INLINE_BYTES_MAX`] bytes.
    Boxed(Box<str>),
}

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
        let mut key = Key::Inline {
            length: bytes.len() as u8,
            bytes: [0; INLINE_BYTES_MAX],
        };
        // Copied into the key where it lies: copying into a local array and then moving that
        // in made the move's wide load wait for the copy's narrow stores (a store-forwarding
        // stall on every event).
        if let Key::Inline { bytes: inline, .. } = &mut key {
            inline[..bytes.len()].copy_from_slice(bytes);
        }
        key
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Key::Inline { length, bytes } => &bytes[..usize::from(*length)],
            Key::Boxed(text) => text.as_bytes(),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Key::Inline { length, bytes } => std::str::from_utf8(&bytes[..usize::from(*length)])
                .expect("an inline key is copied from a str"),
            Key::Boxed(text) => text,
        }
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            // Whole fixed-size arrays: compared in registers, without a call to memcmp.
            (
                Key::Inline { length, bytes },
                Key::Inline {
                    length: other_length,
                    bytes: other_bytes,
                },
            ) => length == other_length && bytes == other_bytes,
            _ => self.as_bytes() == other.as_bytes(),
        }
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
    }
}

impl Ord for Key {
    /// The order of the bytes, which for UTF-8 is `str`'s order.
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::Key;
    use proptest::prelude::*;
    use std::hash::{BuildHasher, RandomState};

    /// Short and long keys, so inline keys meet boxed ones around the limit.
    fn text() -> impl Strategy<Value = String> {
        prop_oneof!["\\PC{0,8}", "[ab]{20,24}", "\\PC{18,30}"]
    }

    proptest! {
        #[test]
        fn keys_compare_and_hash_as_their_strings(a in text(), b in text()) {
            let (key_a, key_b) = (Key::new(&a), Key::new(&b));
            prop_assert_eq!(key_a.as_str(), a.as_str());
            prop_assert_eq!(key_a == key_b, a == b);
            prop_assert_eq!(key_a.cmp(&key_b), a.cmp(&b));
            if a == b {
                let state = RandomState::new();
                prop_assert_eq!(state.hash_one(&key_a), state.hash_one(&key_b));
            }
        }

        #[test]
        fn keys_from_bytes_are_the_keys_of_their_strings(
            bytes in prop_oneof![
                text().prop_map(String::into_bytes),
                prop::collection::vec(any::<u8>(), 0..30),
            ]
        ) {
            let expected = std::str::from_utf8(&bytes).ok().map(Key::new);
            prop_assert_eq!(Key::from_utf8(&bytes), expected);
        }
    }
}
