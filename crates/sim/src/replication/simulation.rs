//! The replication world as a [`Simulation`]: its place on the timeline, its headline figures
//! by stable names, and what a headless report adds (each lane's samples and latency
//! histogram).
//!
//! Figures, for the lane the scenario's `acks` names, at the top, and for every lane under
//! `by_acks.acks_0`, `by_acks.acks_1` and `by_acks.acks_all` (so a preset's setting can be
//! compared with the others on the same faults): `sent`, `acknowledged`, `failed`,
//! `acknowledged_then_lost`, `rejected_writes` (`not_enough_replicas` plus
//! `not_enough_replicas_after_append`, in records), `retries`, `request_timeouts`,
//! `duplicates`, `produce_latency_p50_ms`, `produce_latency_p99_ms`,
//! `produce_latency_max_ms`, `consumed`, `consumed_then_lost`, `leader_elections`,
//! `unclean_elections`, `isr_shrinks`, `isr_expands`, `truncated_records`, `offline_ms`.

use super::events::{narrate, ReplicationEvent};
use super::lane::Lane;
use super::scenario::{ReplicationScenario, MAX_DURATION_MS};
use super::snapshot::ReplicationSnapshot;
use super::world::ReplicationWorld;
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::invariant::plain_json;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde_json::{Map, Value};

impl Simulation for ReplicationWorld {
    type Scenario = ReplicationScenario;
    type Snapshot = ReplicationSnapshot;
    type Event = ReplicationEvent;

    const FAMILY: &'static str = "replication";

    fn new(scenario: &ReplicationScenario) -> Result<Self, ScenarioError> {
        ReplicationWorld::new(scenario.clone())
    }

    fn scenario(&self) -> &ReplicationScenario {
        ReplicationWorld::scenario(self)
    }

    fn advance_to(&mut self, target_ms: u64) {
        ReplicationWorld::advance_to(self, target_ms);
    }

    fn now_ms(&self) -> u64 {
        ReplicationWorld::now_ms(self)
    }

    fn end_ms(&self) -> u64 {
        self.scenario().duration_ms
    }

    fn snapshot(&self) -> ReplicationSnapshot {
        ReplicationWorld::snapshot(self)
    }

    /// The events of the lane the lesson shows.
    fn events(&self) -> &ChunkedVec<ReplicationEvent> {
        self.subject().events()
    }

    fn event_at_ms(event: &ReplicationEvent) -> u64 {
        event.at_ms
    }

    fn narrate(event: &ReplicationEvent) -> Option<String> {
        Some(narrate(event))
    }

    /// Folded as the run goes, per lane, from every append, fetch, acknowledgement and
    /// event's typed fields; narration never enters it.
    fn trace_hash(&self) -> TraceHasher {
        ReplicationWorld::trace_hash(self)
    }

    fn figures(&self) -> Figures {
        let mut by_acks = Figures::new();
        for lane in self.lanes() {
            by_acks = by_acks.group(lane.acks.figure_name(), lane_figures(lane));
        }
        let mut figures = lane_figures(self.subject());
        figures
            .0
            .insert("by_acks".to_string(), crate::family::Figure::Group(by_acks));
        figures
    }

    /// See the `invariants` module.
    fn check_invariants(&self) -> Result<(), String> {
        super::invariants::check(self)
    }

    fn size_hint_bytes(&self) -> usize {
        self.lanes().iter().map(Lane::size_hint_bytes).sum()
    }

    fn shared_size_hint_bytes(_first: &Self, last: &Self) -> usize {
        last.lanes().iter().map(Lane::shared_size_hint_bytes).sum()
    }

    fn reschedule(&mut self, scenario: &ReplicationScenario) -> bool {
        ReplicationWorld::reschedule(self, scenario)
    }

    /// Drops the faults in `(now_ms, seen_until_ms]`; faults after what the learner has seen
    /// (a preset's restart still to come) stay.
    fn without_future(
        scenario: &ReplicationScenario,
        now_ms: u64,
        seen_until_ms: u64,
    ) -> ReplicationScenario {
        let mut next = scenario.clone();
        next.faults
            .retain(|f| f.at_ms <= now_ms || f.at_ms > seen_until_ms);
        next
    }
}

/// One lane's figures, by the names the issue and the lesson use.
fn lane_figures(lane: &Lane) -> Figures {
    let l = &lane.ledger;
    let s = &lane.stats;
    Figures::new()
        .count("sent", lane.sent())
        .count("acknowledged", l.acknowledged)
        .count("failed", l.failed)
        .count("acknowledged_then_lost", l.acknowledged_then_lost)
        .count(
            "rejected_writes",
            s.not_enough_replicas + s.not_enough_replicas_after_append,
        )
        .count("not_enough_replicas", s.not_enough_replicas)
        .count(
            "not_enough_replicas_after_append",
            s.not_enough_replicas_after_append,
        )
        .count("retries", s.retries)
        .count("request_timeouts", s.request_timeouts)
        .count("duplicates", l.duplicates)
        .count("produce_latency_p50_ms", l.latency_percentile_ms(500))
        .count("produce_latency_p99_ms", l.latency_percentile_ms(990))
        .count("produce_latency_max_ms", l.latency_max_ms())
        .count("consumed", l.consumed)
        .count("consumed_then_lost", l.consumed_then_lost)
        .count("leader_elections", s.leader_elections)
        .count("unclean_elections", s.unclean_elections)
        .count("isr_shrinks", s.isr_shrinks)
        .count("isr_expands", s.isr_expands)
        .count("truncated_records", s.truncated_records)
        .count("offline_ms", lane.offline_ms())
}

impl Headless for ReplicationWorld {
    fn presets() -> &'static [Preset<ReplicationScenario>] {
        super::PRESETS
    }

    fn lessons() -> &'static [LessonDefault<ReplicationScenario>] {
        super::LESSONS
    }

    const MAX_AT_MS: u64 = MAX_DURATION_MS;

    fn validate(scenario: &ReplicationScenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    /// `--duration-ms` sets how long the producer sends.
    const DURATION: Bounds = Bounds::new(1_000.0, MAX_DURATION_MS as f64, "ms");

    fn set_duration(scenario: &mut ReplicationScenario, duration_ms: u64) {
        scenario.duration_ms = duration_ms;
    }

    /// Each lane's per-second samples and latency histogram, by `acks`.
    fn details(&self) -> Map<String, Value> {
        let snapshot = self.snapshot();
        let mut lanes = Map::new();
        for lane in &snapshot.lanes {
            let mut entry = Map::new();
            entry.insert("samples".into(), plain_json(&lane.samples));
            entry.insert(
                "latency_histogram".into(),
                plain_json(&lane.latency_histogram),
            );
            lanes.insert(lane.acks.figure_name().into(), Value::Object(entry));
        }
        let mut out = Map::new();
        out.insert("lanes".into(), Value::Object(lanes));
        out.insert("offline_spans".into(), plain_json(&snapshot.offline_spans));
        out
    }
}
