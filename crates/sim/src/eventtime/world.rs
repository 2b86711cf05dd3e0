//! The event-time run: records generated up front, then replayed in processing time so a UI can
//! animate it. [`EventTimeWorld::advance_to`] moves the processing clock; on the way it feeds each
//! record to a processing-time window operator and to an event-time one driven by the combined
//! per-partition watermark, declares partitions idle when their deadline passes, and collects the
//! panes. Everything happens at well-defined instants (record times and idleness deadlines), so
//! advancing in many small steps or one big one gives the same run.

use super::events::{EventTimeEvent, EventTimeEventKind};
use super::records::{self, Record};
use super::scenario::{EventTimeScenario, LateRecordPolicy, ScenarioError, TimeDomain};
use super::snapshot::{
    EmittedPane, EventTimeSnapshot, SideOutputRecord, WindowComparison, WindowId,
};
use super::truth::{ground_truth, in_order_operator};
use super::watermarks::Watermarks;
use crate::window::{
    LatePolicy, OpenWindow, Output, Pane, Timing, Watermark, WindowConfig, WindowOperator,
    WindowSpec,
};
use std::collections::{BTreeMap, BTreeSet};

/// One event-time run, advanced through processing time.
#[derive(Clone, Debug)]
pub struct EventTimeWorld {
    scenario: EventTimeScenario,
    /// All records, in processing order.
    records: Vec<Record>,
    /// How many of them the processor has seen.
    seen: usize,
    now_ms: i64,
    input_end_ms: i64,
    input_ended: bool,
    watermarks: Watermarks,
    event_time: WindowOperator<u32>,
    processing_time: WindowOperator<u32>,
    truth: BTreeMap<WindowId, u64>,
    event_time_panes: Vec<EmittedPane>,
    processing_time_panes: Vec<EmittedPane>,
    side_outputs: Vec<SideOutputRecord>,
    /// The latest event-time count emitted per window, for restatements.
    last_emitted: BTreeMap<WindowId, u64>,
    dropped_per_window: BTreeMap<WindowId, u64>,
    /// Sessions that fired and were later merged into a larger session.
    merged_away: BTreeSet<WindowId>,
    /// Operator outputs of the current step; kept to reuse its allocation.
    scratch: Vec<Output<u32>>,
    /// Every pane and too-late record, as typed events in processing-time order.
    events: Vec<EventTimeEvent>,
}

impl EventTimeWorld {
    /// Validates the scenario, generates its records and computes the ground truth; the clock
    /// stands at 0 with nothing processed.
    pub fn new(scenario: EventTimeScenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let records = records::generate(&scenario);
        let last_processed_ms = records.last().map_or(0, |record| record.processed_ms);
        let event_time = WindowOperator::new(WindowConfig {
            window: scenario.window,
            max_out_of_orderness_ms: scenario.max_out_of_orderness_ms,
            allowed_lateness_ms: scenario.allowed_lateness_ms,
            late: match scenario.late_policy {
                LateRecordPolicy::SideOutput => LatePolicy::Side,
                LateRecordPolicy::Drop | LateRecordPolicy::Restate => LatePolicy::Drop,
            },
        })
        .expect("the scenario's windowing knobs were validated");
        Ok(Self {
            watermarks: Watermarks::new(
                scenario.partitions,
                scenario.max_out_of_orderness_ms,
                scenario.idleness_ms,
            ),
            truth: ground_truth(&records, scenario.window),
            processing_time: in_order_operator(scenario.window),
            event_time,
            input_end_ms: last_processed_ms.max(scenario.duration_ms),
            records,
            scenario,
            seen: 0,
            now_ms: 0,
            input_ended: false,
            event_time_panes: Vec::new(),
            processing_time_panes: Vec::new(),
            side_outputs: Vec::new(),
            last_emitted: BTreeMap::new(),
            dropped_per_window: BTreeMap::new(),
            merged_away: BTreeSet::new(),
            scratch: Vec::new(),
            events: Vec::new(),
        })
    }

