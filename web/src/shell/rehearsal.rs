//! A knob change rehearsed unseen, once, on a page opened paused, so that the learner's first
//! real change shows its picture as quickly as the ones after it.
//!
//! The browser compiles a WebAssembly function the first time it runs, with a quick compiler
//! whose code is slow, and compiles it again, optimised, once it has run a while. A page
//! opened on a link has built one run and drawn one picture; a knob change then builds a run
//! in slices and redraws every part of the page, which had never happened, and its picture
//! came two to three times later than the next change's (BENCHMARKS.md). So, a little after
//! the first picture, the page builds the run on screen again, from zero to now, in short
//! slices of idle time through the rebuild's own code ([`Rebuild`]), and puts it in place of
//! the run it has ([`super::run::Run::renew`]). The core is deterministic, so the picture,
//! drawn again from scratch, is the same picture. Any action of the learner's ends the
//! rehearsal for good (their own change is the real thing), and a page that plays skips it:
//! its frames keep the drawing code running.

use super::family::{Edit, LessonFamily, Scenario};
use super::rebuild::Rebuild;
use crate::platform::browser::emit_after;
use gloo_timers::callback::Timeout;
use streamlab_sim::family::timeline::Timeline;
use yew::Callback;

/// How long after the page is made that the rehearsal starts: well after its first picture is
/// painted, and after the page's own start-up work (fonts, the address, a host's first
/// message).
const START_AFTER_MS: u32 = 500;
/// Wall time one slice may take before the page gets its turn, as for the runs prepared in
/// idle time: a click waiting behind it is still answered within a frame.
const SLICE_BUDGET_MS: f64 = 6.0;

pub enum Rehearsal<F: LessonFamily> {
    /// Not started: the timer asks for the first slice.
    Waiting(Timeout),
    /// Building, its next slice asked for ([`Rebuild::arm`]).
    Building(Rebuild<F>),
    /// Done, or given up.
    Over,
}

impl<F: LessonFamily> Rehearsal<F> {
    /// A rehearsal whose first slice `wake` asks for once the page has settled.
    pub fn new(wake: &Callback<()>) -> Self {
        Rehearsal::Waiting(emit_after(START_AFTER_MS, wake))
    }

    /// Ends the rehearsal (a slice already asked for is called off with it).
    pub fn cancel(&mut self) {
        *self = Rehearsal::Over;
    }

    /// One slice of building `scenario`'s run to `at_ms` (the run on screen): the run once it
    /// is built, else `None`, with the next slice asked of `wake`.
    pub fn work(
        &mut self,
        scenario: &Scenario<F>,
        at_ms: u64,
        wake: &Callback<()>,
    ) -> Option<Timeline<F::Sim>> {
        let mut rebuild = match std::mem::replace(self, Rehearsal::Over) {
            Rehearsal::Waiting(_) => {
                let unchanged = Edit::new(|_: &mut Scenario<F>| {});
                Rebuild::start(scenario.clone(), at_ms, unchanged).ok()?
            }
            Rehearsal::Building(rebuild) => rebuild,
            Rehearsal::Over => return None,
        };
        if !rebuild.work(SLICE_BUDGET_MS) {
            rebuild.arm(wake);
            *self = Rehearsal::Building(rebuild);
            return None;
        }
        let mut timeline = rebuild.finish_now().timeline;
        // A run taken from the kept ones may stand past now.
        timeline.seek(at_ms);
        Some(timeline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kafka::KafkaFamily;
    use crate::shell::kept_runs;
    use streamlab_sim::kafka::{Scenario as KafkaScenario, World};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A scenario of its own per test: the page's kept runs are shared by every test.
    fn scenario_with(partitions: u32) -> KafkaScenario {
        let mut scenario = KafkaScenario::default();
        scenario.topic.partitions = partitions;
        scenario
    }

    fn run_of(scenario: &KafkaScenario, until_ms: u64) -> Timeline<World> {
        let mut timeline = Timeline::new(World::new(scenario).unwrap());
        timeline.seek(until_ms);
        timeline
    }

    /// Slices until the rehearsal hands over its run (a few thousand at most).
    fn rehearse(scenario: &KafkaScenario, at_ms: u64) -> Timeline<World> {
        let wake = Callback::from(|()| ());
        let mut rehearsal = Rehearsal::<KafkaFamily>::new(&wake);
        for _ in 0..10_000 {
            if let Some(timeline) = rehearsal.work(scenario, at_ms, &wake) {
                assert!(
                    rehearsal.work(scenario, at_ms, &wake).is_none(),
                    "a rehearsal is done once"
                );
                return timeline;
            }
            assert!(matches!(rehearsal, Rehearsal::Building(_)));
        }
        panic!("the rehearsal never finished");
    }

    #[wasm_bindgen_test]
    fn the_rehearsal_builds_the_run_on_screen_again_to_the_same_time() {
        let scenario = scenario_with(7);
        let rebuilt = rehearse(&scenario, 90_000);
        let on_screen = run_of(&scenario, 90_000);
        assert_eq!(rebuilt.position_ms(), 90_000);
        assert_eq!(rebuilt.world().trace_hash(), on_screen.world().trace_hash());
    }

    #[wasm_bindgen_test]
    fn a_kept_run_past_now_is_brought_back_to_now() {
        let scenario = scenario_with(9);
        kept_runs::keep(run_of(&scenario, 120_000));
        let rebuilt = rehearse(&scenario, 45_000);
        assert_eq!(rebuilt.position_ms(), 45_000);
        assert_eq!(
            rebuilt.world().trace_hash(),
            run_of(&scenario, 45_000).world().trace_hash()
        );
        assert!(
            kept_runs::take::<World>(&scenario).is_none(),
            "taken, not copied"
        );
    }

    #[wasm_bindgen_test]
    fn a_rehearsal_called_off_builds_nothing() {
        let wake = Callback::from(|()| ());
        let scenario = scenario_with(11);
        let mut before_it_starts = Rehearsal::<KafkaFamily>::new(&wake);
        before_it_starts.cancel();
        assert!(before_it_starts.work(&scenario, 60_000, &wake).is_none());
        // Fifty minutes take far more than one slice to build.
        let mut while_it_builds = Rehearsal::<KafkaFamily>::new(&wake);
        assert!(while_it_builds.work(&scenario, 3_000_000, &wake).is_none());
        assert!(matches!(while_it_builds, Rehearsal::Building(_)));
        while_it_builds.cancel();
        assert!(while_it_builds.work(&scenario, 3_000_000, &wake).is_none());
        assert!(matches!(while_it_builds, Rehearsal::Over));
    }
}
