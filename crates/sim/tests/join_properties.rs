//! Properties of the join and top-K operators over random inputs: each agrees step by step
//! with a deliberately naive model of its contract (linear scans, the watermark recomputed
//! from scratch), and with the batch computation it stands for wherever the contract pins
//! that down: an interval join's matches are the batch join of the non-late events; an
//! event-time temporal join answers every non-late order with the version valid at its time,
//! whatever the interleaving; top-K counts what the window operator counts; the count-min
//! sketch never underestimates; a materialized view equals the batch join after every change.

use proptest::prelude::*;
use std::collections::BTreeMap;
use streamlab_sim::joins::{
    top_k, CountMinSketch, IntervalConfig, IntervalJoin, JoinOutput, JoinedView, LeftRow, Outer,
    Side, SketchTopK, TableChange, TemporalConfig, TemporalJoin, TemporalOutput, TemporalTime,
    TopK, TopKConfig,
};
use streamlab_sim::replay::rng::SimRng;
use streamlab_sim::window::{
    LatePolicy, Output, Watermark, WindowConfig, WindowOperator, WindowSpec,
};

const KEYS: [&str; 3] = ["a", "b", "é"];

#[derive(Clone, Debug)]
struct Event {
    side: Side,
    key: &'static str,
    time_ms: i64,
    value: Option<u8>,
}

fn events() -> impl Strategy<Value = Vec<Event>> {
    prop::collection::vec(
        (
            any::<bool>(),
            prop::sample::select(&KEYS[..]),
            0i64..=200,
            prop::option::of(0u8..4),
        )
            .prop_map(|(left, key, time_ms, value)| Event {
                side: if left { Side::Left } else { Side::Right },
                key,
                time_ms,
                value,
            }),
        0..50,
    )
}

fn interval_config() -> impl Strategy<Value = IntervalConfig> {
    (-30i64..=30, 0i64..=40, 0u8..3, 0i64..=40).prop_map(|(lower, width, outer, d)| {
        IntervalConfig {
            lower_ms: lower,
            upper_ms: lower + width,
            outer: [Outer::Inner, Outer::Left, Outer::Full][outer as usize],
            max_out_of_orderness_ms: d,
        }
    })
}

/// The join's watermark after `events`: each side's largest time minus the out-of-orderness
/// (minus infinity before its first event), the smaller of the two.
fn watermark_after(events: &[Event], out_of_orderness_ms: i64) -> Watermark {
    let side_w = |side: Side| {
        events
            .iter()
            .filter(|e| e.side == side)
            .map(|e| e.time_ms)
            .max()
            .map_or(Watermark::MinusInfinity, |m| {
                Watermark::At(m - out_of_orderness_ms)
            })
    };
    side_w(Side::Left).min(side_w(Side::Right))
}

/// Whether each event is late, with the watermark recomputed from every earlier event.
fn late_flags(events: &[Event], out_of_orderness_ms: i64) -> Vec<bool> {
    (0..events.len())
        .map(|i| {
            Watermark::At(events[i].time_ms) < watermark_after(&events[..i], out_of_orderness_ms)
        })
        .collect()
}

fn in_interval(config: &IntervalConfig, left: &Event, right: &Event) -> bool {
    left.key == right.key
        && left.time_ms + config.lower_ms <= right.time_ms
        && right.time_ms <= left.time_ms + config.upper_ms
}

