//! A count-min sketch and the heap of candidates that turns it into a top-K, for when the
//! items of a window do not fit in memory as exact counts.
//!
//! The sketch is `depth` rows of `width` counters; each row hashes an item to one counter
//! (`((a·x + b) mod p) mod width`, p = 2^61 − 1, a and b drawn from the seed: a pairwise
//! independent family). Adding an item increments its counter in every row; its estimate is
//! the smallest of its counters. Every other item that shares a counter only adds to it, so
//! an estimate is never below the truth; and with N items added, an estimate exceeds the
//! truth by more than `e / width · N` with probability at most `e^−depth` (Cormode and
//! Muthukrishnan's bound).
//!
//! The sketch answers "how many for this item?" but cannot list the items, so a heap of at
//! most `capacity` candidates is kept beside it: after each event its item's estimate is
//! read, and the item joins the heap if it is already there, if the heap has room, or if it
//! beats the weakest candidate (which leaves). At the window's end the heap, best first, is
//! the answer.

use crate::replay::rng::SimRng;
use crate::replay::sorted_map::{SortedMap, SortedSet};
use std::cmp::Reverse;

/// The Mersenne prime 2^61 − 1 of the hash family.
const PRIME: u64 = (1 << 61) - 1;

/// Bytes one counter takes (a 64-bit count).
pub const COUNTER_BYTES: u64 = 8;

/// A count-min sketch over `u64` items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountMinSketch {
    width: u32,
    depth: u32,
    /// Row after row, `width` counters each.
    counters: Vec<u64>,
    /// Each row's (a, b), with 1 <= a < p and 0 <= b < p.
    hashes: Vec<(u64, u64)>,
    /// Items added.
    total: u64,
}

impl CountMinSketch {
    /// An empty sketch whose hash functions are drawn from `rng` (so every window of one run
    /// can share them, as a real job's sketches would).
    pub fn new(width: u32, depth: u32, rng: &mut SimRng) -> Self {
        let width = width.max(1);
        let depth = depth.max(1);
        let hashes = (0..depth)
            .map(|_| (1 + rng.below(PRIME - 1), rng.below(PRIME)))
            .collect();
        Self::with_hashes(width, hashes)
    }

    /// An empty sketch with the same width and hashes as `self`.
    pub fn empty_like(&self) -> Self {
        Self::with_hashes(self.width, self.hashes.clone())
    }

    fn with_hashes(width: u32, hashes: Vec<(u64, u64)>) -> Self {
        Self {
            width,
            depth: hashes.len() as u32,
            counters: vec![0; width as usize * hashes.len()],
            hashes,
            total: 0,
        }
    }

    fn cell(&self, row: usize, item: u64) -> usize {
        let (a, b) = self.hashes[row];
        let x = u128::from(item % PRIME);
        let hashed = (u128::from(a) * x + u128::from(b)) % u128::from(PRIME);
        row * self.width as usize + (hashed % u128::from(self.width)) as usize
    }

    /// Counts one occurrence of `item`.
    pub fn add(&mut self, item: u64) {
        for row in 0..self.hashes.len() {
            let cell = self.cell(row, item);
            self.counters[cell] += 1;
        }
        self.total += 1;
    }

    /// The smallest of `item`'s counters: never below its true count.
    pub fn estimate(&self, item: u64) -> u64 {
        (0..self.hashes.len())
            .map(|row| self.counters[self.cell(row, item)])
            .min()
            .unwrap_or(0)
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Items added.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// `e / width · N`: the overcount an estimate stays within with probability
    /// [`confidence`](Self::confidence).
    pub fn error_bound(&self) -> f64 {
        error_bound(self.width, self.total)
    }

    /// `1 − e^−depth`.
    pub fn confidence(&self) -> f64 {
        confidence(self.depth)
    }

    /// The counters' bytes: `width · depth` 64-bit counts, whatever the number of items.
    pub fn state_bytes(&self) -> u64 {
        u64::from(self.width) * u64::from(self.depth) * COUNTER_BYTES
    }
}

/// `e / width · total`, the count-min bound on an estimate's overcount.
pub fn error_bound(width: u32, total: u64) -> f64 {
    std::f64::consts::E / f64::from(width.max(1)) * total as f64
}

/// `1 − e^−depth`, the probability an estimate stays within the bound.
pub fn confidence(depth: u32) -> f64 {
    1.0 - libm::exp(-f64::from(depth))
}

/// The sketch and its heap of candidates: an approximate top-K in fixed memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SketchTopK {
    pub sketch: CountMinSketch,
    capacity: usize,
    /// Candidates by (estimate, reversed item): the first is the weakest, the one to evict
    /// (lowest estimate; among equals the largest item, since ties rank by item ascending).
    heap: SortedSet<(u64, Reverse<u64>)>,
    /// Each candidate's estimate in the heap.
    members: SortedMap<u64, u64>,
}

