//! Hand-computed cases for the join and top-K operators, one per boundary of the `join` and
//! `topk` contracts. Each case is a transcript: every output line is prefixed by the input
//! that caused it (`L s1 u@1000 =>`, `end =>`), so a match, an expiry or a window that comes
//! one event too early or too late, or in another order, fails.

use streamlab_sim::joins::{
    IntervalConfig, IntervalJoin, JoinOutput, Outer, Side, TemporalConfig, TemporalJoin,
    TemporalOutput, TemporalTime, TopK, TopKConfig,
};
use streamlab_sim::window::{Watermark, WindowSpec};

fn interval(
    lower_ms: i64,
    upper_ms: i64,
    outer: Outer,
    out_of_orderness_ms: i64,
) -> IntervalConfig {
    IntervalConfig {
        lower_ms,
        upper_ms,
        outer,
        max_out_of_orderness_ms: out_of_orderness_ms,
    }
}

/// "L s1 u@1000": side, id, key and time.
fn parse(event: &str) -> (Side, &str, &str, i64) {
    let parts: Vec<&str> = event.split([' ', '@']).collect();
    let side = if parts[0] == "L" {
        Side::Left
    } else {
        Side::Right
    };
    (side, parts[1], parts[2], parts[3].parse().unwrap())
}

fn render_join(output: &JoinOutput<String, String>) -> String {
    match output {
        JoinOutput::Late { id, .. } => format!("late {id}"),
        JoinOutput::Match {
            key, left, right, ..
        } => format!("match {key} {left}+{right}"),
        JoinOutput::Unmatched { side, id, .. } => format!("unmatched {} {id}", side.name()),
    }
}

fn check_interval(config: IntervalConfig, events: &[&str], expected: &[&str]) {
    let mut join = IntervalJoin::new(config);
    let mut transcript = Vec::new();
    let mut out = Vec::new();
    for event in events {
        let (side, id, key, time) = parse(event);
        join.push(side, key.to_string(), id.to_string(), time, &mut out)
            .unwrap();
        transcript.extend(
            out.drain(..)
                .map(|o| format!("{event} => {}", render_join(&o))),
        );
    }
    join.finish(&mut out);
    transcript.extend(out.drain(..).map(|o| format!("end => {}", render_join(&o))));
    let s = join.summary();
    transcript.push(format!(
        "events {} late {} matches {} unmatched {}",
        s.events, s.late, s.matches, s.unmatched
    ));
    assert_eq!(transcript, expected);
}

#[test]
fn both_bounds_are_inclusive() {
    // A left event at 1000 meets rights in [1000 - 500, 1000 + 2000] = [500, 3000].
    check_interval(
        interval(-500, 2_000, Outer::Full, 100_000),
        &[
            "L s u@1000",
            "R a u@499",
            "R b u@500",
            "R c u@3000",
            "R d u@3001",
        ],
        &[
            "R b u@500 => match u s+b",
            "R c u@3000 => match u s+c",
            "end => unmatched right a",
            "end => unmatched right d",
            "events 5 late 0 matches 2 unmatched 2",
        ],
    );
}

#[test]
fn matches_come_in_the_order_the_other_side_arrived_and_keys_never_mix() {
    check_interval(
        interval(0, 10, Outer::Inner, 100),
        &["R c2 u@5", "R x v@5", "R c1 u@3", "L s u@1"],
        &[
            "L s u@1 => match u s+c2",
            "L s u@1 => match u s+c1",
            "events 4 late 0 matches 2 unmatched 0",
        ],
    );
}

#[test]
fn late_means_strictly_behind_the_watermark_as_it_stood() {
    // After L@100 and R@100 with no out-of-orderness, W = 100: an event at 100 is on time,
    // one at 99 is late, is never matched and never reported unmatched.
    check_interval(
        interval(0, 0, Outer::Full, 0),
        &["L a k@100", "R b k@100", "L c k@99", "R d k@100"],
        &[
            "R b k@100 => match k a+b",
            "L c k@99 => late c",
            "R d k@100 => match k a+d",
            "events 4 late 1 matches 2 unmatched 0",
        ],
    );
}