/// The naive interval join: the contract's steps over a plain list, every line rendered.
fn model_interval(config: &IntervalConfig, events: &[Event]) -> Vec<Vec<String>> {
    let late = late_flags(events, config.max_out_of_orderness_ms);
    let expiry = |e: &Event| match e.side {
        Side::Left => e.time_ms + config.upper_ms,
        Side::Right => e.time_ms - config.lower_ms,
    };
    // (index, matched)
    let mut held: Vec<(usize, bool)> = Vec::new();
    let mut steps = Vec::new();
    let expire = |held: &mut Vec<(usize, bool)>, w: Watermark, lines: &mut Vec<String>| {
        let mut gone: Vec<(usize, bool)> = held
            .iter()
            .copied()
            .filter(|&(i, _)| Watermark::At(expiry(&events[i])) < w)
            .collect();
        held.retain(|&(i, _)| Watermark::At(expiry(&events[i])) >= w);
        gone.sort_by_key(|&(i, _)| (expiry(&events[i]), i));
        for (i, matched) in gone {
            if !matched && config.outer.reports(events[i].side) {
                lines.push(format!("unmatched {i}"));
            }
        }
    };
    for (i, event) in events.iter().enumerate() {
        let mut lines = Vec::new();
        if late[i] {
            lines.push(format!("late {i}"));
            steps.push(lines);
            continue;
        }
        let mut matched = false;
        for (j, partner_matched) in held.iter_mut() {
            let partner = &events[*j];
            if partner.side == event.side {
                continue;
            }
            let (l, r) = match event.side {
                Side::Left => (event, partner),
                Side::Right => (partner, event),
            };
            if in_interval(config, l, r) {
                matched = true;
                *partner_matched = true;
                let (li, ri) = if event.side == Side::Left {
                    (i, *j)
                } else {
                    (*j, i)
                };
                lines.push(format!("match {li}+{ri}"));
            }
        }
        held.push((i, matched));
        let w = watermark_after(&events[..=i], config.max_out_of_orderness_ms);
        expire(&mut held, w, &mut lines);
        steps.push(lines);
    }
    let mut lines = Vec::new();
    expire(&mut held, Watermark::PlusInfinity, &mut lines);
    steps.push(lines);
    steps
}

fn run_interval(
    config: IntervalConfig,
    events: &[Event],
) -> (Vec<Vec<String>>, IntervalJoin<String, usize>) {
    let mut join = IntervalJoin::new(config);
    let mut steps = Vec::new();
    let mut out = Vec::new();
    let render = |o: &JoinOutput<String, usize>| match o {
        JoinOutput::Late { id, .. } => format!("late {id}"),
        JoinOutput::Match { left, right, .. } => format!("match {left}+{right}"),
        JoinOutput::Unmatched { id, .. } => format!("unmatched {id}"),
    };
    for (i, e) in events.iter().enumerate() {
        join.push(e.side, e.key.to_string(), i, e.time_ms, &mut out)
            .unwrap();
        steps.push(out.drain(..).map(|o| render(&o)).collect());
    }
    join.finish(&mut out);
    steps.push(out.drain(..).map(|o| render(&o)).collect());
    (steps, join)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_interval_join_follows_the_naive_model_step_by_step(
        config in interval_config(),
        events in events(),
    ) {
        let (steps, _) = run_interval(config, &events);
        prop_assert_eq!(steps, model_interval(&config, &events));
    }

    #[test]
    fn the_interval_joins_matches_are_the_batch_join_of_the_non_late_events(
        config in interval_config(),
        events in events(),
    ) {
        let (steps, join) = run_interval(config, &events);
        let late = late_flags(&events, config.max_out_of_orderness_ms);
        let on_time: Vec<usize> = (0..events.len()).filter(|&i| !late[i]).collect();
        let mut batch = Vec::new();
        for &l in on_time.iter().filter(|&&i| events[i].side == Side::Left) {
            for &r in on_time.iter().filter(|&&i| events[i].side == Side::Right) {
                if in_interval(&config, &events[l], &events[r]) {
                    batch.push(format!("match {l}+{r}"));
                }
            }
        }
        let unpaired = on_time.iter().filter(|&&i| {
            config.outer.reports(events[i].side)
                && !on_time.iter().any(|&j| {
                    let (l, r) = match events[i].side {
                        Side::Left => (i, j),
                        Side::Right => (j, i),
                    };
                    events[j].side != events[i].side && in_interval(&config, &events[l], &events[r])
                })
        });
        batch.extend(unpaired.map(|i| format!("unmatched {i}")));
        batch.extend((0..events.len()).filter(|&i| late[i]).map(|i| format!("late {i}")));
        let mut printed: Vec<String> = steps.into_iter().flatten().collect();
        printed.sort();
        batch.sort();
        prop_assert_eq!(&printed, &batch);
        let summary = join.summary();
        prop_assert_eq!(summary.events as usize, events.len());
        prop_assert_eq!(summary.late as usize, late.iter().filter(|&&l| l).count());
        prop_assert_eq!(
            (summary.matches + summary.unmatched + summary.late) as usize,
            printed.len()
        );
        prop_assert_eq!(join.held_counts(), [0, 0]);
    }
}

