//! The top-K lane: views of posts counted per window four ways on the one stream, and each
//! window's ranking compared with the truth when the watermark closes it.
//!
//! * **Exact**: one [`TopK`] over the whole stream: a count per post per window.
//! * **Partitioned by post, merged**: the stream split over partitions by the post's key
//!   (Kafka's murmur2), a [`TopK`] per partition, and the partitions' top-K lists merged
//!   (summed per post, ranked again). Each post's whole count lives in one partition, so the
//!   merge is exact.
//! * **Partitioned by user, merged**: the same, keyed by the viewer. A post's count is
//!   spread over the partitions; a partition's list holds only its share, and a post that is
//!   in no partition's top K, or in only some, is missed or undercounted by the merge.
//! * **Count-min sketch**: a [`SketchTopK`] per window (a sketch and a heap of candidates),
//!   in fixed memory.
//!
//! Every method sees the same events under the same watermark, so their windows close
//! together. Recall@K counts a reported post as a hit when its true count reaches the K-th
//! largest true count (a tie at the cut-off is a hit whichever of the tied posts is named).
//! Bytes of state are those of the open windows: [`ENTRY_BYTES`] per post counted, against
//! the sketch's counters plus its heap.

use super::events::JoinsEventKind;
use super::inputs::{item_name, partition_of, sketch_rng, user_name, View};
use super::scenario::{JoinsScenario, TopKWindow};
use super::sketch::{error_bound, CountMinSketch, SketchTopK};
use super::topk::{top_k, TopK, TopWindow};
use super::windowed::{ClosedWindow, WindowedState};
use super::TopKConfig;
use crate::invariant::Surely;
use crate::replay::sorted_map::SortedMap;
use crate::window::{Watermark, WindowSpec};
use serde::Serialize;
use std::sync::Arc;

/// Bytes of one exact count: a 64-bit post id and a 64-bit count, the least a hash map of
/// counts needs per post (a JVM `HashMap<String, Long>` takes several times more).
pub const ENTRY_BYTES: u64 = 16;

/// The ways a window is ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Exact,
    KeyedByItem,
    KeyedByUser,
    Sketch,
}

impl Method {
    pub const ALL: [Method; 4] = [
        Method::Exact,
        Method::KeyedByItem,
        Method::KeyedByUser,
        Method::Sketch,
    ];

    /// Its name in the figures.
    pub fn name(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::KeyedByItem => "keyed_by_item",
            Method::KeyedByUser => "keyed_by_user",
            Method::Sketch => "sketch",
        }
    }
}

/// One post of a method's ranking of a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Ranked {
    pub item: u32,
    /// The count the method reports (a partial sum, an estimate).
    pub reported: u64,
    /// Its true count in the window.
    pub truth: u64,
    /// Whether it belongs in the top K (its true count reaches the K-th largest).
    pub hit: bool,
    /// Whether it sits where the exact ranking puts it, with the true count.
    pub in_place: bool,
}

/// One closed window, ranked every way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WindowReport {
    pub start_ms: i64,
    pub end_ms: i64,
    pub events: u64,
    pub distinct: u32,
    /// Per [`Method`], in order: its ranking.
    pub rankings: [Vec<Ranked>; 4],
    /// The true top-K posts the merge keyed by user left out, by true rank.
    pub by_user_missing: Vec<Ranked>,
    /// Each partition's own top K when keyed by user: (post, partial count).
    pub user_partitions: Vec<Vec<(u32, u64)>>,
    /// The sketch: width, depth, its bound `e / width · N` and largest overcount.
    pub overcount_bound: f64,
    pub max_overcount: u64,
}

/// Tallies of one method over every closed window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub hits: u64,
    pub slots: u64,
    pub missed: u64,
    pub misranked: u64,
    /// The most bytes its open windows held at once.
    pub peak_state_bytes: u64,
}

impl Tally {
    pub fn recall(&self) -> f64 {
        if self.slots == 0 {
            return 1.0;
        }
        (self.hits * 1_000 / self.slots) as f64 / 1_000.0
    }
}

/// The sketch's checks over every estimate of every closed window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SketchChecks {
    pub estimates: u64,
    pub underestimates: u64,
    pub max_overcount: u64,
    /// Estimates whose overcount passed their window's bound.
    pub over_bound: u64,
    /// The largest window's bound, `e / width · N`, in thousandths (exact integers).
    pub bound_milli: u64,
}

