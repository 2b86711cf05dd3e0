//! The consumer-group world as a [`Simulation`]: what the timeline, the headless runner and
//! the browser's shell need from it, its headline figures by their stable names, and what a
//! headless report adds for it (per-group totals and the sampled metrics).

use super::client_metrics;
use super::events::{narrate, Event};
use super::group::MemberPhase;
use super::invariants::check_invariants;
use super::metrics::{GroupSample, Sample};
use super::scenario::Scenario;
use super::sink::Tallies;
use super::snapshot::{GroupView, Snapshot, DRAWN_CELLS};
use super::topic::{PartitionLog, Record, CHUNK_RECORDS};
use super::world::World;
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::invariant::plain_json;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::mem::{size_of, size_of_val};
use std::sync::Arc;

impl Simulation for World {
    type Scenario = Scenario;
    type Snapshot = Snapshot;
    type Event = Arc<Event>;

    const FAMILY: &'static str = "kafka";

    fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        World::new(scenario)
    }

    fn scenario(&self) -> &Scenario {
        World::scenario(self)
    }

    fn advance_to(&mut self, target_ms: u64) {
        World::advance_to(self, target_ms);
    }

    fn now_ms(&self) -> u64 {
        World::now_ms(self)
    }

    fn end_ms(&self) -> u64 {
        World::scenario(self).duration_ms
    }

    fn snapshot(&self) -> Snapshot {
        World::snapshot(self, DRAWN_CELLS)
    }

    fn events(&self) -> &ChunkedVec<Arc<Event>> {
        World::events(self)
    }

    fn event_at_ms(event: &Arc<Event>) -> u64 {
        event.at_ms
    }

    fn narrate(event: &Arc<Event>) -> Option<String> {
        Some(narrate(event))
    }

    fn trace_hash(&self) -> TraceHasher {
        World::trace_hash(self)
    }

    /// Records produced, and per group (by `group.id`) what the lessons' counters show:
    /// processed, lag, rebalances, records processed again, the sink's exact tallies, what
    /// retention or a `deleteRecords` call took before the group read it, records processed
    /// out of the order they were produced, and members left with no partition.
    fn figures(&self) -> Figures {
        let snapshot = World::snapshot(self, 0);
        let mut figures = Figures::new().count("produced", snapshot.producer.sent_total);
        for group in &snapshot.groups {
            let tallies = group.tallies;
            let lag: u64 = group.partitions.iter().map(|p| p.lag).sum();
            figures = figures.group(
                &group.group_id,
                Figures::new()
                    .count("processed", group.processed_total)
                    .count("lag", lag)
                    .count("rebalances", group.rebalances_total)
                    .count("reprocessed", group.duplicates_total)
                    .count("lost", tallies.lost)
                    .count("duplicated", tallies.duplicated)
                    .count("duplicate_effects", tallies.duplicate_effects)
                    .count("exactly_once", tallies.exactly_once)
                    .count("dead_lettered", tallies.dead_lettered)
                    .count("lost_to_retention", group.lost_to_retention)
                    .count("lost_to_deletion", group.lost_to_deletion)
                    .count("out_of_produced_order", group.out_of_produced_order)
                    .count("idle_members", idle_members(group)),
            );
        }
        figures
    }

    fn check_invariants(&self) -> Result<(), String> {
        check_invariants(self)
    }

    fn reschedule(&mut self, scenario: &Scenario) -> bool {
        World::reschedule(self, scenario)
    }

    /// Drops the scheduled actions in `(now_ms, seen_until_ms]`. Actions after what the
    /// learner has seen (a preset's restart still to come) stay, and so does the second half
    /// of a restart that began before `now_ms`.
    fn without_future(scenario: &Scenario, now_ms: u64, seen_until_ms: u64) -> Scenario {
        let mut next = scenario.clone();
        next.schedule
            .retain(|a| a.at_ms <= now_ms || a.at_ms > seen_until_ms);
        next
    }

    fn size_hint_bytes(&self) -> usize {
        let partitions = &self.topic().partitions;
        let open: usize = partitions.iter().map(PartitionLog::open_records).sum();
        let pointers: u64 = partitions
            .iter()
            .map(|p| p.sealed_chunks().count() as u64)
            .sum();
        open * size_of::<Record>()
            + pointers as usize * size_of::<std::sync::Arc<Vec<Record>>>()
            + World::events(self).own_size_hint_bytes()
            + size_of_val(&self.metrics().samples[..])
    }

    /// Sealed chunks are shared by number: between the first chunk `first` holds and the last
    /// `last` holds, every chunk is counted once per partition (a run whose retention dropped
    /// a whole chunk between two checkpoints is counted a little high). Metric samples and
    /// events are shared too: every checkpoint's list is the start of the last one's (the events
    /// themselves, and the sealed chunks of pointers to them).
    fn shared_size_hint_bytes(first: &Self, last: &Self) -> usize {
        let chunks: u64 = (first.topic().partitions.iter())
            .zip(&last.topic().partitions)
            .map(|(a, b)| {
                b.sealed_chunks()
                    .end
                    .saturating_sub(a.sealed_chunks().start)
            })
            .sum();
        chunks as usize * CHUNK_RECORDS * size_of::<Record>()
            + samples_size_hint_bytes(&last.metrics().samples)
            + last.events().len() * size_of::<Event>()
            + last.events().shared_size_hint_bytes()
    }
}

