//! Assignment speed: the simulation runs an assignor at every rebalance, so a rebalance storm
//! at its largest (32 members, 64 partitions) calls it hundreds of times per simulated minute.
//! Each strategy assigns that group once per iteration.

#[path = "../tests/support/simulation_sized_group.rs"]
mod simulation_sized_group;

use criterion::{criterion_group, criterion_main, Criterion};
use simulation_sized_group::simulation_sized_group;
use streamlab_sim::assignor::{assign, Strategy};

fn benches(c: &mut Criterion) {
    let group = simulation_sized_group();
    let mut bench_group = c.benchmark_group("assign_32_members_64_partitions");
    for strategy in Strategy::ALL {
        bench_group.bench_function(format!("{strategy:?}"), |b| {
            b.iter(|| assign(strategy, std::hint::black_box(&group)).unwrap())
        });
    }
    bench_group.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