    pub fn scenario(&self) -> &EventTimeScenario {
        &self.scenario
    }

    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }

    /// The processing time at which the input ends: the later of the scenario's duration and
    /// the last record's processing time. There every window fires, as when a bounded Flink
    /// source finishes.
    pub fn input_end_ms(&self) -> i64 {
        self.input_end_ms
    }

    /// Every record of the run, in processing order, including those not processed yet.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The records processed so far.
    pub fn records_seen(&self) -> &[Record] {
        &self.records[..self.seen]
    }

    /// The count of every window with complete data by true event time.
    pub fn ground_truth(&self) -> &BTreeMap<WindowId, u64> {
        &self.truth
    }

    pub fn combined_watermark(&self) -> Watermark {
        self.watermarks.combined()
    }

    /// The event-time operator's windows that still hold state.
    pub fn open_windows(&self) -> Vec<OpenWindow<u32>> {
        self.event_time.open_windows()
    }

    pub fn event_time_panes(&self) -> &[EmittedPane] {
        &self.event_time_panes
    }

    pub fn processing_time_panes(&self) -> &[EmittedPane] {
        &self.processing_time_panes
    }

    /// Moves processing time forward to `target_ms` (never back), processing every record and
    /// idleness deadline up to and including it, in time order.
    pub fn advance_to(&mut self, target_ms: i64) {
        while let Some(instant_ms) = self.next_instant_ms().filter(|&at| at <= target_ms) {
            self.step(instant_ms);
        }
        if target_ms > self.now_ms {
            self.now_ms = target_ms;
            self.fire_processing_time(target_ms);
        }
    }

    /// Runs to the end of the input, where every window has fired.
    pub fn run_to_end(&mut self) {
        self.advance_to(self.input_end_ms);
    }

    /// The earliest instant something happens: a record is processed, a partition's idleness
    /// deadline passes, or the input ends.
    fn next_instant_ms(&self) -> Option<i64> {
        if self.input_ended {
            return None;
        }
        let next_record_ms = self
            .records
            .get(self.seen)
            .map_or(self.input_end_ms, |record| record.processed_ms);
        let next_deadline_ms = self.watermarks.next_idle_deadline_ms();
        Some(next_deadline_ms.map_or(next_record_ms, |at| at.min(next_record_ms)))
    }

    /// Everything at one instant: processing-time windows ending by now fire first (records
    /// at exactly their end belong to the next window), then the records, then idleness, then
    /// the end of the input.
    fn step(&mut self, instant_ms: i64) {
        self.now_ms = self.now_ms.max(instant_ms);
        self.fire_processing_time(instant_ms);
        while let Some(&record) = self.records.get(self.seen) {
            if record.processed_ms != instant_ms {
                break;
            }
            self.process(record, instant_ms);
            self.seen += 1;
        }
        self.watermarks.declare_idle(instant_ms);
        self.advance_event_time_watermark(instant_ms);
        if self.seen == self.records.len() && instant_ms >= self.input_end_ms {
            self.end_input(instant_ms);
        }
        crate::family::debug_check(self);
    }

    fn process(&mut self, record: Record, now_ms: i64) {
        self.processing_time
            .insert(&record.key, record.processed_ms, &mut self.scratch)
            .expect("processing times are within the operator's range");
        // Processing times only grow, so nothing is late and no pane comes out here.
        self.scratch.clear();

        let event_ms = record.event_time_ms(self.scenario.timestamp);
        let dropped_before = self.event_time.summary().dropped;
        self.event_time
            .insert(&record.key, event_ms, &mut self.scratch)
            .expect("event times are within the operator's range");
        if self.event_time.summary().dropped > dropped_before {
            self.count_dropped(&record, event_ms, now_ms);
        }
        self.collect_event_time_panes(now_ms);

        self.watermarks.observe(record.partition, event_ms, now_ms);
        self.advance_event_time_watermark(now_ms);
    }

    fn count_dropped(&mut self, record: &Record, event_ms: i64, now_ms: i64) {
        for window in fixed_windows_of(self.scenario.window, record.key, event_ms) {
            *self.dropped_per_window.entry(window).or_default() += 1;
        }
        let routed_aside = self.scenario.late_policy == LateRecordPolicy::SideOutput;
        self.events.push(EventTimeEvent {
            at_ms: now_ms.max(0) as u64,
            kind: EventTimeEventKind::RecordTooLate {
                record: record.index,
                key: record.key,
                event_ms,
                routed_aside,
            },
        });
        if routed_aside {
            self.side_outputs.push(SideOutputRecord {
                emitted_at_ms: now_ms,
                record_index: record.index,
                key: record.key,
                event_ms,
            });
        }
    }

    fn advance_event_time_watermark(&mut self, now_ms: i64) {
        let combined = self.watermarks.recombine(now_ms);
        self.event_time
            .advance_watermark(combined, &mut self.scratch);
        self.collect_event_time_panes(now_ms);
    }

    /// The bounded input is exhausted: every event-time window fires, and so does every
    /// processing-time window still open (stamped now, since its end lies ahead), so that both
    /// columns of the comparison are complete.
    fn end_input(&mut self, now_ms: i64) {
        self.watermarks.end_of_input(now_ms);
        self.event_time.finish(&mut self.scratch);
        self.collect_event_time_panes(now_ms);
        let mut out = Vec::new();
        self.processing_time.finish(&mut out);
        self.collect_processing_time_panes(out, |_| now_ms);
        self.input_ended = true;
    }

    /// Turns the event-time operator's outputs into stamped panes. Side records are already
    /// handled by `count_dropped`, which knows the record they came from.
    fn collect_event_time_panes(&mut self, now_ms: i64) {
        let mut outputs = std::mem::take(&mut self.scratch);
        for output in outputs.drain(..) {
            let Output::Pane(pane) = output else { continue };
            let window = WindowId::of(&pane);
            let previous = self.take_replaced(window);
            self.last_emitted.insert(window, pane.count);
            let restates = self.scenario.late_policy == LateRecordPolicy::Restate
                && pane.timing == Timing::Late;
            let emitted = EmittedPane {
                emitted_at_ms: now_ms,
                window,
                count: pane.count,
                timing: pane.timing,
                retracted: previous.filter(|_| restates),
            };
            self.record_pane(TimeDomain::EventTime, &emitted);
            self.event_time_panes.push(emitted);
        }
        self.scratch = outputs;
    }

    /// What a pane for `window` replaces: the window's own previous pane, and for a merged
    /// session the latest panes of the sessions merged into it (which no longer exist, so they
    /// are forgotten and marked merged away). The total is what a consumer must retract.
    /// Fixed windows of one spec all have the same size, so only the window itself lies
    /// within it.
    fn take_replaced(&mut self, window: WindowId) -> Option<u64> {
        let lowest = WindowId {
            end_ms: window.start_ms,
            start_ms: i64::MIN,
            key: 0,
        };
        let highest = WindowId {
            end_ms: window.end_ms,
            start_ms: i64::MAX,
            key: u32::MAX,
        };
        let inside: Vec<WindowId> = self
            .last_emitted
            .range(lowest..=highest)
            .map(|(&earlier, _)| earlier)
            .filter(|earlier| earlier.key == window.key && earlier.start_ms >= window.start_ms)
            .collect();
        let mut replaced = None;
        for earlier in inside {
            let count = self.last_emitted.remove(&earlier).unwrap_or(0);
            *replaced.get_or_insert(0) += count;
            if earlier != window {
                self.merged_away.insert(earlier);
            }
        }
        replaced
    }

    /// Processing-time windows fire when the clock reaches their end; each pane is stamped with
    /// that end, which is when a processing-time timer fires.
    fn fire_processing_time(&mut self, now_ms: i64) {
        let mut out = Vec::new();
        self.processing_time
            .advance_watermark(Watermark::At(now_ms), &mut out);
        self.collect_processing_time_panes(out, |pane| pane.end_ms);
    }

    fn collect_processing_time_panes(
        &mut self,
        outputs: Vec<Output<u32>>,
        emitted_at_ms: impl Fn(&Pane<u32>) -> i64,
    ) {
        for output in outputs {
            if let Output::Pane(pane) = output {
                let emitted = EmittedPane {
                    emitted_at_ms: emitted_at_ms(&pane),
                    window: WindowId::of(&pane),
                    count: pane.count,
                    timing: pane.timing,
                    retracted: None,
                };
                self.record_pane(TimeDomain::ProcessingTime, &emitted);
                self.processing_time_panes.push(emitted);
            }
        }
    }

    /// The typed event for a pane, with the truth of its window beside it.
    fn record_pane(&mut self, clock: TimeDomain, pane: &EmittedPane) {
        let truth = self.truth.get(&pane.window).copied();
        self.events.push(EventTimeEvent {
            at_ms: pane.emitted_at_ms.max(0) as u64,
            kind: EventTimeEventKind::pane(
                clock,
                pane.window,
                pane.count,
                pane.timing,
                pane.retracted,
                truth,
            ),
        });
    }

    /// Every event so far, in processing-time order.
    pub fn events(&self) -> &[EventTimeEvent] {
        &self.events
    }

    /// The event-time operator's running totals (records taken, dropped, panes).
    pub fn event_time_summary(&self) -> crate::window::Summary {
        self.event_time.summary()
    }

    /// A copy of everything drawable now.
    pub fn snapshot(&self) -> EventTimeSnapshot {
        let backlog = self.records[self.seen..]
            .iter()
            .filter(|record| record.received_ms <= self.now_ms)
            .count() as u64;
        EventTimeSnapshot {
            now_ms: self.now_ms,
            input_end_ms: self.input_end_ms,
            input_ended: self.input_ended,
            records_seen: self.records_seen().to_vec(),
            backlog,
            partitions: self.watermarks.partitions().to_vec(),
            combined_watermark: self.watermarks.combined(),
            holding_partition: self
                .watermarks
                .holding_partition()
                .filter(|_| !self.input_ended),
            watermark_steps: self.watermarks.steps.clone(),
            idleness_changes: self.watermarks.idleness_changes.clone(),
            open_windows: self.open_windows(),
            event_time_panes: self.event_time_panes.clone(),
            processing_time_panes: self.processing_time_panes.clone(),
            side_outputs: self.side_outputs.clone(),
            dropped: self.event_time.summary().dropped,
            windows: self.window_comparisons(),
        }
    }

    /// One row per window that has a true count or an answer in either time domain.
    pub fn window_comparisons(&self) -> Vec<WindowComparison> {
        let mut rows: BTreeMap<WindowId, WindowComparison> = BTreeMap::new();
        let blank = |window| WindowComparison {
            window,
            truth: 0,
            event_time: None,
            event_time_first: None,
            event_time_first_emitted_at_ms: None,
            event_time_panes: 0,
            dropped: 0,
            processing_time: None,
            result: None,
            merged_away: false,
        };
        for (&window, &count) in &self.truth {
            rows.entry(window).or_insert_with(|| blank(window)).truth = count;
        }
        for pane in &self.event_time_panes {
            let row = rows
                .entry(pane.window)
                .or_insert_with(|| blank(pane.window));
            if row.event_time_first.is_none() {
                row.event_time_first = Some(pane.count);
                row.event_time_first_emitted_at_ms = Some(pane.emitted_at_ms);
            }
            row.event_time = Some(pane.count);
            row.event_time_panes += 1;
        }
        for (&window, &dropped) in &self.dropped_per_window {
            rows.entry(window).or_insert_with(|| blank(window)).dropped = dropped;
        }
        for &window in &self.merged_away {
            rows.entry(window)
                .or_insert_with(|| blank(window))
                .merged_away = true;
        }
        for pane in &self.processing_time_panes {
            let row = rows
                .entry(pane.window)
                .or_insert_with(|| blank(pane.window));
            row.processing_time = Some(pane.count);
        }
        let domain = self.scenario.time_domain;
        rows.into_values()
            .map(|mut row| {
                row.result = match domain {
                    TimeDomain::EventTime => row.event_time,
                    TimeDomain::ProcessingTime => row.processing_time,
                };
                row
            })
            .collect()
    }
}

/// The tumbling or hopping windows `[n·hop, n·hop + size)` holding `time_ms`; none for
/// sessions and sliding windows, whose windows depend on the other records.
fn fixed_windows_of(spec: WindowSpec, key: u32, time_ms: i64) -> Vec<WindowId> {
    let (size_ms, hop_ms) = match spec {
        WindowSpec::Tumbling { size_ms } => (size_ms, size_ms),
        WindowSpec::Hopping { size_ms, hop_ms } => (size_ms, hop_ms),
        WindowSpec::Session { .. } | WindowSpec::Sliding { .. } => return Vec::new(),
    };
    let last_start_ms = time_ms - time_ms.rem_euclid(hop_ms);
    let mut windows = Vec::new();
    let mut start_ms = last_start_ms;
    while start_ms + size_ms > time_ms {
        windows.push(WindowId {
            end_ms: start_ms + size_ms,
            start_ms,
            key,
        });
        start_ms -= hop_ms;
    }
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
}
