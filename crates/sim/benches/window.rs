//! Throughput of the window operator alone (no parsing, no printing): one million events over
//! ten thousand keys, arriving roughly in time order with bounded disorder, the shape of the
//! CLI's reference workload.

use std::borrow::Borrow;
use std::hash::Hash;

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use streamlab_sim::window::workload::{
    reference_config, reference_events, REFERENCE_EVENTS, REFERENCE_KEYS,
};
use streamlab_sim::window::{Output, WindowConfig, WindowOperator, WindowSpec};

const EVENTS: usize = REFERENCE_EVENTS;
const KEYS: u64 = REFERENCE_KEYS;

/// The workload the browser benchmark runs too.
fn workload() -> Vec<(usize, i64)> {
    reference_events(EVENTS, KEYS)
}

fn config(window: WindowSpec) -> WindowConfig {
    reference_config(window)
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
