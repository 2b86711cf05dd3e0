//! Kafka's default partitioner for keyed records: which partition a key lands in.
//!
//! A keyed record goes to `(murmur2(key) & 0x7fffffff) % partition_count`, where `murmur2` is
//! the 32-bit MurmurHash2 variant in Kafka's `Utils.murmur2` (seed `0x9747b28c`, little-endian
//! 4-byte blocks). Reproducing it bit for bit is what lets a lesson say "this key goes to
//! partition 3" and have a real cluster agree. All arithmetic wraps like Java's `int`.

/// The seed Kafka's `Utils.murmur2` starts from.
pub const MURMUR2_SEED: u32 = 0x9747_b28c;

/// MurmurHash2's multiplier.
const MIX_MULTIPLIER: u32 = 0x5bd1_e995;

/// MurmurHash2's block shift.
const MIX_SHIFT: u32 = 24;

/// Kafka's `Utils.murmur2`: the 32-bit MurmurHash2 of `data`, as the signed `int` Java returns.
pub fn murmur2(data: &[u8]) -> i32 {
    // Java's `seed ^ length` uses the length as an `int`; keys are far shorter than 2^31 bytes,
    // and truncating keeps the same wrapping behaviour for anything longer.
    let mut hash = MURMUR2_SEED ^ (data.len() as u32);
    let mut blocks = data.chunks_exact(4);
    for block in &mut blocks {
        let word = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        hash = hash.wrapping_mul(MIX_MULTIPLIER) ^ mix_block(word);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        hash ^= tail_word(tail);
        hash = hash.wrapping_mul(MIX_MULTIPLIER);
    }
    hash ^= hash >> 13;
    hash = hash.wrapping_mul(MIX_MULTIPLIER);
    hash ^= hash >> 15;
    hash as i32
}

/// The partition Kafka's default partitioner picks for a record with `key` on a topic with
/// `num_partitions` partitions.
///
/// # Panics
///
/// If `num_partitions` is 0: a topic always has at least one partition, so a zero here is a bug
/// in the caller, not bad user input.
pub fn partition_for_key(key: &[u8], num_partitions: u32) -> u32 {
    assert!(num_partitions > 0, "a topic has at least one partition");
    to_positive(murmur2(key)) % num_partitions
}

/// Kafka's `Utils.toPositive`: clears the sign bit rather than taking the absolute value, so
/// `i32::MIN` maps to 0 instead of overflowing.
pub fn to_positive(hash: i32) -> u32 {
    (hash as u32) & 0x7fff_ffff
}

/// One full 4-byte block scrambled before it is folded into the running hash.
fn mix_block(word: u32) -> u32 {
    let mut mixed = word.wrapping_mul(MIX_MULTIPLIER);
    mixed ^= mixed >> MIX_SHIFT;
    mixed.wrapping_mul(MIX_MULTIPLIER)
}

/// The 1–3 trailing bytes as one little-endian word (Java's fall-through `switch`).
fn tail_word(tail: &[u8]) -> u32 {
    tail.iter().enumerate().fold(0, |word, (index, &byte)| {
        word | (u32::from(byte) << (8 * index))
    })
}
