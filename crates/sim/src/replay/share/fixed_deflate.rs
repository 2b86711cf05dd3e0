//! A small DEFLATE encoder for share links: raw DEFLATE (RFC 1951) that any inflater reads,
//! as one final block with the format's fixed Huffman codes.
//!
//! A link's JSON is a few hundred bytes at most, so a block's own Huffman tables would cost
//! more than they save, and with fixed codes every literal, length and distance has a known
//! price in bits. That makes the cheapest parse easy to find exactly: walking back from the
//! end, each position takes the literal or the match length whose bits plus the cheapest rest
//! are fewest. Matches may reach back into a dictionary that the inflater puts in front of its
//! output (`dictionary.rs`). The encoder is a fraction of a general compressor's code, which
//! every lesson's download used to carry; its links are no longer than that compressor's at
//! its best level (a test compares them on every preset).

/// Shortest and longest match DEFLATE can express, and how far back one may reach.
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
const WINDOW: usize = 32 * 1024;
/// Earlier positions tried per position, nearest first: bounds the time of a long input.
const MAX_CANDIDATES: usize = 256;
/// Bits of the hash that chains positions by their next three bytes.
const HASH_BITS: u32 = 12;

/// Each length symbol's (first length, extra bits), from 257 on.
pub(super) const LENGTHS: [(u16, u8); 29] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (9, 0),
    (10, 0),
    (11, 1),
    (13, 1),
    (15, 1),
    (17, 1),
    (19, 2),
    (23, 2),
    (27, 2),
    (31, 2),
    (35, 3),
    (43, 3),
    (51, 3),
    (59, 3),
    (67, 4),
    (83, 4),
    (99, 4),
    (115, 4),
    (131, 5),
    (163, 5),
    (195, 5),
    (227, 5),
    (258, 0),
];

/// Each distance symbol's (first distance, extra bits).
pub(super) const DISTANCES: [(u16, u8); 30] = [
    (1, 0),
    (2, 0),
    (3, 0),
    (4, 0),
    (5, 1),
    (7, 1),
    (9, 2),
    (13, 2),
    (17, 3),
    (25, 3),
    (33, 4),
    (49, 4),
    (65, 5),
    (97, 5),
    (129, 6),
    (193, 6),
    (257, 7),
    (385, 7),
    (513, 8),
    (769, 8),
    (1025, 9),
    (1537, 9),
    (2049, 10),
    (3073, 10),
    (4097, 11),
    (6145, 11),
    (8193, 12),
    (12289, 12),
    (16385, 13),
    (24577, 13),
];

const END_OF_BLOCK: u16 = 256;

/// Raw DEFLATE of `data` whose matches may reach back into `dictionary` (its last 32 KiB).
pub fn deflate(dictionary: &[u8], data: &[u8]) -> Vec<u8> {
    let dictionary = &dictionary[dictionary.len().saturating_sub(WINDOW)..];
    let text = [dictionary, data].concat();
    let mut bits = BitWriter::default();
    // The final block (1), with the fixed codes (type 01).
    bits.put(1, 1);
    bits.put(1, 2);
    for step in cheapest_parse(&text, dictionary.len()) {
        match step {
            Step::Literal(byte) => put_symbol(&mut bits, u16::from(byte)),
            Step::Match { length, distance } => {
                put_length(&mut bits, length);
                put_distance(&mut bits, distance);
            }
        }
    }
    put_symbol(&mut bits, END_OF_BLOCK);
    bits.finish()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Literal(u8),
    Match { length: usize, distance: usize },
}

/// The steps that spell `text[start..]` in the fewest bits.
fn cheapest_parse(text: &[u8], start: usize) -> Vec<Step> {
    let n = text.len();
    let earlier = earlier_same_prefix(text);
    // bits[i]: the fewest bits that spell text[i..]; choice[i]: the first step of that.
    let mut bits = vec![0u32; n + 1];
    let mut choice = vec![Step::Literal(0); n];
    let mut nearest = Vec::with_capacity(MAX_MATCH + 1);
    for i in (start..n).rev() {
        let mut best = (literal_bits(text[i]) + bits[i + 1], Step::Literal(text[i]));
        nearest_distance_per_length(text, i, &earlier, &mut nearest);
        let mut priced = (0, 0);
        for (length, &distance) in nearest.iter().enumerate().skip(MIN_MATCH) {
            // Distances only grow with the length: price each one once.
            if priced.0 != distance {
                priced = (distance, distance_bits(distance));
            }
            let cost = length_bits(length) + priced.1 + bits[i + length];
            if cost < best.0 {
                best = (cost, Step::Match { length, distance });
            }
        }
        bits[i] = best.0;
        choice[i] = best.1;
    }
    let mut steps = Vec::new();
    let mut i = start;
    while i < n {
        steps.push(choice[i]);
        i += match choice[i] {
            Step::Literal(_) => 1,
            Step::Match { length, .. } => length,
        };
    }
    steps
}

