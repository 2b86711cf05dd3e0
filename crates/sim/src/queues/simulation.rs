//! The queues world as a [`Simulation`]: its place on the timeline, its headline figures by
//! stable names, and what a headless report adds (the sampled series).
//!
//! Figures, per reader or lane where they apply:
//! * readers (`consumer_group`, `share_group`, `queue`): `throughput_per_s`, `completed`,
//!   `order_inversions`, `redelivery_inversions`, `redelivered`, `duplicates`, `backlog`;
//!   `retries` (consumer group), `archived` and `refused_acks` (share group),
//!   `dead_lettered` (queue), and `readable_history` once a late reader arrived;
//! * adding partitions: `keys_moved`, `keys_moved_fraction`, and the consumer group's figures;
//! * lanes (`drop`, `buffer`, `block`, `log`; `direct`, `broker`): `sent`, `processed`,
//!   `dropped`, `lost_on_crash`, `lost_while_down`, `lost_to_retention`, `lost`,
//!   `producer_blocked_ms`, `spilled`, `waiting`, `unsent`;
//! * `kinesis`: `accepted`, `throttled`, `throttled_by_records`, `throttled_by_bytes`;
//! * and `produced` at the top: the records the producer meant to send by now.

use super::events::{narrate, QueuesEvent, Reader};
use super::scenario::{QueuesScenario, MAX_DURATION_MS};
use super::snapshot::QueuesSnapshot;
use super::world::QueuesWorld;
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::invariant::plain_json;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde_json::{Map, Value};
use std::mem::size_of_val;
use std::sync::Arc;

impl Simulation for QueuesWorld {
    type Scenario = QueuesScenario;
    type Snapshot = QueuesSnapshot;
    type Event = QueuesEvent;

    const FAMILY: &'static str = "queues";

    fn new(scenario: &QueuesScenario) -> Result<Self, ScenarioError> {
        QueuesWorld::new(scenario.clone())
    }

    fn scenario(&self) -> &QueuesScenario {
        QueuesWorld::scenario(self)
    }

    fn advance_to(&mut self, target_ms: u64) {
        QueuesWorld::advance_to(self, target_ms);
    }

    fn now_ms(&self) -> u64 {
        QueuesWorld::now_ms(self)
    }

    fn end_ms(&self) -> u64 {
        self.scenario().duration_ms
    }

    fn snapshot(&self) -> QueuesSnapshot {
        QueuesWorld::snapshot(self)
    }

    fn events(&self) -> &ChunkedVec<QueuesEvent> {
        QueuesWorld::events(self)
    }

    fn event_at_ms(event: &QueuesEvent) -> u64 {
        event.at_ms
    }

    fn narrate(event: &QueuesEvent) -> Option<String> {
        Some(narrate(event))
    }

    /// Folded as the run goes from each completion (lane, record, instant) and each event's
    /// typed fields; narration never enters it.
    fn trace_hash(&self) -> TraceHasher {
        QueuesWorld::trace_hash(self)
    }

    fn figures(&self) -> Figures {
        let now_ms = self.now_ms();
        let mut figures = Figures::new().count("produced", self.offered());
        for reader in Reader::ALL {
            if let Some(group) = self.reader_figures(reader, now_ms) {
                figures = figures.group(reader.name(), group);
            }
        }
        if let Some(moved) = self.keys_moved() {
            let keys = self.scenario().producer.keys;
            figures = figures
                .count("keys_moved", u64::from(moved))
                .ratio("keys_moved_fraction", f64::from(moved) / f64::from(keys));
        }
        let offered = self.offered();
        for pipe in &self.pipes {
            figures = figures.group(
                pipe.kind.name(),
                Figures::new()
                    .count("sent", pipe.sent)
                    .count("processed", pipe.processed)
                    .count("dropped", pipe.dropped)
                    .count("lost_on_crash", pipe.lost_on_crash)
                    .count("lost_while_down", pipe.lost_while_down)
                    .count("lost_to_retention", pipe.lost_to_retention)
                    .count("lost", pipe.lost())
                    .count("producer_blocked_ms", pipe.blocked_ms(now_ms))
                    .count("spilled", pipe.spilled)
                    .count("waiting", pipe.depth())
                    .count("unsent", offered - pipe.sent),
            );
        }
        if let Some(kinesis) = &self.kinesis {
            figures = figures.group(
                "kinesis",
                Figures::new()
                    .count("accepted", kinesis.accepted())
                    .count("throttled", kinesis.throttled())
                    .count("throttled_by_records", kinesis.throttled_by_records)
                    .count("throttled_by_bytes", kinesis.throttled_by_bytes)
                    .count("shards", kinesis.shards.len() as u64),
            );
        }
        figures
    }

