//! The event-time run: records generated up front, then replayed in processing time so a UI can
//! animate it. [`EventTimeWorld::advance_to`] moves the processing clock; on the way it feeds each
//! record to a processing-time window operator and to an event-time one driven by the combined
//! per-partition watermark, declares partitions idle when their deadline passes, reports the
//! processor's outage, and collects the panes. Everything it does is told as a typed event
//! ([`EventTimeEvent`]) and folded into the run's trace hash as it happens. Everything happens
//! at well-defined instants (record times, idleness deadlines, the outage's start and end), so
//! advancing in many small steps or one big one gives the same run.

use super::closing::{fixed_windows_of, Closings, WindowSummary};
use super::events::{EventTimeEvent, EventTimeEventKind, LateRecord, WindowKind};
use super::fingerprint::RunTrace;
use super::invariants::TickMarks;
use super::records::{self, Record};
use super::scenario::{EventTimeScenario, LateRecordPolicy, ScenarioError, TimeDomain};
use super::snapshot::{
    EmittedPane, EventTimeSnapshot, SideOutputRecord, WindowComparison, WindowId,
};
use super::truth::{ground_truth, in_order_operator};
use super::watermarks::Watermarks;
use crate::invariant::Surely;
use crate::replay::chunked::ChunkedVec;
use crate::replay::sorted_map::{SortedMap, SortedSet};
use crate::replay::trace::TraceHasher;
use crate::window::{
    LatePolicy, OpenWindow, Output, Timing, Watermark, WindowConfig, WindowOperator,
};
use std::sync::Arc;

/// How far the narration of the processor's outage has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OutageNews {
    /// The outage has not started yet.
    Ahead,
    /// It started; the processor's return is still to come.
    Started,
    /// Both told, or the scenario has no outage.
    Told,
}

/// What a pane for a window replaces: the value a restating pane retracts, and how many
/// other windows that had answered (sessions) it merged.
struct Replaced {
    total: Option<u64>,
    merged: u32,
}

