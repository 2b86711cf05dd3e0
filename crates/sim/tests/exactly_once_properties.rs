//! Properties of the exactly-once family over seeds, crash instants and the knobs a learner
//! can reach: what the lessons claim must hold for every run, not only for the presets. Each
//! run also checks the family's invariants after every tick (debug builds).

use proptest::prelude::*;
use streamlab_sim::exactly_once::{CrashMode, EosScenario, EosWorld, Isolation, Model, SinkKind};

fn sink_kind() -> impl Strategy<Value = SinkKind> {
    prop_oneof![
        Just(SinkKind::State),
        Just(SinkKind::Kafka),
        Just(SinkKind::Email),
        Just(SinkKind::Idempotent),
        Just(SinkKind::Database),
    ]
}

/// Short recovery runs with one or a few crashes anywhere, and every checkpoint knob free.
fn recovery_scenario() -> impl Strategy<Value = EosScenario> {
    (
        any::<u64>(),
        (1u32..=8, 1u32..=16, 20u32..=300),
        (500u64..=6_000, any::<bool>(), 0u64..=1_000),
        (0u64..=6_000, 1u64..=5),
        (any::<bool>(), 100u64..=15_000, 2_000u64..=8_000),
        (any::<bool>(), 0u32..=7, 0u64..=2_000),
        (sink_kind(), any::<bool>()),
    )
        .prop_map(|(seed, input, checkpoint, microbatch, crash, slow, sink)| {
            let mut s = EosScenario::default();
            s.seed = seed;
            s.duration_ms = 16_000;
            (s.input.partitions, s.input.keys, s.input.records_per_second) = input;
            (
                s.checkpoint.interval_ms,
                s.checkpoint.unaligned,
                s.checkpoint.upload_ms,
            ) = checkpoint;
            s.microbatch.trigger_ms = microbatch.0;
            s.processing_ms = microbatch.1;
            if crash.0 {
                s.crash.mode = CrashMode::Random;
                s.crash.mean_interval_ms = crash.2;
            } else {
                s.crash.at_ms = crash.1;
            }
            s.slow_partition.enabled = slow.0;
            s.slow_partition.partition = slow.1 % s.input.partitions;
            s.slow_partition.delay_ms = slow.2;
            s.sink.kind = sink.0;
            s.sink.isolation_level = if sink.1 {
                Isolation::ReadCommitted
            } else {
                Isolation::ReadUncommitted
            };
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The state of the microbatch and checkpointing jobs is, key by key, the exact count of
    /// the records before their positions (recounted here from the input), and every restart
    /// found it so; their records are never skipped.
    #[test]
    fn the_framework_state_is_exact_after_every_crash(scenario in recovery_scenario()) {
        prop_assume!(scenario.validate().is_ok());
        let end = scenario.duration_ms;
        let keys = scenario.input.keys as usize;
        let mut world = EosWorld::new(scenario).unwrap();
        // Long enough after the last record (and the last crash, which comes before it) for
        // the slowest reachable job to drain its backlog: a slow channel of 64 records that
        // each take 2 s passes 32 records a second.
        world.advance_to(end + 200_000);
        let microbatch = world.microbatch.as_ref().unwrap();
        prop_assert_eq!(microbatch.tally.state_errors, 0);
        prop_assert_eq!(microbatch.tally.skipped_records, 0);
        prop_assert!(microbatch.running);
        let exact = world.input().exact_counts(&microbatch.positions, keys);
        prop_assert_eq!(&microbatch.state, &exact);
        let lane = &world.checkpoint;
        prop_assert_eq!(lane.tally.state_errors, 0);
        prop_assert_eq!(lane.tally.skipped_records, 0);
        let instance = lane.current.as_ref().unwrap();
        let exact = world.input().exact_counts(&instance.positions, keys);
        prop_assert_eq!(&instance.state, &exact);
        // Nothing is lost inside the framework: once the backlog has drained, every record
        // is before both jobs' positions.
        let counted = |positions: &[u32]| positions.iter().map(|&p| u64::from(p)).sum::<u64>();
        prop_assert_eq!(counted(&microbatch.positions), world.produced());
        let instance = lane.current.as_ref().unwrap();
        prop_assert_eq!(counted(&instance.positions), world.produced());
    }

    /// Outside the job: a call that cannot be taken back is repeated exactly once per record
    /// processed again; an idempotency key, the offsets in the database and read_committed
    /// Kafka readers let no repeat out.
    #[test]
    fn effects_outside_repeat_exactly_the_replayed_records(scenario in recovery_scenario()) {
        prop_assume!(scenario.validate().is_ok());
        let kind = scenario.sink.kind;
        let isolation = scenario.sink.isolation_level;
        let end = scenario.duration_ms;
        let mut world = EosWorld::new(scenario).unwrap();
        world.advance_to(end);
        let microbatch = world.microbatch.as_ref().unwrap();
        let lanes = [
            (Model::Microbatch, &microbatch.sink, &microbatch.tally),
            (Model::Checkpoint, &world.checkpoint.sink, &world.checkpoint.tally),
        ];
        for (model, sink, tally) in lanes {
            match kind {
                SinkKind::Email => {
                    prop_assert_eq!(sink.duplicates, tally.reprocessed_records, "{:?}", model);
                }
                SinkKind::Idempotent | SinkKind::Database | SinkKind::State => {
                    prop_assert_eq!(sink.duplicates, 0, "{:?}", model);
                }
                SinkKind::Kafka if model == Model::Checkpoint && isolation == Isolation::ReadCommitted => {
                    prop_assert_eq!(sink.duplicates, 0);
                }
                SinkKind::Kafka => {
                    prop_assert!(sink.duplicates <= tally.reprocessed_records);
                }
            }
        }
    }
}
