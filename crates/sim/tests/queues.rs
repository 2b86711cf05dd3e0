//! The queues family's presets prove their points by the figures' names, as
//! `streamlab simulate --preset NAME` prints them; and its runs are the same however they are
//! stepped, sought or linked.

#[path = "support/family_checks.rs"]
mod family_checks;
#[path = "support/family_runs.rs"]
mod family_runs;

use family_checks::number;
use family_runs::{events_carry_tags_never_prose, same_run_however_stepped, tells, told};
use serde_json::Value;
use std::mem::{size_of, size_of_val};
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::family::Simulation;
use streamlab_sim::headless::{self, RunOptions};
use streamlab_sim::queues::{self, QueuesScenario, QueuesWorld, SIMPLIFICATIONS};
use streamlab_sim::replay::slots::SharedSlots;

fn figures(preset: &str) -> Value {
    family_checks::preset_figures(preset, "queues")
}

#[test]
fn a_share_group_scales_past_the_partitions_and_gives_up_per_key_order() {
    let f = figures("share-group-scales-past-partitions");
    let group = number(&f, "consumer_group.throughput_per_s");
    let share = number(&f, "share_group.throughput_per_s");
    let queue = number(&f, "queue.throughput_per_s");
    // 3 partitions of ~50 records/s each, against 400 records/s produced.
    assert!(group < 160.0, "{group}");
    assert!(share > 2.0 * group && queue > 2.0 * group, "{f}");
    assert!(number(&f, "share_group.order_inversions") > 0.0);
    assert!(number(&f, "queue.order_inversions") > 0.0);
    assert_eq!(number(&f, "consumer_group.order_inversions"), 0.0);
    // Failed attempts: released or requeued records come back after newer ones of their key;
    // the consumer group retries in place and keeps its order.
    assert!(number(&f, "share_group.redelivery_inversions") > 0.0);
    assert!(number(&f, "queue.redelivery_inversions") > 0.0);
    assert!(number(&f, "consumer_group.retries") > 0.0);
}

#[test]
fn a_crash_with_prefetched_messages_redelivers_them_out_of_order() {
    let f = figures("queue-redelivery-reorders");
    assert_eq!(number(&f, "queue.redelivered"), 50.0);
    assert!(number(&f, "queue.order_inversions") > 0.0);
    assert!(number(&f, "queue.redelivery_inversions") > 0.0, "{f}");
    // The share group's locks run out after 30 s, then its records are delivered again; with
    // one member per partition, in order, like the consumer group.
    assert!(number(&f, "share_group.redelivered") > 0.0);
    assert_eq!(number(&f, "share_group.order_inversions"), 0.0);
    assert_eq!(number(&f, "consumer_group.order_inversions"), 0.0);
}

#[test]
fn a_late_reader_finds_the_past_in_the_log_and_not_in_the_queue() {
    let f = figures("late-reader-log-vs-queue");
    assert!(number(&f, "consumer_group.readable_history") >= 3_000.0);
    assert_eq!(
        number(&f, "share_group.readable_history"),
        number(&f, "consumer_group.readable_history")
    );
    assert_eq!(number(&f, "queue.readable_history"), 0.0);
}

#[test]
fn drop_buffer_and_block_each_pay_and_the_log_loses_nothing() {
    let f = figures("backpressure-drop-buffer-block");
    assert!(number(&f, "drop.dropped") > 0.0);
    assert!(number(&f, "buffer.lost_on_crash") > 1_000.0);
    assert!(number(&f, "block.producer_blocked_ms") > 10_000.0);
    assert!(
        number(&f, "block.unsent") > 0.0,
        "the blocked producer fell behind"
    );
    assert_eq!(number(&f, "block.dropped"), 0.0);
    assert_eq!(number(&f, "log.lost"), 0.0);
    assert!(number(&f, "log.waiting") > 0.0, "the log holds the backlog");
}

#[test]
fn direct_delivery_loses_what_arrives_while_the_consumer_is_down() {
    let f = figures("direct-vs-broker");
    // 50 records/s for the 10 s the consumer is down.
    assert_eq!(number(&f, "direct.lost_while_down"), 500.0);
    assert_eq!(number(&f, "broker.lost"), 0.0);
    assert_eq!(number(&f, "broker.processed"), number(&f, "produced"));
}

#[test]
fn adding_partitions_moves_about_half_the_keys_and_inverts_their_order() {
    let f = figures("adding-partitions-moves-keys");
    let moved = number(&f, "keys_moved_fraction");
    // 3 → 6 partitions: a key stays when murmur2 mod 6 equals murmur2 mod 3, half the time.
    assert!((moved - 0.5).abs() < 0.1, "{moved}");
    assert!(number(&f, "consumer_group.order_inversions") > 0.0);
    assert_eq!(number(&f, "consumer_group.redelivered"), 0.0);
}

