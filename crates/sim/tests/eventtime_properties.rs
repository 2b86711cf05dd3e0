//! Properties of the event-time model over random scenarios: the claims the lessons make must
//! hold for every seed and knob setting a learner can reach, not only for the presets.

use proptest::prelude::*;
use std::collections::BTreeMap;
use streamlab_sim::eventtime::{
    EventTimeEventKind, EventTimeScenario, EventTimeWorld, LateRecordPolicy, TimeDomain,
    TimestampSource, WindowId,
};
use streamlab_sim::window::{Timing, Watermark, WindowSpec};

/// Small runs with every disorder knob free; callers switch off what their property excludes.
fn any_scenario() -> impl Strategy<Value = EventTimeScenario> {
    (
        any::<u64>(),
        (1u32..=6, 1u32..=10, 5u32..=40),
        (0i64..=300, 0i64..=2_000, 0.0f64..=0.3, 0i64..=8_000),
        (0u32..=2, 0i64..=15_000),
        (0i64..=30_000, 0i64..=20_000, 50u32..=500),
        (0i64..=3_000, 0i64..=10_000, 0i64..=8_000),
    )
        .prop_map(
            |(seed, (partitions, keys, rate), delay, offline, outage, watermark)| {
                let mut scenario = EventTimeScenario::default();
                scenario.seed = seed;
                scenario.duration_ms = 40_000;
                scenario.partitions = partitions;
                scenario.keys = keys;
                scenario.events_per_second = rate;
                scenario.delay.network_ms = delay.0;
                scenario.delay.jitter_ms = delay.1;
                scenario.delay.tail_probability = delay.2;
                scenario.delay.tail_mean_ms = delay.3;
                scenario.offline.devices = offline.0.min(keys);
                scenario.offline.duration_ms = offline.1;
                scenario.outage.start_ms = outage.0;
                scenario.outage.duration_ms = outage.1;
                scenario.outage.catch_up_records_per_second = outage.2;
                scenario.max_out_of_orderness_ms = watermark.0;
                scenario.allowed_lateness_ms = watermark.1;
                scenario.idleness_ms = watermark.2;
                scenario
            },
        )
}

fn any_window() -> impl Strategy<Value = WindowSpec> {
    prop_oneof![
        (500i64..=10_000).prop_map(|size_ms| WindowSpec::Tumbling { size_ms }),
        (1i64..=4, 500i64..=4_000).prop_map(|(hops, hop_ms)| WindowSpec::Hopping {
            size_ms: hops * hop_ms,
            hop_ms
        }),
        (200i64..=3_000).prop_map(|gap_ms| WindowSpec::Session { gap_ms }),
        // At most 40 records/s on one device: within 1 s that stays under the work bound.
        (0i64..=1_000).prop_map(|time_difference_ms| WindowSpec::Sliding { time_difference_ms }),
    ]
}

