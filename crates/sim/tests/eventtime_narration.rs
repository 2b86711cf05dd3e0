//! What each event-time lesson's narration says, read off the core's typed events alone: the
//! outage and the processing-time spike ("Which clock?"), window-level firing, late panes,
//! retractions, drops, side outputs and idleness ("Watermarks and late events"), and the four
//! window types firing and firing again ("Windows"). Events hold numbers and tags, never
//! sentences, so rewording a sentence changes no trace hash.

use serde_json::Value;
use streamlab_sim::eventtime::lane_events::{self, WindowTypesEventKind};
use streamlab_sim::eventtime::{
    drop_vs_restate_vs_side, events, four_windows, idle_partition_stalls, late_record_many_panes,
    mobile_stragglers, outage_spike, EventTimeEvent, EventTimeEventKind, EventTimeScenario,
    EventTimeWorld, LateRecordPolicy, TimeDomain, WindowKind, WindowTypesRun, PRESETS,
};
use streamlab_sim::window::{Timing, WindowSpec};

fn finished(scenario: EventTimeScenario) -> EventTimeWorld {
    let mut world = EventTimeWorld::new(scenario).expect("valid scenario");
    world.run_to_end();
    world
}

/// Every sentence of a run, in order.
fn narration(world: &EventTimeWorld) -> Vec<String> {
    world.events().iter().filter_map(events::narrate).collect()
}

fn says(lines: &[String], phrase: &str) -> bool {
    lines.iter().any(|line| line.contains(phrase))
}

fn windows_run_to_end(scenario: &EventTimeScenario) -> WindowTypesRun {
    let mut run = WindowTypesRun::new(scenario).expect("valid scenario");
    let end_ms = run.worlds()[0].input_end_ms();
    run.advance_to(end_ms);
    run
}

#[test]
fn which_clock_tells_the_outage_and_the_spike_it_leaves_in_processing_time() {
    let lines = narration(&finished(outage_spike()));
    assert!(lines[..3].iter().all(|line| !line.contains("backlog from")));
    assert!(says(&lines, "The processor stopped at 1:00."), "{lines:#?}");
    assert!(
        says(&lines, "The processor is back at 1:40 with "),
        "{lines:#?}"
    );
    assert!(
        says(&lines, "the backlog from the outage drained into it"),
        "{lines:#?}"
    );
    assert!(
        says(
            &lines,
            "Window 1:00–1:30 by processing time counted 0 records, but"
        ),
        "{lines:#?}"
    );
    assert!(
        says(&lines, "the processor was not reading them then"),
        "{lines:#?}"
    );
    // Every event-time window matches the truth; each is told once, for all devices.
    let event_time: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains("by event time"))
        .collect();
    assert_eq!(event_time.len(), 6, "{event_time:#?}");
    assert!(event_time
        .iter()
        .all(|line| line.contains("the same as the truth")));
}

#[test]
fn the_outage_is_told_in_time_order_with_the_backlog_it_left() {
    let world = finished(outage_spike());
    let told: Vec<(u64, EventTimeEventKind)> = world
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventTimeEventKind::OutageStarted { .. } | EventTimeEventKind::ProcessorBack { .. }
            )
        })
        .map(|e| (e.at_ms, e.kind))
        .collect();
    let waiting = world
        .records()
        .iter()
        .filter(|r| r.received_ms <= 100_000 && r.processed_ms >= 100_000)
        .count() as u64;
    assert_eq!(
        told,
        vec![
            (
                60_000,
                EventTimeEventKind::OutageStarted {
                    duration_ms: 40_000
                }
            ),
            (
                100_000,
                EventTimeEventKind::ProcessorBack {
                    waiting,
                    catch_up_records_per_second: 200
                }
            ),
        ]
    );
}