/// Metric samples all have the shape of the last one (members added later make earlier ones a
/// little smaller).
fn samples_size_hint_bytes(samples: &[Arc<Sample>]) -> usize {
    let Some(last) = samples.last() else {
        return 0;
    };
    let groups: usize = (last.groups.iter())
        .map(|g| size_of::<GroupSample>() + size_of_val(&g.members[..]) + size_of_val(&g.lag[..]))
        .sum();
    let sample = size_of::<Sample>() + size_of_val(&last.log_end_offsets[..]) + groups;
    samples.len() * sample
}

/// Longest metrics series a headless report prints; longer runs print every n-th sample.
const MAX_REPORTED_SAMPLES: usize = 1_000;

impl Headless for World {
    fn presets() -> &'static [Preset<Scenario>] {
        super::presets::PRESETS
    }

    fn preset_home(slug: &str) -> Option<&'static str> {
        crate::family::preset::home_of(&super::presets::HOMES, slug)
    }

    fn lessons() -> &'static [LessonDefault<Scenario>] {
        super::presets::LESSONS
    }

    const MAX_AT_MS: u64 = 3_600_000;

    fn validate(scenario: &Scenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    const DURATION: Bounds = Bounds::new(1.0, 3_600_000.0, "ms");

    fn set_duration(scenario: &mut Scenario, duration_ms: u64) {
        scenario.duration_ms = duration_ms;
    }

    /// The run's length, records produced, per-group totals and the sampled metrics (thinned
    /// to at most [`MAX_REPORTED_SAMPLES`] rows).
    fn details(&self) -> Map<String, Value> {
        let duration_ms = World::scenario(self).duration_ms;
        let snapshot = World::snapshot(self, 0);
        let groups: Vec<GroupReport> = snapshot
            .groups
            .iter()
            .enumerate()
            .map(|(index, g)| GroupReport {
                client_metrics: client_metrics_at_end(self, index),
                group_id: g.group_id.clone(),
                processed: g.processed_total,
                throughput_per_s: g.processed_total as f64 * 1000.0 / duration_ms as f64,
                lag_total: g.partitions.iter().map(|p| p.lag).sum(),
                lag_per_partition: g.partitions.iter().map(|p| p.lag).collect(),
                tallies: g.tallies,
                lost_to_retention: g.lost_to_retention,
            })
            .collect();
        let samples = &self.metrics().samples;
        let stride = samples.len().div_ceil(MAX_REPORTED_SAMPLES).max(1);
        let thinned: Vec<&Sample> = samples.iter().step_by(stride).map(Arc::as_ref).collect();
        let mut details = Map::new();
        details.insert("duration_ms".into(), duration_ms.into());
        details.insert("produced".into(), self.producer().sent().into());
        details.insert("groups".into(), plain_json(&groups));
        details.insert("samples".into(), plain_json(&thinned));
        details
    }
}

/// One group's totals at the end of a headless run.
#[derive(Serialize)]
struct GroupReport {
    group_id: String,
    processed: u64,
    throughput_per_s: f64,
    lag_total: u64,
    lag_per_partition: Vec<u64>,
    /// Lost, duplicated and exactly-once records, from the group's output store.
    tallies: Tallies,
    lost_to_retention: u64,
    /// The consumer metrics under Kafka's names at the run's end (null where Kafka would
    /// report NaN: an average with nothing in its window).
    client_metrics: BTreeMap<&'static str, Option<f64>>,
}

fn client_metrics_at_end(world: &World, group: usize) -> BTreeMap<&'static str, Option<f64>> {
    let values = client_metrics::group_metrics(world.metrics(), group, world.now_ms());
    let mut named = BTreeMap::new();
    for (info, value) in client_metrics::METRICS.iter().zip(values) {
        named.insert(info.name, value);
    }
    named
}

/// Members running in a stable group with no partition to read: more members than partitions.
fn idle_members(group: &GroupView) -> u64 {
    group
        .members
        .iter()
        .filter(|m| m.phase == MemberPhase::Idle)
        .count() as u64
}
