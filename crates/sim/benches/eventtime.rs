//! Cost of one event-time run as the browser pays it on every knob change: generating the
//! records, computing the ground truth, replaying to the end of the input, and taking a
//! snapshot. The presets are the lessons' own workloads; the last case is the largest run a
//! scenario may describe.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use streamlab_sim::eventtime::{preset, EventTimeScenario, EventTimeWorld, PRESETS};

fn run_to_end(scenario: &EventTimeScenario) -> usize {
    let mut world = EventTimeWorld::new(scenario.clone()).expect("valid scenario");
    world.run_to_end();
    world.snapshot().windows.len()
}

fn presets(c: &mut Criterion) {
    let mut group = c.benchmark_group("eventtime_preset");
    for name in PRESETS.iter().map(|p| p.slug) {
        let scenario = preset(name).expect("named preset");
        group.bench_function(name, |b| b.iter(|| black_box(run_to_end(&scenario))));
    }
    group.finish();
}

fn largest_run(c: &mut Criterion) {
    let mut scenario = preset("mobile-stragglers").expect("named preset");
    scenario.duration_ms = 200_000;
    scenario.events_per_second = 1_000;
    scenario.keys = 64;
    scenario.partitions = 16;
    let mut group = c.benchmark_group("eventtime_largest");
    group.sample_size(10);
    group.bench_function("200k_records", |b| {
        b.iter(|| black_box(run_to_end(&scenario)))
    });
    group.finish();
}

criterion_group!(benches, presets, largest_run);
criterion_main!(benches);