#[test]
fn a_silent_side_keeps_the_watermark_at_minus_infinity() {
    // Only lefts: W stays at minus infinity, nothing is late or expires before the end.
    check_interval(
        interval(0, 5, Outer::Left, 0),
        &["L a k@1000", "L b k@0"],
        &[
            "end => unmatched left b",
            "end => unmatched left a",
            "events 2 late 0 matches 0 unmatched 2",
        ],
    );
    let mut join = IntervalJoin::<String, String>::new(interval(0, 5, Outer::Left, 0));
    join.push(Side::Left, "k".into(), "a".into(), 1_000, &mut Vec::new())
        .unwrap();
    assert_eq!(join.watermark(), Watermark::MinusInfinity);
}

#[test]
fn expiry_waits_until_the_watermark_is_past_the_last_partner_time() {
    // A left at 1000 with upper 500 expires when W > 1500, not at W = 1500: a right at 1500
    // is still on time then and matches it.
    check_interval(
        interval(0, 500, Outer::Left, 0),
        &[
            "L s k@1000",
            "R x j@1500",
            "L t j@1500",
            "R c k@1500",
            "R y j@1501",
        ],
        &[
            // W = min(1500, 1500) = 1500 after t: s (expiry 1500) stays.
            "L t j@1500 => match j t+x",
            "R c k@1500 => match k s+c",
            "R y j@1501 => match j t+y",
            "events 5 late 0 matches 3 unmatched 0",
        ],
    );
    check_interval(
        interval(0, 500, Outer::Left, 0),
        &["L s k@1000", "R x j@1500", "L t j@1501", "R c k@1500"],
        &[
            // W = min(1501, 1500) = 1500 after t; x (a right at 1500, expiry 1500) stays,
            // s too; c at 1500 is on time and matches s. At the end t has no partner.
            "R c k@1500 => match k s+c",
            "end => unmatched left t",
            "events 4 late 0 matches 1 unmatched 1",
        ],
    );
}

#[test]
fn an_event_can_expire_in_the_very_step_it_arrives() {
    // upper = -10: a left at 100 expires at 90; with W already at 95 (rights ran ahead) it
    // arrives on time (100 >= 95) and leaves in the same step, unmatched.
    check_interval(
        interval(-20, -10, Outer::Left, 0),
        &["L a k@95", "R r j@200", "L b k@100"],
        &[
            "R r j@200 => unmatched left a",
            "L b k@100 => unmatched left b",
            "events 3 late 0 matches 0 unmatched 2",
        ],
    );
}

#[test]
fn expiries_come_by_expiry_time_then_arrival_across_both_sides() {
    // lower -5, upper 5: a left at t expires at t + 5, a right at t expires at t + 5 too.
    // l1@10 (15), r1@12 (17), l2@10 (15, arrives after l1), r2@5 (10). The end expires
    // r2 (10), l1 (15), l2 (15), r1 (17): l1 and r1 met, l2 met r1 too; r2 met both lefts.
    check_interval(
        interval(-5, 5, Outer::Full, 1_000),
        &["L l1 a@10", "R r1 a@12", "L l2 a@10", "R r2 b@5"],
        &[
            "R r1 a@12 => match a l1+r1",
            "L l2 a@10 => match a l2+r1",
            "end => unmatched right r2",
            "events 4 late 0 matches 2 unmatched 1",
        ],
    );
    // The same with W moving during the input: expiries print at the step that passes them.
    check_interval(
        interval(-5, 5, Outer::Full, 0),
        &["L l1 a@10", "R r2 b@5", "R r1 a@30", "L x c@40"],
        &[
            "L x c@40 => unmatched right r2",
            "L x c@40 => unmatched left l1",
            "end => unmatched right r1",
            "end => unmatched left x",
            "events 4 late 0 matches 0 unmatched 4",
        ],
    );
}

#[test]
fn inner_joins_report_matches_only() {
    check_interval(
        interval(0, 100, Outer::Inner, 0),
        &["L s k@0", "R c k@50", "L t k@500", "R z q@60"],
        &[
            "R c k@50 => match k s+c",
            "events 4 late 0 matches 1 unmatched 0",
        ],
    );
}

