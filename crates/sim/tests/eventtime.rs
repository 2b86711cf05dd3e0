//! The event-time lessons' claims, checked on their presets: what a learner sees in each.

use std::collections::BTreeMap;
use streamlab_sim::eventtime::{
    drop_vs_restate_vs_side, idle_partition_stalls, mobile_stragglers, outage_spike, preset,
    EventTimeScenario, EventTimeWorld, LateRecordPolicy, TimestampSource, WindowComparison,
    PRESETS,
};
use streamlab_sim::window::{Timing, Watermark, WindowState};

fn finished(scenario: EventTimeScenario) -> EventTimeWorld {
    let mut world = EventTimeWorld::new(scenario).expect("valid scenario");
    world.run_to_end();
    world
}

/// Sums rows over keys: the lesson's "count per hour" view.
fn per_window_bounds(rows: &[WindowComparison]) -> BTreeMap<(i64, i64), (u64, u64, u64)> {
    let mut sums = BTreeMap::new();
    for row in rows {
        let entry = sums
            .entry((row.window.start_ms, row.window.end_ms))
            .or_insert((0, 0, 0));
        entry.0 += row.truth;
        entry.1 += row.processing_time.unwrap_or(0);
        entry.2 += row.event_time.unwrap_or(0);
    }
    sums
}

#[test]
fn every_preset_is_valid_and_reachable_by_its_link_name() {
    for name in PRESETS.iter().map(|p| p.slug) {
        let scenario = preset(name).expect("named preset exists");
        scenario.validate().expect("preset is valid");
    }
    assert!(preset("no-such-lesson").is_none());
}

#[test]
fn after_an_outage_processing_time_counts_spike_while_event_time_counts_match_the_truth() {
    let world = finished(outage_spike());
    let sums = per_window_bounds(&world.window_comparisons());
    // The processor is down from 60 s to 100 s: the window it catches up in is [90 s, 120 s).
    let (truth, processing, event) = sums[&(90_000, 120_000)];
    assert!(
        processing > 2 * truth,
        "catch-up window counted {processing} by processing time, truth {truth}"
    );
    let (truth, processing, _) = sums[&(60_000, 90_000)];
    assert_eq!(processing, 0, "nothing is processed during the outage");
    assert!(truth > 0);
    assert!(event > 0);
    for row in world.window_comparisons() {
        assert_eq!(row.event_time.unwrap_or(0), row.truth, "{row:?}");
    }
}

#[test]
fn with_the_drop_policy_emitted_plus_dropped_is_the_truth_in_every_window() {
    let mut scenario = mobile_stragglers();
    scenario.skew.devices = 0;
    scenario.late_policy = LateRecordPolicy::Drop;
    let world = finished(scenario);
    let snapshot = world.snapshot();
    assert!(
        snapshot.dropped > 0,
        "the preset has records too late to count"
    );
    for row in &snapshot.windows {
        assert_eq!(
            row.event_time.unwrap_or(0) + row.dropped,
            row.truth,
            "{row:?}"
        );
    }
    let dropped: u64 = snapshot.windows.iter().map(|row| row.dropped).sum();
    assert_eq!(dropped, snapshot.dropped);
}

#[test]
fn the_side_output_holds_exactly_the_records_too_late_for_their_window() {
    let mut scenario = drop_vs_restate_vs_side();
    scenario.late_policy = LateRecordPolicy::SideOutput;
    let snapshot = finished(scenario).snapshot();
    assert!(!snapshot.side_outputs.is_empty());
    assert_eq!(snapshot.side_outputs.len() as u64, snapshot.dropped);
    assert!(snapshot
        .event_time_panes
        .iter()
        .all(|pane| pane.retracted.is_none()));
}

#[test]
fn restated_panes_retract_the_value_they_replace() {
    let snapshot = finished(drop_vs_restate_vs_side()).snapshot();
    let mut latest = BTreeMap::new();
    let mut restatements = 0;
    for pane in &snapshot.event_time_panes {
        let previous = latest.insert(pane.window, pane.count);
        match pane.timing {
            Timing::OnTime => assert_eq!(pane.retracted, None),
            Timing::Late => {
                assert_eq!(pane.retracted, previous, "{pane:?}");
                restatements += 1;
            }
        }
    }
    assert!(
        restatements > 0,
        "the preset's stragglers cause restatements"
    );
}