#[test]
fn an_idle_partition_is_declared_idle_and_later_wakes_up_late() {
    let world = finished(idle_partition_stalls());
    let lines = narration(&world);
    assert!(says(&lines, "declared idle"), "{lines:#?}");
    assert!(
        says(&lines, "Partition 0 had no record for 10 s"),
        "{lines:#?}"
    );
    assert!(
        says(&lines, "Partition 0 delivered a record again"),
        "{lines:#?}"
    );
    // The lesson is about event time: its processing-time windows are not narrated.
    assert!(!says(&lines, "by processing time"), "{lines:#?}");
    // The windows the silent partition held back fire right after it is declared idle.
    let idle_at_ms = world
        .events()
        .iter()
        .find(|e| matches!(e.kind, EventTimeEventKind::PartitionIdle { .. }))
        .unwrap()
        .at_ms;
    assert!(world.events().iter().any(|e| e.at_ms == idle_at_ms
        && matches!(
            e.kind,
            EventTimeEventKind::WindowClosed {
                clock: TimeDomain::EventTime,
                ..
            }
        )));
}

#[test]
fn restating_retracts_and_dropping_says_nobody_is_told() {
    let lines = narration(&finished(drop_vs_restate_vs_side()));
    assert!(says(&lines, "fired again: "), "{lines:#?}");
    assert!(says(&lines, "(restate: retract "), "{lines:#?}");
    assert!(says(&lines, "ran out: dropped."), "{lines:#?}");
    assert!(says(&lines, "by event time fired at"), "{lines:#?}");

    let mut scenario = drop_vs_restate_vs_side();
    scenario.late_policy = LateRecordPolicy::SideOutput;
    let lines = narration(&finished(scenario));
    assert!(says(&lines, "goes to the side output"), "{lines:#?}");
    assert!(
        says(&lines, "(an update; the old answer stands"),
        "{lines:#?}"
    );
    assert!(!says(&lines, "dropped."), "{lines:#?}");
}

#[test]
fn mobile_stragglers_tell_their_late_records() {
    let lines = narration(&finished(mobile_stragglers()));
    assert!(
        says(&lines, "(device 7)"),
        "the skewed phone's records are too late"
    );
    assert!(says(&lines, "by event time fired at"), "{lines:#?}");
}

#[test]
fn late_panes_retractions_drops_and_side_outputs_are_always_narrated() {
    for policy in [
        LateRecordPolicy::Drop,
        LateRecordPolicy::Restate,
        LateRecordPolicy::SideOutput,
    ] {
        for window in [
            WindowSpec::Tumbling { size_ms: 10_000 },
            WindowSpec::Session { gap_ms: 400 },
        ] {
            let mut scenario = drop_vs_restate_vs_side();
            scenario.late_policy = policy;
            scenario.window = window;
            let world = finished(scenario);
            for event in world.events() {
                let must = matches!(
                    event.kind,
                    EventTimeEventKind::LatePaneFired { .. }
                        | EventTimeEventKind::RecordTooLate { .. }
                        | EventTimeEventKind::SessionsMerged { .. }
                        | EventTimeEventKind::PartitionIdle { .. }
                        | EventTimeEventKind::PartitionActive { .. }
                        | EventTimeEventKind::OutageStarted { .. }
                        | EventTimeEventKind::ProcessorBack { .. }
                );
                assert!(!must || events::narrate(event).is_some(), "{event:?}");
            }
        }
    }
}

#[test]
fn a_shared_windows_devices_are_told_once_for_the_window() {
    let world = finished(drop_vs_restate_vs_side());
    let on_time: Vec<&EventTimeEvent> = world
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventTimeEventKind::PaneFired {
                    clock: TimeDomain::EventTime,
                    ..
                }
            )
        })
        .collect();
    assert!(!on_time.is_empty());
    assert!(on_time.iter().all(|e| events::narrate(e).is_none()));
    // Every window's summary adds up its devices' first answers.
    for event in world.events() {
        let EventTimeEventKind::WindowClosed {
            clock: TimeDomain::EventTime,
            start_ms,
            end_ms,
            count,
            ..
        } = event.kind
        else {
            continue;
        };
        let answered: u64 = world
            .event_time_panes()
            .iter()
            .filter(|p| p.timing == Timing::OnTime)
            .filter(|p| (p.window.start_ms, p.window.end_ms) == (start_ms, end_ms))
            .map(|p| p.count)
            .sum();
        assert_eq!(count, answered, "{event:?}");
    }
}