impl SketchTopK {
    pub fn new(sketch: CountMinSketch, capacity: usize) -> Self {
        Self {
            sketch,
            capacity: capacity.max(1),
            heap: SortedSet::new(),
            members: SortedMap::new(),
        }
    }

    /// Counts `item` and updates the candidates.
    pub fn add(&mut self, item: u64) {
        self.sketch.add(item);
        let estimate = self.sketch.estimate(item);
        let entry = (estimate, Reverse(item));
        if let Some(old) = self.members.insert(item, estimate) {
            self.heap.remove(&(old, Reverse(item)));
            self.heap.insert(entry);
            return;
        }
        if self.heap.len() < self.capacity {
            self.heap.insert(entry);
            return;
        }
        let weakest = *self.heap.first().expect("a full heap has a first");
        if entry > weakest {
            self.heap.pop_first();
            self.members.remove(&weakest.1 .0);
            self.heap.insert(entry);
        } else {
            self.members.remove(&item);
        }
    }

    /// The candidates, best first (estimate descending, then item ascending).
    pub fn ranked(&self) -> Vec<(u64, u64)> {
        self.heap
            .iter()
            .rev()
            .map(|&(estimate, Reverse(item))| (item, estimate))
            .collect()
    }

    /// The sketch's counters plus the heap's entries (`entry_bytes` each).
    pub fn state_bytes(&self, entry_bytes: u64) -> u64 {
        self.sketch.state_bytes() + self.heap.len() as u64 * entry_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sketch(width: u32, depth: u32) -> CountMinSketch {
        CountMinSketch::new(width, depth, &mut SimRng::for_stream(7, 1))
    }

    #[test]
    fn estimates_are_never_below_the_truth() {
        let mut s = sketch(16, 3);
        let mut truth: std::collections::BTreeMap<u64, u64> = Default::default();
        for i in 0..2_000u64 {
            let item = (i * i) % 97;
            s.add(item);
            *truth.entry(item).or_default() += 1;
        }
        for (&item, &count) in &truth {
            assert!(s.estimate(item) >= count);
        }
        assert_eq!(s.total(), 2_000);
        assert_eq!(s.state_bytes(), 16 * 3 * 8);
    }

    #[test]
    fn a_wide_sketch_of_few_items_is_exact() {
        let mut s = sketch(4_096, 4);
        for item in [3, 3, 5, 9, 9, 9] {
            s.add(item);
        }
        assert_eq!((s.estimate(3), s.estimate(5), s.estimate(9)), (2, 1, 3));
        assert_eq!(s.estimate(11), 0);
    }

    #[test]
    fn the_bound_follows_width_and_depth() {
        assert!((error_bound(100, 1_000) - std::f64::consts::E * 10.0).abs() < 1e-9);
        assert!((confidence(5) - (1.0 - libm::exp(-5.0))).abs() < 1e-12);
    }

    #[test]
    fn the_heap_keeps_the_heaviest_candidates() {
        let mut top = SketchTopK::new(sketch(4_096, 4), 2);
        for item in [1, 2, 3, 3, 2, 3, 4, 4, 4, 4] {
            top.add(item);
        }
        assert_eq!(top.ranked(), vec![(4, 4), (3, 3)]);
        assert_eq!(top.state_bytes(16), 4_096 * 4 * 8 + 2 * 16);
    }
}
