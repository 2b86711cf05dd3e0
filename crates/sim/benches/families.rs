//! What a fresh knob change costs the newer lesson families before anything is drawn: their
//! lesson's default run, built anew and played through a timeline (checkpoints included) to
//! ten simulated minutes, which is where the browser benchmark turns the knob. The queues
//! lesson's producer stops at one minute and its readers finish the backlog after that; the
//! replication lesson's runs for its whole length.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::family::Simulation;
use streamlab_sim::queues::{share_group_scales_past_partitions, QueuesWorld};
use streamlab_sim::replication::{lesson_default, ReplicationWorld};

const TEN_MINUTES_MS: u64 = 600_000;

fn played<W: Simulation>(world: W) -> u64 {
    let mut timeline = Timeline::new(world);
    timeline.seek(TEN_MINUTES_MS);
    timeline.world().trace_hash().finish()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("lesson_default_10min");
    group.sample_size(20);
    let queues = share_group_scales_past_partitions();
    group.bench_function("queues", |b| {
        b.iter(|| black_box(played(QueuesWorld::new(queues.clone()).unwrap())))
    });
    let replication = lesson_default();
    group.bench_function("replication", |b| {
        b.iter(|| black_box(played(ReplicationWorld::new(replication.clone()).unwrap())))
    });
    group.finish();
}

criterion_group!(families, benches);
criterion_main!(families);
