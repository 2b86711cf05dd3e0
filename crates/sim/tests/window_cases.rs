//! Hand-computed cases for the window operator, one per boundary of the `streamlab window`
//! contract. Each case is a transcript: every output line is prefixed by the input that caused
//! it (`a@15 =>` for the event with key `a` at time 15, `end =>` for the end of input), and
//! the last line is the summary, so a pane that fires one event too early or too late fails.

use streamlab_sim::window::{
    ConfigError, EventError, LatePolicy, OpenWindow, Output, Timing, Watermark, WindowConfig,
    WindowOperator, WindowSpec, WindowState, MAX_DURATION_MS, MAX_TIME_MS,
};

fn config(
    window: WindowSpec,
    max_out_of_orderness_ms: i64,
    allowed_lateness_ms: i64,
) -> WindowConfig {
    WindowConfig {
        window,
        max_out_of_orderness_ms,
        allowed_lateness_ms,
        // Side output makes every drop visible in the transcript.
        late: LatePolicy::Side,
    }
}

fn tumbling(size_ms: i64) -> WindowSpec {
    WindowSpec::Tumbling { size_ms }
}

fn hopping(size_ms: i64, hop_ms: i64) -> WindowSpec {
    WindowSpec::Hopping { size_ms, hop_ms }
}

fn session(gap_ms: i64) -> WindowSpec {
    WindowSpec::Session { gap_ms }
}

fn sliding(time_difference_ms: i64) -> WindowSpec {
    WindowSpec::Sliding { time_difference_ms }
}

fn render(output: &Output<String>) -> String {
    match output {
        Output::Pane(pane) => {
            let timing = match pane.timing {
                Timing::OnTime => "on_time",
                Timing::Late => "late",
            };
            format!(
                "{} [{},{}) {} {timing}",
                pane.key, pane.start_ms, pane.end_ms, pane.count
            )
        }
        Output::Side { key, time_ms } => format!("side {key} {time_ms}"),
    }
}

/// Runs `events` ("key@time") through a fresh operator and compares the transcript.
fn check(config: WindowConfig, events: &[&str], expected: &[&str]) {
    let mut operator = WindowOperator::<String>::new(config).expect("valid config");
    let mut transcript = Vec::new();
    let mut produced = Vec::new();
    for event in events {
        let (key, time) = event.rsplit_once('@').expect("events are written key@time");
        let time_ms = time.parse().expect("event time is an integer");
        operator
            .push(key, time_ms, &mut produced)
            .expect("valid event");
        for output in produced.drain(..) {
            transcript.push(format!("{event} => {}", render(&output)));
        }
    }
    operator.finish(&mut produced);
    for output in produced.drain(..) {
        transcript.push(format!("end => {}", render(&output)));
    }
    let summary = operator.summary();
    transcript.push(format!(
        "summary events={} dropped={} panes={}",
        summary.events, summary.dropped, summary.panes
    ));
    assert_eq!(
        transcript, expected,
        "\nconfig: {config:?}\nevents: {events:?}"
    );
}

// --- Window boundaries and the watermark ---

#[test]
fn an_event_exactly_at_a_window_end_belongs_to_the_next_window() {
    check(
        config(tumbling(10), 100, 0),
        &["a@0", "a@9", "a@10"],
        &[
            "end => a [0,10) 2 on_time",
            "end => a [10,20) 1 on_time",
            "summary events=3 dropped=0 panes=2",
        ],
    );
}

#[test]
fn a_window_fires_when_the_watermark_reaches_its_end_exactly() {
    // W = time - 3: 12 gives W = 9 (no pane), 13 gives W = 10 = end (pane).
    check(
        config(tumbling(10), 3, 100),
        &["a@5", "a@12", "a@13"],
        &[
            "a@13 => a [0,10) 1 on_time",
            "end => a [10,20) 2 on_time",
            "summary events=3 dropped=0 panes=2",
        ],
    );
}

