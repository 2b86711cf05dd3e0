//! Runs a learner has left, kept so that coming back to one costs a seek instead of a new run.
//!
//! A knob applies from time zero, so turning one rebuilds the run from the start. Learners
//! mostly explore by going back and forth: a knob one step up and back, a preset picked again,
//! Back in the browser after a change. The run of a scenario is the same whenever it is built
//! (a run is deterministic), so the timeline left behind, with its checkpoints, is that run
//! already made: seeking it to now replays at most one checkpoint spacing. [`KeptTimelines`]
//! holds the last few, newest last, within a count and a memory budget (by the worlds' own
//! estimates, as the timeline's checkpoints are bounded); the oldest go first.
//!
//! The next step of a knob is as likely as a step back, so the page may also build, in idle
//! time, the runs of the settings one step either side of the current one
//! ([`KeptTimelines::prepare`], a slice at a time, so the page stays responsive): turning the
//! knob one more step is then a seek too.

use super::timeline::Timeline;
use super::{ScenarioError, Simulation};

/// Where [`KeptTimelines::prepare`] left a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prepared {
    /// Kept, at or past the time asked for.
    Ready,
    /// Kept, short of the time asked for: another call goes on from there.
    Unfinished,
    /// Not kept: larger than the whole budget, so preparing it is pointless.
    NotKept,
}