#[test]
fn the_combined_watermark_never_goes_back_and_trails_every_active_partition() {
    for name in PRESETS.iter().map(|p| p.slug) {
        let mut world = EventTimeWorld::new(preset(name).unwrap()).unwrap();
        let mut previous = Watermark::MinusInfinity;
        let end_ms = world.input_end_ms();
        for at_ms in (0..=end_ms).step_by(700) {
            world.advance_to(at_ms);
            let snapshot = world.snapshot();
            assert!(snapshot.combined_watermark >= previous, "{name} at {at_ms}");
            previous = snapshot.combined_watermark;
        }
        let steps = world.snapshot().watermark_steps;
        assert!(steps
            .windows(2)
            .all(|pair| pair[0].watermark < pair[1].watermark && pair[0].at_ms <= pair[1].at_ms));
    }
}

/// The processing time of the last record partition 0 delivers before device 0 goes silent.
fn silence_start_ms(world: &EventTimeWorld) -> i64 {
    let times: Vec<i64> = world
        .records()
        .iter()
        .filter(|record| record.partition == 0)
        .map(|record| record.processed_ms)
        .collect();
    let (before, _) = times
        .windows(2)
        .map(|pair| (pair[0], pair[1]))
        .max_by_key(|(before, after)| after - before)
        .expect("partition 0 has records");
    before
}

#[test]
fn a_silent_partition_holds_every_window_open_until_it_is_declared_idle() {
    let scenario = idle_partition_stalls();
    let idleness_ms = scenario.idleness_ms;
    let mut world = EventTimeWorld::new(scenario).unwrap();
    let silent_from_ms = silence_start_ms(&world);

    world.advance_to(silent_from_ms + idleness_ms - 1);
    let held = world.snapshot();
    let silent = held.partitions[0];
    assert!(!silent.idle);
    assert_eq!(held.combined_watermark, silent.watermark);
    assert_eq!(held.holding_partition, Some(0));
    let others_ms = held.partitions[1..]
        .iter()
        .filter_map(|partition| partition.watermark.as_ms())
        .min()
        .unwrap();
    assert!(others_ms > silent.watermark.as_ms().unwrap() + 5_000);
    let held_open_keys: Vec<u32> = held
        .open_windows
        .iter()
        .filter(|window| window.state == WindowState::Open && window.end_ms <= others_ms)
        .map(|window| window.key)
        .collect();
    assert!(
        held_open_keys.iter().any(|&key| key != 0),
        "windows of devices on other partitions wait for partition 0"
    );

    world.advance_to(silent_from_ms + idleness_ms);
    let released = world.snapshot();
    assert!(released.partitions[0].idle);
    assert!(released.combined_watermark > held.combined_watermark);
    assert_ne!(released.holding_partition, Some(0));
    assert!(released
        .idleness_changes
        .iter()
        .any(|change| change.partition == 0 && change.idle));
}

#[test]
fn without_idleness_the_silent_partition_holds_the_watermark_for_its_whole_silence() {
    let mut scenario = idle_partition_stalls();
    scenario.idleness_ms = 0;
    let mut world = EventTimeWorld::new(scenario).unwrap();
    let silent_from_ms = silence_start_ms(&world);
    world.advance_to(silent_from_ms);
    let silent_watermark = world.snapshot().partitions[0].watermark;
    world.advance_to(silent_from_ms + 30_000);
    let snapshot = world.snapshot();
    assert_eq!(snapshot.partitions[0].watermark, silent_watermark);
    assert!(!snapshot.partitions[0].idle);
    assert_eq!(snapshot.combined_watermark, silent_watermark);
    assert!(snapshot.partitions[1..]
        .iter()
        .all(|partition| partition.watermark > silent_watermark));
}

#[test]
fn the_same_seed_gives_the_same_run_and_another_seed_another() {
    let run = |seed| {
        let mut scenario = mobile_stragglers();
        scenario.seed = seed;
        finished(scenario).snapshot()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7).records_seen, run(8).records_seen);
}

#[test]
fn small_steps_and_one_jump_give_the_same_snapshot() {
    let scenario = idle_partition_stalls();
    let mut jumped = EventTimeWorld::new(scenario.clone()).unwrap();
    let mut stepped = EventTimeWorld::new(scenario).unwrap();
    let target_ms = 75_000;
    jumped.advance_to(target_ms);
    for at_ms in (0..=target_ms).step_by(333) {
        stepped.advance_to(at_ms);
    }
    stepped.advance_to(target_ms);
    assert_eq!(jumped.snapshot(), stepped.snapshot());
}

