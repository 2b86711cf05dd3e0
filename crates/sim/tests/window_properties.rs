//! Properties of the window operator over random event streams: it agrees step by step with a
//! deliberately naive model of the contract (linear scans, no indexes), and its panes agree
//! with ground truth counted directly from the events wherever the contract pins that down.

use proptest::prelude::*;
use std::collections::BTreeMap;
use streamlab_sim::window::{
    LatePolicy, Output, Pane, Summary, Timing, Watermark, WindowConfig, WindowOperator, WindowSpec,
};

/// Few keys so windows collide often; mixed case and a non-ASCII key exercise byte order.
const KEYS: [&str; 4] = ["a", "b", "B", "é"];
const MAX_EVENT_TIME_MS: i64 = 200;

type Event = (&'static str, i64);
/// (key, start, end): one window of one key.
type WindowId = (String, i64, i64);

fn window_spec() -> impl Strategy<Value = WindowSpec> {
    prop_oneof![
        (1i64..30).prop_map(|size_ms| WindowSpec::Tumbling { size_ms }),
        (1i64..30)
            .prop_flat_map(|size_ms| (Just(size_ms), 1..=size_ms))
            .prop_map(|(size_ms, hop_ms)| WindowSpec::Hopping { size_ms, hop_ms }),
        (1i64..30).prop_map(|gap_ms| WindowSpec::Session { gap_ms }),
        (0i64..30).prop_map(|time_difference_ms| WindowSpec::Sliding { time_difference_ms }),
    ]
}

fn window_config_with(
    window: impl Strategy<Value = WindowSpec>,
) -> impl Strategy<Value = WindowConfig> {
    (window, 0i64..20, 0i64..40, any::<bool>()).prop_map(
        |(window, max_out_of_orderness_ms, allowed_lateness_ms, side)| WindowConfig {
            window,
            max_out_of_orderness_ms,
            allowed_lateness_ms,
            late: if side {
                LatePolicy::Side
            } else {
                LatePolicy::Drop
            },
        },
    )
}

fn events() -> impl Strategy<Value = Vec<Event>> {
    prop::collection::vec(
        (prop::sample::select(&KEYS[..]), 0..=MAX_EVENT_TIME_MS),
        0..60,
    )
}

/// What one run produced: the outputs of each push and then of finish, the watermark after
/// each push, and the final summary.
struct Run {
    steps: Vec<Vec<Output<String>>>,
    watermarks: Vec<Watermark>,
    summary: Summary,
}

impl Run {
    fn panes(&self) -> impl Iterator<Item = &Pane<String>> {
        self.steps
            .iter()
            .flatten()
            .filter_map(|output| match output {
                Output::Pane(pane) => Some(pane),
                Output::Side { .. } => None,
            })
    }

    /// The count of each window's last pane.
    fn final_counts(&self) -> BTreeMap<WindowId, u64> {
        self.panes()
            .map(|pane| ((pane.key.clone(), pane.start_ms, pane.end_ms), pane.count))
            .collect()
    }
}

fn run(config: WindowConfig, events: &[Event]) -> Run {
    let mut operator = WindowOperator::<String>::new(config).expect("generated configs are valid");
    let mut steps = Vec::new();
    let mut watermarks = Vec::new();
    for &(key, time_ms) in events {
        let mut produced = Vec::new();
        operator
            .push(key, time_ms, &mut produced)
            .expect("generated events are valid");
        steps.push(produced);
        watermarks.push(operator.watermark());
    }
    let mut produced = Vec::new();
    operator.finish(&mut produced);
    steps.push(produced);
    assert!(
        operator.open_windows().is_empty(),
        "state left after finish"
    );
    Run {
        steps,
        watermarks,
        summary: operator.summary(),
    }
}

// --- The naive model: the contract's rules read literally, with linear scans ---

struct NaiveWindow {
    key: String,
    start_ms: i64,
    end_ms: i64,
    count: u64,
    ever_fired: bool,
    late_pane_due: bool,
}

struct Naive {
    config: WindowConfig,
    /// None is minus infinity.
    watermark_ms: Option<i64>,
    windows: Vec<NaiveWindow>,
    /// Every accepted event, for sliding windows, whose existence depends on the others.
    accepted: Vec<(String, i64)>,
    summary: Summary,
}

impl Naive {
    fn new(config: WindowConfig) -> Self {
        Self {
            config,
            watermark_ms: None,
            windows: Vec::new(),
            accepted: Vec::new(),
            summary: Summary::default(),
        }
    }

    fn reached(&self, instant_ms: i64) -> bool {
        self.watermark_ms
            .is_some_and(|watermark_ms| instant_ms <= watermark_ms)
    }

    fn gone(&self, end_ms: i64) -> bool {
        self.reached(end_ms + self.config.allowed_lateness_ms)
    }

    fn pane(&mut self, index: usize, timing: Timing) -> Output<String> {
        self.summary.panes += 1;
        let window = &mut self.windows[index];
        window.ever_fired = true;
        window.late_pane_due = false;
        Output::Pane(Pane {
            key: window.key.clone(),
            start_ms: window.start_ms,
            end_ms: window.end_ms,
            count: window.count,
            timing,
        })
    }

    fn push(&mut self, key: &str, time_ms: i64) -> Vec<Output<String>> {
        self.summary.events += 1;
        let mut out = Vec::new();
        match self.config.window {
            WindowSpec::Tumbling { size_ms } => {
                self.place_fixed(key, time_ms, size_ms, size_ms, &mut out)
            }
            WindowSpec::Hopping { size_ms, hop_ms } => {
                self.place_fixed(key, time_ms, size_ms, hop_ms, &mut out)
            }
            WindowSpec::Session { gap_ms } => self.place_session(key, time_ms, gap_ms, &mut out),
            WindowSpec::Sliding { time_difference_ms } => {
                self.place_sliding(key, time_ms, time_difference_ms, &mut out)
            }
        }
        let candidate_ms = time_ms - self.config.max_out_of_orderness_ms;
        if !self.reached(candidate_ms) {
            self.watermark_ms = Some(candidate_ms);
            self.fire_due(&mut out);
            let lateness_ms = self.config.allowed_lateness_ms;
            let watermark_ms = candidate_ms;
            self.windows
                .retain(|window| window.end_ms + lateness_ms > watermark_ms);
        }
        out
    }

    fn finish(&mut self) -> Vec<Output<String>> {
        let mut out = Vec::new();
        self.watermark_ms = Some(i64::MAX);
        self.fire_due(&mut out);
        self.windows.clear();
        out
    }

    fn drop_event(&mut self, key: &str, time_ms: i64, out: &mut Vec<Output<String>>) {
        self.summary.dropped += 1;
        if self.config.late == LatePolicy::Side {
            out.push(Output::Side {
                key: key.to_string(),
                time_ms,
            });
        }
    }

    fn place_fixed(
        &mut self,
        key: &str,
        time_ms: i64,
        size_ms: i64,
        hop_ms: i64,
        out: &mut Vec<Output<String>>,
    ) {
        let live: Vec<i64> = (time_ms - size_ms + 1..=time_ms)
            .filter(|start_ms| start_ms.rem_euclid(hop_ms) == 0)
            .filter(|start_ms| !self.gone(start_ms + size_ms))
            .collect();
        if live.is_empty() {
            return self.drop_event(key, time_ms, out);
        }
        for start_ms in live {
            let end_ms = start_ms + size_ms;
            let found = self
                .windows
                .iter()
                .position(|window| window.key == key && window.start_ms == start_ms);
            let index = found.unwrap_or_else(|| {
                self.windows.push(NaiveWindow {
                    key: key.to_string(),
                    start_ms,
                    end_ms,
                    count: 0,
                    ever_fired: false,
                    late_pane_due: false,
                });
                self.windows.len() - 1
            });
            self.windows[index].count += 1;
            if self.windows[index].ever_fired || self.reached(end_ms) {
                let pane = self.pane(index, Timing::Late);
                out.push(pane);
            }
        }
    }

    fn place_session(
        &mut self,
        key: &str,
        time_ms: i64,
        gap_ms: i64,
        out: &mut Vec<Output<String>>,
    ) {
        let own_end_ms = time_ms + gap_ms;
        if self.gone(own_end_ms) {
            return self.drop_event(key, time_ms, out);
        }
        let mut merged = NaiveWindow {
            key: key.to_string(),
            start_ms: time_ms,
            end_ms: own_end_ms,
            count: 1,
            ever_fired: false,
            late_pane_due: false,
        };
        let (overlapping, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.windows)
            .into_iter()
            .partition(|window| {
                window.key == key && window.start_ms < own_end_ms && window.end_ms > time_ms
            });
        self.windows = rest;
        let absorbed_fired = overlapping.iter().any(|window| window.ever_fired);
        for window in overlapping {
            merged.start_ms = merged.start_ms.min(window.start_ms);
            merged.end_ms = merged.end_ms.max(window.end_ms);
            merged.count += window.count;
        }
        let end_ms = merged.end_ms;
        self.windows.push(merged);
        let index = self.windows.len() - 1;
        if self.reached(end_ms) {
            let pane = self.pane(index, Timing::Late);
            out.push(pane);
        } else if absorbed_fired {
            self.windows[index].ever_fired = true;
            self.windows[index].late_pane_due = true;
        }
    }

    /// Recomputes the key's sliding windows from scratch after the event: every window the
    /// definition gives that is not gone, with its count from the accepted events; a window
    /// that changed (or came into being) behind the watermark fires a late pane.
    fn place_sliding(
        &mut self,
        key: &str,
        time_ms: i64,
        time_difference_ms: i64,
        out: &mut Vec<Output<String>>,
    ) {
        let d = time_difference_ms;
        if self.gone(time_ms + d + 1) {
            return self.drop_event(key, time_ms, out);
        }
        self.accepted.push((key.to_string(), time_ms));
        let times: Vec<i64> = self
            .accepted
            .iter()
            .filter(|(k, _)| k == key)
            .map(|&(_, t)| t)
            .collect();
        for start_ms in true_sliding_starts(&times, d) {
            let end_ms = start_ms + d + 1;
            if self.gone(end_ms) {
                continue;
            }
            let count = times
                .iter()
                .filter(|&&t| (start_ms..end_ms).contains(&t))
                .count() as u64;
            let found = self
                .windows
                .iter()
                .position(|window| window.key == key && window.start_ms == start_ms);
            let changed = found.is_none_or(|index| self.windows[index].count != count);
            let index = found.unwrap_or_else(|| {
                self.windows.push(NaiveWindow {
                    key: key.to_string(),
                    start_ms,
                    end_ms,
                    count,
                    ever_fired: false,
                    late_pane_due: false,
                });
                self.windows.len() - 1
            });
            self.windows[index].count = count;
            if changed && self.reached(end_ms) {
                let pane = self.pane(index, Timing::Late);
                out.push(pane);
            }
        }
    }

    fn fire_due(&mut self, out: &mut Vec<Output<String>>) {
        let mut due: Vec<usize> = (0..self.windows.len())
            .filter(|&index| {
                let window = &self.windows[index];
                self.reached(window.end_ms) && (!window.ever_fired || window.late_pane_due)
            })
            .collect();
        due.sort_by(|&a, &b| {
            let (a, b) = (&self.windows[a], &self.windows[b]);
            (a.end_ms, a.start_ms, a.key.as_bytes()).cmp(&(b.end_ms, b.start_ms, b.key.as_bytes()))
        });
        for index in due {
            let timing = if self.windows[index].ever_fired {
                Timing::Late
            } else {
                Timing::OnTime
            };
            let pane = self.pane(index, timing);
            out.push(pane);
        }
    }
}

// --- Ground truth counted straight from the events ---

fn true_fixed_counts(events: &[Event], size_ms: i64, hop_ms: i64) -> BTreeMap<WindowId, u64> {
    let mut counts = BTreeMap::new();
    for &(key, time_ms) in events {
        for start_ms in (time_ms - size_ms + 1)..=time_ms {
            if start_ms.rem_euclid(hop_ms) == 0 {
                *counts
                    .entry((key.to_string(), start_ms, start_ms + size_ms))
                    .or_insert(0) += 1;
            }
        }
    }
    counts
}

fn true_session_counts(events: &[Event], gap_ms: i64) -> BTreeMap<WindowId, u64> {
    let mut times_by_key: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    for &(key, time_ms) in events {
        times_by_key.entry(key).or_default().push(time_ms);
    }
    let mut counts = BTreeMap::new();
    for (key, mut times) in times_by_key {
        times.sort_unstable();
        let mut current: Option<(i64, i64, u64)> = None;
        for time_ms in times {
            current = match current {
                Some((start_ms, end_ms, count)) if time_ms < end_ms => {
                    Some((start_ms, end_ms.max(time_ms + gap_ms), count + 1))
                }
                finished => {
                    if let Some((start_ms, end_ms, count)) = finished {
                        counts.insert((key.to_string(), start_ms, end_ms), count);
                    }
                    Some((time_ms, time_ms + gap_ms, 1))
                }
            };
        }
        if let Some((start_ms, end_ms, count)) = current {
            counts.insert((key.to_string(), start_ms, end_ms), count);
        }
    }
    counts
}

/// Kafka Streams' sliding windows of one key's event times, straight from the definition: the
/// left window `[t - d, t]` of every event, and the right window `[t + 1, t + d + 1]` of every
/// event that has another event in it. Returns their starts.
fn true_sliding_starts(times: &[i64], d: i64) -> std::collections::BTreeSet<i64> {
    let left = times.iter().map(|&t| t - d);
    let right = times
        .iter()
        .filter(|&&t| times.iter().any(|&u| t < u && u <= t + d + 1))
        .map(|&t| t + 1);
    left.chain(right).collect()
}

fn true_sliding_counts(events: &[Event], d: i64) -> BTreeMap<WindowId, u64> {
    let mut times_by_key: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    for &(key, time_ms) in events {
        times_by_key.entry(key).or_default().push(time_ms);
    }
    let mut counts = BTreeMap::new();
    for (key, times) in times_by_key {
        for start_ms in true_sliding_starts(&times, d) {
            let count = times
                .iter()
                .filter(|&&t| start_ms <= t && t <= start_ms + d)
                .count() as u64;
            counts.insert((key.to_string(), start_ms, start_ms + d + 1), count);
        }
    }
    counts
}

fn true_counts(config: &WindowConfig, events: &[Event]) -> BTreeMap<WindowId, u64> {
    match config.window {
        WindowSpec::Tumbling { size_ms } => true_fixed_counts(events, size_ms, size_ms),
        WindowSpec::Hopping { size_ms, hop_ms } => true_fixed_counts(events, size_ms, hop_ms),
        WindowSpec::Session { gap_ms } => true_session_counts(events, gap_ms),
        WindowSpec::Sliding { time_difference_ms } => {
            true_sliding_counts(events, time_difference_ms)
        }
    }
}

/// Delays every event just enough to be no further behind the latest time so far than the
/// out-of-orderness allows, so that no event is ever late.
fn within_out_of_orderness(events: &[Event], max_out_of_orderness_ms: i64) -> Vec<Event> {
    let mut latest_ms = i64::MIN;
    events
        .iter()
        .map(|&(key, time_ms)| {
            let time_ms = time_ms.max(latest_ms.saturating_sub(max_out_of_orderness_ms));
            latest_ms = latest_ms.max(time_ms);
            (key, time_ms)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_step_matches_the_naive_model(config in window_config_with(window_spec()), events in events()) {
        let actual = run(config, &events);
        let mut naive = Naive::new(config);
        for (step, &(key, time_ms)) in events.iter().enumerate() {
            prop_assert_eq!(&actual.steps[step], &naive.push(key, time_ms), "after event {} {:?}", step, (key, time_ms));
        }
        prop_assert_eq!(actual.steps.last().unwrap(), &naive.finish(), "at the end of input");
        prop_assert_eq!(actual.summary, naive.summary);
    }

    #[test]
    fn the_watermark_never_decreases(config in window_config_with(window_spec()), events in events()) {
        let run = run(config, &events);
        for pair in run.watermarks.windows(2) {
            prop_assert!(pair[0] <= pair[1], "{:?} then {:?}", pair[0], pair[1]);
        }
    }

    #[test]
    fn without_late_events_each_window_fires_once_on_time_with_its_true_count(
        config in window_config_with(window_spec()),
        events in events(),
    ) {
        let events = within_out_of_orderness(&events, config.max_out_of_orderness_ms);
        let run = run(config, &events);
        let mut on_time = BTreeMap::new();
        for pane in run.panes() {
            prop_assert_eq!(pane.timing, Timing::OnTime, "late pane {:?}", pane);
            let previous = on_time.insert((pane.key.clone(), pane.start_ms, pane.end_ms), pane.count);
            prop_assert!(previous.is_none(), "window fired twice: {:?}", pane);
        }
        prop_assert_eq!(on_time, true_counts(&config, &events));
        prop_assert_eq!(run.summary.dropped, 0);
    }

    #[test]
    fn with_dropping_tumbling_windows_every_event_is_counted_once_or_dropped(
        config in window_config_with((1i64..30).prop_map(|size_ms| WindowSpec::Tumbling { size_ms })),
        events in events(),
    ) {
        let config = WindowConfig { late: LatePolicy::Drop, ..config };
        let run = run(config, &events);
        let counted: u64 = run.final_counts().values().sum();
        prop_assert_eq!(counted + run.summary.dropped, events.len() as u64);
        prop_assert!(run.steps.iter().flatten().all(|output| matches!(output, Output::Pane(_))));
    }

    #[test]
    fn with_ample_lateness_the_last_pane_of_each_window_has_its_true_count(
        config in window_config_with(window_spec()),
        events in events(),
    ) {
        // Later than any watermark the events can produce, so nothing ever expires early.
        let config = WindowConfig { allowed_lateness_ms: 10 * MAX_EVENT_TIME_MS, ..config };
        let run = run(config, &events);
        let truth = true_counts(&config, &events);
        let finals = run.final_counts();
        prop_assert_eq!(run.summary.dropped, 0);
        for (window, count) in &truth {
            prop_assert_eq!(finals.get(window), Some(count), "window {:?}", window);
        }
        // Sessions also emit panes for ranges later merged away; each lies inside a true one.
        for (key, start_ms, end_ms) in finals.keys() {
            let covered = truth.keys().any(|(true_key, true_start, true_end)| {
                true_key == key && true_start <= start_ms && end_ms <= true_end
            });
            prop_assert!(covered, "pane [{}, {}) of {} is in no true window", start_ms, end_ms, key);
        }
    }

    #[test]
    fn a_window_fires_on_time_at_most_once_first_and_its_counts_only_grow(
        config in window_config_with(window_spec()),
        events in events(),
    ) {
        let run = run(config, &events);
        let mut history: BTreeMap<WindowId, Vec<&Pane<String>>> = BTreeMap::new();
        for pane in run.panes() {
            history.entry((pane.key.clone(), pane.start_ms, pane.end_ms)).or_default().push(pane);
        }
        for (window, panes) in history {
            for (index, pane) in panes.iter().enumerate() {
                if index > 0 {
                    prop_assert_eq!(pane.timing, Timing::Late, "window {:?}", window);
                    prop_assert!(pane.count > panes[index - 1].count, "window {:?}", window);
                }
            }
        }
    }
}

/// Events for `push_all`: up to a few hundred keys (so the key table's index grows and the
/// look-ahead touches entries not yet placed), now and then a time the operator refuses.
fn batch_events() -> impl Strategy<Value = Vec<(String, i64)>> {
    let time_ms = prop_oneof![
        40 => 0..=MAX_EVENT_TIME_MS,
        1 => Just(-1i64),
        1 => Just(i64::MAX),
    ];
    prop::collection::vec(
        (0u32..300)
            .prop_map(|key| format!("k{key}"))
            .prop_flat_map(move |key| (Just(key), time_ms.clone())),
        0..200,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// `push_all` is `push` for each event in turn, stopping at the first refused one: same
    /// outputs, same state after, and the index of the refused event.
    #[test]
    fn push_all_matches_pushing_one_event_at_a_time(
        config in window_config_with(window_spec()),
        events in batch_events(),
    ) {
        let mut one_by_one = WindowOperator::<String>::new(config).expect("generated configs are valid");
        let mut expected = Vec::new();
        let mut refused = None;
        for (index, (key, time_ms)) in events.iter().enumerate() {
            if let Err(error) = one_by_one.push(key.as_str(), *time_ms, &mut expected) {
                refused = Some((index, error));
                break;
            }
        }
        let mut batched = WindowOperator::<String>::new(config).expect("generated configs are valid");
        let mut actual = Vec::new();
        prop_assert_eq!(batched.push_all(&events, &mut actual).err(), refused);
        prop_assert_eq!(&actual, &expected);
        prop_assert_eq!(batched.watermark(), one_by_one.watermark());
        prop_assert_eq!(batched.open_windows(), one_by_one.open_windows());
        one_by_one.finish(&mut expected);
        batched.finish(&mut actual);
        prop_assert_eq!(actual, expected);
        prop_assert_eq!(batched.summary(), one_by_one.summary());
    }
}
