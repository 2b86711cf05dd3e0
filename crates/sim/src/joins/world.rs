//! The joins world: one lane, chosen by the scenario's mode, fed its inputs as they arrive,
//! one tick per instant something is due.
//!
//! A tick at `t` runs, in this order: the inputs that arrive at `t` (in their arrival
//! order), then, at the run's end, the end of the input (the watermark jumps to plus
//! infinity, the state empties and what never matched is reported), then, at whole
//! seconds, the charts' samples. Instants with nothing due are skipped, so the run is the
//! same however finely it is advanced.

use super::enrichment::EnrichmentLane;
use super::events::{JoinsEvent, JoinsEventKind};
use super::inputs;
use super::invariants::TickMarks;
use super::ranking::RankingLane;
use super::scenario::{JoinsScenario, Mode, SAMPLE_INTERVAL_MS};
use super::search_click::SearchClickLane;
use super::tables::TablesLane;
use crate::family::ScenarioError;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;

/// The lane a mode runs (boxed: the lanes differ in size by up to a kilobyte, and only one
/// of them is ever held).
#[derive(Clone, Debug)]
pub enum Lane {
    Clicks(Box<SearchClickLane>),
    Enrichment(Box<EnrichmentLane>),
    Tables(Box<TablesLane>),
    Ranking(Box<RankingLane>),
}

/// The running folds of the trace hash: every input as it is taken (its index and
/// instant), and every event's typed fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RunTrace {
    inputs: TraceHasher,
    events: TraceHasher,
}

/// One run of a joins scenario.
#[derive(Clone, Debug)]
pub struct JoinsWorld {
    scenario: JoinsScenario,
    now_ms: u64,
    end_ms: u64,
    finished: bool,
    pub(crate) lane: Lane,
    next_sample_ms: u64,
    events: ChunkedVec<JoinsEvent>,
    trace: RunTrace,
    pub(crate) tick: TickMarks,
}

/// A second after `ms`, on a whole second: when a run whose last input arrives at `ms` ends.
fn end_after(ms: u64) -> u64 {
    ms / 1_000 * 1_000 + 1_000
}

impl JoinsWorld {
    /// Builds the run at time zero, or says which field is out of range.
    pub fn new(scenario: JoinsScenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let (lane, end_ms) = match scenario.mode {
            Mode::StreamStream => {
                let lane = SearchClickLane::new(&scenario, inputs::searches(&scenario));
                let end = end_after(lane.last_arrival_ms().max(scenario.duration_ms));
                (Lane::Clicks(Box::new(lane)), end)
            }
            Mode::StreamTable => {
                let (orders, changes) = inputs::orders_and_changes(&scenario);
                let lane = EnrichmentLane::new(&scenario, orders, changes);
                let end = end_after(lane.last_arrival_ms().max(scenario.duration_ms));
                (Lane::Enrichment(Box::new(lane)), end)
            }
            Mode::TableTable => (
                Lane::Tables(Box::new(TablesLane::new(inputs::table_changes(&scenario)))),
                scenario.duration_ms,
            ),
            Mode::TopK => {
                let lane = RankingLane::new(&scenario, inputs::views(&scenario));
                let end = end_after(lane.last_arrival_ms().max(scenario.duration_ms));
                (Lane::Ranking(Box::new(lane)), end)
            }
        };
        Ok(Self {
            scenario,
            now_ms: 0,
            end_ms,
            finished: false,
            lane,
            next_sample_ms: SAMPLE_INTERVAL_MS,
            events: ChunkedVec::default(),
            trace: RunTrace::default(),
            tick: TickMarks::default(),
        })
    }

    pub fn scenario(&self) -> &JoinsScenario {
        &self.scenario
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// When the input ends and the run with it.
    pub fn end_ms(&self) -> u64 {
        self.end_ms
    }

    /// Whether the input has ended.
    pub fn finished(&self) -> bool {
        self.finished
    }

    pub fn lane(&self) -> &Lane {
        &self.lane
    }

    pub fn events(&self) -> &ChunkedVec<JoinsEvent> {
        &self.events
    }

    /// The fingerprint of the run so far.
    pub fn trace_hash(&self) -> TraceHasher {
        let mut hash = TraceHasher::default();
        for part in [
            self.trace.inputs.finish(),
            self.trace.events.finish(),
            self.now_ms,
        ] {
            hash.write_u64(part);
        }
        hash
    }

    /// Runs everything due up to and including `target_ms`.
    pub fn advance_to(&mut self, target_ms: u64) {
        while let Some(due) = self.next_due_ms().filter(|&due| due <= target_ms) {
            self.now_ms = self.now_ms.max(due);
            self.run_tick();
            crate::family::debug_check(self);
        }
        self.now_ms = self.now_ms.max(target_ms);
    }

    /// The next instant anything is due, if anything ever is.
    fn next_due_ms(&self) -> Option<u64> {
        let input = match &self.lane {
            Lane::Clicks(lane) => lane.due_ms(),
            Lane::Enrichment(lane) => lane.due_ms(),
            Lane::Tables(lane) => lane.due_ms(),
            Lane::Ranking(lane) => lane.due_ms(),
        };
        let end = (!self.finished).then_some(self.end_ms);
        let sample = (self.next_sample_ms <= self.end_ms).then_some(self.next_sample_ms);
        [input.filter(|&t| t <= self.end_ms), end, sample]
            .into_iter()
            .flatten()
            .min()
    }

    fn run_tick(&mut self) {
        let now = self.now_ms;
        self.tick = TickMarks::at_start_of(self);
        let mut told = Vec::new();
        let trace = &mut self.trace.inputs;
        let mut fold = |index: u64| {
            trace.write_u64(index);
            trace.write_u64(now);
        };
        match &mut self.lane {
            Lane::Clicks(lane) => lane.arrive(now, &mut told, &mut fold),
            Lane::Enrichment(lane) => lane.arrive(now, &mut told, &mut fold),
            Lane::Tables(lane) => lane.arrive(now, &mut told, &mut fold),
            Lane::Ranking(lane) => lane.arrive(now, &mut told, &mut fold),
        }
        if now >= self.end_ms && !self.finished {
            self.finished = true;
            match &mut self.lane {
                Lane::Clicks(lane) => lane.finish(&mut told),
                Lane::Enrichment(lane) => lane.finish(&mut told),
                Lane::Tables(_) => {}
                Lane::Ranking(lane) => lane.finish(now, &mut told),
            }
        }
        for kind in told {
            self.tell(kind);
        }
        if now == self.next_sample_ms {
            match &mut self.lane {
                Lane::Clicks(lane) => lane.sample(now),
                Lane::Enrichment(lane) => lane.sample(now),
                Lane::Tables(lane) => lane.sample(now),
                // Its chart plots one point per closed window.
                Lane::Ranking(_) => {}
            }
            self.next_sample_ms += SAMPLE_INTERVAL_MS;
        }
    }

    fn tell(&mut self, kind: JoinsEventKind) {
        let event = JoinsEvent {
            at_ms: self.now_ms,
            kind,
        };
        self.trace.events.write_json(&event);
        self.events.push(event);
    }
}
