//! The trace hash: one 64-bit fingerprint of everything a run did.
//!
//! Two runs are the same run when their trace hashes match; the determinism tests compare the
//! hash of a native run with the hash of the same scenario run in a browser. Every append,
//! every fetch and every event is folded in as it happens, with FNV-1a over fixed-width
//! little-endian integers, so the hash is independent of platform and word size. An event is
//! folded by its typed fields as compact JSON ([`TraceHasher::write_json`]), not by its
//! narration, so a reworded sentence is not a different run.
//!
//! FNV-1a takes a multiply per byte, one after the other, and a commit event's JSON is mostly
//! fixed text (keys, quotes, its type). A [`Literal`] folds such a run of bytes in one step
//! with a table of 256 entries, to exactly the value the byte-by-byte fold gives: the hashes
//! stay the same, only sooner.

use crate::invariant::Surely;

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
/// An odd constant with well-spread bits (2^64 / golden ratio), as in FxHash.
const WORD_MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// A running FNV-1a 64 hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceHasher(u64);

impl Default for TraceHasher {
    fn default() -> Self {
        Self(FNV_OFFSET_BASIS)
    }
}

impl TraceHasher {
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    /// Folds `value`'s compact JSON: the bytes `serde_json::to_vec` makes, written into one
    /// buffer kept for the purpose and folded from there, so an event-heavy run does not
    /// allocate a buffer per event (allocating is slow in WebAssembly). The value must hold no
    /// floats (its bytes would then depend on float formatting) and must serialize: events
    /// are plain typed fields.
    pub fn write_json<T: serde::Serialize + ?Sized>(&mut self, value: &T) {
        JSON_SCRATCH.with(|scratch| {
            let mut bytes = scratch.borrow_mut();
            bytes.clear();
            serde_json::to_writer(&mut *bytes, value).surely("events always serialize");
            self.write_bytes(&bytes);
        });
    }

    /// Folds `literal`'s bytes in one step: the same result as `write_bytes(literal.bytes())`.
    pub fn write_literal(&mut self, literal: &Literal) {
        let folded = literal.folded();
        let low_byte = (self.0 & 0xff) as usize;
        self.0 = self
            .0
            .wrapping_mul(folded.multiplier)
            .wrapping_add(folded.addend_by_low_byte[low_byte]);
    }

    /// Folds one integer in a single step (the per-record hot path).
    pub fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(WORD_MULTIPLIER);
    }

    pub fn finish(&self) -> u64 {
        self.0
    }

    /// The hash as 16 lowercase hex digits, the form the CLI prints and tests compare.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// A fixed run of bytes the trace folds often, with what folding it does to any hash.
///
/// Why one step is exact: XOR with a byte only changes the hash's low byte, so each FNV step
/// is `h * P + d * P`, where `d` (the XOR's difference) depends on the low byte alone; and the
/// low byte after a multiply depends only on the low bytes before it. Folding `n` bytes is
/// therefore `h * P^n + addend`, with an addend that depends only on the starting low byte:
/// 256 possible addends, computed the first time the literal is folded.
pub struct Literal {
    bytes: &'static [u8],
    folded: std::sync::OnceLock<Folded>,
}

struct Folded {
    /// `FNV_PRIME` to the power of the literal's length.
    multiplier: u64,
    addend_by_low_byte: Box<[u64; 256]>,
}

impl Literal {
    pub const fn new(bytes: &'static [u8]) -> Self {
        Self {
            bytes,
            folded: std::sync::OnceLock::new(),
        }
    }

    pub fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    fn folded(&self) -> &Folded {
        self.folded.get_or_init(|| {
            let multiplier = self
                .bytes
                .iter()
                .fold(1u64, |power, _| power.wrapping_mul(FNV_PRIME));
            let mut addend_by_low_byte = Box::new([0u64; 256]);
            for (low_byte, addend) in (0u64..).zip(addend_by_low_byte.iter_mut()) {
                let mut hasher = TraceHasher(low_byte);
                hasher.write_bytes(self.bytes);
                *addend = hasher.0.wrapping_sub(low_byte.wrapping_mul(multiplier));
            }
            Folded {
                multiplier,
                addend_by_low_byte,
            }
        })
    }
}

thread_local! {
    /// The buffer [`TraceHasher::write_json`] writes each value into before folding it (a
    /// scratch space: what it holds between calls means nothing).
    static JSON_SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_published_fnv1a_vectors() {
        // Vectors from the FNV reference: "" and "a".
        assert_eq!(TraceHasher::default().finish(), 0xcbf29ce484222325);
        let mut h = TraceHasher::default();
        h.write_bytes(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
    }

    #[test]
    fn order_matters() {
        let mut a = TraceHasher::default();
        a.write_u64(1);
        a.write_u64(2);
        let mut b = TraceHasher::default();
        b.write_u64(2);
        b.write_u64(1);
        assert_ne!(a.finish(), b.finish());
    }

    proptest::proptest! {
        #[test]
        fn a_literal_folds_as_its_bytes_do(
            start: u64,
            bytes in proptest::collection::vec(proptest::arbitrary::any::<u8>(), 0..40),
        ) {
            let literal = Literal::new(bytes.leak());
            let mut in_one_step = TraceHasher(start);
            in_one_step.write_literal(&literal);
            in_one_step.write_literal(&literal);
            let mut byte_by_byte = TraceHasher(start);
            byte_by_byte.write_bytes(literal.bytes());
            byte_by_byte.write_bytes(literal.bytes());
            proptest::prop_assert_eq!(in_one_step, byte_by_byte);
        }
    }

    #[test]
    fn json_streamed_in_folds_as_the_same_bytes_gathered_first() {
        #[derive(serde::Serialize)]
        struct Sample<'a> {
            group_id: &'a str,
            offsets: Vec<(u32, u64)>,
            cause: Option<&'a str>,
        }
        let sample = Sample {
            group_id: "search \"eu\"",
            offsets: vec![(0, 12), (5, u64::MAX)],
            cause: None,
        };
        let mut streamed = TraceHasher::default();
        streamed.write_json(&sample);
        let mut gathered = TraceHasher::default();
        gathered.write_bytes(&serde_json::to_vec(&sample).unwrap());
        assert_eq!(streamed, gathered);
        assert_ne!(streamed, TraceHasher::default());
    }
}