/// Answers of a temporal join as "left -> version" (or "left late"), in output order.
fn run_temporal(time: TemporalTime, d: i64, events: &[Event]) -> Vec<String> {
    let mut join = TemporalJoin::<&str, usize, u8>::new(TemporalConfig {
        time,
        max_out_of_orderness_ms: d,
    });
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        join.push(e.side, e.key, i, e.time_ms, e.value, &mut out)
            .unwrap();
    }
    join.finish(&mut out);
    out.iter()
        .map(|o| match o {
            TemporalOutput::Late { id, .. } => format!("{id} late"),
            TemporalOutput::Answer { left, version, .. } => match version {
                Some(v) => format!("{left} -> {}", v.id),
                None => format!("{left} -> null"),
            },
        })
        .collect()
}

/// The version valid at each non-late left's time among the non-late rights, sorted.
fn batch_temporal(d: i64, events: &[Event]) -> Vec<String> {
    let late = late_flags(events, d);
    let mut answers: Vec<String> = (0..events.len())
        .filter(|&i| !late[i] && events[i].side == Side::Left)
        .map(|i| {
            let valid = (0..events.len())
                .filter(|&j| {
                    !late[j]
                        && events[j].side == Side::Right
                        && events[j].key == events[i].key
                        && events[j].time_ms <= events[i].time_ms
                })
                .max_by_key(|&j| (events[j].time_ms, j));
            match valid.filter(|&j| events[j].value.is_some()) {
                Some(j) => format!("{i} -> {j}"),
                None => format!("{i} -> null"),
            }
        })
        .collect();
    answers.extend(
        (0..events.len())
            .filter(|&i| late[i])
            .map(|i| format!("{i} late")),
    );
    answers.sort();
    answers
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn event_time_answers_are_the_version_valid_at_each_orders_time(
        d in 0i64..=40,
        events in events(),
    ) {
        let mut answers = run_temporal(TemporalTime::Event, d, &events);
        answers.sort();
        prop_assert_eq!(answers, batch_temporal(d, &events));
    }

    #[test]
    fn with_nothing_late_event_time_answers_ignore_the_interleaving(
        events in events(),
        shuffle_seed in any::<u64>(),
    ) {
        // Out-of-orderness covers every time, so nothing is late in any order.
        let by_left = |events: &[Event], ids: &[usize]| -> BTreeMap<usize, String> {
            run_temporal(TemporalTime::Event, 1_000, events)
                .into_iter()
                .map(|line| {
                    let (left, version) = line.split_once(" -> ").unwrap();
                    let version = match version {
                        "null" => "null".to_string(),
                        j => ids[j.parse::<usize>().unwrap()].to_string(),
                    };
                    (ids[left.parse::<usize>().unwrap()], version)
                })
                .collect()
        };
        // Shuffle while keeping each key's rights with equal times in their order (ties
        // between equal times go to the later arrival, which the interleaving may not swap).
        let mut order: Vec<usize> = (0..events.len()).collect();
        let mut rng = SimRng::for_stream(shuffle_seed, 1);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let ties = |a: usize, b: usize| {
            events[a].side == Side::Right && events[b].side == Side::Right
                && events[a].key == events[b].key && events[a].time_ms == events[b].time_ms
        };
        // A stable pass that restores the original order of tied rights.
        for i in 0..order.len() {
            for j in i + 1..order.len() {
                if ties(order[i], order[j]) && order[i] > order[j] {
                    order.swap(i, j);
                }
            }
        }
        let shuffled: Vec<Event> = order.iter().map(|&i| events[i].clone()).collect();
        let identity: Vec<usize> = (0..events.len()).collect();
        prop_assert_eq!(by_left(&events, &identity), by_left(&shuffled, &order));
    }
}

