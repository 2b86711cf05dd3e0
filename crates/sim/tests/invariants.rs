//! Property sweep: the invariants hold after every step of many random scenarios.
//!
//! 1,000 random scenarios by default (CI runs this); PROPTEST_CASES overrides the count for a
//! longer sweep.

use proptest::prelude::*;
use streamlab_sim::assignor::Strategy as Assignor;
use streamlab_sim::kafka::invariants::InvariantChecker;
use streamlab_sim::kafka::scenario::{
    AutoOffsetReset, Distribution, GroupConfig, ManualCommit, MemberAction, OffsetTarget, Scenario,
    ScheduledAction,
};
use streamlab_sim::kafka::sink::SinkMode;
use streamlab_sim::kafka::World;

fn group_strategy() -> impl Strategy<Value = GroupConfig> {
    (
        0u32..=12,
        prop::sample::select(Assignor::ALL.to_vec()),
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
        .prop_flat_map(|knobs| (Just(knobs), (200u32..=20_000, any::<bool>(), any::<bool>())))
        .prop_map(
            |(
                (members, strategy, max_poll, auto, interval, wait, time, distribution),
                (poll_ms, static_membership, on_revoke),
            )| {
                let mut group = GroupConfig::named("g");
                group.members = members;
                group.partition_assignment_strategy = strategy;
                group.max_poll_records = max_poll;
                group.enable_auto_commit = auto;
                group.auto_commit_interval_ms = interval;
                group.fetch_max_wait_ms = wait;
                group.processing.time_ms = time;
                group.processing.distribution = distribution;
                group.max_poll_interval_ms = poll_ms;
                group.static_membership = static_membership;
                group.commit_on_revoke = on_revoke;
                group
            },
        )
        .prop_flat_map(|group| (Just(group), delivery_knobs(), error_knobs()))
        .prop_map(
            |(mut group, (manual, sink, reset, start_ms, crash_ms), errors)| {
                let (nth, probability, transient, attempts, backoff_ms, dead_letters) = errors;
                group.errors.poison_every_nth = nth;
                group.errors.poison_probability = probability;
                group.errors.transient_failure_probability = transient;
                group.errors.max_attempts = attempts;
                group.errors.backoff_ms = backoff_ms;
                if dead_letters {
                    group.errors.dead_letter_topic = "t.DLT".into();
                }
                group.manual_commit = manual;
                group.sink = sink;
                group.auto_offset_reset = reset;
                group.start_ms = start_ms;
                group.crash_mean_interval_ms = crash_ms;
                group.crash_down_ms = 500;
                group
            },
        )
}

/// Poison records (every n-th, or by chance), attempts, back-off and a dead-letter topic.
fn error_knobs() -> impl Strategy<Value = (u64, f64, f64, u32, u64, bool)> {
    (
        prop_oneof![Just(0u64), 1u64..60],
        prop_oneof![Just(0.0f64), 0.0f64..0.05],
        prop_oneof![Just(0.0f64), 0.0f64..0.5],
        1u32..5,
        0u64..400,
        any::<bool>(),
    )
}

/// Commit placement, sink, `auto.offset.reset`, a late start and random crashes.
fn delivery_knobs() -> impl Strategy<Value = (ManualCommit, SinkMode, AutoOffsetReset, u64, u64)> {
    (
        prop::sample::select(vec![
            ManualCommit::None,
            ManualCommit::BeforeProcessing,
            ManualCommit::AfterEachRecord,
            ManualCommit::AfterBatch,
            ManualCommit::Transactional,
        ]),
        prop::sample::select(vec![SinkMode::Plain, SinkMode::Idempotent, SinkMode::ByKey]),
        prop::sample::select(vec![
            AutoOffsetReset::Earliest,
            AutoOffsetReset::Latest,
            AutoOffsetReset::None,
        ]),
        prop_oneof![Just(0u64), 1u64..2_000],
        prop_oneof![Just(0u64), 200u64..3_000],
    )
}

fn action_strategy() -> impl Strategy<Value = (u64, usize, u32, MemberAction)> {
    let action = prop_oneof![
        Just(MemberAction::Start),
        Just(MemberAction::Leave),
        Just(MemberAction::Crash),
        (0u64..5_000).prop_map(|down_ms| MemberAction::Restart { down_ms }),
        (1u64..5_000).prop_map(|duration_ms| MemberAction::Pause { duration_ms }),
        (1u64..5_000, 1u32..10).prop_map(|(duration_ms, factor)| MemberAction::SlowDown {
            duration_ms,
            factor
        }),
        prop_oneof![
            Just(OffsetTarget::Earliest),
            Just(OffsetTarget::Latest),
            (0u64..3_000).prop_map(|at_ms| OffsetTarget::Timestamp { at_ms }),
        ]
        .prop_map(|to| MemberAction::ResetOffsets { to }),
    ];
    (0u64..3_000, 0usize..3, 1u32..=14, action)
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
        prop::collection::vec(action_strategy(), 0..6),
        0u32..=2_000,
        (
            prop_oneof![Just(-1i64), 100i64..2_000],
            prop_oneof![Just(-1i64), 1_000i64..100_000],
            1u32..1_000,
        ),
    )
        .prop_map(
            |(seed, partitions, rate, keys, skew, linger, groups, actions, delay, retention)| {
                let mut scenario = Scenario::default();
                scenario.seed = seed;
                scenario.topic.partitions = partitions;
                let (retention_ms, retention_bytes, check_ms) = retention;
                scenario.topic.retention_ms = retention_ms;
                scenario.topic.retention_bytes = retention_bytes;
                scenario.broker.log_retention_check_interval_ms = check_ms;
                scenario.topic.record_bytes = 100;
                scenario.duration_ms = 3_000;
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
                scenario.broker.group_initial_rebalance_delay_ms = delay;
                scenario.schedule = actions
                    .into_iter()
                    .map(|(at_ms, group, member, action)| ScheduledAction {
                        at_ms,
                        group_id: format!("g{}", group % scenario.groups.len()),
                        member_id: format!("c{member}"),
                        action,
                    })
                    .collect();
                scenario
            },
        )
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
