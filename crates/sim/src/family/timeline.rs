//! The timeline: one run that can be moved to any time, backwards as well as forwards, in
//! about one frame's work.
//!
//! A run only moves forwards, so the timeline keeps checkpoints (clones of the world) at
//! regular simulated times as the run first passes them. Seeking to `t` restores the latest
//! checkpoint at or before `t` (or keeps the current world, if that is closer) and advances
//! from there; because advancing in many steps or one gives the same run, the result is the
//! run from zero to `t`, bit for bit (tested against the trace hash). At most
//! [`MAX_CHECKPOINTS`] are kept, holding at most [`CHECKPOINT_BUDGET_BYTES`] between them:
//! past either bound every other one is dropped and the spacing doubles, so memory stays
//! bounded on long or busy runs and a seek never replays more than one spacing; a build
//! toward a far time takes the spacing it will end with from the start. A world's
//! partition logs share their sealed chunks between clones (see [`crate::kafka::topic`]), so the
//! budget counts each chunk once and a checkpoint costs mostly its events and metric samples:
//! ten minutes of a busy run fit at 10 s apart.
//!
//! Acting while in the past forks: the caller builds the new scenario with [`forked`], which
//! drops the scheduled actions the learner had already seen happen after that time. When the
//! new scenario differs only in actions after the current time (a crash button, a restart),
//! [`Timeline::fork`] keeps the run and its earlier checkpoints; any other change (a knob,
//! which applies from time zero) needs a new timeline.

use crate::family::Simulation;

/// Most checkpoints kept per run.
pub const MAX_CHECKPOINTS: usize = 64;
/// Simulated time between checkpoints before any thinning.
pub const INITIAL_SPACING_MS: u64 = 5_000;
/// Most memory the checkpoints of one run may hold, by their own estimate.
pub const CHECKPOINT_BUDGET_BYTES: usize = 192 << 20;

/// Simulated time per slice when a run is built toward `target_ms` a wall-time budget at a
/// time ([`Timeline::advance_in_slices`]): about 250 slices per run, so a budget is checked
/// often enough to keep to it, and at least half a second so a short run is not cut finer.
pub fn slice_ms_toward(target_ms: u64) -> u64 {
    (target_ms / 256).max(500)
}

/// `scenario` with the scheduled actions in `(now_ms, seen_until_ms]` dropped: when the learner
/// acts at `now_ms` after going back from `seen_until_ms`, the future they had seen is
/// discarded. Actions after what they have seen (a preset's restart still to come) stay, and so
/// does the second half of a restart that began before `now_ms`.
pub fn forked<W: Simulation>(
    scenario: &W::Scenario,
    now_ms: u64,
    seen_until_ms: u64,
) -> W::Scenario {
    W::without_future(scenario, now_ms, seen_until_ms)
}

/// One run with checkpoints.
#[derive(Clone, Debug)]
pub struct Timeline<W> {
    current: W,
    /// In time order; the first is the world as built (time 0).
    checkpoints: Vec<W>,
    /// The sum of the checkpoints' own size estimates, kept as they come and go: summing
    /// them again after every push made a run's checkpoints cost the square of their number.
    own_bytes: usize,
    spacing_ms: u64,
    /// [`CHECKPOINT_BUDGET_BYTES`]; smaller in tests, which cannot afford a run that fills it.
    budget_bytes: usize,
}

impl<W: Simulation> Timeline<W> {
    /// A timeline starting from a freshly built world.
    pub fn new(world: W) -> Self {
        Self {
            own_bytes: world.size_hint_bytes(),
            checkpoints: vec![world.clone()],
            current: world,
            spacing_ms: INITIAL_SPACING_MS,
            budget_bytes: CHECKPOINT_BUDGET_BYTES,
        }
    }

    /// The run at the current position.
    pub fn world(&self) -> &W {
        &self.current
    }

    pub fn position_ms(&self) -> u64 {
        self.current.now_ms()
    }

