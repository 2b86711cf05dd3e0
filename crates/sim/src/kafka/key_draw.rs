//! The producer's key draw: a uniform number in [0, 1) turned into a key index by the Zipf
//! law's cumulative probabilities.
//!
//! The draw is "the first key whose cumulative probability is above `u`". A binary search over
//! the whole table does a dependent load per step, which made it the largest part of sending a
//! record. A guide table remembers, for each of [`GUIDE_SLOTS`] equal slices of [0, 1), the
//! first key that can answer for a number in that slice, so the search only looks between two
//! neighbouring guides: usually a step or two. The answer is exactly the full search's (the
//! guides are exact bounds, and a slice is found by multiplying by a power of two, which
//! rounds nothing), so every run draws the same keys as before.

use std::sync::Arc;

/// Slices of [0, 1) with a guide each. A power of two, so `u * GUIDE_SLOTS` is exact.
const GUIDE_SLOTS: usize = 1024;

/// Cumulative probabilities and their guides, shared by every clone of the producer (each
/// timeline checkpoint clones it, and the tables never change after they are built).
#[derive(Clone, Debug)]
pub struct KeyDraw {
    /// Key `i` is drawn when `u < cdf[i]` and `u >= cdf[i - 1]`.
    cdf: Arc<[f64]>,
    /// `guides[j]`: the first index whose cumulative probability is above `j / GUIDE_SLOTS`;
    /// the last entry is the table's length. Empty when there are no keys.
    guides: Arc<[u32]>,
}

impl KeyDraw {
    /// The draw over `cdf`, a non-decreasing table of cumulative probabilities.
    pub fn new(cdf: Vec<f64>) -> Self {
        let guides: Arc<[u32]> = if cdf.is_empty() {
            Arc::new([])
        } else {
            (0..GUIDE_SLOTS)
                .map(|j| first_above(&cdf, slice_start(j)) as u32)
                .chain(std::iter::once(cdf.len() as u32))
                .collect()
        };
        Self {
            cdf: cdf.into(),
            guides,
        }
    }

    /// Whether there are no keys to draw (every record has a null key).
    pub fn is_empty(&self) -> bool {
        self.cdf.is_empty()
    }

    /// The key index for `u` in [0, 1): the first whose cumulative probability is above `u`,
    /// or the last key when rounding left the table's end a hair under `u`. The table must not
    /// be empty.
    pub fn key_for(&self, u: f64) -> u32 {
        debug_assert!((0.0..1.0).contains(&u), "{u} is outside [0, 1)");
        // Below GUIDE_SLOTS since u < 1, so `slice + 1` is the table's last guide at most.
        let slice = (u * GUIDE_SLOTS as f64) as usize;
        let (from, to) = (self.guides[slice] as usize, self.guides[slice + 1] as usize);
        let index = from + first_above(&self.cdf[from..to], u);
        index.min(self.cdf.len() - 1) as u32
    }
}

/// Where slice `j` of [0, 1) starts; exact, since the slice count is a power of two.
fn slice_start(j: usize) -> f64 {
    j as f64 / GUIDE_SLOTS as f64
}

/// The number of leading entries at or below `u`.
fn first_above(cdf: &[f64], u: f64) -> usize {
    cdf.partition_point(|&c| c <= u)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::producer::zipf_cdf;

    /// What the draw was before the guides: a binary search over the whole table.
    fn full_search(cdf: &[f64], u: f64) -> u32 {
        first_above(cdf, u).min(cdf.len() - 1) as u32
    }

    fn numbers_near_every_boundary(cdf: &[f64]) -> Vec<f64> {
        let mut numbers = vec![0.0, 1.0 - f64::EPSILON / 2.0];
        for &c in cdf {
            for u in [
                c,
                f64::from_bits(c.to_bits() - 1),
                f64::from_bits(c.to_bits() + 1),
            ] {
                if (0.0..1.0).contains(&u) {
                    numbers.push(u);
                }
            }
        }
        for j in 0..GUIDE_SLOTS {
            let start = slice_start(j);
            numbers.push(start);
            if j > 0 {
                numbers.push(f64::from_bits(start.to_bits() - 1));
            }
        }
        numbers
    }

    #[test]
    fn the_guided_draw_is_the_full_search_at_every_boundary() {
        for (keys, skew) in [
            (1, 0.0),
            (2, 1.0),
            (50, 0.0),
            (50, 2.0),
            (3_000, 1.2),
            (100_000, 0.9),
        ] {
            let cdf = zipf_cdf(keys, skew);
            let draw = KeyDraw::new(cdf.clone());
            for u in numbers_near_every_boundary(&cdf) {
                assert_eq!(
                    draw.key_for(u),
                    full_search(&cdf, u),
                    "{keys} keys, skew {skew}, u = {u}"
                );
            }
        }
    }

    #[test]
    fn the_guided_draw_is_the_full_search_for_a_run_of_random_numbers() {
        let mut rng =
            crate::replay::rng::SimRng::for_stream(7, crate::replay::rng::stream::PRODUCER);
        for (keys, skew) in [(50, 0.0), (1_000, 1.0), (20_000, 0.0)] {
            let cdf = zipf_cdf(keys, skew);
            let draw = KeyDraw::new(cdf.clone());
            for _ in 0..20_000 {
                let u = rng.unit_f64();
                assert_eq!(
                    draw.key_for(u),
                    full_search(&cdf, u),
                    "{keys} keys, u = {u}"
                );
            }
        }
    }

    #[test]
    fn a_table_ending_under_one_gives_the_last_key_above_its_end() {
        let draw = KeyDraw::new(vec![0.25, 0.5, 0.999]);
        assert_eq!(draw.key_for(0.9995), 2);
        assert_eq!(draw.key_for(0.0), 0);
        assert_eq!(draw.key_for(0.25), 1);
        assert_eq!(draw.key_for(0.7), 2);
    }

    #[test]
    fn no_keys_means_an_empty_draw() {
        assert!(KeyDraw::new(Vec::new()).is_empty());
        assert!(!KeyDraw::new(vec![1.0]).is_empty());
    }
}
