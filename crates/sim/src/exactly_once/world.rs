//! The exactly-once world: one input, the same crash instants, and the lanes of the
//! comparison the scenario's mode runs, one tick per instant something is due.
//!
//! A tick at `t` runs, in this order: the records written at `t` (counted as produced; each
//! lane's sources read them in its own tick), a crash due at `t` (every lane fails at once),
//! then each lane in a fixed order (microbatch, checkpoint, no checkpoint): its restart, its
//! schedule, its work and its commits. Instants with nothing due are skipped, so the run is
//! the same however finely it is advanced.

use super::events::{EosEvent, EosEventKind, Model};
use super::invariants::TickMarks;
use super::lane::Ctx;
use super::microbatch::MicrobatchLane;
use super::records::{crash_times, Input};
use super::scenario::{EosScenario, Mode};
use super::streaming::StreamingLane;
use crate::family::ScenarioError;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde::Serialize;
use std::sync::Arc;

/// How often the charts' series are sampled, in ms of simulated time.
pub const SAMPLE_INTERVAL_MS: u64 = 500;

/// One sample of a lane, for the charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LaneSample {
    pub at_ms: u64,
    pub model: Model,
    /// Records written and not yet counted by the job's current positions.
    pub lag: u64,
    pub processed: u64,
    pub reprocessed_records: u64,
    /// Updates that reached the outside more than once.
    pub duplicates: u64,
}

/// One run of an exactly-once scenario.
#[derive(Clone, Debug)]
pub struct EosWorld {
    scenario: EosScenario,
    input: Arc<Input>,
    crash_times: Arc<[u64]>,
    next_crash: usize,
    now_ms: u64,
    /// Records written so far.
    produced: usize,
    pub microbatch: Option<MicrobatchLane>,
    pub checkpoint: StreamingLane,
    pub no_checkpoint: Option<StreamingLane>,
    events: ChunkedVec<EosEvent>,
    samples: Vec<LaneSample>,
    next_sample_ms: u64,
    /// Folds every counted record (model, instance, record, instant).
    counts_trace: TraceHasher,
    /// Folds every event's typed fields.
    events_trace: TraceHasher,
    pub(crate) tick: TickMarks,
}

impl EosWorld {
    /// Builds the run at time zero, or says which field is out of range.
    pub fn new(scenario: EosScenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let input = Input::generate(&scenario);
        let records = input.records.len();
        let recovery = scenario.mode == Mode::Recovery;
        Ok(Self {
            crash_times: if recovery {
                crash_times(&scenario).into()
            } else {
                Arc::from([])
            },
            next_crash: 0,
            now_ms: 0,
            produced: 0,
            microbatch: recovery.then(|| MicrobatchLane::new(&scenario, records)),
            checkpoint: StreamingLane::new(Model::Checkpoint, &scenario, records),
            no_checkpoint: recovery
                .then(|| StreamingLane::new(Model::NoCheckpoint, &scenario, records)),
            events: ChunkedVec::default(),
            samples: Vec::new(),
            next_sample_ms: SAMPLE_INTERVAL_MS,
            counts_trace: TraceHasher::default(),
            events_trace: TraceHasher::default(),
            tick: TickMarks::default(),
            input: Arc::new(input),
            scenario,
        })
    }

    pub fn scenario(&self) -> &EosScenario {
        &self.scenario
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn input(&self) -> &Input {
        &self.input
    }

    pub(crate) fn shared_input(&self) -> &Arc<Input> {
        &self.input
    }

    pub fn events(&self) -> &ChunkedVec<EosEvent> {
        &self.events
    }

    /// Every lane's samples so far, in time order.
    pub fn samples(&self) -> &[LaneSample] {
        &self.samples
    }

    /// Records written so far.
    pub fn produced(&self) -> u64 {
        self.produced as u64
    }

    /// The crash instants of the run.
    pub fn crash_times(&self) -> &[u64] {
        &self.crash_times
    }

    /// The streaming lanes that run, in order.
    pub fn streaming_lanes(&self) -> impl Iterator<Item = &StreamingLane> {
        std::iter::once(&self.checkpoint).chain(self.no_checkpoint.as_ref())
    }

    /// The fingerprint of the run so far.
    pub fn trace_hash(&self) -> TraceHasher {
        let mut hash = TraceHasher::default();
        for part in [
            self.counts_trace.finish(),
            self.events_trace.finish(),
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
    pub(crate) fn next_due_ms(&self) -> Option<u64> {
        let s = &self.scenario;
        let next_record = self.input.records.get(self.produced).map(|r| r.at_ms);
        let crash = self.crash_times.get(self.next_crash).copied();
        let sample = (self.next_sample_ms <= s.duration_ms).then_some(self.next_sample_ms);
        let lanes = [
            self.microbatch
                .as_ref()
                .and_then(|l| l.due_ms(s, next_record)),
            self.checkpoint.due_ms(s),
            self.no_checkpoint.as_ref().and_then(|l| l.due_ms(s)),
        ];
        [next_record, crash, sample]
            .into_iter()
            .chain(lanes)
            .flatten()
            .min()
    }

    fn run_tick(&mut self) {
        let now = self.now_ms;
        self.tick = TickMarks::at_start_of(self);
        let records = &self.input.records;
        self.produced += records[self.produced..].partition_point(|r| r.at_ms <= now);
        let mut told: Vec<EosEventKind> = Vec::new();
        let mut ctx = Ctx {
            input: &self.input,
            scenario: &self.scenario,
            now_ms: now,
            told: &mut told,
            trace: &mut self.counts_trace,
        };
        let crashing = self
            .crash_times
            .get(self.next_crash)
            .is_some_and(|&at| at <= now);
        if crashing {
            self.next_crash += 1;
            if let Some(lane) = self.microbatch.as_mut() {
                lane.fail(&mut ctx);
            }
            self.checkpoint.fail(&mut ctx);
            if let Some(lane) = self.no_checkpoint.as_mut() {
                lane.fail(&mut ctx);
            }
        }
        if let Some(lane) = self.microbatch.as_mut() {
            lane.tick(&mut ctx);
        }
        self.checkpoint.tick(&mut ctx);
        if let Some(lane) = self.no_checkpoint.as_mut() {
            lane.tick(&mut ctx);
        }
        for kind in told {
            let event = EosEvent { at_ms: now, kind };
            self.events_trace.write_json(&event);
            self.events.push(event);
        }
        if now == self.next_sample_ms && now <= self.scenario.duration_ms {
            self.sample(now);
            self.next_sample_ms += SAMPLE_INTERVAL_MS;
        }
    }

    fn sample(&mut self, now: u64) {
        let produced = self.produced as u64;
        let mut samples = Vec::new();
        if let Some(lane) = &self.microbatch {
            let counted: u64 = lane.positions.iter().map(|&p| u64::from(p)).sum();
            samples.push(LaneSample {
                at_ms: now,
                model: Model::Microbatch,
                lag: if lane.running {
                    produced - counted
                } else {
                    produced
                },
                processed: lane.tally.processed,
                reprocessed_records: lane.tally.reprocessed_records,
                duplicates: lane.sink.duplicates,
            });
        }
        for lane in self.streaming_lanes() {
            let counted: u64 = lane
                .current
                .as_ref()
                .map_or(0, |i| i.positions.iter().map(|&p| u64::from(p)).sum());
            samples.push(LaneSample {
                at_ms: now,
                model: lane.model,
                lag: produced - counted,
                processed: lane.tally.processed,
                reprocessed_records: lane.tally.reprocessed_records,
                duplicates: lane.sink.duplicates,
            });
        }
        self.samples.extend(samples);
    }
}
