//! Simulation speed: records simulated per second of wall time.
//!
//! `default_lesson` runs the first lesson's default scenario for ten simulated minutes (the
//! figure BENCHMARKS.md reports as records/s); `busy_topic` drives 64 partitions at 50,000
//! records/s through three groups to show the per-record cost when ticks are full;
//! `knob_change_resimulate` rebuilds the default lesson and runs it to 60 s, which is what the
//! browser does when a knob changes; `storm_32_members_10min` runs the rebalance storm at its
//! largest (32 members, 64 partitions, ten simulated minutes); `delivery_lesson_10min` runs the
//! delivery lesson's default (a commit before every batch: an event per poll, the most events of
//! any Kafka lesson) for ten simulated minutes. Records are counted as produced records, the same
//! way the browser benchmark counts them.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use streamlab_sim::kafka::scenario::{GroupConfig, Scenario};
use streamlab_sim::kafka::World;

fn run(scenario: &Scenario, until_ms: u64) -> u64 {
    let mut world = World::new(scenario).unwrap();
    world.advance_to(until_ms);
    world.producer().sent()
}

fn busy_topic() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.topic.partitions = 64;
    scenario.producer.rate_per_s = 50_000;
    scenario.producer.key_count = 10_000;
    scenario.groups = ["search", "analytics", "recommender"]
        .iter()
        .map(|id| {
            let mut g = GroupConfig::named(id);
            g.members = 16;
            g.processing.time_ms = 0;
            g
        })
        .collect();
    scenario
}

fn benches(c: &mut Criterion) {
    let lesson = Scenario::default();
    let ten_minutes_ms = 600_000;
    let records = run(&lesson, ten_minutes_ms);
    let mut group = c.benchmark_group("simulate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(records));
    group.bench_function("default_lesson_10min", |b| {
        b.iter(|| run(&lesson, ten_minutes_ms))
    });

    let mut delivery = (streamlab_sim::kafka::presets::find("commit-before-loss")
        .expect("the delivery lesson's default is a preset")
        .build)();
    delivery.duration_ms = ten_minutes_ms;
    let delivery_records = run(&delivery, ten_minutes_ms);
    group.throughput(Throughput::Elements(delivery_records));
    group.bench_function("delivery_lesson_10min", |b| {
        b.iter(|| run(&delivery, ten_minutes_ms))
    });

    let busy = busy_topic();
    let busy_records = run(&busy, 10_000);
    group.throughput(Throughput::Elements(busy_records));
    group.bench_function("busy_topic_10s", |b| b.iter(|| run(&busy, 10_000)));
    group.finish();

    c.bench_function("knob_change_resimulate_60s", |b| {
        b.iter(|| run(&lesson, 60_000))
    });

    let storm = streamlab_sim::kafka::presets::storm_32_members();
    let mut storm_group = c.benchmark_group("rebalance");
    storm_group.sample_size(10);
    storm_group.bench_function("storm_32_members_10min", |b| {
        b.iter(|| run(&storm, storm.duration_ms))
    });
    storm_group.finish();
}

criterion_group!(simulate, benches);
criterion_main!(simulate);
