//! The databases world as a [`Simulation`]: its place on the timeline, its headline figures
//! by stable names, and what a headless report adds (the sampled series).
//!
//! Figures, by comparison:
//! * dual writes: `writes` and `committed`, and per lane (`dual_write`, `try_catch`, `cdc`,
//!   `outbox`) `divergent_keys` (products whose index value differs from the database's now),
//!   `max_divergent_keys`, `out_of_order_writes`, `lost_writes`, `exceptions`, `retries`,
//!   `in_flight`; the connector lanes add `connector_lag_ms`, `max_connector_lag_ms` and
//!   `changes_behind`, the outbox `outbox_rows` and `db_rows_written`;
//! * compaction: `total_writes`, `live_keys`, `log_records`, `dirty_ratio`, `cleanings`,
//!   `records_removed`, `tombstones_in_log`, `tombstones_removed`, once the new consumer has
//!   read `bootstrap_records_read`, `bootstrap_tombstones_read`, `bootstrap_wrong_keys`; an
//!   `event_sourced` group (`events`, `events_to_rebuild`, `wrong_if_compacted`) and, once an
//!   account has closed, a `tombstone` group (`key`, `written_at_ms`,
//!   `present_before_retention`, `present_now`, `removed_at_ms`);
//! * snapshot: `missed`, `duplicated`, `missed_or_duplicated`, `regressions`,
//!   `divergent_keys`, `rows_copied`, `changes_during_snapshot`, `connector_lag_ms`,
//!   `max_connector_lag_ms`, `log_end`.

use super::bootstrap::SnapshotWorld;
use super::compaction::CompactionWorld;
use super::events::{narrate, DatabasesEvent, Lane};
use super::scenario::{DatabasesScenario, MAX_DURATION_MS};
use super::snapshot::DatabasesSnapshot;
use super::sync::SyncWorld;
use super::world::{Comparison, DatabasesWorld};
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::invariant::plain_json;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde_json::{Map, Value};
use std::mem::size_of_val;

impl Simulation for DatabasesWorld {
    type Scenario = DatabasesScenario;
    type Snapshot = DatabasesSnapshot;
    type Event = DatabasesEvent;

    const FAMILY: &'static str = "databases";

    fn new(scenario: &DatabasesScenario) -> Result<Self, ScenarioError> {
        DatabasesWorld::new(scenario.clone())
    }

    fn scenario(&self) -> &DatabasesScenario {
        DatabasesWorld::scenario(self)
    }

    fn advance_to(&mut self, target_ms: u64) {
        DatabasesWorld::advance_to(self, target_ms);
    }

    fn now_ms(&self) -> u64 {
        DatabasesWorld::now_ms(self)
    }

    fn end_ms(&self) -> u64 {
        self.scenario().end_ms()
    }

    fn snapshot(&self) -> DatabasesSnapshot {
        DatabasesWorld::snapshot(self)
    }

    fn events(&self) -> &ChunkedVec<DatabasesEvent> {
        DatabasesWorld::events(self)
    }

    fn event_at_ms(event: &DatabasesEvent) -> u64 {
        event.at_ms
    }

    fn narrate(event: &DatabasesEvent) -> Option<String> {
        Some(narrate(event))
    }

    /// Folded as the run goes from each write to a store and each cleaning, and from each
    /// event's typed fields; narration never enters it.
    fn trace_hash(&self) -> TraceHasher {
        DatabasesWorld::trace_hash(self)
    }

    fn figures(&self) -> Figures {
        let now = self.now_ms();
        match &self.comparison {
            Comparison::Sync(sync) => sync_figures(sync, now),
            Comparison::Compaction(compaction) => {
                compaction_figures(compaction, now, self.scenario())
            }
            Comparison::Snapshot(snapshot) => snapshot_figures(snapshot, now),
        }
    }

    /// See the `invariants` module.
    fn check_invariants(&self) -> Result<(), String> {
        super::invariants::check(self)
    }

    fn size_hint_bytes(&self) -> usize {
        let own = match &self.comparison {
            Comparison::Sync(s) => {
                s.db.log.own_size_hint_bytes()
                    + s.commit_lsn.own_size_hint_bytes()
                    + s.samples.own_size_hint_bytes()
                    + s.stores
                        .iter()
                        .map(|st| size_of_val(st.rows.as_slice()) * 3)
                        .sum::<usize>()
            }
            Comparison::Compaction(c) => {
                size_of_val(c.log.records.as_slice())
                    + size_of_val(c.samples.as_slice())
                    + c.balances.len() * 48
            }
            Comparison::Snapshot(s) => {
                s.db.log.own_size_hint_bytes() * 2
                    + size_of_val(s.samples.as_slice())
                    + size_of_val(s.store.rows.as_slice()) * 3
            }
        };
        own + self.events().own_size_hint_bytes()
    }

    fn shared_size_hint_bytes(_first: &Self, last: &Self) -> usize {
        let db = (last.sync().map(|s| &s.db)).or_else(|| last.bootstrap().map(|b| &b.db));
        // The per-key LSNs hold an entry per commit too, a third of a change's size.
        let log = db.map_or(0, |db| db.log.shared_size_hint_bytes() * 4 / 3);
        let sync = last.sync().map_or(0, |s| {
            s.commit_lsn.shared_size_hint_bytes() + s.samples.shared_size_hint_bytes()
        });
        last.events().shared_size_hint_bytes() + log + sync
    }
}

