//! Window-level answers. Tumbling and hopping windows are the same for every device, and a
//! lesson asks about the window ("how many events happened between 0:30 and 1:00?"), not
//! about each device's share of it. So when a clock passes such a window's end (the watermark
//! for event time, the processing clock for processing time) the devices' first answers are
//! added up into one [`WindowSummary`], next to the truth added up the same way. A window in
//! which something truly happened closes even if no device answered (the processor was
//! stopped, or every record of it comes late), which is exactly the news. Sessions and
//! sliding windows belong to one device each, so they have no summary.

use super::records::Record;
use super::snapshot::{EmittedPane, WindowId};
use crate::replay::sorted_map::SortedMap;
use crate::window::{Timing, Watermark, WindowSpec};

/// One shared window closed by one clock, its devices' answers added up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WindowSummary {
    pub(crate) start_ms: i64,
    pub(crate) end_ms: i64,
    pub(crate) count: u64,
    pub(crate) truth: u64,
    /// Processing time: records read later than they arrived (from the outage's backlog).
    pub(crate) from_backlog: u64,
    /// Processing time: how long the processor was stopped within the window.
    pub(crate) processor_stopped_ms: u64,
}

/// Which shared windows each clock has closed so far, and what a summary needs to know.
#[derive(Clone, Debug)]
pub(crate) struct Closings {
    /// Size and hop of the shared windows; `None` for sessions and sliding windows.
    fixed: Option<(i64, i64)>,
    /// The truth summed over devices, by window end (one shared window ends at each end).
    truth_by_end_ms: SortedMap<i64, u64>,
    /// Per processing-time window end: records it read from the backlog.
    backlog_by_end_ms: SortedMap<i64, u64>,
    /// The processor's outage, `[start, end)` in processing time.
    outage_ms: Option<(i64, i64)>,
    /// Windows ending at or before these have closed.
    event_time_closed_to: Watermark,
    processing_time_closed_to: Watermark,
}

impl Closings {
    pub(crate) fn new(
        spec: WindowSpec,
        truth: &SortedMap<WindowId, u64>,
        outage_ms: Option<(i64, i64)>,
    ) -> Self {
        let fixed = match spec {
            WindowSpec::Tumbling { size_ms } => Some((size_ms, size_ms)),
            WindowSpec::Hopping { size_ms, hop_ms } => Some((size_ms, hop_ms)),
            WindowSpec::Session { .. } | WindowSpec::Sliding { .. } => None,
        };
        let mut truth_by_end_ms = SortedMap::new();
        if fixed.is_some() {
            for (window, &count) in truth {
                *truth_by_end_ms.entry(window.end_ms).or_default() += count;
            }
        }
        Self {
            fixed,
            truth_by_end_ms,
            backlog_by_end_ms: SortedMap::new(),
            outage_ms,
            event_time_closed_to: Watermark::MinusInfinity,
            processing_time_closed_to: Watermark::MinusInfinity,
        }
    }

    /// `record` was read late, from the backlog: each processing-time window it counts in
    /// will say so.
    pub(crate) fn note_backlog(&mut self, record: &Record) {
        if let Some((size_ms, hop_ms)) = self.fixed {
            for end_ms in fixed_window_ends(size_ms, hop_ms, record.processed_ms) {
                *self.backlog_by_end_ms.entry(end_ms).or_default() += 1;
            }
        }
    }

    /// The watermark reached `to`: summaries of the shared windows ending since the last
    /// call, with the on-time answers among `panes` (the panes that move emitted).
    pub(crate) fn close_event_time(
        &mut self,
        to: Watermark,
        panes: &[EmittedPane],
    ) -> Vec<WindowSummary> {
        let from = self.event_time_closed_to;
        self.event_time_closed_to = to.max(from);
        self.close(from, to, panes)
    }

    /// The processing clock reached `to` (plus infinity at the end of the input).
    pub(crate) fn close_processing_time(
        &mut self,
        to: Watermark,
        panes: &[EmittedPane],
    ) -> Vec<WindowSummary> {
        let from = self.processing_time_closed_to;
        self.processing_time_closed_to = to.max(from);
        let mut summaries = self.close(from, to, panes);
        for summary in &mut summaries {
            summary.from_backlog = self.backlog_by_end_ms.remove(&summary.end_ms).unwrap_or(0);
            summary.processor_stopped_ms = self.stopped_within_ms(summary);
        }
        summaries
    }

    /// Every shared window ending in `(from, to]` that truly held something or answered, in
    /// order of end.
    fn close(&self, from: Watermark, to: Watermark, panes: &[EmittedPane]) -> Vec<WindowSummary> {
        let (Some((size_ms, _)), Some(ends)) = (self.fixed, from.passed_until(to)) else {
            return Vec::new();
        };
        let mut answered: SortedMap<i64, u64> = SortedMap::new();
        for pane in panes.iter().filter(|p| p.timing == Timing::OnTime) {
            *answered.entry(pane.window.end_ms).or_default() += pane.count;
        }
        let mut by_end: SortedMap<i64, (u64, u64)> = SortedMap::new();
        for (&end_ms, &truth) in self.truth_by_end_ms.range(ends) {
            by_end.entry(end_ms).or_default().1 = truth;
        }
        for (end_ms, count) in answered {
            by_end.entry(end_ms).or_default().0 = count;
        }
        by_end
            .into_iter()
            .map(|(end_ms, (count, truth))| WindowSummary {
                start_ms: end_ms - size_ms,
                end_ms,
                count,
                truth,
                from_backlog: 0,
                processor_stopped_ms: 0,
            })
            .collect()
    }