/// For each position, the nearest earlier one whose next three bytes hash alike (`usize::MAX`
/// for none): a chain to walk back through a position's match candidates.
fn earlier_same_prefix(text: &[u8]) -> Vec<usize> {
    let mut latest = vec![usize::MAX; 1 << HASH_BITS];
    let mut earlier = vec![usize::MAX; text.len()];
    for (i, window) in text.windows(MIN_MATCH).enumerate() {
        let hash = prefix_hash(window);
        earlier[i] = latest[hash];
        latest[hash] = i;
    }
    earlier
}

fn prefix_hash(bytes: &[u8]) -> usize {
    let word = u32::from(bytes[0]) << 16 | u32::from(bytes[1]) << 8 | u32::from(bytes[2]);
    (word.wrapping_mul(2_654_435_761) >> (32 - HASH_BITS)) as usize
}

/// For every match length at position `i` up to the longest found, the nearest distance
/// back that gives a match at least that long (0 below three), into `nearest`: shorter
/// distances cost fewer extra bits.
fn nearest_distance_per_length(text: &[u8], i: usize, earlier: &[usize], nearest: &mut Vec<usize>) {
    let longest = MAX_MATCH.min(text.len() - i);
    nearest.clear();
    nearest.resize(MIN_MATCH, 0);
    if longest < MIN_MATCH {
        return;
    }
    let mut candidate = earlier[i];
    for _ in 0..MAX_CANDIDATES {
        if candidate == usize::MAX || i - candidate > WINDOW {
            break;
        }
        let length = common_length(text, candidate, i, longest);
        if length >= nearest.len() {
            nearest.resize(length + 1, i - candidate);
        }
        if length == longest {
            break;
        }
        candidate = earlier[candidate];
    }
}

/// How many bytes from `from` repeat those from `at`, up to `limit` (the copy may overlap).
fn common_length(text: &[u8], from: usize, at: usize, limit: usize) -> usize {
    (0..limit)
        .take_while(|&k| text[from + k] == text[at + k])
        .count()
}

fn literal_bits(byte: u8) -> u32 {
    symbol_code(u16::from(byte)).1
}

/// A match length's price in bits: its symbol's code (7 bits up to length 114, 8 from 115)
/// and its extra bits, without searching the table (the parse prices every length).
fn length_bits(length: usize) -> u32 {
    let extra = match length {
        3..=10 | 258 => 0,
        _ => bit_length(length - 3) - 3,
    };
    let code = if length >= 115 { 8 } else { 7 };
    code + extra
}

/// A distance's price in bits: a five-bit code and its extra bits.
fn distance_bits(distance: usize) -> u32 {
    let extra = match distance {
        1..=4 => 0,
        _ => bit_length(distance - 1) - 2,
    };
    5 + extra
}