fn sync_figures(sync: &SyncWorld, now: u64) -> Figures {
    let db = &sync.db;
    let mut figures = Figures::new()
        .count("writes", sync.arrived as u64)
        .count("committed", db.log_end());
    for lane in Lane::ALL {
        let store = &sync.stores[lane.index()];
        let mut group = Figures::new()
            .count("divergent_keys", u64::from(store.divergent))
            .count("max_divergent_keys", u64::from(store.max_divergent))
            .count("out_of_order_writes", sync.out_of_order[lane.index()]);
        group = if lane.is_connector() {
            let c = sync.connector(lane);
            group
                .count("lost_writes", 0)
                .count("exceptions", 0)
                .count("retries", c.retries)
                .count("in_flight", c.in_flight())
                .count("connector_lag_ms", c.lag_ms(now, db))
                .count("max_connector_lag_ms", c.max_lag_ms(now, db))
                .count("changes_behind", c.behind(db))
        } else {
            let d = &sync.dual[lane.index()];
            group
                .count("lost_writes", d.lost_writes)
                .count("exceptions", d.exceptions)
                .count("retries", d.retries)
                .count("in_flight", d.in_flight)
        };
        if lane == Lane::Outbox {
            // One outbox row per transaction, beside the row itself.
            group = group
                .count("outbox_rows", db.log_end())
                .count("db_rows_written", 2 * db.log_end());
        }
        figures = figures.group(lane.name(), group);
    }
    figures
}

fn compaction_figures(c: &CompactionWorld, now: u64, scenario: &DatabasesScenario) -> Figures {
    let log = &c.log;
    let dirt = log.dirt(now, &CompactionWorld::rules(scenario));
    let mut figures = Figures::new()
        .count("total_writes", c.applied as u64)
        .count("live_keys", c.balances.len() as u64)
        .count("log_records", log.records.len() as u64)
        .ratio("dirty_ratio", dirt.permille() as f64 / 1000.0)
        .count("cleanings", log.cleanings)
        .count("records_removed", log.records_removed)
        .count("tombstones_in_log", log.tombstones())
        .count("tombstones_removed", log.tombstones_removed)
        .group(
            "event_sourced",
            Figures::new()
                .count("events", c.applied as u64)
                .count("events_to_rebuild", c.applied as u64)
                .count("wrong_if_compacted", u64::from(c.wrong_if_compacted)),
        );
    if let Some(reading) = c.bootstrap {
        figures = figures
            .count("bootstrap_records_read", reading.records_read)
            .count("bootstrap_tombstones_read", reading.tombstones_read)
            .count("bootstrap_wrong_keys", u64::from(reading.wrong_keys));
    }
    if let Some(watched) = c.watched {
        let mut group = Figures::new()
            .count("key", u64::from(watched.key))
            .count("written_at_ms", watched.written_at_ms)
            .flag("present_now", log.records_of(watched.key) > 0);
        if let Some(present) = watched.present_before_retention {
            group = group.flag("present_before_retention", present);
        }
        if let Some(removed) = watched.removed_at_ms {
            group = group.count("removed_at_ms", removed);
        }
        figures = figures.group("tombstone", group);
    }
    figures
}

fn snapshot_figures(s: &SnapshotWorld, now: u64) -> Figures {
    let (lag, max_lag) = s
        .connector
        .as_ref()
        .map_or((0, 0), |c| (c.lag_ms(now, &s.db), c.max_lag_ms(now, &s.db)));
    Figures::new()
        .count("missed", s.missed)
        .count("duplicated", s.duplicated)
        .count("missed_or_duplicated", s.missed + s.duplicated)
        .count("regressions", s.regressions)
        .count("divergent_keys", u64::from(s.store.divergent))
        .count("rows_copied", u64::from(s.rows_copied()))
        .count("changes_during_snapshot", s.changes_during)
        .count("connector_lag_ms", lag)
        .count("max_connector_lag_ms", max_lag)
        .count("log_end", s.db.log_end())
}

impl Headless for DatabasesWorld {
    fn presets() -> &'static [Preset<DatabasesScenario>] {
        super::PRESETS
    }

    fn lessons() -> &'static [LessonDefault<DatabasesScenario>] {
        super::LESSONS
    }

    const MAX_AT_MS: u64 = MAX_DURATION_MS * 2;

    fn validate(scenario: &DatabasesScenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    /// `--duration-ms` sets how long writes arrive.
    const DURATION: Bounds = Bounds::new(1_000.0, MAX_DURATION_MS as f64, "ms");

    fn set_duration(scenario: &mut DatabasesScenario, duration_ms: u64) {
        scenario.duration_ms = duration_ms;
    }

    /// The sampled series the charts plot.
    fn details(&self) -> Map<String, Value> {
        let mut out = Map::new();
        let series = match &self.comparison {
            Comparison::Sync(s) => plain_json(&s.samples.iter().collect::<Vec<_>>()),
            Comparison::Compaction(c) => plain_json(&c.samples),
            Comparison::Snapshot(s) => plain_json(&s.samples),
        };
        out.insert("series".into(), series);
        if let Some(sync) = self.sync() {
            out.insert("races".into(), plain_json(&sync.races));
        }
        out
    }
}
