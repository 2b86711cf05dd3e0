//! The replication world: three lanes, one per `acks` setting, on the same cluster, the same
//! faults at the same times and the same records, advanced together. The lane whose `acks` the
//! scenario names is the run a lesson draws and narrates; the other two are its comparison
//! (same settings, with `enable.idempotence` off where `acks` is not `all`, as Kafka turns it
//! off when it conflicts and is not set explicitly).
//!
//! One tick is one instant at which some lane has something due; the lanes with something due
//! then run up to it, and the invariants are checked. Instants with nothing due are skipped, so the run is the
//! same however finely it is advanced.

use super::lane::Lane;
use super::scenario::{Acks, Fault, ReplicationScenario};
use crate::family::ScenarioError;
use crate::replay::trace::TraceHasher;
use std::sync::Arc;

/// Lanes in a run: one per `acks` setting.
const LANES: usize = Acks::ALL_SETTINGS.len();

/// One run of a replication scenario.
#[derive(Clone, Debug)]
pub struct ReplicationWorld {
    scenario: Arc<ReplicationScenario>,
    lanes: Vec<Lane>,
    subject: usize,
    now_ms: u64,
    /// Events of the subject lane told before the latest tick (for the invariants).
    pub(crate) events_before_tick: usize,
}

impl ReplicationWorld {
    /// Builds the run at time zero, or says which field is out of range.
    pub fn new(scenario: ReplicationScenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let faults: Arc<[Fault]> = scenario.sorted_faults().into();
        let scenario = Arc::new(scenario);
        let lanes: Vec<Lane> = Acks::ALL_SETTINGS
            .iter()
            .map(|&acks| Lane::new(Arc::clone(&scenario), Arc::clone(&faults), acks))
            .collect();
        let subject = Acks::ALL_SETTINGS
            .iter()
            .position(|&a| a == scenario.producer.acks)
            .expect("every setting has a lane");
        Ok(Self {
            scenario,
            lanes,
            subject,
            now_ms: 0,
            events_before_tick: 0,
        })
    }

    pub fn scenario(&self) -> &ReplicationScenario {
        &self.scenario
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// The lane the scenario's `acks` names: the run the lesson shows.
    pub fn subject(&self) -> &Lane {
        &self.lanes[self.subject]
    }

    /// Every lane, in the order `acks=0`, `1`, `all`.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// The lane of `acks`.
    pub fn lane(&self, acks: Acks) -> &Lane {
        &self.lanes[Acks::ALL_SETTINGS
            .iter()
            .position(|&a| a == acks)
            .unwrap_or(0)]
    }

    /// Runs everything due up to and including `target_ms`. A tick runs only the lanes with
    /// something due at its instant: a lane's next due time changes only when it runs, so the
    /// others' are kept from the tick that last ran them (a lane not run keeps its clock where
    /// it was, and sets it to each item's time as it handles it).
    pub fn advance_to(&mut self, target_ms: u64) {
        let mut dues: [Option<u64>; LANES] = std::array::from_fn(|i| self.lanes[i].next_due_ms());
        while let Some(due) = dues
            .iter()
            .flatten()
            .copied()
            .min()
            .filter(|&due| due <= target_ms)
        {
            self.events_before_tick = self.subject().events().len();
            for (lane, lane_due) in self.lanes.iter_mut().zip(&mut dues) {
                if *lane_due == Some(due) {
                    lane.run_until(due);
                    *lane_due = lane.next_due_ms();
                }
            }
            self.now_ms = self.now_ms.max(due);
            crate::family::debug_check(self);
        }
        for lane in &mut self.lanes {
            lane.run_until(target_ms);
        }
        self.now_ms = self.now_ms.max(target_ms);
    }

    /// The fingerprint of every lane so far.
    pub fn trace_hash(&self) -> TraceHasher {
        let mut hash = TraceHasher::default();
        for lane in &self.lanes {
            hash.write_u64(lane.trace_hash().finish());
        }
        hash.write_u64(self.now_ms);
        hash
    }

    /// Continues under `scenario` if it differs only in faults after now; false otherwise.
    pub fn reschedule(&mut self, scenario: &ReplicationScenario) -> bool {
        let mut same_settings = scenario.clone();
        same_settings.faults.clone_from(&self.scenario.faults);
        if same_settings != *self.scenario || scenario.validate().is_err() {
            return false;
        }
        let faults = scenario.sorted_faults();
        let done = self.lanes[0].next_fault;
        let old = &self.lanes[0].faults;
        let keeps_the_past = faults.get(..done) == old.get(..done)
            && faults[done..].iter().all(|f| f.at_ms > self.now_ms);
        if keeps_the_past {
            let faults: Arc<[Fault]> = faults.into();
            let scenario = Arc::new(scenario.clone());
            for lane in &mut self.lanes {
                lane.set_faults(Arc::clone(&faults), Arc::clone(&scenario));
            }
            self.scenario = scenario;
        }
        keeps_the_past
    }
}
