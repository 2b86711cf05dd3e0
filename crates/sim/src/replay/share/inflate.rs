//! A small DEFLATE decoder for share links: raw DEFLATE (RFC 1951), stored, fixed and dynamic
//! Huffman blocks, with an optional dictionary in front of the output that distances may
//! reach into (`dictionary.rs`).
//!
//! Links of format 1 were written by miniz_oxide's compressor (dynamic Huffman blocks) and
//! later ones by [`super::fixed_deflate`]; this reads both. It decodes Huffman codes a bit at
//! a time from the count of codes of each length, the canonical way, which is slow per bit but
//! small, and a link is a few hundred bytes. It replaced a general inflater that every
//! lesson's download carried. Any input, damaged or crafted, gives `None` rather than a panic,
//! and the output stops at a limit.

use super::fixed_deflate::{DISTANCES, LENGTHS};

/// Longest Huffman code DEFLATE allows.
const MAX_BITS: usize = 15;
/// Literal/length and distance symbols a dynamic block may declare.
const MAX_LITERAL_CODES: usize = 286;
const MAX_DISTANCE_CODES: usize = 30;
/// The order in which a dynamic block lists its code-length code's lengths.
const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];
const END_OF_BLOCK: u16 = 256;

/// Inflates raw DEFLATE `compressed` as if `dictionary` had been output just before it;
/// returns what follows the dictionary, or `None` if the data is damaged, ends early, or would
/// inflate past `limit` bytes.
pub fn inflate(dictionary: &[u8], compressed: &[u8], limit: usize) -> Option<Vec<u8>> {
    let mut out = Output {
        bytes: dictionary.to_vec(),
        end: dictionary.len().checked_add(limit)?,
    };
    let mut bits = Bits::new(compressed);
    loop {
        let last = bits.take(1)? == 1;
        match bits.take(2)? {
            0 => stored(&mut bits, &mut out)?,
            1 => {
                let (literals, distances) = fixed_codes();
                codes(&mut bits, &mut out, &literals, &distances)?
            }
            2 => {
                let (literals, distances) = dynamic_codes(&mut bits)?;
                codes(&mut bits, &mut out, &literals, &distances)?
            }
            _ => return None,
        }
        if last {
            out.bytes.drain(..dictionary.len());
            return Some(out.bytes);
        }
    }
}

/// The bytes inflated so far, the dictionary first, and where they must stop.
struct Output {
    bytes: Vec<u8>,
    end: usize,
}

impl Output {
    fn push(&mut self, byte: u8) -> Option<()> {
        (self.bytes.len() < self.end).then(|| self.bytes.push(byte))
    }

    /// Copies `length` bytes from `distance` back, which may overlap what it writes.
    fn repeat(&mut self, distance: usize, length: usize) -> Option<()> {
        let from = self.bytes.len().checked_sub(distance)?;
        if self.bytes.len() + length > self.end {
            return None;
        }
        for i in 0..length {
            self.bytes.push(self.bytes[from + i]);
        }
        Some(())
    }
}

/// Reads the stream's bits least significant first, as DEFLATE packs them.
struct Bits<'a> {
    data: &'a [u8],
    next_byte: usize,
    held: u32,
    held_count: u32,
}

impl<'a> Bits<'a> {
    fn new(data: &'a [u8]) -> Self {
        Self {
            data,
            next_byte: 0,
            held: 0,
            held_count: 0,
        }
    }

    /// The next `count` bits (at most 16) as a number, the first bit lowest.
    fn take(&mut self, count: u32) -> Option<u32> {
        while self.held_count < count {
            let byte = *self.data.get(self.next_byte)?;
            self.next_byte += 1;
            self.held |= u32::from(byte) << self.held_count;
            self.held_count += 8;
        }
        let value = self.held & ((1 << count) - 1);
        self.held >>= count;
        self.held_count -= count;
        Some(value)
    }

    /// Drops the bits left in the current byte: a stored block starts on a byte boundary.
    fn align_to_byte(&mut self) {
        self.held = 0;
        self.held_count = 0;
    }

    fn byte(&mut self) -> Option<u8> {
        let byte = *self.data.get(self.next_byte)?;
        self.next_byte += 1;
        Some(byte)
    }
}

