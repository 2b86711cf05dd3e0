//! Properties of the queues family over random scenarios: what the lessons claim must hold
//! for every seed and every knob setting a learner can reach, not only for the presets. Each
//! run also checks the family's invariants after every tick (debug builds), so an illegal
//! share-group transition or a record counted twice fails at the tick that made it.

use proptest::prelude::*;
use streamlab_sim::queues::share_partition::RecordState;
use streamlab_sim::queues::{Mode, QueuesScenario, QueuesWorld, ShareFailureAck};

/// Short readers runs with every knob of the readers free.
fn readers_scenario() -> impl Strategy<Value = QueuesScenario> {
    (
        any::<u64>(),
        (20u32..=400, 1u32..=40, 1u32..=8, 1u32..=16),
        (1u64..=40, 0u64..=40, 0.0f64..=0.5),
        (any::<bool>(), 0u64..=8_000, 0u32..=15, 0u64..=6_000),
        (
            1_000u64..=6_000,
            2u32..=6,
            100u32..=400,
            1u32..=100,
            any::<bool>(),
        ),
        (0u32..=60, 1_000u64..=6_000, 0u32..=4, 1_000u64..=10_000),
    )
        .prop_map(
            |(seed, (rate, keys, partitions, consumers), processing, crash, share, queue)| {
                let mut s = QueuesScenario::default();
                s.seed = seed;
                s.duration_ms = 8_000;
                s.producer.records_per_second = rate;
                s.producer.keys = keys;
                s.topic.partitions = partitions;
                s.consumers = consumers;
                s.processing.mean_ms = processing.0;
                s.processing.spread_ms = processing.1.min(processing.0);
                s.processing.failure_rate = processing.2;
                s.crash.enabled = crash.0;
                s.crash.at_ms = crash.1;
                s.crash.consumer = crash.2 % consumers;
                s.crash.restart_after_ms = crash.3;
                s.session_timeout_ms = crash.3.max(1_000);
                s.share.record_lock_duration_ms = share.0;
                s.share.delivery_count_limit = share.1;
                s.share.partition_max_record_locks = share.2;
                s.share.max_poll_records = share.3;
                s.share.on_failure = if share.4 {
                    ShareFailureAck::Reject
                } else {
                    ShareFailureAck::Release
                };
                s.queue.prefetch_count = queue.0;
                s.queue.consumer_timeout_ms = queue.1;
                s.queue.delivery_limit = queue.2;
                s.late_reader.enabled = true;
                s.late_reader.start_ms = queue.3 % 8_000;
                s
            },
        )
}

/// Short backpressure and direct runs.
fn lanes_scenario() -> impl Strategy<Value = QueuesScenario> {
    (
        any::<u64>(),
        prop_oneof![Just(Mode::Backpressure), Just(Mode::Direct)],
        (20u32..=600, 1u64..=30, 0u64..=30),
        (1u32..=200, 1u32..=2_000, any::<bool>(), 1_000u64..=20_000),
        (any::<bool>(), 0u64..=8_000, 0u64..=4_000),
    )
        .prop_map(|(seed, mode, (rate, mean, spread), buffers, crash)| {
            let mut s = QueuesScenario::default();
            s.seed = seed;
            s.mode = mode;
            s.duration_ms = 8_000;
            s.producer.records_per_second = rate;
            s.processing.mean_ms = mean;
            s.processing.spread_ms = spread.min(mean);
            s.backpressure.small_buffer_records = buffers.0;
            s.backpressure.memory_buffer_records = buffers.1;
            s.backpressure.spill_to_disk = buffers.2;
            s.topic.retention_ms = buffers.3;
            s.crash.enabled = crash.0;
            s.crash.at_ms = crash.1;
            s.crash.restart_after_ms = crash.2;
            s
        })
}