#[test]
fn the_watermark_never_moves_back() {
    let mut operator = WindowOperator::<String>::new(config(tumbling(10), 30, 0)).unwrap();
    let mut out = Vec::new();
    assert_eq!(operator.watermark(), Watermark::MinusInfinity);
    operator.push("a", 100, &mut out).unwrap();
    assert_eq!(operator.watermark(), Watermark::At(70));
    operator.push("a", 50, &mut out).unwrap();
    assert_eq!(operator.watermark(), Watermark::At(70));
    operator.finish(&mut out);
    assert_eq!(operator.watermark(), Watermark::PlusInfinity);
}

#[test]
fn the_first_event_only_moves_the_watermark_from_minus_infinity() {
    // Before the first event nothing is late, however small its time.
    check(
        config(tumbling(10), 0, 0),
        &["a@0"],
        &[
            "end => a [0,10) 1 on_time",
            "summary events=1 dropped=0 panes=1",
        ],
    );
}

// --- Allowed lateness ---

#[test]
fn a_window_whose_end_plus_lateness_equals_the_watermark_is_gone() {
    // After a@15, W = 15 = end 10 + lateness 5: [0,10) fires, then is discarded.
    check(
        config(tumbling(10), 0, 5),
        &["a@0", "a@15", "a@9"],
        &[
            "a@15 => a [0,10) 1 on_time",
            "a@9 => side a 9",
            "end => a [10,20) 1 on_time",
            "summary events=3 dropped=1 panes=2",
        ],
    );
}

#[test]
fn one_ms_before_the_lateness_ends_an_event_still_gets_a_late_pane() {
    check(
        config(tumbling(10), 0, 5),
        &["a@0", "a@14", "a@9", "a@15", "a@8"],
        &[
            "a@14 => a [0,10) 1 on_time",
            "a@9 => a [0,10) 2 late",
            "a@8 => side a 8",
            "end => a [10,20) 2 on_time",
            "summary events=5 dropped=1 panes=3",
        ],
    );
}

#[test]
fn late_panes_carry_the_accumulated_count() {
    check(
        config(tumbling(10), 0, 100),
        &["a@1", "a@2", "a@12", "a@3", "a@4"],
        &[
            "a@12 => a [0,10) 2 on_time",
            "a@3 => a [0,10) 3 late",
            "a@4 => a [0,10) 4 late",
            "end => a [10,20) 1 on_time",
            "summary events=5 dropped=0 panes=4",
        ],
    );
}

#[test]
fn the_first_event_of_an_already_passed_window_fires_a_late_pane_at_once() {
    check(
        config(tumbling(10), 0, 20),
        &["a@25", "b@5"],
        &[
            "b@5 => b [0,10) 1 late",
            "end => a [20,30) 1 on_time",
            "summary events=2 dropped=0 panes=2",
        ],
    );
}

#[test]
fn with_zero_lateness_a_window_fires_and_is_gone_in_the_same_step() {
    check(
        config(tumbling(10), 0, 0),
        &["a@0", "a@10", "a@9"],
        &[
            "a@10 => a [0,10) 1 on_time",
            "a@9 => side a 9",
            "end => a [10,20) 1 on_time",
            "summary events=3 dropped=1 panes=2",
        ],
    );
}

#[test]
fn the_drop_policy_counts_dropped_events_without_printing_them() {
    let mut dropping = config(tumbling(10), 0, 0);
    dropping.late = LatePolicy::Drop;
    check(
        dropping,
        &["a@0", "a@10", "a@9", "b@3"],
        &[
            "a@10 => a [0,10) 1 on_time",
            "end => a [10,20) 1 on_time",
            "summary events=4 dropped=2 panes=2",
        ],
    );
}

#[test]
fn a_late_window_that_fires_nothing_more_at_the_end_of_input() {
    // [0,10) already has its latest pane out: the end of input fires only [10,20).
    check(
        config(tumbling(10), 0, 1000),
        &["a@0", "a@15", "a@5"],
        &[
            "a@15 => a [0,10) 1 on_time",
            "a@5 => a [0,10) 2 late",
            "end => a [10,20) 1 on_time",
            "summary events=3 dropped=0 panes=3",
        ],
    );
}