/// A stored block: its length, the length's complement, then the bytes as they are.
fn stored(bits: &mut Bits, out: &mut Output) -> Option<()> {
    bits.align_to_byte();
    let mut word = || Some(u16::from(bits.byte()?) | u16::from(bits.byte()?) << 8);
    let length = word()?;
    if word()? != !length {
        return None;
    }
    for _ in 0..length {
        out.push(bits.byte()?)?;
    }
    Some(())
}

/// A canonical Huffman code: how many codes have each length, and the symbols in code order.
struct Huffman {
    count_of_length: [u16; MAX_BITS + 1],
    symbols: Vec<u16>,
}

impl Huffman {
    /// The code whose symbol `s` has `lengths[s]` bits (0: unused); `None` if the lengths
    /// ask for more codes than the bits can hold, or leave bit patterns unused while naming
    /// more than one symbol (as zlib and miniz refuse them). A single symbol's one-bit code
    /// may leave the other bit unused: reading that fails in [`Huffman::decode`].
    fn new(lengths: &[u8]) -> Option<Self> {
        let mut count_of_length = [0u16; MAX_BITS + 1];
        for &length in lengths {
            count_of_length[usize::from(length)] += 1;
        }
        let mut unused_codes: i32 = 1;
        for &count in &count_of_length[1..] {
            unused_codes = unused_codes * 2 - i32::from(count);
            if unused_codes < 0 {
                return None;
            }
        }
        let used = lengths.iter().filter(|&&length| length > 0).count();
        if unused_codes > 0 && used > 1 {
            return None;
        }
        let mut symbols = Vec::with_capacity(lengths.len());
        for length in 1..=MAX_BITS as u8 {
            for (symbol, _) in lengths.iter().enumerate().filter(|(_, &l)| l == length) {
                symbols.push(symbol as u16);
            }
        }
        Some(Self {
            count_of_length,
            symbols,
        })
    }

