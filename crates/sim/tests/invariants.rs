//! Property sweep: the invariants hold after every step of many random scenarios.
//!
//! 1,000 random scenarios by default (CI runs this); PROPTEST_CASES overrides the count for a
//! longer sweep.

use proptest::prelude::*;
use streamlab_sim::assignor::Strategy as Assignor;
use streamlab_sim::invariants::InvariantChecker;
use streamlab_sim::scenario::{Distribution, GroupConfig, Scenario};
use streamlab_sim::World;

fn group_strategy() -> impl Strategy<Value = GroupConfig> {
    (
        0u32..=12,
        prop::sample::select(vec![Assignor::Range, Assignor::RoundRobin]),
        1u32..=600,
        any::<bool>(),
        1u32..=4_000,
        0u32..=800,
        0u32..=30,
        prop::sample::select(vec![
            Distribution::Constant,
            Distribution::Uniform,
            Distribution::Exponential,
        ]),
    )
        .prop_map(
            |(members, strategy, max_poll, auto, interval, wait, time, distribution)| {
                let mut group = GroupConfig::named("g");
                group.members = members;
                group.partition_assignment_strategy = strategy;
                group.max_poll_records = max_poll;
                group.enable_auto_commit = auto;
                group.auto_commit_interval_ms = interval;
                group.fetch_max_wait_ms = wait;
                group.processing.time_ms = time;
                group.processing.distribution = distribution;
                group
            },
        )
}

fn scenario_strategy() -> impl Strategy<Value = Scenario> {
    (
        any::<u64>(),
        1u32..=16,
        0u32..=2_000,
        0u32..=200,
        0.0f64..=3.0,
        0u32..=50,
        prop::collection::vec(group_strategy(), 1..=3),
    )
        .prop_map(|(seed, partitions, rate, keys, skew, linger, groups)| {
            let mut scenario = Scenario::default();
            scenario.seed = seed;
            scenario.topic.partitions = partitions;
            scenario.producer.rate_per_s = rate;
            scenario.producer.key_count = keys;
            scenario.producer.key_skew = skew;
            scenario.producer.linger_ms = linger;
            scenario.groups = groups
                .into_iter()
                .enumerate()
                .map(|(i, mut g)| {
                    g.group_id = format!("g{i}");
                    g
                })
                .collect();
            scenario
        })
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn invariants_hold_after_every_step(scenario in scenario_strategy(), step_ms in 1u64..400) {
        let mut world = World::new(&scenario).unwrap();
        let mut checker = InvariantChecker::default();
        let mut t = 0;
        while t < 3_000 {
            t += step_ms;
            world.advance_to(t);
            if let Err(violation) = checker.check(&world) {
                return Err(TestCaseError::fail(format!("at {t} ms: {violation}")));
            }
        }
    }
}