#[test]
fn the_corrected_timestamp_removes_clock_skew_and_keeps_only_the_network_delay() {
    let world = finished(mobile_stragglers());
    let skew_ms = world.scenario().skew.clock_skew_ms;
    let mut skewed = 0;
    for record in world.records() {
        let device_error_ms = record.event_time_ms(TimestampSource::Device) - record.true_ms;
        assert!(device_error_ms == 0 || device_error_ms == skew_ms);
        skewed += usize::from(device_error_ms == skew_ms);
        let corrected_error_ms = record.corrected_ms() - record.true_ms;
        let send_true_ms = record.sent_ms - device_error_ms;
        assert_eq!(corrected_error_ms, record.received_ms - send_true_ms);
        assert!(corrected_error_ms >= 0);
    }
    assert!(skewed > 0);
}

#[test]
fn processing_time_panes_come_out_when_the_clock_reaches_their_end() {
    let world = finished(outage_spike());
    let input_end_ms = world.input_end_ms();
    for pane in world.processing_time_panes() {
        // Windows still open when the bounded input ends fire at its end.
        assert_eq!(
            pane.emitted_at_ms,
            pane.window.end_ms.min(input_end_ms),
            "{pane:?}"
        );
    }
    let processed: u64 = world
        .processing_time_panes()
        .iter()
        .map(|pane| pane.count)
        .sum();
    assert_eq!(processed, world.records().len() as u64);
    for pane in world.event_time_panes() {
        assert!(pane.emitted_at_ms >= pane.window.end_ms, "{pane:?}");
    }
}

#[test]
fn validation_names_the_field_and_its_range() {
    let mut scenario = EventTimeScenario::default();
    scenario.partitions = 17;
    let error = scenario.validate().unwrap_err();
    assert_eq!(error.field, "partitions");
    assert!(error.to_string().contains("1..=16"), "{error}");

    let mut scenario = EventTimeScenario::default();
    scenario.delay.tail_probability = 1.5;
    assert_eq!(
        scenario.validate().unwrap_err().field,
        "delay.tail_probability"
    );

    let mut scenario = EventTimeScenario::default();
    scenario.events_per_second = 2_000;
    scenario.duration_ms = 3_600_000;
    assert_eq!(scenario.validate().unwrap_err().field, "events_per_second");
}

#[test]
fn scenarios_round_trip_through_json_and_refuse_unknown_fields() {
    let scenario = drop_vs_restate_vs_side();
    let json = serde_json::to_string(&scenario).unwrap();
    let back: EventTimeScenario = serde_json::from_str(&json).unwrap();
    assert_eq!(back, scenario);
    let partial: EventTimeScenario = serde_json::from_str(r#"{"keys": 3}"#).unwrap();
    assert_eq!(partial.keys, 3);
    assert!(serde_json::from_str::<EventTimeScenario>(r#"{"idle_ms": 3}"#).is_err());
    let side: EventTimeScenario = serde_json::from_str(r#"{"late_policy": "side"}"#).unwrap();
    assert_eq!(side.late_policy, LateRecordPolicy::SideOutput);
}

#[test]
fn a_late_record_that_bridges_two_sessions_retracts_both() {
    let mut scenario = drop_vs_restate_vs_side();
    scenario.window = streamlab_sim::window::WindowSpec::Session { gap_ms: 400 };
    let snapshot = finished(scenario).snapshot();
    let merged_away: Vec<_> = snapshot
        .windows
        .iter()
        .filter(|row| row.merged_away)
        .collect();
    assert!(!merged_away.is_empty(), "stragglers bridge sessions");
    for row in merged_away {
        let absorbing = snapshot
            .event_time_panes
            .iter()
            .find(|pane| {
                pane.window.key == row.window.key
                    && pane.window.start_ms <= row.window.start_ms
                    && pane.window.end_ms >= row.window.end_ms
                    && pane.window != row.window
                    && pane.timing == Timing::Late
            })
            .expect("a later session took it over");
        assert!(
            absorbing.retracted >= row.event_time,
            "{absorbing:?} {row:?}"
        );
    }
}
