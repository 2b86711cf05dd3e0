//! Top-K per window, exactly: a count per item in each tumbling or hopping window
//! ([`WindowedState`]), and when the watermark closes the window, its K largest counts, by
//! count descending then item ascending (Flink SQL's window Top-N,
//! `ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY cnt DESC, item)`).
//! The `topk` CLI runs it over a file; the lessons run it over the whole stream, and over
//! each partition of a partitioned stream before merging.

use super::config::TopKConfig;
use super::windowed::{ClosedWindow, WindowedState};
use crate::replay::sorted_map::SortedSet;
use crate::window::{EventError, Watermark};
use std::cmp::Reverse;
use std::collections::BTreeMap;

/// A closed window and its ranking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopWindow<K> {
    pub start_ms: i64,
    pub end_ms: i64,
    /// At most K items with their counts, best first.
    pub top: Vec<(K, u64)>,
    /// Every item's count in the window: the ground truth the lessons compare with.
    pub counts: BTreeMap<K, u64>,
}

/// Running totals, as the CLI's summary prints them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopKSummary {
    /// Events taken, late ones included.
    pub events: u64,
    /// Events none of whose windows was still open.
    pub late: u64,
    /// Windows that closed (each printed once).
    pub windows: u64,
}

/// The exact top-K operator.
#[derive(Clone, Debug)]
pub struct TopK<K> {
    windows: WindowedState<BTreeMap<K, u64>>,
    k: usize,
    out_of_orderness_ms: i64,
    closed: Vec<ClosedWindow<BTreeMap<K, u64>>>,
    windows_closed: u64,
}

impl<K: Ord + Clone> TopK<K> {
    /// The operator for a valid `config` (checked here).
    pub fn new(config: TopKConfig) -> Result<Self, super::JoinConfigError> {
        config.validate()?;
        Ok(Self {
            windows: WindowedState::new(config.window)?,
            k: config.k as usize,
            out_of_orderness_ms: config.max_out_of_orderness_ms,
            closed: Vec::new(),
            windows_closed: 0,
        })
    }

    /// Takes one event in arrival order: counts it under W as it stood, then moves W to
    /// `time - max_out_of_orderness` and appends the windows that closes.
    pub fn push(
        &mut self,
        key: &K,
        time_ms: i64,
        out: &mut Vec<TopWindow<K>>,
    ) -> Result<(), EventError> {
        self.insert(key, time_ms)?;
        self.advance_watermark(Watermark::At(time_ms - self.out_of_orderness_ms), out);
        Ok(())
    }

    /// Counts one event without moving W (for callers that keep the watermark themselves,
    /// as the partitions of one stream share theirs); false when it was late.
    pub fn insert(&mut self, key: &K, time_ms: i64) -> Result<bool, EventError> {
        self.windows.insert(time_ms, |counts| {
            *counts.entry(key.clone()).or_insert(0) += 1
        })
    }

    /// Moves W (never back) and appends the windows it closes, ranked.
    pub fn advance_watermark(&mut self, candidate: Watermark, out: &mut Vec<TopWindow<K>>) {
        self.windows.advance(candidate, &mut self.closed);
        for window in self.closed.drain(..) {
            self.windows_closed += 1;
            out.push(TopWindow {
                start_ms: window.start_ms,
                end_ms: window.end_ms,
                top: top_k(&window.state, self.k),
                counts: window.state,
            });
        }
    }

    /// Ends the input: W becomes plus infinity and every open window closes.
    pub fn finish(&mut self, out: &mut Vec<TopWindow<K>>) {
        self.advance_watermark(Watermark::PlusInfinity, out);
    }

    pub fn summary(&self) -> TopKSummary {
        let (events, late) = self.windows.counts();
        TopKSummary {
            events,
            late,
            windows: self.windows_closed,
        }
    }

    pub fn watermark(&self) -> Watermark {
        self.windows.watermark()
    }

    /// The open windows with their counts so far, by end then start.
    pub fn open(&self) -> impl Iterator<Item = (i64, i64, &BTreeMap<K, u64>)> + '_ {
        self.windows.open()
    }
}

/// The `k` largest counts, by count descending then key ascending, kept in a bounded ordered
/// set (the "heap of the K largest"), which stays small: K is at most a few dozen.
pub fn top_k<'a, K: Ord + Clone + 'a>(
    counts: impl IntoIterator<Item = (&'a K, &'a u64)>,
    k: usize,
) -> Vec<(K, u64)> {
    let mut best: SortedSet<(Reverse<u64>, &K)> = SortedSet::new();
    for (key, &count) in counts {
        best.insert((Reverse(count), key));
        if best.len() > k {
            best.pop_last();
        }
    }
    best.into_iter()
        .map(|(Reverse(count), key)| (key.clone(), count))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::window::WindowSpec;

    #[test]
    fn ties_rank_by_key_and_k_cuts_the_list() {
        let counts: BTreeMap<&str, u64> = [("b", 3), ("a", 3), ("c", 5), ("d", 1)].into();
        assert_eq!(top_k(&counts, 3), vec![("c", 5), ("a", 3), ("b", 3)]);
        assert_eq!(top_k(&counts, 10).len(), 4);
    }

    #[test]
    fn a_window_closes_once_when_the_watermark_reaches_its_end() {
        let config = TopKConfig {
            window: WindowSpec::Tumbling { size_ms: 10 },
            k: 2,
            max_out_of_orderness_ms: 0,
        };
        let mut topk = TopK::new(config).unwrap();
        let mut out = Vec::new();
        for (key, t) in [("x", 1), ("y", 2), ("x", 9)] {
            topk.push(&key, t, &mut out).unwrap();
        }
        assert!(out.is_empty());
        topk.push(&"y", 10, &mut out).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].top, vec![("x", 2), ("y", 1)]);
        // Window [0, 10) is gone: an event at 5 is late.
        topk.push(&"z", 5, &mut out).unwrap();
        assert_eq!(topk.summary().late, 1);
        topk.finish(&mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(topk.summary().windows, 2);
    }
}
