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
        let mut bytes = [0; INLINE_BYTES_MAX];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Key::Inline {
            // At most INLINE_BYTES_MAX, checked above.
            length: text.len() as u8,
            bytes,
        }
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
    }
}
