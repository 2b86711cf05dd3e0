//! The trace hash: one 64-bit fingerprint of everything a run did.
//!
//! Two runs are the same run when their trace hashes match; the determinism tests compare the
//! hash of a native run with the hash of the same scenario run in a browser. Every append,
//! every fetch and every event is folded in as it happens, with FNV-1a over fixed-width
//! little-endian integers, so the hash is independent of platform and word size. An event is
//! folded by its typed fields (`Event::fingerprint_bytes`), not by its narration, so a
//! reworded sentence is not a different run.

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
}
