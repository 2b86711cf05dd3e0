//! The databases world: the comparison the scenario's mode runs, one tick per instant
//! something is due.
//!
//! Each comparison keeps its own state and its own tick order (documented in its module:
//! `sync.rs`, `compaction.rs`, `bootstrap.rs`); this module holds the clock, the events and
//! the trace hash they share, and checks the invariants after every tick. Instants with
//! nothing due are skipped, so the run is the same however finely it is advanced.

use super::bootstrap::SnapshotWorld;
use super::compaction::CompactionWorld;
use super::events::{DatabasesEvent, DatabasesEventKind};
use super::scenario::{DatabasesScenario, Mode};
use super::sync::SyncWorld;
use crate::family::ScenarioError;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;

/// The comparison a run shows.
#[derive(Clone, Debug)]
pub enum Comparison {
    Sync(Box<SyncWorld>),
    Compaction(Box<CompactionWorld>),
    Snapshot(Box<SnapshotWorld>),
}

/// One run of a databases scenario.
#[derive(Clone, Debug)]
pub struct DatabasesWorld {
    scenario: DatabasesScenario,
    now_ms: u64,
    pub(crate) comparison: Comparison,
    events: ChunkedVec<DatabasesEvent>,
    /// Folds of what the comparisons did (writes, cleanings) and of every event's fields.
    work: TraceHasher,
    told: TraceHasher,
    /// Events told before the latest tick began (the invariants read the tick's own).
    pub(crate) events_before_tick: usize,
    last_tick_ms: Option<u64>,
}

impl DatabasesWorld {
    /// Builds the run at time zero, or says which field is out of range.
    pub fn new(scenario: DatabasesScenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let comparison = match scenario.mode {
            Mode::DualWrites => Comparison::Sync(Box::new(SyncWorld::new(&scenario))),
            Mode::Compaction => Comparison::Compaction(Box::new(CompactionWorld::new(&scenario))),
            Mode::Snapshot => Comparison::Snapshot(Box::new(SnapshotWorld::new(&scenario))),
        };
        Ok(Self {
            scenario,
            now_ms: 0,
            comparison,
            events: ChunkedVec::default(),
            work: TraceHasher::default(),
            told: TraceHasher::default(),
            events_before_tick: 0,
            last_tick_ms: None,
        })
    }

    pub fn scenario(&self) -> &DatabasesScenario {
        &self.scenario
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn events(&self) -> &ChunkedVec<DatabasesEvent> {
        &self.events
    }

    /// The dual-writes comparison, if the run is one.
    pub fn sync(&self) -> Option<&SyncWorld> {
        match &self.comparison {
            Comparison::Sync(world) => Some(world),
            _ => None,
        }
    }

    /// The compaction comparison, if the run is one.
    pub fn compaction(&self) -> Option<&CompactionWorld> {
        match &self.comparison {
            Comparison::Compaction(world) => Some(world),
            _ => None,
        }
    }

    /// The snapshot comparison, if the run is one.
    pub fn bootstrap(&self) -> Option<&SnapshotWorld> {
        match &self.comparison {
            Comparison::Snapshot(world) => Some(world),
            _ => None,
        }
    }

    /// The fingerprint of the run so far.
    pub fn trace_hash(&self) -> TraceHasher {
        let mut hash = TraceHasher::default();
        for part in [self.work.finish(), self.told.finish(), self.now_ms] {
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

    fn next_due_ms(&self) -> Option<u64> {
        let s = &self.scenario;
        let due = match &self.comparison {
            Comparison::Sync(world) => world.next_due_ms(s),
            Comparison::Compaction(world) => world.next_due_ms(s),
            Comparison::Snapshot(world) => world.next_due_ms(s),
        }?;
        // A tick consumes everything due at its instant, so the next is always later; the
        // guard only keeps a slip from spinning the loop at one instant in a release build.
        debug_assert!(
            self.last_tick_ms.is_none_or(|t| due > t),
            "something due at {due} ms was left by the tick at {:?} ms",
            self.last_tick_ms
        );
        Some(self.last_tick_ms.map_or(due, |t| due.max(t + 1)))
    }

    fn run_tick(&mut self) {
        let now = self.now_ms;
        self.last_tick_ms = Some(now);
        self.events_before_tick = self.events.len();
        let mut told: Vec<DatabasesEventKind> = Vec::new();
        let s = &self.scenario;
        match &mut self.comparison {
            Comparison::Sync(world) => world.tick(now, s, &mut told, &mut self.work),
            Comparison::Compaction(world) => world.tick(now, s, &mut told, &mut self.work),
            Comparison::Snapshot(world) => world.tick(now, s, &mut told, &mut self.work),
        }
        for kind in told {
            let event = DatabasesEvent { at_ms: now, kind };
            self.told.write_json(&event);
            self.events.push(event);
        }
    }
}
