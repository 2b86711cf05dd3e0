//! The family's random draws, all from the scenario's seed.
//!
//! Arrival times come from one seeded stream per comparison (a Poisson process: exponential
//! gaps, so two writes of one key sometimes arrive close together, which is where races
//! live). Everything decided per message (how long a hop takes, whether a write to the derived
//! store fails) is a hash of (seed, what, message, attempt), not a stream: every lane that
//! sends the same message pays the same price, so the four ways of syncing compare on equal
//! terms and a knob of one lane cannot shift another's draws.

use crate::replay::rng::{unit_hash, SimRng};

/// Random streams, one per thing drawn in sequence.
pub mod stream {
    pub const ARRIVALS: u64 = 1;
    pub const KEYS: u64 = 2;
    pub const ACCOUNTS: u64 = 3;
    pub const CONNECTOR_PHASE: u64 = 4;
}

/// Salts that keep the per-message hashes apart.
pub mod salt {
    pub const DB_REQUEST: u64 = 0xD1;
    pub const DB_ACK: u64 = 0xD2;
    pub const INDEX_REQUEST: u64 = 0x11;
    pub const INDEX_RESPONSE: u64 = 0x12;
    pub const INDEX_FAILURE: u64 = 0xFA;
}

/// Arrival instants of a Poisson process at `per_second` over `[0, duration_ms)`, in whole ms
/// (several may share one). `libm::log` keeps the draw the same natively and in WebAssembly.
pub fn poisson_arrivals(seed: u64, per_second: u32, duration_ms: u64) -> Vec<u64> {
    let mut rng = SimRng::for_stream(seed, stream::ARRIVALS);
    let mean_gap_ms = 1000.0 / f64::from(per_second.max(1));
    let mut at = 0.0_f64;
    let mut out = Vec::new();
    loop {
        // 1 - u is in (0, 1], so the logarithm is finite.
        at += -libm::log(1.0 - rng.unit_f64()) * mean_gap_ms;
        if at >= duration_ms as f64 {
            return out;
        }
        out.push(at as u64);
    }
}

/// A hop's length: `base_ms` plus up to `jitter_ms`, uniformly, decided by (seed, `salt`,
/// `message`, `attempt`).
pub fn hop_ms(
    seed: u64,
    salt: u64,
    message: u64,
    attempt: u32,
    base_ms: u64,
    jitter_ms: u64,
) -> u64 {
    let draw = unit_hash(
        seed,
        salt.wrapping_mul(0x9E37_79B9) ^ message,
        u64::from(attempt),
    );
    base_ms + (draw * (jitter_ms + 1) as f64) as u64
}

/// Whether attempt `attempt` (1 = the first) to write message `message` to the derived store
/// fails, at `rate`.
pub fn index_write_fails(seed: u64, message: u64, attempt: u32, rate: f64) -> bool {
    rate > 0.0
        && unit_hash(
            seed,
            salt::INDEX_FAILURE.wrapping_mul(0x9E37_79B9) ^ message,
            u64::from(attempt),
        ) < rate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_are_sorted_within_the_run_and_about_the_rate() {
        let arrivals = poisson_arrivals(7, 50, 60_000);
        assert!(arrivals.windows(2).all(|w| w[0] <= w[1]));
        assert!(arrivals.iter().all(|&t| t < 60_000));
        // 3,000 expected; a Poisson count's spread is about 55.
        assert!(
            (2_700..3_300).contains(&arrivals.len()),
            "{}",
            arrivals.len()
        );
        assert_eq!(arrivals, poisson_arrivals(7, 50, 60_000));
        assert_ne!(arrivals, poisson_arrivals(8, 50, 60_000));
    }

    #[test]
    fn hops_stay_within_their_bounds_and_failures_follow_the_rate() {
        for m in 0..1_000 {
            let hop = hop_ms(3, salt::DB_REQUEST, m, 1, 5, 20);
            assert!((5..=25).contains(&hop), "{hop}");
        }
        let fails = (0..10_000)
            .filter(|&m| index_write_fails(3, m, 1, 0.1))
            .count();
        assert!((800..1_200).contains(&fails), "{fails}");
        assert!(!(0..1_000).any(|m| index_write_fails(3, m, 1, 0.0)));
    }
}