#[test]
fn a_kinesis_shard_throttles_past_a_thousand_records_a_second() {
    let f = figures("kinesis-shard-limit");
    assert!(number(&f, "kinesis.throttled") > 0.0);
    assert_eq!(number(&f, "kinesis.throttled_by_bytes"), 0.0);
    assert_eq!(
        number(&f, "kinesis.accepted") + number(&f, "kinesis.throttled"),
        number(&f, "produced")
    );
    // Two shards take at most 2,000 records in each of the 30 seconds.
    assert!(number(&f, "kinesis.accepted") <= 60_000.0);
}

#[test]
fn every_preset_names_a_lesson_and_every_lesson_default_runs() {
    family_checks::presets_name_lessons_and_lesson_defaults_run::<QueuesWorld>(
        queues::PRESETS,
        queues::LESSONS,
    );
    assert!(SIMPLIFICATIONS.len() >= 10);
}

fn shortened(mut scenario: QueuesScenario, duration_ms: u64) -> QueuesScenario {
    scenario.duration_ms = duration_ms;
    scenario
}

#[test]
fn small_steps_and_one_jump_give_the_same_run() {
    for preset in queues::PRESETS {
        let scenario = shortened((preset.build)(), 20_000);
        same_run_however_stepped::<QueuesWorld>(&scenario, 20_000, 17, preset.slug);
    }
}

#[test]
fn seeking_gives_the_run_from_zero() {
    let scenario = queues::queue_redelivery_reorders();
    family_runs::seeking_gives_the_run_from_zero::<QueuesWorld>(
        &scenario,
        &[50_000, 16_000, 3_000, 61_000],
    );
}

#[test]
fn another_seed_is_another_run() {
    let with_seed = |seed| QueuesScenario {
        seed,
        ..shortened(queues::share_group_scales_past_partitions(), 5_000)
    };
    family_runs::another_seed_is_another_run::<QueuesWorld>(with_seed, 5_000);
}

#[test]
fn scenarios_round_trip_through_json_and_refuse_unknown_fields() {
    family_checks::presets_round_trip(
        queues::PRESETS,
        "queues",
        2000,
        r#"{"mode": "readers", "nope": 1}"#,
    );
}

#[test]
fn a_lesson_link_runs_its_scenario() {
    let base = queues::share_group_scales_past_partitions();
    let mut changed = base.clone();
    changed.consumers = 4;
    family_runs::a_lesson_link_runs::<QueuesWorld>("queues", &base, &changed, 10_000);
}

#[test]
fn the_report_carries_the_sampled_series() {
    let report = headless::run_preset(
        "backpressure-drop-buffer-block",
        RunOptions {
            duration_ms: Some(10_000),
            at_ms: None,
        },
    )
    .unwrap();
    let series = &report["series"]["buffer"];
    assert_eq!(series.as_array().unwrap().len(), 10);
    let last = &series[9];
    assert!(last["producer_per_s"].as_u64().unwrap() >= 190);
    assert!(last["consumer_per_s"].as_u64().unwrap() <= 110);
    assert!(last["depth"].as_u64().unwrap() > 500);
}

#[test]
fn each_preset_narrates_what_it_is_about() {
    let scaling = told("share-group-scales-past-partitions");
    assert!(tells(&scaling, "9 get none and stay idle"), "{scaling:?}");
    assert!(tells(&scaling, "stops scaling at the partition count"));
    assert!(tells(&scaling, "the share group finishes"));

    let redelivery = told("queue-redelivery-reorders");
    assert!(tells(&redelivery, "marked redelivered"), "{redelivery:?}");
    assert!(tells(&redelivery, "group.share.record.lock.duration.ms"));
    assert!(tells(&redelivery, "session.timeout.ms (45 s)"));

    let late = told("late-reader-log-vs-queue");
    assert!(tells(&late, "The queue can offer it 0"), "{late:?}");

    let partitions = told("adding-partitions-moves-keys");
    assert!(tells(&partitions, "now land in a different partition"));
    assert!(
        tells(&partitions, "now goes to a new partition"),
        "{partitions:?}"
    );

    let backpressure = told("backpressure-drop-buffer-block");
    assert!(tells(
        &backpressure,
        "records that find no room are dropped"
    ));
    assert!(tells(&backpressure, "the producer waits for room"));
    assert!(tells(&backpressure, "waiting in its memory are gone"));
    assert!(
        tells(&backpressure, "stay on the broker"),
        "{backpressure:?}"
    );

    let direct = told("direct-vs-broker");
    assert!(
        tells(&direct, "500 records sent while it was down"),
        "{direct:?}"
    );

    let kinesis = told("kinesis-shard-limit");
    assert!(tells(&kinesis, "ProvisionedThroughputExceededException"));
}

