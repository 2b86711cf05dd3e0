//! The exactly-once world as a [`Simulation`]: its place on the timeline, its headline
//! figures by stable names, and what a headless report adds (the sampled series and each
//! checkpoint's history).
//!
//! Figures, per recovery model (`microbatch`, `checkpoint`, `no_checkpoint`):
//! `processed`, `reprocessed_records`, `skipped_records`, `state_errors` (the largest error
//! any restart found in the state: 0 means every restore was exact), `failures`,
//! `external_effects`, `external_duplicates`, `deduplicated`, `aborted_records`,
//! `output_delay_ms_mean`; `batches_committed` (microbatch); `checkpoints_completed`,
//! `alignment_ms` (the last completed checkpoint's), `alignment_ms_max`, `inflight_records`
//! (stored with the last checkpoint) for the checkpointing job. In the zombie comparison,
//! `zombie`: `stale_writes`, `refused_writes`, `zombie_writes`. At the top: `produced` and
//! `crashes`.

use super::events::{narrate, EosEvent};
use super::scenario::{EosScenario, MAX_DURATION_MS};
use super::sink::Sink;
use super::snapshot::EosSnapshot;
use super::tally::Tally;
use super::world::EosWorld;
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::invariant::plain_json;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde_json::{Map, Value};
use std::mem::{size_of, size_of_val};
use std::sync::Arc;

impl Simulation for EosWorld {
    type Scenario = EosScenario;
    type Snapshot = EosSnapshot;
    type Event = EosEvent;

    const FAMILY: &'static str = "exactly_once";

    fn new(scenario: &EosScenario) -> Result<Self, ScenarioError> {
        EosWorld::new(scenario.clone())
    }

    fn scenario(&self) -> &EosScenario {
        EosWorld::scenario(self)
    }

    fn advance_to(&mut self, target_ms: u64) {
        EosWorld::advance_to(self, target_ms);
    }

    fn now_ms(&self) -> u64 {
        EosWorld::now_ms(self)
    }

    fn end_ms(&self) -> u64 {
        self.scenario().duration_ms
    }

    fn snapshot(&self) -> EosSnapshot {
        EosWorld::snapshot(self)
    }

    fn events(&self) -> &ChunkedVec<EosEvent> {
        EosWorld::events(self)
    }

    fn event_at_ms(event: &EosEvent) -> u64 {
        event.at_ms
    }

    fn narrate(event: &EosEvent) -> Option<String> {
        Some(narrate(event))
    }

    /// Folded as the run goes from each counted record (model, instance, record, instant) and
    /// each event's typed fields; narration never enters it.
    fn trace_hash(&self) -> TraceHasher {
        EosWorld::trace_hash(self)
    }

    fn figures(&self) -> Figures {
        let now = self.now_ms();
        let crashes = self.crash_times().iter().filter(|&&at| at <= now).count();
        let mut figures = Figures::new()
            .count("produced", self.produced())
            .count("crashes", crashes as u64);
        if let Some(lane) = &self.microbatch {
            figures = figures.group(
                "microbatch",
                lane_figures(&lane.tally, &lane.sink)
                    .count("batches_committed", u64::from(lane.batches_committed)),
            );
        }
        let history = &self.checkpoint.history;
        figures = figures.group(
            "checkpoint",
            lane_figures(&self.checkpoint.tally, &self.checkpoint.sink)
                .count("checkpoints_completed", history.len() as u64)
                .count("alignment_ms", history.last().map_or(0, |c| c.alignment_ms))
                .count(
                    "alignment_ms_max",
                    history.iter().map(|c| c.alignment_ms).max().unwrap_or(0),
                )
                .count(
                    "inflight_records",
                    history.last().map_or(0, |c| c.inflight_records),
                ),
        );
        if let Some(lane) = &self.no_checkpoint {
            figures = figures.group("no_checkpoint", lane_figures(&lane.tally, &lane.sink));
        }
        if let Some((writes, stale, refused)) = self.checkpoint.zombie_tally() {
            figures = figures.group(
                "zombie",
                Figures::new()
                    .count("stale_writes", stale)
                    .count("refused_writes", refused)
                    .count("zombie_writes", writes),
            );
        }
        figures
    }

    /// See the `invariants` module.
    fn check_invariants(&self) -> Result<(), String> {
        super::invariants::check(self)
    }

    fn size_hint_bytes(&self) -> usize {
        let records = self.input().records.len();
        // Per record and lane: the sink's effect counter; plus events and samples.
        records * 3 * size_of::<u8>()
            + self.events().own_size_hint_bytes()
            + size_of_val(self.samples())
    }

    /// The input is drawn once and shared by every clone of a run.
    fn shared_size_hint_bytes(first: &Self, last: &Self) -> usize {
        let one = size_of_val(first.input().records.as_slice()) * 2;
        let inputs = if Arc::ptr_eq(first.shared_input(), last.shared_input()) {
            one
        } else {
            2 * one
        };
        inputs + last.events().shared_size_hint_bytes()
    }
}

/// What every model reports the same way.
fn lane_figures(tally: &Tally, sink: &Sink) -> Figures {
    Figures::new()
        .count("processed", tally.processed)
        .count("reprocessed_records", tally.reprocessed_records)
        .count("skipped_records", tally.skipped_records)
        .count("state_errors", tally.state_errors)
        .count("failures", u64::from(tally.failures))
        .count("external_effects", sink.effects)
        .count("external_duplicates", sink.duplicates)
        .count("deduplicated", sink.deduplicated)
        .count("aborted_records", sink.aborted)
        .count("output_delay_ms_mean", sink.mean_delay_ms())
}

impl Headless for EosWorld {
    fn presets() -> &'static [Preset<EosScenario>] {
        super::PRESETS
    }

    fn lessons() -> &'static [LessonDefault<EosScenario>] {
        super::LESSONS
    }

    const MAX_AT_MS: u64 = MAX_DURATION_MS;

    fn validate(scenario: &EosScenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    /// `--duration-ms` sets how long the producer writes.
    const DURATION: Bounds = Bounds::new(1_000.0, MAX_DURATION_MS as f64, "ms");

    fn set_duration(scenario: &mut EosScenario, duration_ms: u64) {
        scenario.duration_ms = duration_ms;
    }

    /// The sampled series (per model: lag, processed, reprocessed, duplicates) and each
    /// completed checkpoint.
    fn details(&self) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("series".into(), plain_json(&self.samples()));
        out.insert("checkpoints".into(), plain_json(&self.checkpoint.history));
        out
    }
}