    /// See the `invariants` module.
    fn check_invariants(&self) -> Result<(), String> {
        super::invariants::check(self)
    }

    fn size_hint_bytes(&self) -> usize {
        self.history_size_hint_bytes().0 + self.events().own_size_hint_bytes()
    }

    /// The records are drawn once and shared by every clone of a run, and so are the sealed
    /// chunks of its per-record tables.
    fn shared_size_hint_bytes(first: &Self, last: &Self) -> usize {
        let records = if Arc::ptr_eq(first.shared_records(), last.shared_records()) {
            size_of_val(first.records())
        } else {
            size_of_val(first.records()) + size_of_val(last.records())
        };
        records + last.history_size_hint_bytes().1 + last.events().shared_size_hint_bytes()
    }
}

impl QueuesWorld {
    fn reader_figures(&self, reader: Reader, now_ms: u64) -> Option<Figures> {
        let backlog = self.backlog_of(reader)?;
        let (order, redelivered) = match reader {
            Reader::ConsumerGroup => {
                let g = self.consumer_group.as_ref()?;
                (&g.order, g.redelivered)
            }
            Reader::ShareGroup => {
                let g = self.share_group.as_ref()?;
                (&g.order, g.redelivered)
            }
            Reader::Queue => {
                let q = self.queue.as_ref()?;
                (&q.order, q.redelivered)
            }
        };
        // Tenths of a record per second, in integers, so the figure is the same everywhere.
        let tenths = order.completed_count * 10_000 / now_ms.max(1);
        let mut figures = Figures::new()
            .ratio("throughput_per_s", tenths as f64 / 10.0)
            .count("completed", order.completed_count)
            .count("order_inversions", order.inversions)
            .count("redelivery_inversions", order.redelivery_inversions)
            .count("redelivered", redelivered)
            .count("duplicates", order.duplicates)
            .count("backlog", backlog);
        figures = match reader {
            Reader::ConsumerGroup => {
                figures.count("retries", self.consumer_group.as_ref()?.retries)
            }
            Reader::ShareGroup => {
                let g = self.share_group.as_ref()?;
                figures
                    .count("archived", g.archived())
                    .count("refused_acks", g.refused_acks)
            }
            Reader::Queue => figures.count("dead_lettered", self.queue.as_ref()?.dead_lettered),
        };
        if let Some(reading) = self.late_reading() {
            let readable = match reader {
                Reader::Queue => reading.queue_readable,
                Reader::ConsumerGroup | Reader::ShareGroup => reading.log_readable,
            };
            figures = figures.count("readable_history", readable);
        }
        Some(figures)
    }
}

impl Headless for QueuesWorld {
    fn presets() -> &'static [Preset<QueuesScenario>] {
        super::PRESETS
    }

    fn lessons() -> &'static [LessonDefault<QueuesScenario>] {
        super::LESSONS
    }

    const MAX_AT_MS: u64 = MAX_DURATION_MS;

    fn validate(scenario: &QueuesScenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    /// `--duration-ms` sets how long the producer produces.
    const DURATION: Bounds = Bounds::new(1_000.0, MAX_DURATION_MS as f64, "ms");

    fn set_duration(scenario: &mut QueuesScenario, duration_ms: u64) {
        scenario.duration_ms = duration_ms;
    }

    /// The sampled series the charts plot: per reader, per lane, per Kinesis second.
    fn details(&self) -> Map<String, Value> {
        let mut series = Map::new();
        if !self.reader_samples().is_empty() {
            series.insert("readers".into(), plain_json(&self.reader_samples()));
        }
        for pipe in self.pipes() {
            series.insert(pipe.kind.name().into(), plain_json(&pipe.samples));
        }
        if let Some(kinesis) = self.kinesis() {
            series.insert("kinesis".into(), plain_json(&kinesis.samples));
        }
        let mut out = Map::new();
        out.insert("series".into(), Value::Object(series));
        if let Some(reading) = self.late_reading() {
            out.insert("late_reading".into(), plain_json(&reading));
        }
        out
    }
}
