//! The "Windows" lesson's claims, checked on its presets: the same records fall into one
//! tumbling window, size/hop hopping windows, several sliding windows and one session each, and
//! every window drawn counts exactly the records inside it.

use streamlab_sim::eventtime::{
    four_windows, late_record_many_panes, WindowLane, WindowTypesPicture, WindowTypesRun,
};
use streamlab_sim::window::Timing;

fn at_end(
    scenario: &streamlab_sim::eventtime::EventTimeScenario,
) -> (WindowTypesRun, WindowTypesPicture) {
    let mut run = WindowTypesRun::new(scenario).expect("valid scenario");
    let end_ms = run.worlds()[0].input_end_ms();
    run.advance_to(end_ms);
    let picture = run.picture(0);
    (run, picture)
}

fn windows_per_record(lane: &WindowLane) -> Vec<u32> {
    lane.records.iter().map(|r| r.windows).collect()
}

#[test]
fn each_record_lands_in_one_tumbling_window_two_hopping_ones_and_one_session() {
    let (_, picture) = at_end(&four_windows());
    let [tumbling, hopping, sliding, session] = &picture.lanes[..] else {
        panic!("four lanes");
    };
    assert!(tumbling.records.len() >= 20, "{}", tumbling.records.len());
    assert!(windows_per_record(tumbling).iter().all(|&n| n == 1));
    assert!(windows_per_record(hopping).iter().all(|&n| n == 2));
    assert!(windows_per_record(session).iter().all(|&n| n == 1));
    assert_eq!((tumbling.rows, hopping.rows, session.rows), (1, 2, 1));
    // Sliding windows: one per distinct set of records within 10 s, so a record sits in many.
    let most = windows_per_record(sliding).into_iter().max().unwrap();
    assert!(most >= 5, "a record in at most {most} sliding windows");
    assert!(sliding.windows.len() > 2 * tumbling.windows.len());
}

#[test]
fn every_window_drawn_counts_exactly_the_records_inside_it() {
    let (_, picture) = at_end(&four_windows());
    for lane in &picture.lanes {
        for window in &lane.windows {
            let inside = lane
                .records
                .iter()
                .filter(|r| (window.start_ms..window.end_ms).contains(&r.event_ms))
                .count() as u64;
            assert_eq!(window.count, inside, "{:?} {window:?}", lane.spec);
            assert!(window.fired, "everything fires at the end of input");
        }
    }
}

#[test]
fn sessions_are_separated_by_at_least_the_gap() {
    let scenario = four_windows();
    let (_, picture) = at_end(&scenario);
    let session = &picture.lanes[3];
    let gap_ms = scenario.compared.session_gap_ms;
    assert!(session.windows.len() >= 3, "{}", session.windows.len());
    for pair in session.windows.windows(2) {
        // A session ends one gap after its last record, and the next starts at a record.
        let last_record_ms = pair[0].end_ms - gap_ms;
        assert!(pair[1].start_ms - last_record_ms >= gap_ms, "{pair:?}");
    }
}

#[test]
fn one_late_record_refires_more_hopping_and_sliding_windows_than_tumbling_ones() {
    let (run, _) = at_end(&late_record_many_panes());
    let late_panes: Vec<usize> = run
        .worlds()
        .iter()
        .map(|w| {
            w.event_time_panes()
                .iter()
                .filter(|p| p.timing == Timing::Late)
                .count()
        })
        .collect();
    let [tumbling, hopping, sliding, _session] = late_panes[..] else {
        panic!("four runs");
    };
    assert!(tumbling > 0, "{late_panes:?}");
    assert!(hopping > tumbling, "{late_panes:?}");
    assert!(sliding > hopping, "{late_panes:?}");
}

#[test]
fn a_busy_device_caps_the_compared_sliding_windows_instead_of_refusing_the_scenario() {
    let mut scenario = four_windows();
    scenario.events_per_second = 200;
    // 200 records/s on one device: 100 records take 500 ms.
    assert_eq!(scenario.longest_sliding_time_difference_ms(), 500);
    scenario
        .validate()
        .expect("the comparison never makes a scenario invalid");
    let run = WindowTypesRun::new(&scenario).expect("runs");
    assert_eq!(
        run.picture(0).lanes[2].spec,
        streamlab_sim::window::WindowSpec::Sliding {
            time_difference_ms: 500
        }
    );
}