/// One event-time run, advanced through processing time.
#[derive(Clone, Debug)]
pub struct EventTimeWorld {
    scenario: EventTimeScenario,
    /// All records, in processing order; generated once and shared by every clone, since
    /// checkpoints never change them.
    records: Arc<[Record]>,
    /// How many of them the processor has seen.
    seen: usize,
    now_ms: i64,
    input_end_ms: i64,
    input_ended: bool,
    watermarks: Watermarks,
    /// The largest event time read from each partition, kept apart from the watermarks so the
    /// invariant check has something to hold each partition's watermark against.
    largest_event_ms: Vec<Option<i64>>,
    event_time: WindowOperator<u32>,
    processing_time: WindowOperator<u32>,
    /// Every window's true count, shared by every clone like `records`.
    truth: Arc<SortedMap<WindowId, u64>>,
    /// The shared windows each clock has closed, for the window-level events.
    closings: Closings,
    event_time_panes: Vec<EmittedPane>,
    processing_time_panes: Vec<EmittedPane>,
    side_outputs: Vec<SideOutputRecord>,
    /// The latest event-time count emitted per window, for restatements.
    last_emitted: SortedMap<WindowId, u64>,
    dropped_per_window: SortedMap<WindowId, u64>,
    /// Sessions that fired and were later merged into a larger session.
    merged_away: SortedSet<WindowId>,
    outage_news: OutageNews,
    /// Operator outputs of the current step; kept to reuse its allocation.
    scratch: Vec<Output<u32>>,
    /// Everything the run did, as typed events in processing-time order.
    events: ChunkedVec<EventTimeEvent>,
    trace: RunTrace,
    /// Where the latest tick began, so the invariant check looks only at what it changed.
    tick: TickMarks,
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
        .surely("the scenario's windowing knobs were validated");
        let truth = Arc::new(ground_truth(&records, scenario.window));
        let outage_ms = outage_span_ms(&scenario);
        Ok(Self {
            watermarks: Watermarks::new(
                scenario.partitions,
                scenario.max_out_of_orderness_ms,
                scenario.idleness_ms,
            ),
            largest_event_ms: vec![None; scenario.partitions as usize],
            closings: Closings::new(scenario.window, &truth, outage_ms),
            truth,
            processing_time: in_order_operator(scenario.window),
            event_time,
            input_end_ms: last_processed_ms.max(scenario.duration_ms),
            records: records.into(),
            seen: 0,
            now_ms: 0,
            input_ended: false,
            event_time_panes: Vec::new(),
            processing_time_panes: Vec::new(),
            side_outputs: Vec::new(),
            last_emitted: SortedMap::new(),
            dropped_per_window: SortedMap::new(),
            merged_away: SortedSet::new(),
            outage_news: if outage_ms.is_some() {
                OutageNews::Ahead
            } else {
                OutageNews::Told
            },
            scratch: Vec::new(),
            events: ChunkedVec::default(),
            trace: RunTrace::default(),
            tick: TickMarks::default(),
            scenario,
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

    /// Whether the input has ended (every window has fired).
    pub fn input_ended(&self) -> bool {
        self.input_ended
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
    pub fn ground_truth(&self) -> &SortedMap<WindowId, u64> {
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

    /// Every side-output record so far.
    pub fn side_outputs(&self) -> &[SideOutputRecord] {
        &self.side_outputs
    }

    /// The fingerprint of everything the run did so far (see the `fingerprint` module).
    pub fn trace_hash(&self) -> TraceHasher {
        self.trace.finish(self.now_ms)
    }

    pub(super) fn watermarks(&self) -> &Watermarks {
        &self.watermarks
    }

    pub(super) fn largest_event_ms(&self) -> &[Option<i64>] {
        &self.largest_event_ms
    }

    pub(super) fn tick(&self) -> &TickMarks {
        &self.tick
    }

    /// Moves processing time forward to `target_ms` (never back), processing every record,
    /// idleness deadline and outage instant up to and including it, in time order.
    pub fn advance_to(&mut self, target_ms: i64) {
        while let Some(instant_ms) = self.next_instant_ms().filter(|&at| at <= target_ms) {
            self.step(instant_ms);
        }
        if target_ms > self.now_ms {
            self.begin_tick();
            self.now_ms = target_ms;
            self.fire_processing_time(target_ms);
            crate::family::debug_check(self);
        }
    }

    /// Runs to the end of the input, where every window has fired.
    pub fn run_to_end(&mut self) {
        self.advance_to(self.input_end_ms);
    }

    /// The earliest instant something happens: a record is processed, a partition's idleness
    /// deadline passes, the outage starts or ends, or the input ends.
    fn next_instant_ms(&self) -> Option<i64> {
        if self.input_ended {
            return None;
        }
        let next_record_ms = self
            .records
            .get(self.seen)
            .map_or(self.input_end_ms, |record| record.processed_ms);
        let mut next_ms = next_record_ms;
        for at_ms in [
            self.watermarks.next_idle_deadline_ms(),
            self.next_outage_news_ms(),
        ]
        .into_iter()
        .flatten()
        {
            next_ms = next_ms.min(at_ms);
        }
        Some(next_ms)
    }

    fn next_outage_news_ms(&self) -> Option<i64> {
        let (stop_ms, resume_ms) = outage_span_ms(&self.scenario)?;
        match self.outage_news {
            OutageNews::Ahead => Some(stop_ms),
            OutageNews::Started => Some(resume_ms),
            OutageNews::Told => None,
        }
    }

    /// Everything at one instant: processing-time windows ending by now fire first (records
    /// at exactly their end belong to the next window), then the outage's news, the records,
    /// idleness, and the end of the input.
    fn step(&mut self, instant_ms: i64) {
        self.begin_tick();
        self.now_ms = self.now_ms.max(instant_ms);
        self.fire_processing_time(instant_ms);
        self.report_outage(instant_ms);
        while let Some(&record) = self.records.get(self.seen) {
            if record.processed_ms != instant_ms {
                break;
            }
            self.process(record, instant_ms);
            self.seen += 1;
        }
        self.declare_idle(instant_ms);
        self.advance_event_time_watermark(instant_ms);
        if self.seen == self.records.len() && instant_ms >= self.input_end_ms {
            self.end_input(instant_ms);
        }
        crate::family::debug_check(self);
    }

    fn begin_tick(&mut self) {
        self.tick = TickMarks {
            events: self.events.len(),
            seen: self.seen,
            watermark_steps: self.watermarks.steps.len(),
            dropped: self.event_time.summary().dropped,
            combined: self.watermarks.combined(),
        };
    }

    /// The processor stops (nothing is read until it is back) and later comes back to the
    /// records that piled up meanwhile.
    fn report_outage(&mut self, now_ms: i64) {
        let Some((stop_ms, resume_ms)) = outage_span_ms(&self.scenario) else {
            return;
        };
        if self.outage_news == OutageNews::Ahead && now_ms >= stop_ms {
            self.outage_news = OutageNews::Started;
            let duration_ms = (resume_ms - stop_ms) as u64;
            self.push_event(now_ms, EventTimeEventKind::OutageStarted { duration_ms });
        }
        if self.outage_news == OutageNews::Started && now_ms >= resume_ms {
            self.outage_news = OutageNews::Told;
            // Told once, before this instant's records are read.
            let waiting = self.records[self.seen..]
                .iter()
                .filter(|record| record.received_ms <= resume_ms)
                .count() as u64;
            let catch_up_records_per_second = self.scenario.outage.catch_up_records_per_second;
            self.push_event(
                now_ms,
                EventTimeEventKind::ProcessorBack {
                    waiting,
                    catch_up_records_per_second,
                },
            );
        }
    }

    fn process(&mut self, record: Record, now_ms: i64) {
        let event_ms = record.event_time_ms(self.scenario.timestamp);
        self.trace.fold_record(record.index, event_ms);
        self.processing_time
            .insert(&record.key, record.processed_ms, &mut self.scratch)
            .surely("processing times are within the operator's range");
        // Processing times only grow, so nothing is late and no pane comes out here.
        self.scratch.clear();
        if record.processed_ms > record.received_ms {
            self.closings.note_backlog(&record);
        }

        // The partition's watermark moves now; the operator's only when they are recombined
        // below, so the record is placed by the watermark as it stood before it (and a
        // partition waking up is told before what its record does).
        self.observe(record.partition, event_ms, now_ms);
        let dropped_before = self.event_time.summary().dropped;
        self.event_time
            .insert(&record.key, event_ms, &mut self.scratch)
            .surely("event times are within the operator's range");
        if self.event_time.summary().dropped > dropped_before {
            self.count_dropped(&record, event_ms, now_ms);
        }
        let cause = LateRecord {
            record: record.index,
            event_ms,
        };
        self.collect_event_time_panes(now_ms, Some(cause), None);
        self.advance_event_time_watermark(now_ms);
    }

    fn observe(&mut self, partition: u32, event_ms: i64, now_ms: i64) {
        let largest = &mut self.largest_event_ms[partition as usize];
        *largest = Some(largest.map_or(event_ms, |seen_ms| seen_ms.max(event_ms)));
        let changes = self.watermarks.idleness_changes.len();
        self.watermarks.observe(partition, event_ms, now_ms);
        self.report_idleness_changes(changes);
    }

    fn declare_idle(&mut self, now_ms: i64) {
        let changes = self.watermarks.idleness_changes.len();
        self.watermarks.declare_idle(now_ms);
        self.report_idleness_changes(changes);
    }

    fn report_idleness_changes(&mut self, from: usize) {
        let idleness_ms = self.scenario.idleness_ms as u64;
        for i in from..self.watermarks.idleness_changes.len() {
            let change = self.watermarks.idleness_changes[i];
            let partition = change.partition;
            let kind = if change.idle {
                EventTimeEventKind::PartitionIdle {
                    partition,
                    idleness_ms,
                }
            } else {
                EventTimeEventKind::PartitionActive { partition }
            };
            self.push_event(change.at_ms, kind);
        }
    }

    fn count_dropped(&mut self, record: &Record, event_ms: i64, now_ms: i64) {
        for window in fixed_windows_of(self.scenario.window, record.key, event_ms) {
            *self.dropped_per_window.entry(window).or_default() += 1;
        }
        let routed_aside = self.scenario.late_policy == LateRecordPolicy::SideOutput;
        self.push_event(
            now_ms,
            EventTimeEventKind::RecordTooLate {
                record: record.index,
                key: record.key,
                event_ms,
                routed_aside,
                allowed_lateness_ms: self.scenario.allowed_lateness_ms as u64,
            },
        );
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
        let steps = self.watermarks.steps.len();
        let combined = self.watermarks.recombine(now_ms);
        self.fold_watermark_steps(steps);
        self.event_time
            .advance_watermark(combined, &mut self.scratch);
        let reached = self.event_time.watermark();
        self.collect_event_time_panes(now_ms, None, Some(reached));
    }

    fn fold_watermark_steps(&mut self, from: usize) {
        for step in &self.watermarks.steps[from..] {
            self.trace.fold_watermark_step(step);
        }
    }

    /// The bounded input is exhausted: every event-time window fires, and so does every
    /// processing-time window still open (stamped now, since its end lies ahead), so that both
    /// columns of the comparison are complete.
    fn end_input(&mut self, now_ms: i64) {
        let steps = self.watermarks.steps.len();
        self.watermarks.end_of_input(now_ms);
        self.fold_watermark_steps(steps);
        self.event_time.finish(&mut self.scratch);
        self.collect_event_time_panes(now_ms, None, Some(Watermark::PlusInfinity));
        let mut out = Vec::new();
        self.processing_time.finish(&mut out);
        self.collect_processing_time_panes(out, Some(now_ms), Watermark::PlusInfinity);
        self.input_ended = true;
    }

    /// Turns the event-time operator's outputs into stamped panes and their events. `cause`
    /// is the record being placed, if the outputs come from placing it (those are late
    /// panes); `reached` is the operator's watermark, if it may have moved, so the shared
    /// windows it passed close. Side records are already handled by `count_dropped`, which
    /// knows the record they came from.
    fn collect_event_time_panes(
        &mut self,
        now_ms: i64,
        cause: Option<LateRecord>,
        reached: Option<Watermark>,
    ) {
        let mut outputs = std::mem::take(&mut self.scratch);
        let first = self.event_time_panes.len();
        let mut merged = Vec::new();
        for output in outputs.drain(..) {
            let Output::Pane(pane) = output else { continue };
            let window = WindowId::of(&pane);
            let replaced = self.take_replaced(window);
            self.last_emitted.insert(window, pane.count);
            let restates = self.scenario.late_policy == LateRecordPolicy::Restate
                && pane.timing == Timing::Late;
            self.event_time_panes.push(EmittedPane {
                emitted_at_ms: now_ms,
                window,
                count: pane.count,
                timing: pane.timing,
                retracted: replaced.total.filter(|_| restates),
            });
            merged.push(replaced.merged);
        }
        self.scratch = outputs;
        let summaries = match reached {
            Some(to) => self
                .closings
                .close_event_time(to, &self.event_time_panes[first..]),
            None => Vec::new(),
        };
        let end_of_input = reached == Some(Watermark::PlusInfinity);
        let mut summaries = summaries.into_iter().peekable();
        for (i, merged) in (first..self.event_time_panes.len()).zip(merged) {
            let pane = self.event_time_panes[i];
            // A window's summary follows its devices' panes.
            while let Some(summary) = summaries.next_if(|s| s.end_ms < pane.window.end_ms) {
                self.report_closed(TimeDomain::EventTime, now_ms, summary, end_of_input);
            }
            self.report_event_time_pane(&pane, merged, cause);
        }
        for summary in summaries {
            self.report_closed(TimeDomain::EventTime, now_ms, summary, end_of_input);
        }
    }

    fn report_event_time_pane(
        &mut self,
        pane: &EmittedPane,
        merged: u32,
        cause: Option<LateRecord>,
    ) {
        let WindowId {
            key,
            start_ms,
            end_ms,
        } = pane.window;
        if pane.timing == Timing::OnTime {
            self.report_pane(TimeDomain::EventTime, pane);
            return;
        }
        if merged > 0 {
            self.push_event(
                pane.emitted_at_ms,
                EventTimeEventKind::SessionsMerged {
                    key,
                    start_ms,
                    end_ms,
                    merged,
                },
            );
        }
        let closed_at_ms = self.watermark_reached_at_ms(end_ms);
        self.push_event(
            pane.emitted_at_ms,
            EventTimeEventKind::LatePaneFired {
                key,
                start_ms,
                end_ms,
                count: pane.count,
                retracted: pane.retracted,
                cause,
                closed_at_ms,
                allowed_lateness_ms: self.scenario.allowed_lateness_ms as u64,
            },
        );
    }

    /// When the combined watermark first reached `instant_ms`: the moment a window ending
    /// there gave its on-time answer.
    fn watermark_reached_at_ms(&self, instant_ms: i64) -> Option<u64> {
        let steps = &self.watermarks.steps;
        let before = steps.partition_point(|step| !step.watermark.has_reached(instant_ms));
        steps.get(before).map(|step| step.at_ms.max(0) as u64)
    }

    /// What a pane for `window` replaces: the window's own previous pane, and for a merged
    /// session the latest panes of the sessions merged into it (which no longer exist, so they
    /// are forgotten and marked merged away). The total is what a consumer must retract.
    /// Fixed windows of one spec all have the same size, so only the window itself lies
    /// within it.
    fn take_replaced(&mut self, window: WindowId) -> Replaced {
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
        let mut replaced = Replaced {
            total: None,
            merged: 0,
        };
        for earlier in inside {
            let count = self.last_emitted.remove(&earlier).unwrap_or(0);
            *replaced.total.get_or_insert(0) += count;
            if earlier != window {
                self.merged_away.insert(earlier);
                replaced.merged += 1;
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
        self.collect_processing_time_panes(out, None, Watermark::At(now_ms));
    }

    /// Stamps the processing-time panes (at `stamp_ms`, or each at its window's end) and
    /// closes the shared windows ending by `reached`, in order of end.
    fn collect_processing_time_panes(
        &mut self,
        outputs: Vec<Output<u32>>,
        stamp_ms: Option<i64>,
        reached: Watermark,
    ) {
        let first = self.processing_time_panes.len();
        for output in outputs {
            if let Output::Pane(pane) = output {
                self.processing_time_panes.push(EmittedPane {
                    emitted_at_ms: stamp_ms.unwrap_or(pane.end_ms),
                    window: WindowId::of(&pane),
                    count: pane.count,
                    timing: pane.timing,
                    retracted: None,
                });
            }
        }
        let summaries = self
            .closings
            .close_processing_time(reached, &self.processing_time_panes[first..]);
        let end_of_input = reached == Watermark::PlusInfinity;
        let mut summaries = summaries.into_iter().peekable();
        for i in first..self.processing_time_panes.len() {
            let pane = self.processing_time_panes[i];
            while let Some(summary) = summaries.next_if(|s| s.end_ms < pane.window.end_ms) {
                let at_ms = stamp_ms.unwrap_or(summary.end_ms);
                self.report_closed(TimeDomain::ProcessingTime, at_ms, summary, end_of_input);
            }
            self.report_pane(TimeDomain::ProcessingTime, &pane);
        }
        for summary in summaries {
            let at_ms = stamp_ms.unwrap_or(summary.end_ms);
            self.report_closed(TimeDomain::ProcessingTime, at_ms, summary, end_of_input);
        }
    }

    /// A device's first answer in a window, with the truth of its window beside it.
    fn report_pane(&mut self, clock: TimeDomain, pane: &EmittedPane) {
        let truth = self.truth.get(&pane.window).copied();
        self.push_event(
            pane.emitted_at_ms,
            EventTimeEventKind::PaneFired {
                clock,
                window: WindowKind::of(self.scenario.window),
                key: pane.window.key,
                start_ms: pane.window.start_ms,
                end_ms: pane.window.end_ms,
                count: pane.count,
                truth,
                result: clock == self.scenario.time_domain,
            },
        );
    }

    fn report_closed(
        &mut self,
        clock: TimeDomain,
        at_ms: i64,
        summary: WindowSummary,
        end_of_input: bool,
    ) {
        self.push_event(
            at_ms,
            EventTimeEventKind::WindowClosed {
                clock,
                start_ms: summary.start_ms,
                end_ms: summary.end_ms,
                count: summary.count,
                truth: summary.truth,
                end_of_input,
                result: clock == self.scenario.time_domain,
                from_backlog: summary.from_backlog,
                processor_stopped_ms: summary.processor_stopped_ms,
            },
        );
    }

    /// Appends an event and folds it into the trace hash: the one way anything is told.
    fn push_event(&mut self, at_ms: i64, kind: EventTimeEventKind) {
        let event = EventTimeEvent {
            at_ms: at_ms.max(0) as u64,
            kind,
        };
        self.trace.fold_event(&event);
        self.events.push(event);
    }

    /// Every event so far, in processing-time order.
    pub fn events(&self) -> &ChunkedVec<EventTimeEvent> {
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
        let mut rows: SortedMap<WindowId, WindowComparison> = SortedMap::new();
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
        for (&window, &count) in self.truth.iter() {
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

/// The processor's outage, `[stop, resume)` in processing time, if the scenario has one.
fn outage_span_ms(scenario: &EventTimeScenario) -> Option<(i64, i64)> {
    let outage = &scenario.outage;
    (outage.duration_ms > 0).then_some((outage.start_ms, outage.start_ms + outage.duration_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eventtime::drop_vs_restate_vs_side;
    use crate::eventtime::invariants::check;

    fn halfway() -> EventTimeWorld {
        let mut world = EventTimeWorld::new(drop_vs_restate_vs_side()).unwrap();
        world.advance_to(60_000);
        world
    }

    fn broken(world: &EventTimeWorld) -> String {
        check(world).expect_err("a broken rule")
    }

    #[test]
    fn a_run_keeps_every_rule() {
        let mut world = halfway();
        assert_eq!(check(&world), Ok(()));
        world.run_to_end();
        assert_eq!(check(&world), Ok(()));
    }

    #[test]
    fn an_event_told_out_of_time_order_is_caught() {
        let mut world = halfway();
        world.push_event(1, EventTimeEventKind::PartitionActive { partition: 0 });
        assert!(
            broken(&world).contains("was told after one at"),
            "{}",
            broken(&world)
        );
    }

    #[test]
    fn a_combined_watermark_that_goes_back_is_caught() {
        let mut world = halfway();
        let at_ms = world
            .watermarks
            .steps
            .last()
            .expect("a watermark by now")
            .at_ms;
        (world.watermarks.steps).push(super::super::watermarks::WatermarkStep {
            at_ms,
            watermark: Watermark::MinusInfinity,
        });
        assert!(
            broken(&world).contains("the combined watermark went from"),
            "{}",
            broken(&world)
        );
    }

    #[test]
    fn a_watermark_ahead_of_its_partitions_data_is_caught() {
        let mut world = halfway();
        world.largest_event_ms[1] = world.largest_event_ms[1].map(|ms| ms - 1);
        assert!(
            broken(&world).contains("partition 1's watermark"),
            "{}",
            broken(&world)
        );
    }

    #[test]
    fn a_drop_nobody_was_told_of_and_a_side_output_under_restate_are_caught() {
        let mut world = halfway();
        world.tick.dropped -= 1;
        assert!(
            broken(&world).contains("too-late records told"),
            "{}",
            broken(&world)
        );
        let mut world = halfway();
        world.side_outputs.push(SideOutputRecord {
            emitted_at_ms: 60_000,
            record_index: 0,
            key: 0,
            event_ms: 0,
        });
        assert!(
            broken(&world).contains("side outputs for"),
            "{}",
            broken(&world)
        );
    }

    #[test]
    fn a_late_pane_before_its_window_closed_is_caught() {
        let mut world = halfway();
        let at_ms = world.now_ms;
        world.push_event(
            at_ms,
            EventTimeEventKind::LatePaneFired {
                key: 0,
                start_ms: 1_000_000,
                end_ms: 1_010_000,
                count: 1,
                retracted: None,
                cause: None,
                closed_at_ms: None,
                allowed_lateness_ms: 5_000,
            },
        );
        assert!(broken(&world).contains("late pane"), "{}", broken(&world));
    }
}