    /// How many checkpoints are held, and how far apart (for tests and benchmarks).
    pub fn checkpoints(&self) -> (usize, u64) {
        (self.checkpoints.len(), self.spacing_ms)
    }

    /// Moves the run to `target_ms`, backwards or forwards.
    pub fn seek(&mut self, target_ms: u64) {
        self.seek_toward(target_ms, target_ms);
    }

    /// Moves the run to `target_ms` on its way to `final_ms`, with the checkpoints' spacing
    /// already what it will be there.
    fn seek_toward(&mut self, target_ms: u64, final_ms: u64) {
        self.widen_toward(final_ms);
        let restore = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.now_ms() <= target_ms)
            .filter(|c| {
                let now = self.current.now_ms();
                now > target_ms || c.now_ms() > now
            });
        if let Some(checkpoint) = restore {
            self.current = checkpoint.clone();
        }
        self.advance_recording(target_ms);
    }

    /// Moves the run forwards toward `target_ms`, `slice_ms` of simulated time at a time, for
    /// as long as `more_time` says so after each slice (at least one slice is run); returns
    /// whether it got there. Building a long run this way lets the caller yield in between.
    pub fn advance_in_slices(
        &mut self,
        target_ms: u64,
        slice_ms: u64,
        mut more_time: impl FnMut() -> bool,
    ) -> bool {
        while self.position_ms() < target_ms {
            let slice_end_ms = self.position_ms().saturating_add(slice_ms.max(1));
            self.seek_toward(target_ms.min(slice_end_ms), target_ms);
            if !more_time() {
                break;
            }
        }
        self.position_ms() >= target_ms
    }

    /// Advances from the current world to `target_ms`, saving a checkpoint at every spacing
    /// boundary past the last one saved.
    fn advance_recording(&mut self, target_ms: u64) {
        loop {
            let last_ms = self.checkpoints.last().map_or(0, W::now_ms);
            let next_ms = last_ms.saturating_add(self.spacing_ms);
            if next_ms > target_ms || self.current.now_ms() > next_ms {
                break;
            }
            self.current.advance_to(next_ms);
            self.own_bytes += self.current.size_hint_bytes();
            self.checkpoints.push(self.current.clone());
            while self.checkpoints.len() > 2 && self.over_bounds() {
                self.thin();
            }
        }
        self.current.advance_to(target_ms);
    }

    /// Thins now as often as the count bound will have by the time the run reaches
    /// `target_ms`, so a build toward a far time never makes the checkpoints it would drop on
    /// the way (a third of a ten-minute run's clones). Thinning keeps every other checkpoint
    /// from the first, so the checkpoints held at `target_ms` are the same either way.
    fn widen_toward(&mut self, target_ms: u64) {
        while target_ms / self.spacing_ms >= MAX_CHECKPOINTS as u64 {
            self.thin();
        }
    }

    fn over_bounds(&self) -> bool {
        self.checkpoints.len() > MAX_CHECKPOINTS || self.held_bytes() > self.budget_bytes
    }

    /// Roughly how many bytes the checkpoints hold between them, by the worlds' own estimates.
    pub fn held_bytes(&self) -> usize {
        let own = self.own_bytes;
        let shared = match (self.checkpoints.first(), self.checkpoints.last()) {
            (Some(first), Some(last)) => W::shared_size_hint_bytes(first, last),
            _ => 0,
        };
        own + shared
    }

    /// Keeps every other checkpoint (the first always) and doubles the spacing.
    fn thin(&mut self) {
        let mut index = 0;
        self.checkpoints.retain(|_| {
            index += 1;
            index % 2 == 1
        });
        self.recount_own_bytes();
        self.spacing_ms *= 2;
    }

    fn recount_own_bytes(&mut self) {
        self.own_bytes = self.checkpoints.iter().map(W::size_hint_bytes).sum();
    }
}