    fn stopped_within_ms(&self, window: &WindowSummary) -> u64 {
        self.outage_ms.map_or(0, |(stop_ms, resume_ms)| {
            let overlap_ms = resume_ms.min(window.end_ms) - stop_ms.max(window.start_ms);
            overlap_ms.max(0) as u64
        })
    }
}

/// The ends of the tumbling or hopping windows `[n·hop, n·hop + size)` holding `time_ms`.
fn fixed_window_ends(size_ms: i64, hop_ms: i64, time_ms: i64) -> impl Iterator<Item = i64> {
    let last_start_ms = time_ms - time_ms.rem_euclid(hop_ms);
    (0..)
        .map(move |n| last_start_ms - n * hop_ms)
        .take_while(move |start_ms| start_ms + size_ms > time_ms)
        .map(move |start_ms| start_ms + size_ms)
}

/// The tumbling or hopping windows `[n·hop, n·hop + size)` holding `time_ms`, in order; none
/// for sessions and sliding windows, whose windows depend on the other records.
pub(crate) fn fixed_windows_of(spec: WindowSpec, key: u32, time_ms: i64) -> Vec<WindowId> {
    let (size_ms, hop_ms) = match spec {
        WindowSpec::Tumbling { size_ms } => (size_ms, size_ms),
        WindowSpec::Hopping { size_ms, hop_ms } => (size_ms, hop_ms),
        WindowSpec::Session { .. } | WindowSpec::Sliding { .. } => return Vec::new(),
    };
    let mut windows: Vec<WindowId> = fixed_window_ends(size_ms, hop_ms, time_ms)
        .map(|end_ms| WindowId {
            end_ms,
            start_ms: end_ms - size_ms,
            key,
        })
        .collect();
    windows.reverse();
    windows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hopping_windows_of_a_time_are_every_window_containing_it() {
        let windows = fixed_windows_of(
            WindowSpec::Hopping {
                size_ms: 30,
                hop_ms: 10,
            },
            1,
            25,
        );
        let bounds: Vec<(i64, i64)> = windows.iter().map(|w| (w.start_ms, w.end_ms)).collect();
        assert_eq!(bounds, vec![(0, 30), (10, 40), (20, 50)]);
    }

    #[test]
    fn a_tumbling_window_ends_before_the_time_at_its_end() {
        let windows = fixed_windows_of(WindowSpec::Tumbling { size_ms: 10 }, 0, 10);
        assert_eq!((windows[0].start_ms, windows[0].end_ms), (10, 20));
    }

    fn window(key: u32, start_ms: i64, end_ms: i64) -> WindowId {
        WindowId {
            end_ms,
            start_ms,
            key,
        }
    }

    fn pane(key: u32, start_ms: i64, end_ms: i64, count: u64, timing: Timing) -> EmittedPane {
        EmittedPane {
            emitted_at_ms: end_ms,
            window: window(key, start_ms, end_ms),
            count,
            timing,
            retracted: None,
        }
    }

    #[test]
    fn a_window_closes_once_summing_its_devices_and_their_truth() {
        let truth = SortedMap::from([
            (window(0, 0, 10), 3),
            (window(1, 0, 10), 2),
            (window(0, 10, 20), 4),
        ]);
        let mut closings = Closings::new(WindowSpec::Tumbling { size_ms: 10 }, &truth, None);
        let panes = [
            pane(0, 0, 10, 3, Timing::OnTime),
            pane(1, 0, 10, 1, Timing::OnTime),
            pane(0, 30, 40, 1, Timing::Late),
        ];
        let first = closings.close_event_time(Watermark::At(12), &panes);
        assert_eq!(first.len(), 1);
        assert_eq!(
            (first[0].start_ms, first[0].count, first[0].truth),
            (0, 4, 5)
        );
        assert!(closings.close_event_time(Watermark::At(12), &[]).is_empty());
        // Nobody answered for [10, 20), yet 4 events truly happened in it.
        let second = closings.close_event_time(Watermark::PlusInfinity, &[]);
        assert_eq!(
            (second[0].end_ms, second[0].count, second[0].truth),
            (20, 0, 4)
        );
    }

    #[test]
    fn a_processing_time_window_knows_its_backlog_and_the_outage_inside_it() {
        let truth = SortedMap::from([(window(0, 20, 30), 5)]);
        let mut closings =
            Closings::new(WindowSpec::Tumbling { size_ms: 10 }, &truth, Some((15, 25)));
        let record = Record {
            index: 0,
            key: 0,
            partition: 0,
            offset: 0,
            true_ms: 16,
            occurred_ms: 16,
            sent_ms: 16,
            received_ms: 16,
            processed_ms: 25,
        };
        closings.note_backlog(&record);
        let summaries = closings
            .close_processing_time(Watermark::At(30), &[pane(0, 20, 30, 1, Timing::OnTime)]);
        let stopped: Vec<(i64, u64, u64)> = summaries
            .iter()
            .map(|s| (s.end_ms, s.from_backlog, s.processor_stopped_ms))
            .collect();
        assert_eq!(stopped, vec![(30, 1, 5)]);
    }

    #[test]
    fn sessions_have_no_shared_windows_to_summarise() {
        let truth = SortedMap::from([(window(0, 0, 10), 3)]);
        let mut closings = Closings::new(WindowSpec::Session { gap_ms: 5 }, &truth, None);
        assert!(closings
            .close_event_time(
                Watermark::PlusInfinity,
                &[pane(0, 0, 10, 3, Timing::OnTime)]
            )
            .is_empty());
    }
}