#[test]
fn refused_events_change_nothing() {
    let mut join = IntervalJoin::<String, String>::new(interval(0, 1, Outer::Inner, 0));
    let mut out = Vec::new();
    assert!(join
        .push(Side::Left, "k".into(), "a".into(), -1, &mut out)
        .is_err());
    assert_eq!(join.summary().events, 0);
    join.finish(&mut out);
    assert!(join
        .push(Side::Left, "k".into(), "a".into(), 1, &mut out)
        .is_err());
}

fn temporal(time: TemporalTime, out_of_orderness_ms: i64) -> TemporalConfig {
    TemporalConfig {
        time,
        max_out_of_orderness_ms: out_of_orderness_ms,
    }
}

/// "L o1 u@1000" or "R v1 u@0=gold" ("R v2 u@5=" deletes).
fn check_temporal(config: TemporalConfig, events: &[&str], expected: &[&str]) {
    let mut join = TemporalJoin::<String, String, String>::new(config);
    let mut transcript = Vec::new();
    let mut out = Vec::new();
    let render = |o: &TemporalOutput<String, String, String>| match o {
        TemporalOutput::Late { id, .. } => format!("late {id}"),
        TemporalOutput::Answer { left, version, .. } => match version {
            Some(v) => format!("{left} -> {} {}", v.id, v.value.as_deref().unwrap_or("?")),
            None => format!("{left} -> null"),
        },
    };
    for event in events {
        let (head, value) = event.split_once('=').unwrap_or((event, ""));
        let (side, id, key, time) = parse(head);
        let value = (side == Side::Right && !value.is_empty()).then(|| value.to_string());
        join.push(side, key.into(), id.into(), time, value, &mut out)
            .unwrap();
        transcript.extend(out.drain(..).map(|o| format!("{head} => {}", render(&o))));
    }
    join.finish(&mut out);
    transcript.extend(out.drain(..).map(|o| format!("end => {}", render(&o))));
    let s = join.summary();
    transcript.push(format!(
        "events {} late {} matches {} unmatched {}",
        s.events, s.late, s.matches, s.unmatched
    ));
    assert_eq!(transcript, expected);
}

#[test]
fn event_time_answers_with_the_version_valid_at_the_orders_time() {
    check_temporal(
        temporal(TemporalTime::Event, 0),
        &[
            "R v1 u@0=bronze",
            "L o1 u@1000",
            // Arrives after the order but was valid before it: event time still uses it.
            "R v2 u@500=gold",
            // Equal times: the later arrival wins.
            "R v3 u@500=silver",
            "R v4 u@2000=",
            "L o2 u@2500",
            "L o3 w@2500",
        ],
        &[
            "L o2 u@2500 => o1 -> v3 silver",
            "end => o2 -> null",
            "end => o3 -> null",
            "events 7 late 0 matches 1 unmatched 2",
        ],
    );
}

#[test]
fn an_order_waits_until_the_watermark_is_past_its_time() {
    // W = min(left max, right max) - 0. The order at 10 is answered once W > 10, that is
    // when both sides have passed 10: not at W = 10.
    check_temporal(
        temporal(TemporalTime::Event, 0),
        &[
            "L o k@10",
            "R v k@10=a",
            "L p k@11",
            "R w k@11=b",
            "R x j@12=c",
        ],
        &[
            "R w k@11 => o -> v a",
            "end => p -> w b",
            "events 5 late 0 matches 2 unmatched 0",
        ],
    );
}

#[test]
fn late_versions_and_orders_are_dropped() {
    check_temporal(
        temporal(TemporalTime::Event, 5),
        &[
            "R v k@0=a",
            "L o k@100",
            "R w k@200=b",
            "R x k@90=c",
            "L p k@94",
            "L q k@95",
        ],
        &[
            // W = min(100, 200) - 5 = 95 before x: x at 90 is late, so is p at 94.
            "R x k@90 => late x",
            "L p k@94 => late p",
            // Released by time: q at 95 before o at 100.
            "end => q -> v a",
            "end => o -> v a",
            "events 6 late 2 matches 2 unmatched 0",
        ],
    );
}

