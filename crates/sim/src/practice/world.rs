//! One attempt at the Inkwell challenge as a [`Simulation`]: the consumer-group world running
//! the attempt's scenario, and the lag measured on it, so the timeline, the headless runner
//! and the browser's shell run a practice page like any lesson.
//!
//! The world is the consumer-group family's own ([`crate::kafka::World`]): its events, trace
//! hash and invariants are the attempt's. This wrapper adds only the measurements the goals
//! read, taken at every multiple of [`MEASURE_INTERVAL_MS`] however the run is advanced, and
//! the verdict built from them.

use super::lag::{LagTracker, MEASURE_INTERVAL_MS};
use super::scenario::{InkwellScenario, DURATION_MS};
use super::verdict::Verdict;
use crate::assignor::Assignor;
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::invariant::plain_json;
use crate::kafka::{Event, Snapshot, World};
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde_json::{Map, Value};
use std::mem::size_of;
use std::sync::Arc;

/// An attempt, run to some moment.
#[derive(Clone, Debug)]
pub struct InkwellWorld {
    scenario: InkwellScenario,
    world: World,
    lags: LagTracker,
}

impl InkwellWorld {
    /// The consumer-group world the attempt runs in.
    pub fn kafka(&self) -> &World {
        &self.world
    }

    /// Every lag measured so far.
    pub fn lags(&self) -> &LagTracker {
        &self.lags
    }

    /// The verdict as it stands now.
    pub fn verdict(&self) -> Verdict {
        Verdict::of(&self.scenario, &self.world, &self.lags)
    }
}

/// Runs `scenario` to the challenge's end and returns its verdict: what `streamlab grade`
/// prints and the practice page shows once the run is over.
pub fn grade(scenario: &InkwellScenario) -> Result<Verdict, ScenarioError> {
    let mut world = InkwellWorld::new(scenario)?;
    world.advance_to(DURATION_MS);
    Ok(world.verdict())
}

impl Simulation for InkwellWorld {
    type Scenario = InkwellScenario;
    type Snapshot = Snapshot;
    type Event = Arc<Event>;

    const FAMILY: &'static str = "practice";

    fn new(scenario: &InkwellScenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        // The services' groups keep Kafka's first default strategy, `range`; naming only that
        // assignor keeps the sticky ones out of the practice bundle.
        let world = World::with_assignors(&scenario.to_kafka(), &[Assignor::RANGE])?;
        let mut lags = LagTracker::default();
        lags.measure(&world);
        Ok(Self {
            scenario: scenario.clone(),
            world,
            lags,
        })
    }

    fn scenario(&self) -> &InkwellScenario {
        &self.scenario
    }

    /// Stops at every measurement time on the way, so the measurements do not depend on the
    /// steps (the consumer-group world itself runs the same however it is stepped).
    fn advance_to(&mut self, target_ms: u64) {
        while self.lags.next_ms() <= target_ms {
            self.world.advance_to(self.lags.next_ms());
            self.lags.measure(&self.world);
            crate::family::debug_check(self);
        }
        self.world.advance_to(target_ms);
    }

    fn now_ms(&self) -> u64 {
        self.world.now_ms()
    }

    fn end_ms(&self) -> u64 {
        DURATION_MS
    }

    fn snapshot(&self) -> Snapshot {
        Simulation::snapshot(&self.world)
    }

    fn events(&self) -> &ChunkedVec<Arc<Event>> {
        self.world.events()
    }

    fn event_at_ms(event: &Arc<Event>) -> u64 {
        event.at_ms
    }

    fn narrate(event: &Arc<Event>) -> Option<String> {
        <World as Simulation>::narrate(event)
    }

    /// The consumer-group world's: the measurements are a function of it.
    fn trace_hash(&self) -> TraceHasher {
        self.world.trace_hash()
    }

    fn figures(&self) -> Figures {
        self.verdict().figures()
    }

    /// The world's own invariants, and that the measurements keep to their grid and the
    /// worst lag only grows.
    fn check_invariants(&self) -> Result<(), String> {
        Simulation::check_invariants(&self.world)?;
        let samples = &self.lags.samples;
        let on_grid = samples
            .iter()
            .enumerate()
            .all(|(i, s)| s.at_ms == i as u64 * MEASURE_INTERVAL_MS);
        if !on_grid || samples.last().is_some_and(|s| s.at_ms > self.now_ms()) {
            return Err("a lag was measured off its grid or in the future".into());
        }
        let worst_seen = samples
            .iter()
            .fold([0; 3], |max, s| [0, 1, 2].map(|i| max[i].max(s.lag_ms[i])));
        if worst_seen != self.lags.lag_ms_max {
            return Err("the worst lag kept differs from the worst measured".into());
        }
        Ok(())
    }

    fn size_hint_bytes(&self) -> usize {
        self.world.size_hint_bytes() + self.lags.samples.len() * size_of::<super::lag::LagSample>()
    }

    fn shared_size_hint_bytes(first: &Self, last: &Self) -> usize {
        World::shared_size_hint_bytes(&first.world, &last.world)
    }
}

impl Headless for InkwellWorld {
    fn presets() -> &'static [Preset<InkwellScenario>] {
        super::PRESETS
    }

    fn lessons() -> &'static [LessonDefault<InkwellScenario>] {
        super::LESSONS
    }

    /// No later than the attempt's end.
    const MAX_AT_MS: u64 = DURATION_MS;

    fn validate(scenario: &InkwellScenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    /// Every attempt runs the challenge's three minutes: the goals are judged over them.
    const DURATION: Bounds = Bounds::new(DURATION_MS as f64, DURATION_MS as f64, "ms");

    fn set_duration(_scenario: &mut InkwellScenario, _duration_ms: u64) {}

    /// The verdict, as `streamlab grade` prints it.
    fn details(&self) -> Map<String, Value> {
        let verdict = plain_json(&self.verdict());
        Map::from_iter([("verdict".to_string(), verdict)])
    }
}