fn finished(scenario: EventTimeScenario) -> EventTimeWorld {
    let mut world = EventTimeWorld::new(scenario).expect("valid scenario");
    world.run_to_end();
    world
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// If records are out of order by no more than the watermark allows (jitter only, no
    /// stragglers, no offline buffering, right clocks, no idleness guesses), nothing is late:
    /// every window fires once, on time, with the true count. Outages only delay, never reorder.
    #[test]
    fn without_lateness_in_the_input_event_time_equals_the_truth(
        mut scenario in any_scenario(),
        window in any_window(),
    ) {
        scenario.window = window;
        scenario.delay.tail_probability = 0.0;
        scenario.offline.devices = 0;
        scenario.idleness_ms = 0;
        scenario.max_out_of_orderness_ms =
            scenario.max_out_of_orderness_ms.max(scenario.delay.jitter_ms);
        let snapshot = finished(scenario).snapshot();
        prop_assert_eq!(snapshot.dropped, 0);
        prop_assert!(snapshot.event_time_panes.iter().all(|pane| pane.timing == Timing::OnTime));
        // Rows that only a processing-time window has carry no event-time answer and no truth.
        for row in &snapshot.windows {
            prop_assert_eq!(row.event_time.unwrap_or(0), row.truth, "{:?}", row);
            prop_assert_eq!(row.event_time_panes, u32::from(row.truth > 0));
        }
    }

    /// Under the drop policy nothing is lost silently: what a tumbling window reports plus
    /// what was dropped for it is the true count (with right clocks, so a record's event
    /// timestamp is its true time).
    #[test]
    fn dropped_and_emitted_add_up_to_the_truth(
        mut scenario in any_scenario(),
        size_ms in 500i64..=10_000,
    ) {
        scenario.window = WindowSpec::Tumbling { size_ms };
        scenario.late_policy = LateRecordPolicy::Drop;
        let snapshot = finished(scenario).snapshot();
        for row in &snapshot.windows {
            prop_assert_eq!(row.event_time.unwrap_or(0) + row.dropped, row.truth, "{:?}", row);
        }
    }

    /// With lateness long enough for every straggler, restating converges on the truth, and
    /// each restated pane retracts exactly the value shown before it (for a session merged by
    /// a late record: the values of the sessions it swallowed).
    #[test]
    fn restated_results_converge_on_the_truth(
        mut scenario in any_scenario(),
        window in any_window(),
    ) {
        scenario.window = window;
        scenario.late_policy = LateRecordPolicy::Restate;
        scenario.allowed_lateness_ms = 86_400_000;
        let snapshot = finished(scenario).snapshot();
        prop_assert_eq!(snapshot.dropped, 0);
        let mut latest: BTreeMap<WindowId, u64> = BTreeMap::new();
        for pane in &snapshot.event_time_panes {
            let inside: Vec<WindowId> = latest
                .keys()
                .copied()
                .filter(|earlier| {
                    earlier.key == pane.window.key
                        && earlier.start_ms >= pane.window.start_ms
                        && earlier.end_ms <= pane.window.end_ms
                })
                .collect();
            let replaced: Option<u64> = if inside.is_empty() {
                None
            } else {
                Some(inside.iter().map(|earlier| latest.remove(earlier).unwrap()).sum())
            };
            latest.insert(pane.window, pane.count);
            match pane.timing {
                Timing::Late => prop_assert_eq!(pane.retracted, replaced, "{:?}", pane),
                Timing::OnTime => prop_assert_eq!(pane.retracted, None),
            }
        }
        for row in snapshot.windows.iter().filter(|row| !row.merged_away) {
            prop_assert_eq!(row.event_time.unwrap_or(0), row.truth, "{:?}", row);
        }
    }

    /// The watermark is a promise downstream relies on: it only moves forward, whichever
    /// partitions go quiet or wake up, and reaches plus infinity when the input ends.
    #[test]
    fn the_combined_watermark_never_decreases(
        mut scenario in any_scenario(),
        window in any_window(),
        step_ms in 200i64..=5_000,
    ) {
        scenario.window = window;
        let mut world = EventTimeWorld::new(scenario).unwrap();
        let mut previous = Watermark::MinusInfinity;
        let mut at_ms = 0;
        while at_ms <= world.input_end_ms() {
            world.advance_to(at_ms);
            let watermark = world.combined_watermark();
            prop_assert!(watermark >= previous);
            previous = watermark;
            at_ms += step_ms;
        }
        world.run_to_end();
        prop_assert_eq!(world.combined_watermark(), Watermark::PlusInfinity);
    }

    /// An animation may advance in frames of any length: the run does not depend on them.
    #[test]
    fn the_run_does_not_depend_on_how_time_is_advanced(
        mut scenario in any_scenario(),
        window in any_window(),
        step_ms in 100i64..=7_000,
        target_ms in 0i64..=80_000,
    ) {
        scenario.window = window;
        scenario.timestamp = TimestampSource::Corrected;
        let mut jumped = EventTimeWorld::new(scenario.clone()).unwrap();
        let mut stepped = EventTimeWorld::new(scenario).unwrap();
        jumped.advance_to(target_ms);
        let mut at_ms = 0;
        while at_ms < target_ms {
            stepped.advance_to(at_ms);
            at_ms += step_ms;
        }
        stepped.advance_to(target_ms);
        prop_assert_eq!(jumped.snapshot(), stepped.snapshot());
        prop_assert_eq!(jumped.events(), stepped.events());
        prop_assert_eq!(jumped.trace_hash(), stepped.trace_hash());
    }

    /// The window-level events tell every tumbling window that held something: by event time
    /// their truths add up to every record, and by processing time their counts add up to
    /// every record read, each counted once. Events come in time order.
    #[test]
    fn shared_windows_close_once_each_and_account_for_every_record(
        mut scenario in any_scenario(),
        size_ms in 500i64..=10_000,
    ) {
        scenario.window = WindowSpec::Tumbling { size_ms };
        let world = finished(scenario);
        let mut truth = 0;
        let mut processed = 0;
        for event in world.events() {
            if let EventTimeEventKind::WindowClosed { clock, count, truth: t, .. } = event.kind {
                match clock {
                    TimeDomain::EventTime => truth += t,
                    TimeDomain::ProcessingTime => processed += count,
                }
            }
        }
        let records = world.records().len() as u64;
        prop_assert_eq!(truth, records);
        prop_assert_eq!(processed, records);
        let times: Vec<u64> = world.events().iter().map(|e| e.at_ms).collect();
        prop_assert!(times.is_sorted());
    }

    /// Every record's timestamps tell a consistent story: it is sent no earlier than it
    /// happened, received after it was sent, and processed no earlier than received.
    #[test]
    fn timestamps_follow_the_record_through_the_pipeline(
        mut scenario in any_scenario(),
        skew_devices in 0u32..=3,
        clock_skew_ms in -20_000i64..=20_000,
    ) {
        scenario.skew.devices = skew_devices.min(scenario.keys);
        scenario.skew.clock_skew_ms = clock_skew_ms;
        let world = EventTimeWorld::new(scenario).unwrap();
        let mut previous_processed_ms = 0;
        for record in world.records() {
            prop_assert!(record.sent_ms >= record.occurred_ms);
            prop_assert!(record.corrected_ms() >= record.true_ms);
            prop_assert!(record.processed_ms >= record.received_ms);
            prop_assert!(record.processed_ms >= previous_processed_ms);
            prop_assert!(record.occurred_ms >= 0);
            previous_processed_ms = record.processed_ms;
        }
    }
}