// --- Output order ---

#[test]
fn panes_firing_together_are_ordered_by_end_then_key_bytes() {
    // The out-of-orderness holds everything back until z@200 moves W to 100.
    check(
        config(tumbling(10), 100, 0),
        &["b@15", "é@3", "a@12", "B@5", "a@3", "z@200"],
        &[
            "z@200 => B [0,10) 1 on_time",
            "z@200 => a [0,10) 1 on_time",
            "z@200 => é [0,10) 1 on_time",
            "z@200 => a [10,20) 1 on_time",
            "z@200 => b [10,20) 1 on_time",
            "end => z [200,210) 1 on_time",
            "summary events=6 dropped=0 panes=6",
        ],
    );
}

#[test]
fn panes_with_one_end_are_ordered_by_start_before_key() {
    // Both sessions end at 18; b's starts earlier, so it comes first despite its key.
    check(
        config(session(10), 100, 0),
        &["b@5", "b@8", "a@8"],
        &[
            "end => b [5,18) 2 on_time",
            "end => a [8,18) 1 on_time",
            "summary events=3 dropped=0 panes=2",
        ],
    );
}

#[test]
fn hopping_panes_come_out_by_end_then_key() {
    check(
        config(hopping(10, 5), 0, 0),
        &["b@7", "a@6"],
        &[
            "end => a [0,10) 1 on_time",
            "end => b [0,10) 1 on_time",
            "end => a [5,15) 1 on_time",
            "end => b [5,15) 1 on_time",
            "summary events=2 dropped=0 panes=4",
        ],
    );
}

// --- Hopping windows ---

#[test]
fn hopping_windows_start_at_negative_multiples_of_the_hop() {
    check(
        config(hopping(10, 3), 0, 0),
        &["a@0"],
        &[
            "end => a [-9,1) 1 on_time",
            "end => a [-6,4) 1 on_time",
            "end => a [-3,7) 1 on_time",
            "end => a [0,10) 1 on_time",
            "summary events=1 dropped=0 panes=4",
        ],
    );
}

#[test]
fn hopping_windows_fire_one_by_one_as_the_watermark_passes_their_ends() {
    check(
        config(hopping(10, 5), 0, 0),
        &["a@3", "a@5"],
        &[
            "a@5 => a [-5,5) 1 on_time",
            "end => a [0,10) 2 on_time",
            "end => a [5,15) 1 on_time",
            "summary events=2 dropped=0 panes=3",
        ],
    );
}

#[test]
fn an_event_partly_too_late_is_added_only_to_its_live_windows_and_not_dropped() {
    // a@7 belongs to [0,10), gone since W = 12, and to [5,15), still open.
    check(
        config(hopping(10, 5), 0, 0),
        &["a@0", "a@12", "a@7"],
        &[
            "a@12 => a [-5,5) 1 on_time",
            "a@12 => a [0,10) 1 on_time",
            "end => a [5,15) 2 on_time",
            "end => a [10,20) 1 on_time",
            "summary events=3 dropped=0 panes=4",
        ],
    );
}

#[test]
fn an_event_too_late_for_all_its_hopping_windows_is_dropped() {
    check(
        config(hopping(10, 5), 0, 0),
        &["a@0", "a@15", "a@7"],
        &[
            "a@15 => a [-5,5) 1 on_time",
            "a@15 => a [0,10) 1 on_time",
            "a@7 => side a 7",
            "end => a [10,20) 1 on_time",
            "end => a [15,25) 1 on_time",
            "summary events=3 dropped=1 panes=4",
        ],
    );
}

#[test]
fn a_late_event_refires_every_fired_hopping_window_it_belongs_to() {
    check(
        config(hopping(10, 5), 0, 10),
        &["a@0", "a@11", "a@4"],
        &[
            "a@11 => a [-5,5) 1 on_time",
            "a@11 => a [0,10) 1 on_time",
            "a@4 => a [-5,5) 2 late",
            "a@4 => a [0,10) 2 late",
            "end => a [5,15) 1 on_time",
            "end => a [10,20) 1 on_time",
            "summary events=3 dropped=0 panes=6",
        ],
    );
}