/// One sample per closed window, for the chart: each method's recall in that window.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RecallSample {
    pub at_ms: u64,
    pub end_ms: i64,
    pub recall: [f64; 4],
}

/// The four methods and their tallies.
#[derive(Clone, Debug)]
pub struct RankingLane {
    views: Arc<[View]>,
    next: usize,
    k: usize,
    pub partitions: u32,
    exact: TopK<u32>,
    by_item: Vec<TopK<u32>>,
    by_user: Vec<TopK<u32>>,
    item_partition: Vec<u32>,
    user_partition: Vec<u32>,
    sketch: WindowedState<Option<SketchTopK>>,
    sketch_template: CountMinSketch,
    candidates: usize,
    pub tallies: [Tally; 4],
    pub sketch_checks: SketchChecks,
    /// Merges keyed by post that differed from the exact ranking (never, by the argument
    /// above; the invariants hold it to that).
    pub by_item_wrong: u64,
    pub windows: u64,
    pub last: Option<WindowReport>,
    pub samples: Vec<RecallSample>,
}

fn window_spec(s: &JoinsScenario) -> WindowSpec {
    match s.topk.window {
        TopKWindow::Tumbling => WindowSpec::Tumbling {
            size_ms: s.topk.window_size_ms as i64,
        },
        TopKWindow::Hopping => WindowSpec::Hopping {
            size_ms: s.topk.window_size_ms as i64,
            hop_ms: s.topk.window_hop_ms as i64,
        },
    }
}

impl RankingLane {
    pub fn new(scenario: &JoinsScenario, views: Vec<View>) -> Self {
        let t = &scenario.topk;
        let config = TopKConfig {
            window: window_spec(scenario),
            k: t.k,
            max_out_of_orderness_ms: scenario.max_out_of_orderness_ms as i64,
        };
        let topk = || TopK::new(config).surely("the scenario's window was validated");
        let partitions = t.partitions;
        let spread = |count: u32, name: fn(u32) -> String| -> Vec<u32> {
            (0..count)
                .map(|i| partition_of(&name(i), partitions))
                .collect()
        };
        Self {
            views: views.into(),
            next: 0,
            k: t.k as usize,
            partitions,
            exact: topk(),
            by_item: (0..partitions).map(|_| topk()).collect(),
            by_user: (0..partitions).map(|_| topk()).collect(),
            item_partition: spread(t.items, item_name),
            user_partition: spread(t.users, user_name),
            sketch: WindowedState::new(config.window).surely("validated"),
            sketch_template: CountMinSketch::new(
                t.sketch_width,
                t.sketch_depth,
                &mut sketch_rng(scenario),
            ),
            candidates: t.candidates.max(t.k) as usize,
            tallies: [Tally::default(); 4],
            sketch_checks: SketchChecks::default(),
            by_item_wrong: 0,
            windows: 0,
            last: None,
            samples: Vec::new(),
        }
    }

    pub fn due_ms(&self) -> Option<u64> {
        self.views.get(self.next).map(|v| v.arrival_ms)
    }

    pub fn last_arrival_ms(&self) -> u64 {
        self.views.last().map_or(0, |v| v.arrival_ms)
    }

    pub fn watermark(&self) -> Watermark {
        self.exact.watermark()
    }

    /// Events taken and late events.
    pub fn counts(&self) -> (u64, u64) {
        let summary = self.exact.summary();
        (summary.events, summary.late)
    }

    /// Counts every view that arrives by `now` every way, then closes the windows the
    /// watermark passed.
    pub fn arrive(&mut self, now: u64, tell: &mut Vec<JoinsEventKind>, fold: &mut impl FnMut(u64)) {
        let mut exact_closed = Vec::new();
        while let Some(&view) = self.views.get(self.next) {
            if view.arrival_ms > now {
                break;
            }
            fold(self.next as u64);
            self.next += 1;
            let time_ms = view.at_ms as i64;
            let item = view.item;
            self.exact
                .push(&item, time_ms, &mut exact_closed)
                .surely("generated times are valid");
            let by_item = self.item_partition[item as usize] as usize;
            let by_user = self.user_partition[view.user as usize] as usize;
            self.by_item[by_item].insert(&item, time_ms).surely("valid");
            self.by_user[by_user].insert(&item, time_ms).surely("valid");
            let (template, candidates) = (&self.sketch_template, self.candidates);
            self.sketch
                .insert(time_ms, |state| {
                    state
                        .get_or_insert_with(|| SketchTopK::new(template.empty_like(), candidates))
                        .add(u64::from(item))
                })
                .surely("valid");
            self.close(self.exact.watermark(), &mut exact_closed, now, tell);
        }
        self.track_state();
    }