#[test]
fn answers_released_together_come_by_time_then_arrival() {
    check_temporal(
        temporal(TemporalTime::Event, 0),
        &[
            "L b k@20",
            "L a k@10",
            "L c j@10",
            "R v k@5=x",
            "R w k@100=y",
        ],
        &[
            // W = min(20, 100) = 20: a and c (both at 10) go, by arrival; b at 20 waits
            // for W > 20, which only the end brings.
            "R w k@100 => a -> v x",
            "R w k@100 => c -> null",
            "end => b -> v x",
            "events 5 late 0 matches 2 unmatched 1",
        ],
    );
}

#[test]
fn processing_time_answers_at_once_with_whatever_arrived_last() {
    check_temporal(
        temporal(TemporalTime::Processing, 0),
        &[
            "L o0 u@5",
            "R v2 u@500=gold",
            "L o1 u@1000",
            "R v1 u@0=bronze",
            "L o2 u@10",
            "R d u@1=",
            "L o3 u@9999",
        ],
        &[
            "L o0 u@5 => o0 -> null",
            "L o1 u@1000 => o1 -> v2 gold",
            // v1 is older but arrived later: by processing time it is the current row.
            "L o2 u@10 => o2 -> v1 bronze",
            "L o3 u@9999 => o3 -> null",
            "events 7 late 0 matches 2 unmatched 2",
        ],
    );
}

fn render_top(window: &streamlab_sim::joins::TopWindow<String>) -> String {
    let top: Vec<String> = window.top.iter().map(|(k, c)| format!("{k}:{c}")).collect();
    format!("[{},{}) {}", window.start_ms, window.end_ms, top.join(" "))
}

fn check_topk(config: TopKConfig, events: &[&str], expected: &[&str]) {
    let mut topk = TopK::new(config).unwrap();
    let mut transcript = Vec::new();
    let mut out = Vec::new();
    for event in events {
        let (key, time) = event.split_once('@').unwrap();
        topk.push(&key.to_string(), time.parse().unwrap(), &mut out)
            .unwrap();
        transcript.extend(
            out.drain(..)
                .map(|w| format!("{event} => {}", render_top(&w))),
        );
    }
    topk.finish(&mut out);
    transcript.extend(out.drain(..).map(|w| format!("end => {}", render_top(&w))));
    let s = topk.summary();
    transcript.push(format!(
        "events {} late {} windows {}",
        s.events, s.late, s.windows
    ));
    assert_eq!(transcript, expected);
}

#[test]
fn a_tumbling_window_fires_when_the_watermark_reaches_its_end() {
    let config = TopKConfig {
        window: WindowSpec::Tumbling { size_ms: 10 },
        k: 2,
        max_out_of_orderness_ms: 2,
    };
    check_topk(
        config,
        &["b@1", "a@3", "b@9", "c@11", "a@12", "z@9", "a@7", "c@25"],
        &[
            // W = 12 - 2 = 10 reaches the end of [0, 10).
            "a@12 => [0,10) b:2 a:1",
            // W = 10: [0, 10) is closed, so z@9 is late; a@7 too.
            "c@25 => [10,20) a:1 c:1",
            "end => [20,30) c:1",
            "events 8 late 2 windows 3",
        ],
    );
}

#[test]
fn hopping_windows_count_an_event_in_every_window_still_open() {
    let config = TopKConfig {
        window: WindowSpec::Hopping {
            size_ms: 10,
            hop_ms: 5,
        },
        k: 1,
        max_out_of_orderness_ms: 0,
    };
    check_topk(
        config,
        // a@1 is in [-5,5) and [0,10); b@6 moves W to 6 and closes [-5,5).
        // a@4 then counts only in [0,10): partly late, not late.
        &["a@1", "b@6", "a@4", "b@8", "b@9", "x@10"],
        &[
            "b@6 => [-5,5) a:1",
            "x@10 => [0,10) b:3",
            "end => [5,15) b:3",
            "end => [10,20) x:1",
            "events 6 late 0 windows 4",
        ],
    );
}