fn finished(scenario: QueuesScenario) -> QueuesWorld {
    let end = scenario.duration_ms;
    let mut world = QueuesWorld::new(scenario).expect("the strategy builds valid scenarios");
    world.advance_to(end);
    world
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The consumer group keeps every key's order whatever the knobs: one member per
    /// partition at a time, and replays from the committed offset in order.
    #[test]
    fn the_consumer_group_never_inverts_a_keys_order(scenario in readers_scenario()) {
        let world = finished(scenario);
        let group = world.consumer_group().unwrap();
        prop_assert_eq!(group.order.inversions, 0);
        prop_assert_eq!(group.order.duplicates, 0);
    }

    /// A share-group record is never acknowledged twice, its delivery count never passes the
    /// limit, and an archived record is never delivered again: every record below each
    /// share-partition's end offset is in exactly one state, and the states count up to it.
    #[test]
    fn share_group_records_move_only_forward(scenario in readers_scenario()) {
        let limit = scenario.share.delivery_count_limit;
        let world = finished(scenario);
        let group = world.share_group().unwrap();
        for partition in &group.partitions {
            prop_assert!(partition.violation.is_none(), "{:?}", partition.violation);
            prop_assert_eq!(
                partition.acknowledged + partition.archived + partition.unsettled(),
                partition.speo()
            );
            for offset in partition.spso..partition.speo() {
                let record = partition.state_of(offset).unwrap();
                prop_assert!(record.delivery_count >= 1 && record.delivery_count <= limit);
                if record.state == RecordState::Available {
                    prop_assert!(record.delivery_count < limit);
                }
            }
        }
        prop_assert!(group.acknowledged() <= group.order.completed_count);
    }

    /// Every record is somewhere in every reader: produced = acknowledged + archived or
    /// dead-lettered + in flight + waiting.
    #[test]
    fn every_reader_conserves_its_records(scenario in readers_scenario()) {
        let world = finished(scenario);
        let produced = world.arrived();
        let group = world.consumer_group().unwrap();
        let committed: u64 = group.partitions.iter().map(|p| p.committed).sum();
        let waiting: u64 = group
            .partitions
            .iter()
            .zip(world.logs())
            .map(|(p, log)| log.len() as u64 - p.committed)
            .sum();
        prop_assert_eq!(committed + waiting, produced);
        prop_assert_eq!(committed, group.order.completed_count);

        let share = world.share_group().unwrap();
        let beyond_end: u64 = share
            .partitions
            .iter()
            .zip(world.logs())
            .map(|(p, log)| log.len() as u64 - p.speo())
            .sum();
        let in_flight: u64 = share.partitions.iter().map(|p| p.unsettled()).sum();
        prop_assert_eq!(
            share.acknowledged() + share.archived() + in_flight + beyond_end,
            produced
        );

        let queue = world.queue().unwrap();
        prop_assert_eq!(
            queue.acked + queue.dead_lettered + queue.unacked() + queue.ready.len() as u64,
            produced
        );
    }

    /// The late reader can read everything produced before it from the log (retention covers
    /// the run), and from the queue never more than what was still ready.
    #[test]
    fn the_log_keeps_what_the_queue_deleted(scenario in readers_scenario()) {
        let world = finished(scenario);
        let reading = world.late_reading().unwrap();
        prop_assert_eq!(reading.log_readable, reading.produced);
        prop_assert!(reading.queue_readable + reading.queue_deleted <= reading.produced);
    }

    /// Each lane accounts for every record: sent = processed + lost + waiting, the producer
    /// never sends ahead of its schedule, and a broker loses records only to retention.
    #[test]
    fn every_lane_conserves_its_records(scenario in lanes_scenario()) {
        let world = finished(scenario);
        let offered = world.offered();
        for lane in world.pipes() {
            prop_assert!(lane.sent <= offered);
            prop_assert_eq!(lane.sent, lane.processed + lane.lost() + lane.depth());
            if lane.kind.is_durable() {
                prop_assert_eq!(lane.lost(), lane.lost_to_retention);
            } else {
                prop_assert_eq!(lane.lost_to_retention, 0);
            }
        }
    }

    /// Stepping finely or in one jump gives the same run.
    #[test]
    fn the_run_does_not_depend_on_how_it_is_stepped(
        scenario in readers_scenario(),
        step in 1u64..=900,
    ) {
        let jump = finished(scenario.clone());
        let mut steps = QueuesWorld::new(scenario).unwrap();
        let mut t = 0;
        while t < 8_000 {
            t = (t + step).min(8_000);
            steps.advance_to(t);
        }
        prop_assert_eq!(jump.trace_hash(), steps.trace_hash());
    }
}