fn bit_length(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

/// The length symbol's index (its symbol less 257) and its extra bits.
fn length_symbol(length: usize) -> (usize, u8) {
    symbol_in(&LENGTHS, length)
}

fn distance_symbol(distance: usize) -> (usize, u8) {
    symbol_in(&DISTANCES, distance)
}

/// The last entry of `table` whose first value is at most `value`: its index and its extra
/// bits.
fn symbol_in(table: &[(u16, u8)], value: usize) -> (usize, u8) {
    let index = table
        .iter()
        .rposition(|&(first, _)| usize::from(first) <= value)
        .expect("lengths start at 3 and distances at 1");
    (index, table[index].1)
}

/// A literal/length symbol's fixed Huffman code and its length in bits (RFC 1951, 3.2.6).
fn symbol_code(symbol: u16) -> (u32, u32) {
    let symbol = u32::from(symbol);
    match symbol {
        0..=143 => (0x30 + symbol, 8),
        144..=255 => (0x190 + symbol - 144, 9),
        256..=279 => (symbol - 256, 7),
        _ => (0xc0 + symbol - 280, 8),
    }
}

fn put_symbol(bits: &mut BitWriter, symbol: u16) {
    let (code, len) = symbol_code(symbol);
    bits.put_huffman(code, len);
}

fn put_length(bits: &mut BitWriter, length: usize) {
    let (index, extra) = length_symbol(length);
    put_symbol(bits, 257 + index as u16);
    bits.put(
        (length - usize::from(LENGTHS[index].0)) as u32,
        u32::from(extra),
    );
}

fn put_distance(bits: &mut BitWriter, distance: usize) {
    let (index, extra) = distance_symbol(distance);
    bits.put_huffman(index as u32, 5);
    bits.put(
        (distance - usize::from(DISTANCES[index].0)) as u32,
        u32::from(extra),
    );
}

/// Packs bits into bytes from the least significant bit up, as DEFLATE does.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    pending: u32,
    pending_len: u32,
}

impl BitWriter {
    /// `value`'s low `len` bits, least significant first (header fields and extra bits).
    fn put(&mut self, value: u32, len: u32) {
        for bit in 0..len {
            self.pending |= (value >> bit & 1) << self.pending_len;
            self.pending_len += 1;
            if self.pending_len == 8 {
                self.bytes.push(self.pending as u8);
                self.pending = 0;
                self.pending_len = 0;
            }
        }
    }