    /// Reads one symbol, a bit at a time: codes of each length are consecutive numbers, so a
    /// code is this length's if it is below the first code of the next.
    fn decode(&self, bits: &mut Bits) -> Option<u16> {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for &count in &self.count_of_length[1..] {
            code |= bits.take(1)? as i32;
            let count = i32::from(count);
            if code - first < count {
                return self.symbols.get((index + code - first) as usize).copied();
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        None
    }
}

/// The fixed codes of RFC 1951 section 3.2.6.
fn fixed_codes() -> (Huffman, Huffman) {
    let mut lengths = [8u8; 288];
    lengths[144..256].fill(9);
    lengths[256..280].fill(7);
    let literals = Huffman::new(&lengths).expect("the fixed code is complete");
    // Symbols 30 and 31 complete the code but mean nothing: reading one fails.
    let distances = Huffman::new(&[5; 32]).expect("the fixed code is complete");
    (literals, distances)
}

/// A dynamic block's header: the code-length code, then the two codes' lengths through it.
fn dynamic_codes(bits: &mut Bits) -> Option<(Huffman, Huffman)> {
    let literal_count = bits.take(5)? as usize + 257;
    let distance_count = bits.take(5)? as usize + 1;
    let code_length_count = bits.take(4)? as usize + 4;
    if literal_count > MAX_LITERAL_CODES || distance_count > MAX_DISTANCE_CODES {
        return None;
    }
    let mut code_length_lengths = [0u8; 19];
    for &symbol in &CODE_LENGTH_ORDER[..code_length_count] {
        code_length_lengths[symbol] = bits.take(3)? as u8;
    }
    let code_lengths = Huffman::new(&code_length_lengths)?;
    let mut lengths = Vec::with_capacity(literal_count + distance_count);
    while lengths.len() < literal_count + distance_count {
        let (length, times) = match code_lengths.decode(bits)? {
            symbol @ 0..=15 => (symbol as u8, 1),
            16 => (*lengths.last()?, 3 + bits.take(2)?),
            17 => (0, 3 + bits.take(3)?),
            _ => (0, 11 + bits.take(7)?),
        };
        lengths.extend(std::iter::repeat_n(length, times as usize));
    }
    if lengths.len() > literal_count + distance_count || lengths[usize::from(END_OF_BLOCK)] == 0 {
        return None;
    }
    let literals = Huffman::new(&lengths[..literal_count])?;
    let distances = Huffman::new(&lengths[literal_count..])?;
    Some((literals, distances))
}

/// A Huffman-coded block's literals and matches, up to its end-of-block symbol.
fn codes(bits: &mut Bits, out: &mut Output, literals: &Huffman, distances: &Huffman) -> Option<()> {
    loop {
        let symbol = literals.decode(bits)?;
        match symbol {
            0..=255 => out.push(symbol as u8)?,
            END_OF_BLOCK => return Some(()),
            _ => {
                let length = extended(bits, LENGTHS.get(usize::from(symbol) - 257)?)?;
                let distance_symbol = usize::from(distances.decode(bits)?);
                let distance = extended(bits, DISTANCES.get(distance_symbol)?)?;
                out.repeat(distance, length)?;
            }
        }
    }
}

/// A length or distance: its symbol's first value plus the extra bits that follow it.
fn extended(bits: &mut Bits, &(first, extra_bits): &(u16, u8)) -> Option<usize> {
    Some(usize::from(first) + bits.take(u32::from(extra_bits))? as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use miniz_oxide::deflate::compress_to_vec;
    use proptest::prelude::*;

    fn miniz_inflate(compressed: &[u8], limit: usize) -> Option<Vec<u8>> {
        miniz_oxide::inflate::decompress_to_vec_with_limit(compressed, limit).ok()
    }

    /// Text with repeats near and far, as links and scenarios have.
    fn sample(seed: u64, len: usize) -> Vec<u8> {
        let mut rng = crate::replay::rng::SimRng::for_stream(seed, 3);
        let words: [&[u8]; 6] = [
            b"\"members\":",
            b"3,",
            b"{\"group\":",
            b"}",
            b"0.25",
            b"xyz",
        ];
        let mut out = Vec::new();
        while out.len() < len {
            match rng.below(4) {
                0 => out.push(rng.below(256) as u8),
                _ => out.extend_from_slice(words[rng.below(6) as usize]),
            }
        }
        out
    }

    #[test]
    fn every_block_type_miniz_writes_inflates_to_the_same_bytes() {
        // Level 0 writes stored blocks, 1 and 9 fixed or dynamic ones by what is cheaper; the
        // longest input spans several blocks.
        for (seed, len) in [(1, 0), (2, 10), (3, 300), (4, 5_000), (5, 70_000)] {
            let data = sample(seed, len);
            for level in [0, 1, 6, 9] {
                let compressed = compress_to_vec(&data, level);
                assert_eq!(
                    inflate(&[], &compressed, 100_000),
                    Some(data.clone()),
                    "{seed} {level}"
                );
            }
        }
    }

    #[test]
    fn a_distance_may_reach_into_the_dictionary_but_not_before_it() {
        let dictionary = b"0123456789";
        // The literal 'a', then "56789" as a match six bytes back, inside the dictionary.
        let data = b"a56789";
        let compressed = super::super::fixed_deflate::deflate(dictionary, data);
        assert_eq!(
            inflate(dictionary, &compressed, 100).as_deref(),
            Some(&data[..])
        );
        // The same bytes with a shorter dictionary reach before the start of the output.
        assert_eq!(inflate(&dictionary[..2], &compressed, 100), None);
    }

    #[test]
    fn output_stops_at_the_limit_exactly() {
        let data = vec![b'a'; 1000];
        let compressed = compress_to_vec(&data, 9);
        assert_eq!(inflate(&[], &compressed, 1000), Some(data));
        assert_eq!(inflate(&[], &compressed, 999), None);
        let stored = compress_to_vec(b"abc", 0);
        assert_eq!(inflate(&[], &stored, 3).as_deref(), Some(&b"abc"[..]));
        assert_eq!(inflate(&[], &stored, 2), None);
    }

    #[test]
    fn damaged_streams_are_refused() {
        let compressed = compress_to_vec(&sample(9, 2_000), 9);
        // Cut short anywhere, the stream has no final end of block.
        for cut in [0, 1, compressed.len() / 2, compressed.len() - 1] {
            assert_eq!(
                inflate(&[], &compressed[..cut], 100_000),
                None,
                "cut at {cut}"
            );
        }
        // Block type 3 does not exist.
        assert_eq!(inflate(&[], &[0b111], 10), None);
        // A stored block whose length's complement is wrong.
        assert_eq!(
            inflate(&[], &[1, 3, 0, 0xfc, 0xfe, b'a', b'b', b'c'], 10),
            None
        );
        assert_eq!(
            inflate(&[], &[1, 3, 0, 0xfc, 0xff, b'a', b'b', b'c'], 10).as_deref(),
            Some(&b"abc"[..])
        );
    }

    /// A dynamic block holding the literal `A`, whose header declares `literal_count` codes
    /// (257 to 288) of which only the first 257 are used. The unused lengths after them (and
    /// the one distance code's) are written one by one, or as one run of `zero_run` zeros
    /// (code 18), which may run past the declared count.
    fn dynamic_block(literal_count: usize, zero_run: Option<u32>) -> Vec<u8> {
        let mut bits = Vec::new();
        let mut put = |value: u32, count: u32| bits.extend((0..count).map(|i| (value >> i) & 1));
        put(1, 1); // the final block
        put(2, 2); // dynamic codes
        put(literal_count as u32 - 257, 5);
        put(0, 5); // one distance code, unused
        put(7 - 4, 4); // code-length code lengths for 16, 17, 18, 0, 8, 7, 9
        for length in [0, 0, 3, 2, 1, 0, 3] {
            put(length, 3);
        }
        // The code-length code, first bit first: 8 is `0`, 0 is `10`, 9 is `110`, 18 `111`.
        let mut code =
            |value: u32, length: u32| (0..length).rev().for_each(|i| put((value >> i) & 1, 1));
        // Literals 0-254 take 8 bits, 255 and the end of block 9.
        (0..255).for_each(|_| code(0b0, 1));
        (0..2).for_each(|_| code(0b110, 3));
        match zero_run {
            None => (257..=literal_count).for_each(|_| code(0b10, 2)),
            Some(run) => {
                code(0b111, 3);
                (0..7).for_each(|i| code(((run - 11) >> i) & 1, 1));
            }
        }
        // `A` (65) is the 8-bit code 65; the end of block is 511 in 9 bits.
        code(65, 8);
        code(511, 9);
        bits.chunks(8)
            .map(|byte| {
                byte.iter()
                    .enumerate()
                    .map(|(i, &bit)| (bit << i) as u8)
                    .sum()
            })
            .collect()
    }

    #[test]
    fn a_dynamic_block_may_declare_286_literal_codes_but_not_more() {
        let a = Some(&b"A"[..]);
        assert_eq!(inflate(&[], &dynamic_block(286, None), 10).as_deref(), a);
        assert_eq!(inflate(&[], &dynamic_block(257, None), 10).as_deref(), a);
        assert_eq!(inflate(&[], &dynamic_block(287, None), 10), None);
        assert_eq!(inflate(&[], &dynamic_block(288, None), 10), None);
    }

    #[test]
    fn a_run_of_lengths_may_end_on_the_declared_count_but_not_run_past_it() {
        // 267 literal codes and one distance code leave eleven lengths after the first 257.
        let a = Some(&b"A"[..]);
        assert_eq!(
            inflate(&[], &dynamic_block(267, Some(11)), 10).as_deref(),
            a
        );
        assert_eq!(inflate(&[], &dynamic_block(266, Some(11)), 10), None);
        assert_eq!(inflate(&[], &dynamic_block(257, Some(138)), 10), None);
    }

    #[test]
    fn lengths_that_ask_for_too_many_or_too_few_codes_are_refused() {
        assert!(Huffman::new(&[1, 1, 1]).is_none());
        assert!(Huffman::new(&[1, 1]).is_some());
        assert!(Huffman::new(&[1, 2]).is_none());
        assert!(Huffman::new(&[1, 2, 2]).is_some());
        // Incomplete: one code of one bit; the other pattern decodes to nothing.
        let one = Huffman::new(&[0, 1]).unwrap();
        assert_eq!(one.decode(&mut Bits::new(&[0b0])), Some(1));
        assert_eq!(one.decode(&mut Bits::new(&[0b1])), None);
    }

    proptest! {
        #[test]
        fn any_bytes_compressed_by_miniz_inflate_back(
            data in proptest::collection::vec(any::<u8>(), 0..3000),
            level in 0u8..=10,
        ) {
            let compressed = compress_to_vec(&data, level);
            prop_assert_eq!(inflate(&[], &compressed, 4000), Some(data));
        }

        #[test]
        fn any_garbage_is_refused_or_read_as_miniz_reads_it(
            garbage in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            if let Some(ours) = inflate(&[], &garbage, 10_000) {
                prop_assert_eq!(Some(ours), miniz_inflate(&garbage, 10_000));
            }
        }
    }
}