fn fixed_window() -> impl Strategy<Value = WindowSpec> {
    prop_oneof![
        (1i64..30).prop_map(|size_ms| WindowSpec::Tumbling { size_ms }),
        (1i64..30)
            .prop_flat_map(|size_ms| (Just(size_ms), 1..=size_ms))
            .prop_map(|(size_ms, hop_ms)| WindowSpec::Hopping { size_ms, hop_ms }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn topk_counts_what_the_window_operator_counts_and_ranks_them(
        window in fixed_window(),
        k in 1u32..5,
        d in 0i64..20,
        events in prop::collection::vec((prop::sample::select(&KEYS[..]), 0i64..=150), 0..60),
    ) {
        let mut topk = TopK::new(TopKConfig { window, k, max_out_of_orderness_ms: d }).unwrap();
        let mut counter = WindowOperator::<String>::new(WindowConfig {
            window,
            max_out_of_orderness_ms: d,
            allowed_lateness_ms: 0,
            late: LatePolicy::Drop,
        })
        .unwrap();
        let (mut closed, mut panes) = (Vec::new(), Vec::new());
        let check_step = |closed: &mut Vec<_>, panes: &mut Vec<Output<String>>| {
            // The panes of one step, grouped by window in their order (end, start, key).
            let mut expected: Vec<((i64, i64), BTreeMap<String, u64>)> = Vec::new();
            for pane in panes.drain(..) {
                let Output::Pane(pane) = pane else { continue };
                let window = (pane.start_ms, pane.end_ms);
                if expected.last().map(|(w, _)| *w) != Some(window) {
                    expected.push((window, BTreeMap::new()));
                }
                expected.last_mut().unwrap().1.insert(pane.key, pane.count);
            }
            let got: Vec<((i64, i64), BTreeMap<String, u64>)> = closed
                .drain(..)
                .map(|w: streamlab_sim::joins::TopWindow<String>| {
                    let mut ranked: Vec<(String, u64)> = w.counts.clone().into_iter().collect();
                    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                    ranked.truncate(k as usize);
                    assert_eq!(w.top, ranked);
                    assert_eq!(top_k(&w.counts, k as usize), ranked);
                    ((w.start_ms, w.end_ms), w.counts)
                })
                .collect();
            assert_eq!(got, expected);
        };
        for (key, time) in &events {
            topk.push(&key.to_string(), *time, &mut closed).unwrap();
            counter.push(*key, *time, &mut panes).unwrap();
            check_step(&mut closed, &mut panes);
        }
        topk.finish(&mut closed);
        counter.finish(&mut panes);
        check_step(&mut closed, &mut panes);
        prop_assert_eq!(topk.summary().late, counter.summary().dropped);
        prop_assert_eq!(topk.summary().events, counter.summary().events);
    }

    #[test]
    fn the_count_min_sketch_never_underestimates(
        seed in any::<u64>(),
        width in 1u32..64,
        depth in 1u32..6,
        items in prop::collection::vec(0u64..200, 0..400),
    ) {
        let mut rng = SimRng::for_stream(seed, 3);
        let mut top = SketchTopK::new(CountMinSketch::new(width, depth, &mut rng), 5);
        let mut truth: BTreeMap<u64, u64> = BTreeMap::new();
        for &item in &items {
            top.add(item);
            *truth.entry(item).or_default() += 1;
        }
        for (&item, &count) in &truth {
            prop_assert!(top.sketch.estimate(item) >= count);
            prop_assert!(top.sketch.estimate(item) <= items.len() as u64);
        }
        for (item, estimate) in top.ranked() {
            prop_assert!(estimate >= truth[&item], "the heap's estimate of {item}");
        }
        prop_assert!(top.ranked().len() <= 5);
    }

    #[test]
    fn the_view_equals_the_batch_join_after_every_change(
        changes in prop::collection::vec(
            (any::<bool>(), 0u32..8, prop::option::of((0u32..5, 0u32..4))),
            0..80,
        ),
    ) {
        let mut view = JoinedView::new();
        let mut out = Vec::new();
        for (left, key, row) in changes {
            let change = if left {
                TableChange::Left { key, row: row.map(|(fk, value)| LeftRow { fk, value }) }
            } else {
                TableChange::Right { key: key % 5, value: row.map(|(_, v)| v) }
            };
            let before = view.view().clone();
            view.apply(change, &mut out);
            prop_assert_eq!(view.view(), &view.batch_join());
            // Replaying the changes' records on the old view gives the new one.
            let mut replayed = before;
            for c in out.drain(..) {
                if c.kind.is_retraction() {
                    prop_assert_eq!(replayed.remove(&c.key), Some(c.row));
                } else {
                    prop_assert!(replayed.insert(c.key, c.row).is_none());
                }
            }
            prop_assert_eq!(&replayed, view.view());
        }
    }
}