    /// A Huffman code of `len` bits, most significant first.
    fn put_huffman(&mut self, code: u32, len: u32) {
        let reversed = code.reverse_bits() >> (32 - len);
        self.put(reversed, len);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.pending_len > 0 {
            self.bytes.push(self.pending as u8);
        }
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a standard inflater (miniz_oxide's, as links are read) makes of `compressed` with
    /// `dictionary` in front of its output.
    fn inflate(dictionary: &[u8], compressed: &[u8]) -> Vec<u8> {
        super::super::dictionary::inflate(dictionary, compressed, 100_000).expect("inflates")
    }

    #[test]
    fn what_it_writes_inflates_back_with_and_without_a_dictionary() {
        let dictionary = br#"{"groups":{"0":{"members":3,"max_poll_records":500}}}"#;
        for data in [
            &b""[..],
            b"a",
            br#"{"groups":{"0":{"members":4,"max_poll_records":100}}}"#,
            b"\xff\x90\x00\x8f\x00\x01\x02",
        ] {
            assert_eq!(inflate(dictionary, &deflate(dictionary, data)), data);
            assert_eq!(inflate(&[], &deflate(&[], data)), data);
        }
    }

    #[test]
    fn long_runs_use_overlapping_and_longest_matches() {
        let run = vec![b'x'; 1000];
        let compressed = deflate(&[], &run);
        assert_eq!(inflate(&[], &compressed), run);
        // One literal, then matches of 258 at distance 1: a few bytes, not a thousand.
        assert!(compressed.len() < 12, "{}", compressed.len());
    }

    #[test]
    fn the_dictionary_pays_for_words_it_spells_out() {
        let dictionary = br#""max_poll_interval_ms":300000,"session_timeout_ms":45000"#;
        let data = br#"{"session_timeout_ms":10000,"max_poll_interval_ms":60000}"#;
        let primed = deflate(dictionary, data);
        let plain = deflate(&[], data);
        assert_eq!(inflate(dictionary, &primed), data);
        assert!(
            primed.len() + 20 < plain.len(),
            "{} vs {}",
            primed.len(),
            plain.len()
        );
    }

    #[test]
    fn matches_reach_as_far_back_as_the_window_and_no_further() {
        // A pseudo-random block, 31 KiB of other bytes, then the block again.
        let mut state = 7u32;
        let mut noise = |len: usize| -> Vec<u8> {
            (0..len)
                .map(|_| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (state >> 16) as u8
                })
                .collect()
        };
        let block = noise(300);
        let near = [block.clone(), noise(31 * 1024), block.clone()].concat();
        let far = [block.clone(), noise(33 * 1024), block.clone()].concat();
        let (near_bytes, far_bytes) = (deflate(&[], &near), deflate(&[], &far));
        assert_eq!(inflate(&[], &near_bytes), near);
        assert_eq!(inflate(&[], &far_bytes), far);
        // The near repeat costs a few bytes; the far one is spelled out again.
        let noise_cost = |bytes: &Vec<u8>, total: usize| bytes.len() as i64 - total as i64;
        assert!(noise_cost(&far_bytes, far.len()) > noise_cost(&near_bytes, near.len()) + 250);
    }

    #[test]
    fn a_repeat_at_the_very_end_or_exactly_a_window_back_is_still_a_match() {
        // Three literals cost 24 bits or more, a match of three about 13.
        assert!(deflate(&[], b"abcdefabc").len() < deflate(&[], b"abcdefxyz").len());
        let block = b"a block that comes back exactly 32 KiB later".to_vec();
        let filler: Vec<u8> = (0..WINDOW - block.len()).map(|i| (i % 251) as u8).collect();
        let twice = [block.clone(), filler.clone(), block.clone()].concat();
        let once = [
            block.clone(),
            filler,
            b"an unrelated tail, as long as the block!!".to_vec(),
        ]
        .concat();
        assert_eq!(inflate(&[], &deflate(&[], &twice)), twice);
        assert!(deflate(&[], &twice).len() + 20 < deflate(&[], &once).len());
    }

    #[test]
    fn candidates_are_chained_by_all_three_bytes() {
        // A key blind to one byte would chain every group that differs only there, and the
        // search, which tries a bounded number, would stop before reaching far repeats.
        for byte in 0..MIN_MATCH {
            let keys: std::collections::BTreeSet<usize> = (0..=255u8)
                .map(|value| {
                    let mut group = *b"qzq";
                    group[byte] = value;
                    prefix_hash(&group)
                })
                .collect();
            assert!(keys.len() > 200, "byte {byte}: {} keys", keys.len());
        }
    }

    #[test]
    fn the_fixed_codes_and_symbols_follow_the_rfc() {
        assert_eq!(symbol_code(0), (0x30, 8));
        assert_eq!(symbol_code(143), (0xbf, 8));
        assert_eq!(symbol_code(144), (0x190, 9));
        assert_eq!(symbol_code(255), (0x1ff, 9));
        assert_eq!(symbol_code(256), (0, 7));
        assert_eq!(symbol_code(279), (0x17, 7));
        assert_eq!(symbol_code(280), (0xc0, 8));
        assert_eq!(symbol_code(285), (0xc5, 8));
        assert_eq!(length_symbol(3), (0, 0));
        assert_eq!(length_symbol(10), (7, 0));
        assert_eq!(length_symbol(11), (8, 1));
        assert_eq!(length_symbol(257), (27, 5));
        assert_eq!(length_symbol(258), (28, 0));
        assert_eq!(distance_symbol(1), (0, 0));
        assert_eq!(distance_symbol(4), (3, 0));
        assert_eq!(distance_symbol(5), (4, 1));
        assert_eq!(distance_symbol(32768), (29, 13));
    }

    #[test]
    fn every_length_and_distance_is_priced_as_the_tables_write_it() {
        for length in MIN_MATCH..=MAX_MATCH {
            let (index, extra) = length_symbol(length);
            let table_bits = symbol_code(257 + index as u16).1 + u32::from(extra);
            assert_eq!(length_bits(length), table_bits, "length {length}");
        }
        for distance in 1..=WINDOW {
            let table_bits = 5 + u32::from(distance_symbol(distance).1);
            assert_eq!(distance_bits(distance), table_bits, "distance {distance}");
        }
    }

    proptest! {
        #[test]
        fn any_bytes_inflate_back(
            dictionary in proptest::collection::vec(0u8..4, 0..300),
            data in proptest::collection::vec(0u8..4, 0..600),
        ) {
            // Four byte values: repeats everywhere, at every distance and length.
            prop_assert_eq!(inflate(&dictionary, &deflate(&dictionary, &data)), data);
        }

        #[test]
        fn any_text_inflates_back(data in "\\PC{0,400}") {
            prop_assert_eq!(inflate(&[], &deflate(&[], data.as_bytes())), data.as_bytes());
        }
    }
}