#[test]
fn the_four_windows_fire_once_each_without_stragglers() {
    let run = windows_run_to_end(&four_windows());
    let lines: Vec<String> = run
        .events()
        .iter()
        .filter_map(lane_events::narrate)
        .collect();
    assert!(
        says(&lines, "Tumbling window 0:00–0:10 fired with"),
        "{lines:#?}"
    );
    assert!(says(&lines, "Session window "), "{lines:#?}");
    assert!(!says(&lines, "fired again"), "{lines:#?}");
    // Hopping and sliding windows fire too, but only their late panes are news.
    assert!(run.events().iter().any(|e| e.lane == WindowKind::Sliding));
    assert!(!says(&lines, "Sliding window"), "{lines:#?}");
}

#[test]
fn one_late_record_makes_windows_fire_again() {
    let run = windows_run_to_end(&late_record_many_panes());
    let lines: Vec<String> = run
        .events()
        .iter()
        .filter_map(lane_events::narrate)
        .collect();
    assert!(says(&lines, "fired again"), "{lines:#?}");
    let late_per_lane = |lane| {
        run.events()
            .iter()
            .filter(|e| {
                e.lane == lane
                    && matches!(e.kind, WindowTypesEventKind::PaneFired { late: true, .. })
            })
            .count()
    };
    let tumbling = late_per_lane(WindowKind::Tumbling);
    assert!(tumbling > 0);
    assert!(late_per_lane(WindowKind::Hopping) > tumbling);
    assert!(late_per_lane(WindowKind::Sliding) > late_per_lane(WindowKind::Hopping));
    // The lanes' late panes are the runs' own, one for one.
    for (world, lane) in run.worlds().iter().zip([
        WindowKind::Tumbling,
        WindowKind::Hopping,
        WindowKind::Sliding,
        WindowKind::Session,
    ]) {
        let late = world
            .event_time_panes()
            .iter()
            .filter(|p| p.timing == Timing::Late)
            .count();
        assert_eq!(late_per_lane(lane), late, "{lane:?}");
    }
}

#[test]
fn the_windows_lessons_events_come_in_time_order_however_the_clock_moves() {
    let scenario = late_record_many_panes();
    let jumped = windows_run_to_end(&scenario);
    let mut stepped = WindowTypesRun::new(&scenario).unwrap();
    let end_ms = stepped.worlds()[0].input_end_ms();
    let mut at_ms = 0;
    while at_ms < end_ms {
        stepped.advance_to(at_ms);
        at_ms += 777;
    }
    stepped.advance_to(end_ms);
    assert_eq!(jumped.events(), stepped.events());
    assert!(jumped
        .events()
        .windows(2)
        .all(|pair| pair[0].at_ms <= pair[1].at_ms));
}

/// An enum tag as serde writes it: one word-like token, where a sentence has spaces.
fn is_tag(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn prose_in(value: &Value) -> Vec<String> {
    match value {
        Value::String(text) if !is_tag(text) => vec![text.clone()],
        Value::Array(items) => items.iter().flat_map(prose_in).collect(),
        Value::Object(fields) => fields.values().flat_map(prose_in).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn events_hold_numbers_and_tags_but_no_sentences() {
    for preset in PRESETS {
        let scenario = (preset.build)();
        let world = finished(scenario.clone());
        assert!(!world.events().is_empty(), "{}", preset.slug);
        for event in world.events() {
            let found = prose_in(&serde_json::to_value(event).unwrap());
            assert!(found.is_empty(), "{}: {found:?}", preset.slug);
        }
        for event in windows_run_to_end(&scenario).events() {
            let found = prose_in(&serde_json::to_value(event).unwrap());
            assert!(found.is_empty(), "{}: {found:?}", preset.slug);
        }
    }
}
