//! Throughput of the window operator alone (no parsing, no printing): one million events over
//! ten thousand keys, arriving roughly in time order with bounded disorder, the shape of the
//! CLI's reference workload.

use std::borrow::Borrow;
use std::hash::Hash;

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use streamlab_sim::window::{LatePolicy, Output, WindowConfig, WindowOperator, WindowSpec};

const EVENTS: usize = 1_000_000;
const KEYS: u64 = 10_000;
const MAX_OUT_OF_ORDERNESS_MS: i64 = 5_000;

/// A tiny fixed-seed generator (SplitMix64) so the workload is identical on every run.
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

/// Key indexes and event times: one event per millisecond on average, each up to 4 s behind
/// the clock (within the out-of-orderness, so almost nothing is late), with some 1 % arriving
/// up to 20 s behind to exercise late panes and drops.
fn workload() -> Vec<(usize, i64)> {
    let mut random = SplitMix64(0x5eed);
    (0..EVENTS)
        .map(|index| {
            let clock_ms = index as i64;
            let delay_ms = if random.below(100) == 0 {
                random.below(20_000) as i64
            } else {
                random.below(4_000) as i64
            };
            (random.below(KEYS) as usize, (clock_ms - delay_ms).max(0))
        })
        .collect()
}

fn config(window: WindowSpec) -> WindowConfig {
    WindowConfig {
        window,
        max_out_of_orderness_ms: MAX_OUT_OF_ORDERNESS_MS,
        allowed_lateness_ms: 10_000,
        late: LatePolicy::Drop,
    }
}

/// Pushes every event and finishes; returns the pane count so nothing is optimized away.
///
/// Events name their key by index into `keys`, so key bytes come from a small, warm table,
/// the way the CLI reads them from its line buffer.
fn run<K, Q>(config: WindowConfig, keys: &[K], events: &[(usize, i64)]) -> u64
where
    K: Clone + Ord + Hash + Borrow<Q>,
    Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
{
    let mut operator = WindowOperator::<K>::new(config).expect("valid config");
    let mut out: Vec<Output<K>> = Vec::with_capacity(1024);
    for &(key, time_ms) in events {
        operator
            .push(keys[key].borrow(), time_ms, &mut out)
            .expect("valid event");
        // A real consumer prints and forgets; keep the buffer from growing without bound.
        if out.len() >= 1024 {
            out.clear();
        }
    }
    operator.finish(&mut out);
    operator.summary().panes
}

fn bench_windows(c: &mut Criterion) {
    let events = workload();
    let numeric_keys: Vec<u64> = (0..KEYS).collect();
    let string_keys: Vec<String> = (0..KEYS).map(|k| format!("user-{k:05}")).collect();
    let cases = [
        ("tumbling_60s", WindowSpec::Tumbling { size_ms: 60_000 }),
        (
            "hopping_60s_every_20s",
            WindowSpec::Hopping {
                size_ms: 60_000,
                hop_ms: 20_000,
            },
        ),
        ("session_gap_30s", WindowSpec::Session { gap_ms: 30_000 }),
        (
            "sliding_60s",
            WindowSpec::Sliding {
                time_difference_ms: 60_000,
            },
        ),
    ];

    let mut group = c.benchmark_group("window_operator_1m_events_10k_keys");
    group.throughput(Throughput::Elements(EVENTS as u64));
    group.sample_size(20);
    for (name, window) in cases {
        group.bench_function(format!("{name}/u64_keys"), |b| {
            b.iter_batched(
                || config(window),
                |config| black_box(run::<u64, u64>(config, &numeric_keys, &events)),
                BatchSize::PerIteration,
            )
        });
        group.bench_function(format!("{name}/string_keys"), |b| {
            b.iter_batched(
                || config(window),
                |config| black_box(run::<String, str>(config, &string_keys, &events)),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_windows);
criterion_main!(benches);
