//! The event-time world as a [`Simulation`]: its place on the timeline, its headline figures
//! by stable names, its trace hash and what must hold at every instant.

use super::events::{narrate, EventTimeEvent};
use super::scenario::EventTimeScenario;
use super::snapshot::EventTimeSnapshot;
use super::world::EventTimeWorld;
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use crate::window::Timing;
use std::mem::size_of_val;

impl Simulation for EventTimeWorld {
    type Scenario = EventTimeScenario;
    type Snapshot = EventTimeSnapshot;
    type Event = EventTimeEvent;

    const FAMILY: &'static str = "eventtime";

    fn new(scenario: &EventTimeScenario) -> Result<Self, ScenarioError> {
        EventTimeWorld::new(scenario.clone())
    }

    fn scenario(&self) -> &EventTimeScenario {
        EventTimeWorld::scenario(self)
    }

    fn advance_to(&mut self, target_ms: u64) {
        EventTimeWorld::advance_to(self, i64::try_from(target_ms).unwrap_or(i64::MAX));
    }

    fn now_ms(&self) -> u64 {
        EventTimeWorld::now_ms(self).max(0) as u64
    }

    fn end_ms(&self) -> u64 {
        self.input_end_ms().max(0) as u64
    }

    fn snapshot(&self) -> EventTimeSnapshot {
        EventTimeWorld::snapshot(self)
    }

    fn events(&self) -> &ChunkedVec<EventTimeEvent> {
        EventTimeWorld::events(self)
    }

    fn event_at_ms(event: &EventTimeEvent) -> u64 {
        event.at_ms
    }

    fn narrate(event: &EventTimeEvent) -> Option<String> {
        narrate(event)
    }

    /// Folded as the run goes, from the records read, the watermark's moves and the typed
    /// events (see the `fingerprint` module); narration never enters it.
    fn trace_hash(&self) -> TraceHasher {
        EventTimeWorld::trace_hash(self)
    }

    /// Records read and waiting, the panes by kind, what came too late, and how far the
    /// answers stood from the truth (by event time, and by processing time).
    fn figures(&self) -> Figures {
        let snapshot = EventTimeWorld::snapshot(self);
        let late_panes = snapshot
            .event_time_panes
            .iter()
            .filter(|p| p.timing == Timing::Late)
            .count() as u64;
        let retractions = snapshot
            .event_time_panes
            .iter()
            .filter(|p| p.retracted.is_some())
            .count() as u64;
        let off_truth =
            |answer: Option<u64>, truth: u64| answer.map(|count| count as i64 - truth as i64);
        let event_time_error = snapshot
            .windows
            .iter()
            .filter(|w| !w.merged_away)
            .filter_map(|w| off_truth(w.event_time, w.truth))
            .map(i64::unsigned_abs)
            .max()
            .unwrap_or(0);
        let processing_time_overcount = snapshot
            .windows
            .iter()
            .filter_map(|w| off_truth(w.processing_time, w.truth))
            .max()
            .unwrap_or(0);
        Figures::new()
            .count("records_read", snapshot.records_seen.len() as u64)
            .count("backlog", snapshot.backlog)
            .count("event_time_panes", snapshot.event_time_panes.len() as u64)
            .count("late_panes", late_panes)
            .count("retractions", retractions)
            .count("dropped", snapshot.dropped)
            .count("side_outputs", snapshot.side_outputs.len() as u64)
            .count("max_event_time_error", event_time_error)
            .signed("max_processing_time_overcount", processing_time_overcount)
    }

    /// See the `invariants` module: the clock and the records read, each partition's
    /// watermark against its data, the combined watermark against the partitions, too-late
    /// records against drops and side outputs, and every event of the latest tick against
    /// the state it describes.
    fn check_invariants(&self) -> Result<(), String> {
        super::invariants::check(self)
    }

    fn size_hint_bytes(&self) -> usize {
        EventTimeWorld::events(self).own_size_hint_bytes()
    }

    /// Every record is generated up front and shared by the clones of a run.
    fn shared_size_hint_bytes(first: &Self, last: &Self) -> usize {
        size_of_val(first.records()) + EventTimeWorld::events(last).shared_size_hint_bytes()
    }
}

impl Headless for EventTimeWorld {
    fn presets() -> &'static [Preset<EventTimeScenario>] {
        super::PRESETS
    }

    fn lessons() -> &'static [LessonDefault<EventTimeScenario>] {
        super::LESSONS
    }

    const MAX_AT_MS: u64 = super::MAX_DURATION_MS as u64;

    fn validate(scenario: &EventTimeScenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    /// `--duration-ms` sets how long the devices produce; the run goes on until every
    /// window has fired.
    const DURATION: Bounds = Bounds::new(1_000.0, super::MAX_DURATION_MS as f64, "ms");

    fn set_duration(scenario: &mut EventTimeScenario, duration_ms: u64) {
        scenario.duration_ms = duration_ms as i64;
    }
}
