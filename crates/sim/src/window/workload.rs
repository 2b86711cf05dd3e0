//! The reference workload of the window benchmarks: one million events over ten thousand keys
//! in the shape of `streamlab window`'s reference input, generated the same way natively
//! (`cargo bench --bench window`) and in the browser (`window.__streamlab.benchWindow()`), so
//! the two figures measure the same work. A fixed-seed SplitMix64 makes it identical on every
//! run and platform.

use super::{LatePolicy, WindowConfig, WindowSpec};

/// Events in the reference workload.
pub const REFERENCE_EVENTS: usize = 1_000_000;
/// Distinct keys in the reference workload.
pub const REFERENCE_KEYS: u64 = 10_000;

/// The operator settings the benchmarks run `window` with: 5 s out-of-orderness, 10 s of
/// allowed lateness, late events dropped.
pub fn reference_config(window: WindowSpec) -> WindowConfig {
    WindowConfig {
        window,
        max_out_of_orderness_ms: 5_000,
        allowed_lateness_ms: 10_000,
        late: LatePolicy::Drop,
    }
}

/// A tiny fixed-seed generator (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

/// `(key index, event time)` pairs: one event per millisecond on average, each up to 4 s
/// behind the clock (within a 5 s out-of-orderness, so almost nothing is late), with about
/// 1 % arriving up to 20 s behind to exercise late panes and drops.
pub fn reference_events(count: usize, keys: u64) -> Vec<(usize, i64)> {
    let mut random = SplitMix64(0x5eed);
    (0..count)
        .map(|index| {
            let clock_ms = index as i64;
            let delay_ms = if random.below(100) == 0 {
                random.below(20_000) as i64
            } else {
                random.below(4_000) as i64
            };
            (random.below(keys) as usize, (clock_ms - delay_ms).max(0))
        })
        .collect()
}