impl<W: Simulation> Timeline<W> {
    /// Continues the run from its current position under `scenario` (see
    /// [`Simulation::reschedule`]); checkpoints after the position are dropped, earlier ones
    /// kept. Returns false, changing nothing, if `scenario` differs in more than its future
    /// actions.
    pub fn fork(&mut self, scenario: &W::Scenario) -> bool {
        if !self.current.reschedule(scenario) {
            return false;
        }
        let now_ms = self.position_ms();
        self.checkpoints.retain(|c| Simulation::now_ms(c) <= now_ms);
        // Every action up to `now_ms` is unchanged, so each earlier checkpoint takes the new
        // schedule too; one that somehow could not is dropped rather than kept stale.
        self.checkpoints.retain_mut(|c| c.reschedule(scenario));
        self.recount_own_bytes();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eventtime::EventTimeWorld;
    use crate::family::Simulation;
    use crate::kafka::{Scenario, World};

    fn from_zero(scenario: &Scenario, t_ms: u64) -> String {
        let mut world = World::new(scenario).unwrap();
        world.advance_to(t_ms);
        world.trace_hash().hex()
    }

    #[test]
    fn seeking_anywhere_equals_running_from_zero() {
        let scenario = Scenario::default();
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        for t_ms in [40_000, 12_345, 0, 39_999, 5_000, 90_001, 60_000, 1] {
            timeline.seek(t_ms);
            assert_eq!(timeline.position_ms(), t_ms);
            assert_eq!(
                timeline.world().trace_hash().hex(),
                from_zero(&scenario, t_ms),
                "{t_ms}"
            );
        }
    }

    #[test]
    fn building_in_slices_stops_when_asked_and_ends_at_the_same_run() {
        let scenario = Scenario::default();
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        assert!(!timeline.advance_in_slices(30_000, 1_000, || false));
        assert_eq!(timeline.position_ms(), 1_000, "one slice, then it stops");
        let mut slices = 0;
        let reached = timeline.advance_in_slices(30_000, 1_000, || {
            slices += 1;
            true
        });
        assert!(reached);
        assert_eq!((slices, timeline.position_ms()), (29, 30_000));
        assert_eq!(
            timeline.world().trace_hash().hex(),
            from_zero(&scenario, 30_000)
        );
        // Already there (or past it): no slice, and the run stays where it is.
        assert!(
            timeline.advance_in_slices(20_000, 1_000, || -> bool { panic!("no slice was needed") })
        );
        assert_eq!(timeline.position_ms(), 30_000);
    }

    #[test]
    fn a_run_is_built_in_about_250_slices_of_at_least_half_a_second() {
        assert_eq!(slice_ms_toward(600_000), 2_343);
        assert_eq!(slice_ms_toward(60_000), 500);
        assert_eq!(slice_ms_toward(0), 500);
    }

    #[test]
    fn checkpoints_stay_bounded_on_long_runs() {
        let mut timeline = Timeline::new(World::new(&Scenario::default()).unwrap());
        timeline.seek(600_000);
        let (count, spacing_ms) = timeline.checkpoints();
        assert!(count <= MAX_CHECKPOINTS, "{count}");
        assert!(
            600_000 / spacing_ms <= MAX_CHECKPOINTS as u64,
            "{spacing_ms}"
        );
        timeline.seek(299_999);
        assert_eq!(
            timeline.world().trace_hash().hex(),
            from_zero(&Scenario::default(), 299_999)
        );
    }

    fn checkpoint_times<W: Simulation>(timeline: &Timeline<W>) -> Vec<u64> {
        timeline.checkpoints.iter().map(W::now_ms).collect()
    }

    #[test]
    fn a_run_built_in_one_go_keeps_the_checkpoints_of_one_played_a_second_at_a_time() {
        let scenario = Scenario::default();
        let mut built = Timeline::new(World::new(&scenario).unwrap());
        built.advance_in_slices(600_000, 2_343, || true);
        let mut played = Timeline::new(World::new(&scenario).unwrap());
        for t_ms in (1_000..=600_000).step_by(1_000) {
            played.seek(t_ms);
        }
        assert_eq!(checkpoint_times(&built), checkpoint_times(&played));
        // Ten minutes at 5 s apart would be 121: every other one is dropped, 10 s apart.
        assert_eq!(built.checkpoints(), (61, 10_000));
        assert_eq!(checkpoint_times(&built)[1], 10_000);
    }

    #[test]
    fn a_build_toward_a_far_time_is_spaced_for_it_from_the_start() {
        let scenario = Scenario::default();
        let mut started = Timeline::new(World::new(&scenario).unwrap());
        assert!(!started.advance_in_slices(600_000, 2_343, || false));
        // No checkpoint at 5 s that the tenth minute would drop: the next one is at 10 s.
        assert_eq!(started.checkpoints(), (1, 10_000));
        started.advance_in_slices(600_000, 2_343, || true);
        assert_eq!(started.checkpoints(), (61, 10_000));
        // Toward just under the count bound, the first spacing stays.
        let mut near = Timeline::new(World::new(&scenario).unwrap());
        near.advance_in_slices(319_999, 2_343, || false);
        assert_eq!(near.checkpoints(), (1, INITIAL_SPACING_MS));
        let mut at_bound = Timeline::new(World::new(&scenario).unwrap());
        at_bound.advance_in_slices(320_000, 2_343, || false);
        assert_eq!(at_bound.checkpoints(), (1, 2 * INITIAL_SPACING_MS));
    }

    #[test]
    fn a_run_over_the_memory_budget_thins_down_to_two_checkpoints_and_no_further() {
        let scenario = Scenario::default();
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        // Less than any one world: every third checkpoint is over it.
        timeline.budget_bytes = 1;
        timeline.seek(60_000);
        let (count, spacing_ms) = timeline.checkpoints();
        assert_eq!(count, 2, "the first world and one more");
        assert!(spacing_ms >= 30_000, "{spacing_ms}");
        assert_eq!(checkpoint_times(&timeline), [0, spacing_ms]);
        timeline.seek(1_234);
        assert_eq!(
            timeline.world().trace_hash().hex(),
            from_zero(&scenario, 1_234)
        );
        // Exactly at the budget is within it.
        let mut full = Timeline::new(World::new(&scenario).unwrap());
        full.seek(10_000);
        let mut at_budget = Timeline::new(World::new(&scenario).unwrap());
        at_budget.budget_bytes = full.held_bytes();
        at_budget.seek(10_000);
        assert_eq!(at_budget.checkpoints(), (3, INITIAL_SPACING_MS));
    }

    #[test]
    fn a_run_just_within_the_bound_keeps_its_first_spacing() {
        let scenario = Scenario::default();
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        // 0, 5 s, ..., 315 s: exactly 64.
        timeline.seek(315_000);
        assert_eq!(
            timeline.checkpoints(),
            (MAX_CHECKPOINTS, INITIAL_SPACING_MS)
        );
        timeline.seek(319_999);
        assert_eq!(
            timeline.checkpoints(),
            (MAX_CHECKPOINTS, INITIAL_SPACING_MS)
        );
        timeline.seek(320_000);
        assert_eq!(timeline.checkpoints(), (33, 2 * INITIAL_SPACING_MS));
    }

    /// `held_bytes` as the estimates say it from scratch.
    fn held_bytes_recounted<W: Simulation>(timeline: &Timeline<W>) -> usize {
        let own: usize = timeline.checkpoints.iter().map(W::size_hint_bytes).sum();
        let (first, last) = (
            &timeline.checkpoints[0],
            timeline.checkpoints.last().unwrap(),
        );
        own + W::shared_size_hint_bytes(first, last)
    }

    #[test]
    fn the_held_bytes_follow_checkpoints_made_thinned_and_forked() {
        use crate::kafka::scenario::{MemberAction, ScheduledAction};
        let scenario = Scenario::default();
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        assert_eq!(timeline.held_bytes(), held_bytes_recounted(&timeline));
        for t_ms in [60_000, 400_000, 1_200_000, 700_000] {
            timeline.seek(t_ms);
            assert_eq!(
                timeline.held_bytes(),
                held_bytes_recounted(&timeline),
                "{t_ms}"
            );
        }
        assert!(
            timeline.checkpoints().1 > INITIAL_SPACING_MS,
            "the run must thin"
        );
        let mut next = scenario.clone();
        next.schedule.push(ScheduledAction {
            at_ms: 700_001,
            group_id: "search".into(),
            member_id: "c1".into(),
            action: MemberAction::Crash,
        });
        assert!(timeline.fork(&next));
        assert_eq!(timeline.held_bytes(), held_bytes_recounted(&timeline));
    }

    #[test]
    fn acting_in_the_past_drops_only_the_future_already_seen() {
        use crate::kafka::scenario::{MemberAction, ScheduledAction};
        let mut scenario = Scenario::default();
        for at_ms in [5_000, 20_000, 90_000] {
            scenario.schedule.push(ScheduledAction {
                at_ms,
                group_id: "search".into(),
                member_id: "c1".into(),
                action: MemberAction::Restart { down_ms: 1_000 },
            });
        }
        let kept: Vec<u64> = forked::<World>(&scenario, 10_000, 60_000)
            .schedule
            .iter()
            .map(|a| a.at_ms)
            .collect();
        assert_eq!(kept, [5_000, 90_000]);
        assert_eq!(forked::<World>(&scenario, 60_000, 60_000), scenario);
    }

    #[test]
    fn busy_runs_keep_their_checkpoints_within_the_memory_budget() {
        let storm = crate::kafka::presets::storm_32_members();
        let mut timeline = Timeline::new(World::new(&storm).unwrap());
        timeline.seek(600_000);
        let bytes = timeline.held_bytes();
        assert!(bytes <= CHECKPOINT_BUDGET_BYTES, "{bytes}");
        // Shared log chunks are counted once, so 1.5 M records leave room for short spacing.
        let (_, spacing_ms) = timeline.checkpoints();
        assert!(spacing_ms <= 10_000, "{spacing_ms}");
        timeline.seek(123_456);
        let mut fresh = World::new(&storm).unwrap();
        fresh.advance_to(123_456);
        assert_eq!(
            timeline.world().trace_hash().hex(),
            fresh.trace_hash().hex()
        );
    }

    #[test]
    fn a_fork_equals_running_the_new_scenario_from_zero() {
        use crate::kafka::scenario::{MemberAction, ScheduledAction};
        let scenario = crate::kafka::presets::find("one-restart-stops-everyone").unwrap();
        let scenario = (scenario.build)();
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        timeline.seek(60_000);
        timeline.seek(25_000);
        let mut next = forked::<World>(&scenario, 25_000, 60_000);
        next.schedule.push(ScheduledAction {
            at_ms: 25_001,
            group_id: "search".into(),
            member_id: "c4".into(),
            action: MemberAction::Crash,
        });
        assert!(timeline.fork(&next));
        for t_ms in [40_000, 26_000, 3_000, 70_000] {
            timeline.seek(t_ms);
            assert_eq!(
                timeline.world().trace_hash().hex(),
                from_zero(&next, t_ms),
                "{t_ms}"
            );
        }
        let mut knob = next.clone();
        knob.groups[0].max_poll_records = 7;
        assert!(!timeline.fork(&knob), "a knob applies from time zero");
        timeline.seek(30_000);
        let mut early = next.clone();
        early.schedule[0].at_ms = 100;
        assert!(!timeline.fork(&early), "the past cannot change");
    }

    #[test]
    fn event_time_runs_seek_too() {
        let scenario = crate::eventtime::outage_spike();
        let mut timeline = Timeline::new(EventTimeWorld::new(scenario.clone()).unwrap());
        for t_ms in [120_000, 61_000, 3_000, 150_000] {
            timeline.seek(t_ms);
            let mut fresh = EventTimeWorld::new(scenario.clone()).unwrap();
            Simulation::advance_to(&mut fresh, t_ms);
            assert_eq!(
                Simulation::trace_hash(timeline.world()).hex(),
                Simulation::trace_hash(&fresh).hex(),
                "{t_ms}"
            );
        }
    }
}
