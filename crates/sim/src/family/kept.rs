//! Runs a learner has left, kept so that coming back to one costs a seek instead of a new run.
//!
//! A knob applies from time zero, so turning one rebuilds the run from the start. Learners
//! mostly explore by going back and forth: a knob one step up and back, a preset picked again,
//! Back in the browser after a change. The run of a scenario is the same whenever it is built
//! (a run is deterministic), so the timeline left behind, with its checkpoints, is that run
//! already made: seeking it to now replays at most one checkpoint spacing. [`KeptTimelines`]
//! holds the last few, newest last, within a count and a memory budget (by the worlds' own
//! estimates, as the timeline's checkpoints are bounded); the oldest go first.

use super::timeline::Timeline;
use super::Simulation;

/// How many left runs are kept: enough for toggling between a few settings and going Back.
pub const MAX_KEPT: usize = 4;
/// Most memory the kept runs may hold together, by their checkpoints' own estimate. One run's
/// checkpoints may hold up to [`super::timeline::CHECKPOINT_BUDGET_BYTES`]; a run larger than
/// this budget is not kept.
pub const KEPT_BUDGET_BYTES: usize = 128 << 20;

/// The last runs left, newest last.
pub struct KeptTimelines<W> {
    kept: Vec<Timeline<W>>,
    max_kept: usize,
    budget_bytes: usize,
}

impl<W: Simulation> Default for KeptTimelines<W> {
    fn default() -> Self {
        Self::new(MAX_KEPT, KEPT_BUDGET_BYTES)
    }
}

impl<W: Simulation> KeptTimelines<W> {
    pub fn new(max_kept: usize, budget_bytes: usize) -> Self {
        Self {
            kept: Vec::new(),
            max_kept,
            budget_bytes,
        }
    }

    /// Keeps `timeline` as the newest; an older run of the same scenario goes (this one has
    /// the learner's latest position), then the oldest until the bounds hold. A run larger
    /// than the whole budget is not kept, and costs the others nothing.
    pub fn keep(&mut self, timeline: Timeline<W>) {
        if timeline.held_bytes() > self.budget_bytes {
            return;
        }
        let scenario = timeline.world().scenario();
        self.kept.retain(|k| k.world().scenario() != scenario);
        self.kept.push(timeline);
        while self.kept.len() > self.max_kept || self.held_bytes() > self.budget_bytes {
            self.kept.remove(0);
        }
    }

    /// The kept run of `scenario`, if any, handed over (it is no longer kept).
    pub fn take(&mut self, scenario: &W::Scenario) -> Option<Timeline<W>> {
        let index = self
            .kept
            .iter()
            .position(|k| k.world().scenario() == scenario)?;
        Some(self.kept.remove(index))
    }

    fn held_bytes(&self) -> usize {
        self.kept.iter().map(Timeline::held_bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::{Scenario, World};

    fn run_of(partitions: u32, until_ms: u64) -> Timeline<World> {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = partitions;
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        timeline.seek(until_ms);
        timeline
    }

    fn scenario_of(partitions: u32) -> Scenario {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = partitions;
        scenario
    }

    #[test]
    fn a_kept_run_comes_back_where_it_was_and_equals_a_new_run() {
        let mut kept = KeptTimelines::default();
        kept.keep(run_of(6, 40_000));
        kept.keep(run_of(7, 40_000));
        assert_eq!(kept.kept.len(), 2);
        let mut back = kept.take(&scenario_of(6)).expect("kept");
        assert_eq!(back.position_ms(), 40_000);
        assert_eq!(back.world().scenario(), &scenario_of(6));
        back.seek(52_000);
        let fresh = run_of(6, 52_000);
        assert_eq!(
            back.world().trace_hash().hex(),
            fresh.world().trace_hash().hex()
        );
        // Handed over: no longer kept, and the other run still is.
        assert!(kept.take(&scenario_of(6)).is_none());
        assert_eq!(kept.kept.len(), 1);
        assert!(kept.take(&scenario_of(8)).is_none());
        assert!(kept.take(&scenario_of(7)).is_some());
        assert!(kept.kept.is_empty());
    }

    #[test]
    fn the_oldest_runs_go_first_past_the_count() {
        let mut kept = KeptTimelines::new(2, usize::MAX);
        for partitions in [3, 4, 5] {
            kept.keep(run_of(partitions, 1_000));
        }
        assert_eq!(kept.kept.len(), 2);
        assert!(kept.take(&scenario_of(3)).is_none());
        assert!(kept.take(&scenario_of(4)).is_some());
        assert!(kept.take(&scenario_of(5)).is_some());
    }

    #[test]
    fn a_scenario_is_kept_once_at_its_latest_position() {
        let mut kept = KeptTimelines::new(2, usize::MAX);
        kept.keep(run_of(3, 1_000));
        kept.keep(run_of(4, 1_000));
        kept.keep(run_of(3, 9_000));
        assert_eq!(kept.kept.len(), 2);
        assert_eq!(kept.take(&scenario_of(3)).unwrap().position_ms(), 9_000);
        assert!(kept.take(&scenario_of(4)).is_some());
    }

    #[test]
    fn the_memory_budget_drops_the_oldest_and_refuses_a_run_too_large() {
        // Runs differing only in their seed hold about the same bytes.
        let run_seeded = |seed: u64, until_ms: u64| {
            let mut scenario = Scenario::default();
            scenario.seed = seed;
            let mut timeline = Timeline::new(World::new(&scenario).unwrap());
            timeline.seek(until_ms);
            timeline
        };
        let sizes: Vec<usize> = (1..=3).map(|s| run_seeded(s, 5_000).held_bytes()).collect();
        let budget = sizes.iter().max().unwrap() * 2 + sizes.iter().min().unwrap() / 2;
        let large = run_seeded(9, 120_000);
        assert!(large.held_bytes() > budget, "the test needs a larger run");
        // Room for two of the small runs, not for three nor for the large one.
        let mut kept = KeptTimelines::new(MAX_KEPT, budget);
        kept.keep(run_seeded(1, 5_000));
        kept.keep(run_seeded(2, 5_000));
        assert_eq!(kept.kept.len(), 2);
        kept.keep(run_seeded(3, 5_000));
        assert_eq!(kept.kept.len(), 2);
        let mut first = Scenario::default();
        first.seed = 1;
        assert!(kept.take(&first).is_none());
        kept.keep(large);
        assert_eq!(kept.kept.len(), 2);
        let mut third = Scenario::default();
        third.seed = 3;
        assert!(kept.take(&third).is_some());
    }

    #[test]
    fn runs_that_fill_the_budget_exactly_are_kept() {
        let (a, b) = (run_of(3, 5_000), run_of(4, 5_000));
        let mut kept = KeptTimelines::new(MAX_KEPT, a.held_bytes());
        kept.keep(run_of(3, 5_000));
        assert_eq!(kept.kept.len(), 1, "one run exactly the budget's size");
        let mut kept = KeptTimelines::new(MAX_KEPT, a.held_bytes() + b.held_bytes());
        kept.keep(a);
        kept.keep(b);
        assert_eq!(
            kept.kept.len(),
            2,
            "two runs exactly the budget's size together"
        );
    }
}