// --- Session windows ---

#[test]
fn sessions_that_only_touch_do_not_merge() {
    check(
        config(session(10), 0, 100),
        &["a@0", "a@10"],
        &[
            "a@10 => a [0,10) 1 on_time",
            "end => a [10,20) 1 on_time",
            "summary events=2 dropped=0 panes=2",
        ],
    );
}

#[test]
fn overlapping_sessions_merge_and_fire_once_on_time() {
    check(
        config(session(10), 100, 0),
        &["a@0", "a@15", "a@8"],
        &[
            "end => a [0,25) 3 on_time",
            "summary events=3 dropped=0 panes=1",
        ],
    );
}

#[test]
fn a_late_event_bridging_two_fired_sessions_fires_the_merge_late_at_once() {
    check(
        config(session(10), 0, 100),
        &["a@0", "a@15", "a@30", "a@8"],
        &[
            "a@15 => a [0,10) 1 on_time",
            "a@30 => a [15,25) 1 on_time",
            "a@8 => a [0,25) 3 late",
            "end => a [30,40) 1 on_time",
            "summary events=4 dropped=0 panes=4",
        ],
    );
}

#[test]
fn a_late_event_joining_a_fired_session_refires_it_with_the_new_bounds() {
    check(
        config(session(10), 0, 100),
        &["a@0", "a@20", "a@3"],
        &[
            "a@20 => a [0,10) 1 on_time",
            "a@3 => a [0,13) 2 late",
            "end => a [20,30) 1 on_time",
            "summary events=3 dropped=0 panes=3",
        ],
    );
}

#[test]
fn a_merge_with_a_fired_session_ending_ahead_of_the_watermark_waits_and_fires_late() {
    // a@5 merges fired [0,10) with open [12,22) into [0,22), which ends after W = 12, so it
    // waits; a@18 joins it and it keeps waiting; a@30 moves W past 28 and it fires late.
    check(
        config(session(10), 0, 100),
        &["a@0", "a@12", "a@5", "a@18", "a@30"],
        &[
            "a@12 => a [0,10) 1 on_time",
            "a@30 => a [0,28) 4 late",
            "end => a [30,40) 1 on_time",
            "summary events=5 dropped=0 panes=3",
        ],
    );
}

#[test]
fn a_waiting_merged_session_fires_late_when_the_watermark_reaches_its_end_exactly() {
    check(
        config(session(10), 0, 100),
        &["a@0", "a@12", "a@5", "b@21", "b@22"],
        &[
            "a@12 => a [0,10) 1 on_time",
            "b@22 => a [0,22) 3 late",
            "end => b [21,32) 2 on_time",
            "summary events=5 dropped=0 panes=3",
        ],
    );
}

#[test]
fn a_late_event_stretching_a_fired_session_past_the_watermark_makes_it_wait() {
    // a@8 turns fired [0,10) into [0,18), which ends after W = 12: no pane yet, and a late
    // one (never an on-time one) when b@20 moves W past 18.
    check(
        config(session(10), 0, 100),
        &["a@0", "b@12", "a@8", "b@20"],
        &[
            "b@12 => a [0,10) 1 on_time",
            "b@20 => a [0,18) 2 late",
            "end => b [12,30) 2 on_time",
            "summary events=4 dropped=0 panes=3",
        ],
    );
}

#[test]
fn a_waiting_merged_session_fires_late_at_the_end_of_input() {
    check(
        config(session(10), 0, 100),
        &["a@0", "a@12", "a@5"],
        &[
            "a@12 => a [0,10) 1 on_time",
            "end => a [0,22) 3 late",
            "summary events=3 dropped=0 panes=2",
        ],
    );
}