/// How many runs are kept: enough for toggling between a few settings and going Back, plus
/// the two prepared one step either side of the current setting.
pub const MAX_KEPT: usize = 6;
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
    /// than the whole budget is not kept, and costs the others nothing. Returns the runs let
    /// go, for the caller to free when it suits: freeing a run of tens of MiB takes
    /// milliseconds, which a knob's picture should not wait for.
    #[must_use = "the runs let go are freed where they are dropped"]
    pub fn keep(&mut self, timeline: Timeline<W>) -> Vec<Timeline<W>> {
        if timeline.held_bytes() > self.budget_bytes {
            return vec![timeline];
        }
        let scenario = timeline.world().scenario();
        let (same, mut others): (Vec<_>, Vec<_>) = std::mem::take(&mut self.kept)
            .into_iter()
            .partition(|k| k.world().scenario() == scenario);
        others.push(timeline);
        self.kept = others;
        let mut let_go = same;
        let_go.extend(self.let_go_past_bounds());
        let_go
    }

    /// Advances the kept run of `scenario` toward `at_ms`, building it first if none is kept
    /// (as the newest), `slice_ms` of simulated time at a time for as long as `more_time`
    /// says, at least one slice. A kept run keeps its place in the order, and one already at
    /// or past `at_ms` is left where it is (a seek back is cheap). The kept runs stay within
    /// their bounds; a run grown larger than the whole budget is dropped.
    pub fn prepare(
        &mut self,
        scenario: &W::Scenario,
        at_ms: u64,
        slice_ms: u64,
        more_time: impl FnMut() -> bool,
    ) -> Result<Prepared, ScenarioError> {
        let index = match self.position_of(scenario) {
            Some(index) => index,
            None => {
                self.kept.push(Timeline::new(W::new(scenario)?));
                self.kept.len() - 1
            }
        };
        // A world advances to any time asked (the `Simulation` contract), so each slice
        // makes progress.
        let ready = self.kept[index].advance_in_slices(at_ms, slice_ms, more_time);
        // Preparing runs in idle time: what goes is freed here.
        drop(self.let_go_past_bounds());
        Ok(match self.position_of(scenario) {
            None => Prepared::NotKept,
            Some(_) if ready => Prepared::Ready,
            Some(_) => Prepared::Unfinished,
        })
    }

    fn position_of(&self, scenario: &W::Scenario) -> Option<usize> {
        self.kept
            .iter()
            .position(|k| k.world().scenario() == scenario)
    }

    /// Lets the oldest runs go until the count and the budget hold; a run larger than the
    /// whole budget goes wherever it is. Each run's size is asked once: the shared part of
    /// the estimate walks the partitions, and this runs on every knob change and every slice
    /// of preparing.
    fn let_go_past_bounds(&mut self) -> Vec<Timeline<W>> {
        let budget_bytes = self.budget_bytes;
        let mut let_go = Vec::new();
        let mut sizes = Vec::with_capacity(self.kept.len());
        for timeline in std::mem::take(&mut self.kept) {
            let size = timeline.held_bytes();
            if size <= budget_bytes {
                self.kept.push(timeline);
                sizes.push(size);
            } else {
                let_go.push(timeline);
            }
        }
        let mut held_bytes: usize = sizes.iter().sum();
        while self.kept.len() > self.max_kept || held_bytes > budget_bytes {
            held_bytes -= sizes.remove(0);
            let_go.push(self.kept.remove(0));
        }
        let_go
    }

    /// The kept run of `scenario`, if any, handed over (it is no longer kept).
    pub fn take(&mut self, scenario: &W::Scenario) -> Option<Timeline<W>> {
        let index = self.position_of(scenario)?;
        Some(self.kept.remove(index))
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

    /// The partitions and position of each run let go, in order.
    fn which(let_go: Vec<Timeline<World>>) -> Vec<(u32, u64)> {
        let_go
            .iter()
            .map(|t| (t.world().scenario().topic.partitions, t.position_ms()))
            .collect()
    }

    fn scenario_of(partitions: u32) -> Scenario {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = partitions;
        scenario
    }

    #[test]
    fn a_kept_run_comes_back_where_it_was_and_equals_a_new_run() {
        let mut kept = KeptTimelines::default();
        assert!(kept.keep(run_of(6, 40_000)).is_empty());
        assert!(kept.keep(run_of(7, 40_000)).is_empty());
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
        assert!(kept.keep(run_of(3, 1_000)).is_empty());
        assert!(kept.keep(run_of(4, 1_000)).is_empty());
        assert_eq!(which(kept.keep(run_of(5, 1_000))), [(3, 1_000)]);
        assert_eq!(kept.kept.len(), 2);
        assert!(kept.take(&scenario_of(3)).is_none());
        assert!(kept.take(&scenario_of(4)).is_some());
        assert!(kept.take(&scenario_of(5)).is_some());
    }

    #[test]
    fn a_scenario_is_kept_once_at_its_latest_position() {
        let mut kept = KeptTimelines::new(2, usize::MAX);
        assert!(kept.keep(run_of(3, 1_000)).is_empty());
        assert!(kept.keep(run_of(4, 1_000)).is_empty());
        assert_eq!(which(kept.keep(run_of(3, 9_000))), [(3, 1_000)]);
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
        assert!(kept.keep(run_seeded(1, 5_000)).is_empty());
        assert!(kept.keep(run_seeded(2, 5_000)).is_empty());
        assert_eq!(kept.kept.len(), 2);
        let let_go = kept.keep(run_seeded(3, 5_000));
        assert_eq!(let_go.len(), 1);
        assert_eq!(let_go[0].world().scenario().seed, 1);
        assert_eq!(kept.kept.len(), 2);
        let mut first = Scenario::default();
        first.seed = 1;
        assert!(kept.take(&first).is_none());
        assert_eq!(
            which(kept.keep(large)),
            [(6, 120_000)],
            "refused, handed back"
        );
        assert_eq!(kept.kept.len(), 2);
        let mut third = Scenario::default();
        third.seed = 3;
        assert!(kept.take(&third).is_some());
    }

    /// Prepares `scenario` to `at_ms` in slices of `slice_ms`, one slice per call.
    fn prepare_slice_by_slice(
        kept: &mut KeptTimelines<World>,
        scenario: &Scenario,
        at_ms: u64,
        slice_ms: u64,
    ) -> usize {
        let mut calls = 1;
        while kept.prepare(scenario, at_ms, slice_ms, || false).unwrap() == Prepared::Unfinished {
            calls += 1;
        }
        calls
    }

    #[test]
    fn a_run_prepared_a_slice_at_a_time_is_the_scenarios_run() {
        let mut kept = KeptTimelines::default();
        let calls = prepare_slice_by_slice(&mut kept, &scenario_of(7), 30_000, 4_000);
        assert_eq!(calls, 8, "seven slices of 4 s and one of 2 s");
        let mut prepared = kept.take(&scenario_of(7)).expect("kept");
        assert_eq!(prepared.position_ms(), 30_000);
        assert_eq!(
            prepared.world().trace_hash().hex(),
            run_of(7, 30_000).world().trace_hash().hex()
        );
        // Its checkpoints are the run's too: a seek back lands on the same run.
        prepared.seek(12_000);
        assert_eq!(
            prepared.world().trace_hash().hex(),
            run_of(7, 12_000).world().trace_hash().hex()
        );
    }

    #[test]
    fn a_prepare_call_runs_slices_while_there_is_time() {
        let mut kept = KeptTimelines::default();
        let mut time_left = 3;
        let prepared = kept.prepare(&scenario_of(7), 20_000, 1_000, || {
            time_left -= 1;
            time_left >= 0
        });
        assert_eq!(prepared, Ok(Prepared::Unfinished));
        // One slice, then one more for each time `more_time` said yes.
        assert_eq!(kept.take(&scenario_of(7)).unwrap().position_ms(), 4_000);
        let finished = kept.prepare(&scenario_of(7), 3_000, 1_000, || true);
        assert_eq!(finished, Ok(Prepared::Ready));
        assert_eq!(kept.take(&scenario_of(7)).unwrap().position_ms(), 3_000);
        // A slice of zero still moves on.
        assert_eq!(prepare_slice_by_slice(&mut kept, &scenario_of(7), 3, 0), 3);
    }

    #[test]
    fn preparing_a_kept_run_keeps_its_place_and_never_moves_it_back() {
        let mut kept = KeptTimelines::new(2, usize::MAX);
        assert!(kept.keep(run_of(3, 9_000)).is_empty());
        assert!(kept.keep(run_of(4, 1_000)).is_empty());
        assert_eq!(
            kept.prepare(&scenario_of(3), 5_000, 100, || true),
            Ok(Prepared::Ready)
        );
        assert_eq!(
            kept.prepare(&scenario_of(4), 5_000, 100, || true),
            Ok(Prepared::Ready)
        );
        // Still the oldest: the next run kept drops it.
        assert_eq!(which(kept.keep(run_of(5, 1_000))), [(3, 9_000)]);
        assert!(kept.take(&scenario_of(3)).is_none());
        assert_eq!(kept.take(&scenario_of(4)).unwrap().position_ms(), 5_000);
        // A run past the time asked for stays where it is.
        assert!(kept.keep(run_of(6, 9_000)).is_empty());
        assert_eq!(
            kept.prepare(&scenario_of(6), 5_000, 100, || true),
            Ok(Prepared::Ready)
        );
        assert_eq!(kept.take(&scenario_of(6)).unwrap().position_ms(), 9_000);
    }

    #[test]
    fn preparing_a_run_that_cannot_be_kept_says_so() {
        let mut kept = KeptTimelines::new(MAX_KEPT, run_of(3, 5_000).held_bytes());
        assert!(kept.keep(run_of(3, 5_000)).is_empty());
        assert_eq!(
            kept.prepare(&scenario_of(4), 120_000, 200_000, || true),
            Ok(Prepared::NotKept)
        );
        assert!(kept.take(&scenario_of(4)).is_none());
        assert!(
            kept.take(&scenario_of(3)).is_some(),
            "a run too large costs the others nothing"
        );
        assert!(kept
            .prepare(&scenario_of(0), 1_000, 1_000, || true)
            .is_err());
        assert!(kept.kept.is_empty());
    }

    #[test]
    fn a_run_that_fills_the_budget_alone_pushes_out_every_older_run() {
        let (a, b, large) = (run_of(2, 1_000), run_of(3, 1_000), run_of(4, 20_000));
        let budget = large.held_bytes();
        assert!(
            a.held_bytes() + b.held_bytes() <= budget,
            "the test needs a larger run"
        );
        let mut kept = KeptTimelines::new(MAX_KEPT, budget);
        assert!(kept.keep(a).is_empty());
        assert!(kept.keep(b).is_empty());
        assert_eq!(kept.kept.len(), 2);
        assert_eq!(which(kept.keep(large)), [(2, 1_000), (3, 1_000)]);
        assert_eq!(
            kept.kept.len(),
            1,
            "the two older runs go, not only the oldest"
        );
        assert!(kept.take(&scenario_of(4)).is_some());
    }

    #[test]
    fn runs_that_fill_the_budget_exactly_are_kept() {
        let (a, b) = (run_of(3, 5_000), run_of(4, 5_000));
        let mut kept = KeptTimelines::new(MAX_KEPT, a.held_bytes());
        assert!(kept.keep(run_of(3, 5_000)).is_empty());
        assert_eq!(kept.kept.len(), 1, "one run exactly the budget's size");
        let mut kept = KeptTimelines::new(MAX_KEPT, a.held_bytes() + b.held_bytes());
        assert!(kept.keep(a).is_empty());
        assert!(kept.keep(b).is_empty());
        assert_eq!(
            kept.kept.len(),
            2,
            "two runs exactly the budget's size together"
        );
    }
}