    /// The end of the input: every window closes.
    pub fn finish(&mut self, now: u64, tell: &mut Vec<JoinsEventKind>) {
        let mut exact_closed = Vec::new();
        self.exact.finish(&mut exact_closed);
        self.close(Watermark::PlusInfinity, &mut exact_closed, now, tell);
    }

    /// Moves every other method to the exact operator's watermark and ranks the windows
    /// that closed.
    fn close(
        &mut self,
        watermark: Watermark,
        exact_closed: &mut Vec<TopWindow<u32>>,
        now: u64,
        tell: &mut Vec<JoinsEventKind>,
    ) {
        let mut by_item = partition_lists(&mut self.by_item, watermark);
        let mut by_user = partition_lists(&mut self.by_user, watermark);
        let mut sketches = Vec::new();
        self.sketch.advance(watermark, &mut sketches);
        let mut sketches: SortedMap<(i64, i64), SketchTopK> = sketches
            .into_iter()
            .filter_map(|w: ClosedWindow<Option<SketchTopK>>| {
                Some(((w.start_ms, w.end_ms), w.state?))
            })
            .collect();
        for window in exact_closed.drain(..) {
            let key = (window.start_ms, window.end_ms);
            let item_lists = by_item.remove(&key).unwrap_or_default();
            let user_lists = by_user.remove(&key).unwrap_or_default();
            let sketch = sketches
                .remove(&key)
                .expect("the sketch saw the same events in the same windows");
            self.rank(window, item_lists, user_lists, sketch, now, tell);
        }
    }

    fn rank(
        &mut self,
        window: TopWindow<u32>,
        item_lists: Vec<Vec<(u32, u64)>>,
        mut user_lists: Vec<Vec<(u32, u64)>>,
        sketch: SketchTopK,
        now: u64,
        tell: &mut Vec<JoinsEventKind>,
    ) {
        self.windows += 1;
        let counts = &window.counts;
        let truth = &window.top;
        let kth = if truth.len() == self.k {
            truth.last().map_or(0, |t| t.1)
        } else {
            0
        };
        let judge = |list: &[(u32, u64)]| -> Vec<Ranked> {
            list.iter()
                .enumerate()
                .map(|(rank, &(item, reported))| {
                    let truth_count = counts.get(&item).copied().unwrap_or(0);
                    Ranked {
                        item,
                        reported,
                        truth: truth_count,
                        hit: truth_count >= kth && truth_count > 0,
                        in_place: truth.get(rank) == Some(&(item, reported)),
                    }
                })
                .collect()
        };
        let merged_item = merge(&item_lists, self.k);
        let merged_user = merge(&user_lists, self.k);
        if merged_item != *truth {
            self.by_item_wrong += 1;
        }
        let sketch_list: Vec<(u32, u64)> = sketch
            .ranked()
            .into_iter()
            .take(self.k)
            .map(|(item, estimate)| (item as u32, estimate))
            .collect();
        let rankings = [
            judge(truth),
            judge(&merged_item),
            judge(&merged_user),
            judge(&sketch_list),
        ];
        let slots = truth.len() as u64;
        let mut recall = [1.0; 4];
        for (m, ranking) in rankings.iter().enumerate() {
            let hits = ranking.iter().filter(|r| r.hit).count() as u64;
            let tally = &mut self.tallies[m];
            tally.hits += hits;
            tally.slots += slots;
            tally.missed += slots - hits.min(slots);
            tally.misranked += ranking.iter().filter(|r| !r.in_place).count() as u64;
            // An empty window has nothing to miss.
            recall[m] = (hits * 1_000)
                .checked_div(slots)
                .map_or(1.0, |milli| milli as f64 / 1_000.0);
        }
        let in_user = |item: u32| merged_user.iter().any(|&(i, _)| i == item);
        let by_user_missing: Vec<Ranked> = rankings[0]
            .iter()
            .filter(|r| !in_user(r.item))
            .map(|r| Ranked {
                reported: user_lists
                    .iter()
                    .flat_map(|l| l.iter())
                    .filter(|(i, _)| *i == r.item)
                    .map(|(_, c)| c)
                    .sum(),
                ..*r
            })
            .collect();
        let events: u64 = counts.values().sum();
        let bound = error_bound(sketch.sketch.width(), events);
        let mut max_overcount = 0;
        let checks = &mut self.sketch_checks;
        for (&item, &count) in counts {
            let estimate = sketch.sketch.estimate(u64::from(item));
            checks.estimates += 1;
            if estimate < count {
                checks.underestimates += 1;
                continue;
            }
            let over = estimate - count;
            max_overcount = max_overcount.max(over);
            if over as f64 > bound {
                checks.over_bound += 1;
            }
        }
        checks.max_overcount = checks.max_overcount.max(max_overcount);
        checks.bound_milli = checks.bound_milli.max((bound * 1_000.0) as u64);
        tell.push(JoinsEventKind::WindowRanked {
            start_ms: window.start_ms,
            end_ms: window.end_ms,
            events,
            k: self.k as u32,
            by_user_missed: (slots - rankings[2].iter().filter(|r| r.hit).count() as u64) as u32,
            by_user_first_miss: by_user_missing.first().map(|r| r.item),
            by_user_misranked: rankings[2].iter().filter(|r| !r.in_place).count() as u32,
            sketch_missed: (slots - rankings[3].iter().filter(|r| r.hit).count() as u64) as u32,
            max_overcount,
            overcount_bound: bound as u64,
        });
        self.samples.push(RecallSample {
            at_ms: now,
            end_ms: window.end_ms,
            recall,
        });
        for list in &mut user_lists {
            list.truncate(self.k);
        }
        self.last = Some(WindowReport {
            start_ms: window.start_ms,
            end_ms: window.end_ms,
            events,
            distinct: counts.len() as u32,
            rankings,
            by_user_missing,
            user_partitions: user_lists,
            overcount_bound: bound,
            max_overcount,
        });
    }