#[test]
fn the_first_event_of_a_session_behind_the_watermark_fires_late_at_once() {
    check(
        config(session(10), 0, 100),
        &["a@50", "b@30"],
        &[
            "b@30 => b [30,40) 1 late",
            "end => a [50,60) 1 on_time",
            "summary events=2 dropped=0 panes=2",
        ],
    );
}

#[test]
fn a_session_event_is_judged_by_its_own_window_before_merging() {
    // a@15 opens [15,25), gone at W = 30 with zero lateness, so it is dropped even though it
    // overlaps the live session [20,35).
    check(
        config(session(10), 0, 0),
        &["a@20", "a@25", "b@30", "a@15"],
        &[
            "a@15 => side a 15",
            "end => a [20,35) 2 on_time",
            "end => b [30,40) 1 on_time",
            "summary events=4 dropped=1 panes=2",
        ],
    );
}

#[test]
fn a_gone_session_takes_no_part_in_merging() {
    // [0,10) is gone at W = 12 (lateness 2); a@5 opens [5,15), which is not gone and
    // overlaps only the gone session, so it starts afresh with a count of 1.
    check(
        config(session(10), 0, 2),
        &["a@0", "b@12", "a@5"],
        &[
            "b@12 => a [0,10) 1 on_time",
            "end => a [5,15) 1 on_time",
            "end => b [12,22) 1 on_time",
            "summary events=3 dropped=0 panes=3",
        ],
    );
}

#[test]
fn open_windows_show_a_merged_session_waiting_for_its_late_pane() {
    let mut operator = WindowOperator::<String>::new(config(session(10), 0, 100)).unwrap();
    let mut out = Vec::new();
    for time_ms in [0, 12, 5] {
        operator.push("a", time_ms, &mut out).unwrap();
    }
    assert_eq!(
        operator.open_windows(),
        vec![OpenWindow {
            key: "a".to_string(),
            start_ms: 0,
            end_ms: 22,
            count: 3,
            state: WindowState::LatePaneDue,
        }]
    );
    operator.finish(&mut out);
    assert!(operator.open_windows().is_empty());
}

#[test]
fn open_windows_list_fired_windows_until_their_lateness_ends() {
    let mut operator = WindowOperator::<String>::new(config(tumbling(10), 0, 5)).unwrap();
    let mut out = Vec::new();
    operator.push("b", 3, &mut out).unwrap();
    operator.push("a", 12, &mut out).unwrap();
    let states: Vec<_> = operator
        .open_windows()
        .into_iter()
        .map(|window| (window.key, window.start_ms, window.count, window.state))
        .collect();
    assert_eq!(
        states,
        vec![
            ("b".to_string(), 0, 1, WindowState::Fired),
            ("a".to_string(), 10, 1, WindowState::Open),
        ]
    );
}

// --- End of input and empty input ---

#[test]
fn empty_input_gives_only_the_summary() {
    check(
        config(session(10), 0, 0),
        &[],
        &["summary events=0 dropped=0 panes=0"],
    );
}

