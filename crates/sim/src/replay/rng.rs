//! The only source of randomness in the core: a seeded PCG generator and portable draws.
//!
//! Every subsystem gets its own stream derived from the scenario seed and a fixed label, so
//! adding a member to one group does not shift the random draws of another group or of the
//! producer: two runs that differ in one knob stay comparable draw for draw. Draws that need
//! floats go through bit-exact conversions and `libm`, never through platform `f64` intrinsics
//! that could round differently in a browser.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A deterministic random stream (PCG, 128-bit state), cheap to clone for checkpoints.
#[derive(Clone, Debug)]
pub struct SimRng(Pcg64Mcg);

/// Labels of the independent streams; fixed numbers so a renamed variable never changes a run.
pub mod stream {
    pub const PRODUCER: u64 = 1;
    /// Group `i` uses `GROUP_BASE + i`.
    pub const GROUP_BASE: u64 = 100;
    /// Group `i`'s random crashes use `CRASH_BASE + i`.
    pub const CRASH_BASE: u64 = 200;
}

impl SimRng {
    /// The stream `label` of the run seeded with `seed`.
    pub fn for_stream(seed: u64, label: u64) -> Self {
        let mixed = splitmix64(seed ^ splitmix64(label.wrapping_add(0x5EED)));
        Self(Pcg64Mcg::seed_from_u64(mixed))
    }

    /// Inlined by hand, like the draws below: the site builds the core for size, where these
    /// would each be a call, and the busiest runs draw several numbers per record.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, 1): the top 53 bits scaled exactly, identical on every platform.
    #[inline(always)]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform integer in [0, bound) by widening multiplication (bias below 2^-64 * bound).
    #[inline(always)]
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }
}

/// A well-mixed 64-bit hash used only to derive stream seeds.
/// A uniform draw in [0, 1) that depends only on `(seed, a, b)`: for per-record decisions
/// that must not consume a stream (whether a record is poison does not depend on who reads it
/// or when).
pub fn unit_hash(seed: u64, a: u64, b: u64) -> f64 {
    let mixed = splitmix64(seed ^ splitmix64(a ^ splitmix64(b.wrapping_add(0xD1E))));
    (mixed >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_label_give_the_same_stream() {
        let mut a = SimRng::for_stream(7, stream::PRODUCER);
        let mut b = SimRng::for_stream(7, stream::PRODUCER);
        let draws_a: Vec<u64> = (0..16).map(|_| a.next_u64()).collect();
        let draws_b: Vec<u64> = (0..16).map(|_| b.next_u64()).collect();
        assert_eq!(draws_a, draws_b);
    }

    #[test]
    fn different_labels_give_different_streams() {
        let mut a = SimRng::for_stream(7, stream::GROUP_BASE);
        let mut b = SimRng::for_stream(7, stream::GROUP_BASE + 1);
        assert_ne!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn unit_and_below_stay_in_range() {
        let mut rng = SimRng::for_stream(1, 2);
        for _ in 0..10_000 {
            let u = rng.unit_f64();
            assert!((0.0..1.0).contains(&u));
            assert!(rng.below(6) < 6);
        }
    }
}