    /// Updates each method's peak bytes from its open windows.
    fn track_state(&mut self) {
        let exact: u64 = self
            .exact
            .open()
            .map(|(_, _, counts)| counts.len() as u64 * ENTRY_BYTES)
            .sum();
        let sketch: u64 = self
            .sketch
            .open()
            .filter_map(|(_, _, s)| s.as_ref())
            .map(|s| s.state_bytes(ENTRY_BYTES))
            .sum();
        // The partitioned methods hold the same counts as the exact one, spread out.
        for (m, bytes) in [exact, exact, exact, sketch].into_iter().enumerate() {
            let peak = &mut self.tallies[m].peak_state_bytes;
            *peak = (*peak).max(bytes);
        }
    }

    /// The open windows: (start, end, views counted so far), by end.
    pub fn open_windows(&self) -> Vec<(i64, i64, u64)> {
        self.exact
            .open()
            .map(|(start, end, counts)| (start, end, counts.values().sum()))
            .collect()
    }
}

/// Per closed window (start, end), each partition's top-K list of (post, count).
type PartitionLists = SortedMap<(i64, i64), Vec<Vec<(u32, u64)>>>;

/// Moves each partition's operator to `watermark` and gathers the top-K lists of the
/// windows that closed: per window, one list per partition (empty where a partition saw
/// nothing of it).
fn partition_lists(ops: &mut [TopK<u32>], watermark: Watermark) -> PartitionLists {
    let partitions = ops.len();
    let mut lists = PartitionLists::new();
    let mut closed = Vec::new();
    for (p, op) in ops.iter_mut().enumerate() {
        op.advance_watermark(watermark, &mut closed);
        for window in closed.drain(..) {
            lists
                .entry((window.start_ms, window.end_ms))
                .or_insert_with(|| vec![Vec::new(); partitions])[p] = window.top;
        }
    }
    lists
}

/// The partitions' top-K lists merged: counts summed per post, ranked again.
pub fn merge(lists: &[Vec<(u32, u64)>], k: usize) -> Vec<(u32, u64)> {
    let mut sums: SortedMap<u32, u64> = SortedMap::new();
    for list in lists {
        for &(item, count) in list {
            *sums.entry(item).or_insert(0) += count;
        }
    }
    top_k(&sums, k)
}