#[test]
fn events_carry_numbers_and_tags_never_prose() {
    events_carry_tags_never_prose("queue-redelivery-reorders");
}

#[test]
fn the_snapshot_shows_what_each_consumer_holds() {
    let mut world = QueuesWorld::new(queues::queue_redelivery_reorders()).unwrap();
    world.advance_to(14_000);
    let before = world.snapshot();
    let share = &before.readers[1];
    assert_eq!(share.reader, queues::Reader::ShareGroup);
    assert!(share.consumers[0].holding > 0);
    let queue = before.queue.as_ref().unwrap();
    assert_eq!(
        queue.unacked,
        vec![50, 50],
        "both prefetch windows are full"
    );
    let window = &before.share_partitions[0];
    assert_eq!(window.speo - window.spso, window.window.len() as u64);
    world.advance_to(16_000);
    let after = world.snapshot();
    assert!(!after.readers[2].consumers[0].alive);
    assert_eq!(after.readers[2].consumers[0].holding, 0);
    assert_eq!(after.readers.len(), 3);
    assert_eq!(after.partitions.len(), 3);
    assert!(world.reader_samples().len() >= 3 * 15);
}

/// A reader's backlog is told as it passes each threshold, once, and never before: the
/// consumer group of three partitions falls behind 400 records/s.
#[test]
fn a_growing_backlog_is_told_once_per_threshold_as_it_passes() {
    let mut world = QueuesWorld::new(queues::share_group_scales_past_partitions()).unwrap();
    world.advance_to(60_000);
    let told: Vec<(u64, u64)> = world
        .events()
        .iter()
        .filter_map(|event| match event.kind {
            queues::QueuesEventKind::BacklogRising {
                reader: queues::Reader::ConsumerGroup,
                threshold,
                backlog,
                ..
            } => Some((threshold, backlog)),
            _ => None,
        })
        .collect();
    let thresholds: Vec<u64> = told.iter().map(|&(threshold, _)| threshold).collect();
    assert_eq!(thresholds, [100, 1_000, 10_000], "{told:?}");
    for (threshold, backlog) in told {
        assert!(backlog >= threshold, "{backlog} told for {threshold}");
    }
}

#[test]
fn a_checkpoint_shares_the_runs_per_record_tables_and_counts_them_once() {
    // Every checkpoint of a timeline clones the world. The per-record tables (the partition
    // logs, each reader's completions, the queue's delivery and return counts) were plain
    // arrays, so the sixty checkpoints of a ten-minute run copied them whole: over a quarter
    // of the time a fresh setting took to build. Shared, a clone holds only the chunks near
    // the run's frontier, and the timeline's budget counts the rest once.
    let mut timeline = Timeline::new(QueuesWorld::new(QueuesScenario::default()).unwrap());
    timeline.seek(600_000);
    let world = timeline.world();
    let records = world.records().len();
    let tables = records * (size_of::<u32>() + 3 * size_of::<bool>() + 2 * size_of::<u32>());
    assert!(records > 10_000, "{records} records");
    let own = world.size_hint_bytes();
    assert!(own * 8 < tables, "a clone holds {own} of {tables} bytes");
    let shared = QueuesWorld::shared_size_hint_bytes(world, world) - size_of_val(world.records());
    assert!(
        tables / 2 < shared && shared <= tables,
        "{shared} of {tables} table bytes counted as shared"
    );

    // Each table is counted: the logs as they stand, and for each of the three readers a
    // completion flag per record, for the queue two counts per record.
    let flags = SharedSlots::filled(records, false);
    let counts = SharedSlots::filled(records, 0u32);
    let logs_own: usize = world.logs().iter().map(|l| l.own_size_hint_bytes()).sum();
    let logs_shared: usize = world
        .logs()
        .iter()
        .map(|l| l.shared_size_hint_bytes())
        .sum();
    assert_eq!(
        own,
        logs_own
            + 3 * flags.own_size_hint_bytes()
            + 2 * counts.own_size_hint_bytes()
            + world.events().own_size_hint_bytes()
    );
    assert_eq!(
        shared,
        logs_shared
            + 3 * flags.shared_size_hint_bytes()
            + 2 * counts.shared_size_hint_bytes()
            + world.events().shared_size_hint_bytes()
    );
}