#[test]
fn finishing_twice_fires_nothing_the_second_time_and_refuses_more_events() {
    let mut operator = WindowOperator::<String>::new(config(tumbling(10), 0, 0)).unwrap();
    let mut out = Vec::new();
    operator.push("a", 1, &mut out).unwrap();
    operator.finish(&mut out);
    assert_eq!(out.len(), 1);
    operator.finish(&mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(operator.push("a", 2, &mut out), Err(EventError::Finished));
    assert_eq!(operator.summary().events, 1);
}

// --- Refused events and configurations ---

#[test]
fn a_negative_or_too_large_time_is_refused_and_leaves_the_state_alone() {
    let mut operator = WindowOperator::<String>::new(config(tumbling(10), 0, 0)).unwrap();
    let mut out = Vec::new();
    assert_eq!(
        operator.push("a", -1, &mut out),
        Err(EventError::NegativeTime { time_ms: -1 })
    );
    assert_eq!(
        operator.push("a", MAX_TIME_MS + 1, &mut out),
        Err(EventError::TimeTooLarge {
            time_ms: MAX_TIME_MS + 1
        })
    );
    assert!(out.is_empty());
    assert_eq!(operator.watermark(), Watermark::MinusInfinity);
    assert_eq!(operator.summary().events, 0);
}

#[test]
fn extreme_but_accepted_values_do_not_overflow() {
    let extreme = config(
        hopping(MAX_DURATION_MS, MAX_DURATION_MS / 2),
        MAX_DURATION_MS,
        MAX_DURATION_MS,
    );
    let half = MAX_DURATION_MS / 2;
    check(
        extreme,
        &["a@0", &format!("a@{MAX_TIME_MS}")],
        &[
            &format!("end => a [-{half},{half}) 1 on_time"),
            &format!("end => a [0,{MAX_DURATION_MS}) 1 on_time"),
            &format!("end => a [{half},{}) 1 on_time", half + MAX_DURATION_MS),
            &format!(
                "end => a [{MAX_TIME_MS},{}) 1 on_time",
                MAX_TIME_MS + MAX_DURATION_MS
            ),
            "summary events=2 dropped=0 panes=4",
        ],
    );
    check(
        config(session(MAX_DURATION_MS), 0, MAX_DURATION_MS),
        &[&format!("a@{MAX_TIME_MS}"), "a@0"],
        &[
            // [0, 2^61) only touches [2^61, 2^62), and W = 2^61 has reached its end.
            &format!("a@0 => a [0,{MAX_DURATION_MS}) 1 late"),
            &format!(
                "end => a [{MAX_TIME_MS},{}) 1 on_time",
                MAX_TIME_MS + MAX_DURATION_MS
            ),
            "summary events=2 dropped=0 panes=2",
        ],
    );
}

fn refused(window: WindowSpec, out_of_orderness_ms: i64, lateness_ms: i64) -> String {
    WindowOperator::<String>::new(config(window, out_of_orderness_ms, lateness_ms))
        .expect_err("config must be refused")
        .to_string()
}

#[test]
fn invalid_numbers_in_the_config_are_refused_with_the_field_name() {
    assert_eq!(
        refused(tumbling(0), 0, 0),
        "window.size must be a positive number of ms, got 0"
    );
    assert_eq!(
        refused(session(-5), 0, 0),
        "window.gap must be a positive number of ms, got -5"
    );
    assert_eq!(
        refused(hopping(10, 0), 0, 0),
        "window.hop must be a positive number of ms, got 0"
    );
    assert_eq!(
        refused(tumbling(10), -1, 0),
        "max_out_of_orderness must be zero or more ms, got -1"
    );
    assert_eq!(
        refused(tumbling(10), 0, -1),
        "allowed_lateness must be zero or more ms, got -1"
    );
    assert!(refused(tumbling(MAX_DURATION_MS + 1), 0, 0).starts_with("window.size is "));
    assert!(refused(tumbling(10), 0, i64::MAX).starts_with("allowed_lateness is "));
}

#[test]
fn a_hop_longer_than_the_size_or_too_many_windows_per_event_is_refused() {
    assert_eq!(
        WindowOperator::<String>::new(config(hopping(10, 11), 0, 0)).unwrap_err(),
        ConfigError::HopLongerThanSize {
            hop_ms: 11,
            size_ms: 10
        }
    );
    assert_eq!(
        WindowOperator::<String>::new(config(hopping(10_001, 1), 0, 0)).unwrap_err(),
        ConfigError::TooManyWindowsPerEvent { windows: 10_001 }
    );
    assert!(WindowOperator::<String>::new(config(hopping(10_000, 1), 0, 0)).is_ok());
}

#[test]
fn the_config_parses_from_the_contracts_json_and_nothing_else() {
    let parsed: WindowConfig = serde_json::from_str(
        r#"{"window": {"type": "hopping", "size": 60000, "hop": 20000},
            "max_out_of_orderness": 5000, "allowed_lateness": 10000, "late": "side"}"#,
    )
    .unwrap();
    assert_eq!(
        parsed,
        WindowConfig {
            window: hopping(60_000, 20_000),
            max_out_of_orderness_ms: 5_000,
            allowed_lateness_ms: 10_000,
            late: LatePolicy::Side,
        }
    );
    let error_for = |json: &str| {
        serde_json::from_str::<WindowConfig>(json)
            .unwrap_err()
            .to_string()
    };
    let base = |window: &str, extra: &str| {
        format!(
            r#"{{"window": {window}, "max_out_of_orderness": 0, "allowed_lateness": 0, "late": "drop"{extra}}}"#
        )
    };
    assert!(
        error_for(&base(r#"{"type":"global","size":1}"#, "")).contains("unknown variant `global`")
    );
    assert!(
        error_for(&base(r#"{"type":"tumbling","size":1,"hop":1}"#, ""))
            .contains("unknown field `hop`")
    );
    assert!(error_for(&base(
        r#"{"type":"tumbling","size":1}"#,
        r#", "watermark": 1"#
    ))
    .contains("unknown field `watermark`"));
    assert!(error_for(&base(r#"{"type":"tumbling","size":1.5}"#, ""))
        .contains("invalid type: floating point"));
    assert!(error_for(
        r#"{"window": {"type":"tumbling","size":1}, "max_out_of_orderness": 0, "late": "drop"}"#
    )
    .contains("missing field `allowed_lateness`"));
    assert!(
        error_for(&base(r#"{"type":"session","gap":1}"#, "").replace("drop", "keep"))
            .contains("unknown variant `keep`")
    );

    // serde's derives would also take these; the contract's shape is objects and a string.
    let as_array = r#"[{"type":"tumbling","size":1}, 0, 0, "drop"]"#;
    assert!(error_for(as_array).contains("invalid type: sequence"));
    assert!(error_for(&base(r#"["tumbling", 1]"#, "")).contains("invalid type: sequence"));
    let late_as_map =
        base(r#"{"type":"tumbling","size":1}"#, "").replace(r#""drop""#, r#"{"drop":null}"#);
    assert!(error_for(&late_as_map).contains("invalid type: map"));
    assert!(
        error_for(&base(r#"{"size":1,"type":"tumbling","size":2}"#, ""))
            .contains("duplicate field `size`")
    );
    assert!(error_for(&base(r#"{"type":"hopping","size":10}"#, "")).contains("missing field `hop`"));
    assert!(
        error_for(&base(r#"{"type":"session","gap":1,"size":1}"#, ""))
            .contains("unknown field `size`, expected `type` or `gap`")
    );
    // The type may follow the numbers.
    let late_type: WindowConfig =
        serde_json::from_str(&base(r#"{"gap":7,"type":"session"}"#, "")).unwrap();
    assert_eq!(late_type.window, session(7));
    // What serializing writes parses back to the same config.
    let written = serde_json::to_string(&parsed).unwrap();
    assert_eq!(
        serde_json::from_str::<WindowConfig>(&written).unwrap(),
        parsed
    );
}

// --- Sliding windows (Kafka Streams' SlidingWindows; an extension of the contract) ---

#[test]
fn sliding_windows_are_the_five_of_kafka_streams_own_example() {
    // SlidingWindows' documentation: a time difference of 5000 and records at 8000, 9200 and
    // 12400 make [3000;8000], [4200;9200], [7400;12400], [8001;13001] and [9201;14201],
    // inclusive, which panes report half-open.
    check(
        config(sliding(5_000), 100_000, 0),
        &["A@8000", "A@9200", "A@12400"],
        &[
            "end => A [3000,8001) 1 on_time",
            "end => A [4200,9201) 2 on_time",
            "end => A [7400,12401) 3 on_time",
            "end => A [8001,13002) 2 on_time",
            "end => A [9201,14202) 1 on_time",
            "summary events=3 dropped=0 panes=5",
        ],
    );
}

#[test]
fn records_exactly_the_time_difference_apart_share_a_window_one_more_apart_do_not() {
    check(
        config(sliding(10), 100, 0),
        &["a@0", "a@10", "b@0", "b@11"],
        &[
            "end => a [-10,1) 1 on_time",
            "end => b [-10,1) 1 on_time",
            "end => a [0,11) 2 on_time",
            "end => a [1,12) 1 on_time",
            "end => b [1,12) 1 on_time",
            "summary events=4 dropped=0 panes=5",
        ],
    );
}

#[test]
fn a_sliding_window_fires_when_the_watermark_passes_its_inclusive_end() {
    // [0;10] ends at 10 inclusive: W = 10 does not fire it yet, W = 11 does.
    check(
        config(sliding(10), 0, 0),
        &["a@0", "a@10", "b@11", "b@12", "b@30"],
        &[
            "a@10 => a [-10,1) 1 on_time",
            "b@11 => a [0,11) 2 on_time",
            "b@12 => a [1,12) 1 on_time",
            "b@12 => b [1,12) 1 on_time",
            "b@30 => b [2,13) 2 on_time",
            "b@30 => b [12,23) 1 on_time",
            "end => b [20,31) 1 on_time",
            "summary events=5 dropped=0 panes=7",
        ],
    );
}

#[test]
fn a_late_sliding_record_creates_windows_behind_the_watermark_that_fire_at_once() {
    // At a@5 the watermark is 20: the new left window [-5;5] holds the records at 0 and 5, and
    // the right window of 0, [1;11], now holds 5; both fire late at once. A second record at
    // 0 then updates the two windows that hold it.
    check(
        config(sliding(10), 0, 20),
        &["a@0", "a@20", "a@5", "a@0"],
        &[
            "a@20 => a [-10,1) 1 on_time",
            "a@5 => a [-5,6) 2 late",
            "a@5 => a [1,12) 1 late",
            "a@0 => a [-10,1) 2 late",
            "a@0 => a [-5,6) 3 late",
            "end => a [10,21) 1 on_time",
            "summary events=4 dropped=0 panes=6",
        ],
    );
}

#[test]
fn a_sliding_record_is_dropped_when_its_latest_possible_window_is_gone() {
    // Lateness 5, W = 40 after a@40. a@35: its window [35;45] is alive, so it joins [30;40],
    // makes [25;35] (behind W: late pane at once) and the right window [36;46] before 40.
    // a@24: [24;34] ends at 35 and 35 + 5 <= 40, so every window it could be in is gone.
    check(
        config(sliding(10), 0, 5),
        &["a@20", "a@40", "a@35", "a@24"],
        &[
            "a@40 => a [10,21) 1 on_time",
            "a@35 => a [25,36) 1 late",
            "a@24 => side a 24",
            "end => a [30,41) 2 on_time",
            "end => a [36,47) 1 on_time",
            "summary events=4 dropped=1 panes=4",
        ],
    );
}

#[test]
fn a_sliding_config_reads_kafkas_time_difference_and_nothing_else() {
    let parsed: WindowConfig = serde_json::from_str(
        r#"{"window":{"type":"sliding","time_difference":5000},
            "max_out_of_orderness":0,"allowed_lateness":0,"late":"drop"}"#,
    )
    .unwrap();
    assert_eq!(parsed.window, sliding(5_000));
    for bad in [
        r#"{"type":"sliding","size":5000}"#,
        r#"{"type":"sliding","time_difference":5000,"gap":1}"#,
        r#"{"type":"sliding"}"#,
    ] {
        let text = format!(
            r#"{{"window":{bad},"max_out_of_orderness":0,"allowed_lateness":0,"late":"drop"}}"#
        );
        assert!(
            serde_json::from_str::<WindowConfig>(&text).is_err(),
            "{bad}"
        );
    }
    let negative = config(sliding(-1), 0, 0);
    assert!(WindowOperator::<String>::new(negative).is_err());
    assert!(WindowOperator::<String>::new(config(sliding(0), 0, 0)).is_ok());
}
