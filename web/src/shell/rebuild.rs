//! A knob change whose run takes longer than a few frames to build: the run is built in
//! slices on a timer, so the page keeps answering (and, once the build has taken a while,
//! shows how far it has got) instead of freezing until the whole run is simulated.
//!
//! A knob applies from time zero, so a change late in a busy run re-simulates minutes of it:
//! a third of a second for the rebalance storm at ten minutes. The first slice runs at once
//! and most changes finish inside it, as before (a step prepared in idle time is one); a
//! change that does not becomes a rebuild, which the playground finishes slice by slice.
//! The run built is the scenario's own from zero, or the page's kept run of it (the core is
//! deterministic), so it is the same run a page opened on the new link shows. While it builds,
//! the clock holds (a playing lesson plays on after it); another knob change applies on top of
//! it (or, going back to the setting on screen, ends it); anything else the learner does first
//! finishes the build at once, so every other action meets a settled run.
//!
//! The slices after the first run in their timer's own task, outside Yew's scheduler, which
//! gives the browser a turn once it has run 16 ms: a slice run inside it used that time up,
//! and the finished run's picture was cut in two, part painted a frame before the rest.

use super::family::{Edit, LessonFamily, Scenario};
use super::kept_runs;
use super::test_hooks::now_ms;
use crate::platform::browser::emit_after;
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use streamlab_sim::family::timeline::{slice_ms_toward, Timeline};
use streamlab_sim::family::{ScenarioError, Simulation};
use yew::Callback;

/// Wall time the slice run inside the change itself may take: changes that fit show their
/// picture in the same task, as before. Below the 50 ms a browser counts as a long task, and
/// long enough that a run which nearly fits is not stretched over several tasks (each slice
/// after the first waits a timer's turn, and perhaps a frame).
pub const FIRST_SLICE_BUDGET_MS: f64 = 30.0;
/// Wall time each later slice may take before the page gets its turn.
const SLICE_BUDGET_MS: f64 = 30.0;
/// How long a build runs before the page says so: a shorter one shows nothing but its
/// picture. Drawing the notice re-renders and repaints the whole stage, which made every
/// build a third slower when it was shown from the start.
const NOTICE_AFTER_MS: f64 = 150.0;
/// How often the progress shown is brought up to date after that.
const PROGRESS_EVERY_MS: f64 = 250.0;

pub struct Rebuild<F: LessonFamily> {
    scenario: Scenario<F>,
    /// The run being built. The next slice's timer holds it weakly ([`Rebuild::build_next_slice`]),
    /// so the rebuild always holds the one strong reference and can take it back whole.
    timeline: Rc<RefCell<Timeline<F::Sim>>>,
    /// Whether the run was taken from the page's kept runs (prepared or left earlier).
    from_kept: bool,
    /// Where the build started: 0, or how far the kept run had been built.
    from_ms: u64,
    /// How far the run had been built at the last slice: what the notice shows.
    built_ms: u64,
    target_ms: u64,
    /// The change that asked for it, whose nearby steps are prepared once it is done.
    edit: Edit<Scenario<F>>,
    /// The next slice; dropping it (with the rebuild) cancels it.
    timer: Option<Timeout>,
    /// When the notice is next drawn or brought up to date.
    next_progress_at: f64,
}

/// A finished rebuild: the scenario, its run at the target time, and the change.
pub struct Built<F: LessonFamily> {
    pub scenario: Scenario<F>,
    pub timeline: Timeline<F::Sim>,
    pub from_kept: bool,
    pub edit: Edit<Scenario<F>>,
}

impl<F: LessonFamily> Rebuild<F> {
    /// Starts building the run of `scenario` to `target_ms`, from the page's kept run of it
    /// if there is one (a step prepared, perhaps not all the way), else from zero; fails as
    /// the scenario's world does.
    pub fn start(
        scenario: Scenario<F>,
        target_ms: u64,
        edit: Edit<Scenario<F>>,
    ) -> Result<Self, ScenarioError> {
        let kept = kept_runs::take::<F::Sim>(&scenario);
        let from_kept = kept.is_some();
        let timeline = match kept {
            Some(timeline) => timeline,
            None => Timeline::new(F::Sim::new(&scenario)?),
        };
        Ok(Self {
            scenario,
            from_ms: timeline.position_ms(),
            built_ms: timeline.position_ms(),
            timeline: Rc::new(RefCell::new(timeline)),
            from_kept,
            target_ms,
            edit,
            timer: None,
            next_progress_at: now_ms() + NOTICE_AFTER_MS,
        })
    }

    /// Builds for up to `budget_ms` of wall time; returns whether the run is there.
    pub fn work(&mut self, budget_ms: f64) -> bool {
        self.timer = None;
        build_for(&mut self.timeline.borrow_mut(), self.target_ms, budget_ms)
    }

    /// Builds what is left in one go, for an action that needs the settled run now.
    pub fn finish_now(mut self) -> Built<F> {
        self.work(f64::INFINITY);
        self.built()
    }

    /// Whether the run is there ([`Rebuild::built`] then takes it); if not, its next slice is
    /// built, and `wake` emitted after it ([`Rebuild::build_next_slice`]).
    pub fn slice(&mut self, wake: &Callback<()>) -> bool {
        self.built_ms = self.timeline.borrow().position_ms();
        let done = self.built_ms >= self.target_ms;
        if !done {
            self.build_next_slice(wake);
        }
        done
    }

    /// Asks `wake` for the next slice, after the page has had its turn.
    pub fn arm(&mut self, wake: &Callback<()>) {
        self.timer = Some(emit_after(0, wake));
    }

    /// Builds the next slice in a task of its own after the page has had its turn, then emits
    /// `wake`. The slice runs before Yew's scheduler starts, so the picture of a run it
    /// finishes is drawn with the scheduler's whole turn, in the same task.
    pub fn build_next_slice(&mut self, wake: &Callback<()>) {
        let (run, target_ms, wake) = (Rc::downgrade(&self.timeline), self.target_ms, wake.clone());
        let build_then_wake = Callback::from(move |()| {
            if let Some(timeline) = run.upgrade() {
                build_for(&mut timeline.borrow_mut(), target_ms, SLICE_BUDGET_MS);
            }
            wake.emit(());
        });
        self.timer = Some(emit_after(0, &build_then_wake));
    }

    /// Whether the notice is due to be drawn or brought up to date (and from now on counts
    /// as drawn).
    pub fn progress_due(&mut self) -> bool {
        let now = now_ms();
        let due = now >= self.next_progress_at;
        if due {
            self.next_progress_at = now + PROGRESS_EVERY_MS;
        }
        due
    }

    /// The scenario being built: what the knobs show, and what the next change starts from.
    pub fn scenario(&self) -> &Scenario<F> {
        &self.scenario
    }

    /// The scenario, for a further change on top of it; the run built so far joins the page's
    /// kept runs, so going back to this setting continues it rather than starting again.
    pub fn into_scenario(self) -> Scenario<F> {
        kept_runs::keep(run_of(self.timeline));
        self.scenario
    }

    /// Where the build started: 0, or where the kept run it continues had got to.
    pub fn from_ms(&self) -> u64 {
        self.from_ms
    }

    /// How far the run has been built, and where it is going.
    pub fn progress_ms(&self) -> (u64, u64) {
        (self.built_ms, self.target_ms)
    }

    /// The finished run, with the scenario and the change it was built for.
    pub fn built(self) -> Built<F> {
        Built {
            scenario: self.scenario,
            timeline: run_of(self.timeline),
            from_kept: self.from_kept,
            edit: self.edit,
        }
    }
}

/// The run out of its rebuild, whose reference is the one strong one (a slice's timer holds a
/// weak one, and upgrades it only while it runs), so this never fails.
fn run_of<W>(timeline: Rc<RefCell<W>>) -> W {
    Rc::into_inner(timeline).unwrap().into_inner()
}

/// Builds `timeline` toward `target_ms` for up to `budget_ms` of wall time; returns whether
/// it got there.
fn build_for<W: Simulation>(timeline: &mut Timeline<W>, target_ms: u64, budget_ms: f64) -> bool {
    let deadline_ms = now_ms() + budget_ms;
    let slice_ms = slice_ms_toward(target_ms);
    timeline.advance_in_slices(target_ms, slice_ms, || now_ms() < deadline_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kafka::KafkaFamily;
    use crate::platform::browser::tests::sleep_ms;
    use std::cell::Cell;
    use streamlab_sim::kafka::{Scenario as KafkaScenario, World};
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    async fn the_slices_are_built_by_their_timers_into_the_run_a_page_would_build() {
        // A scenario of its own: the page's kept runs are shared by every test.
        let mut scenario = KafkaScenario::default();
        scenario.topic.partitions = 13;
        let target_ms = 240_000;
        let unchanged = Edit::new(|_: &mut KafkaScenario| {});
        let mut rebuild = Rebuild::<KafkaFamily>::start(scenario.clone(), target_ms, unchanged)
            .unwrap_or_else(|_| panic!("the scenario runs"));
        let wakes = Rc::new(Cell::new(0));
        let wake = {
            let wakes = wakes.clone();
            Callback::from(move |()| wakes.set(wakes.get() + 1))
        };
        assert!(
            !rebuild.slice(&wake),
            "nothing is built before its timer runs"
        );
        let mut shown_ms = Vec::new();
        for _ in 0..1_000 {
            let seen = wakes.get();
            while wakes.get() == seen {
                sleep_ms(1).await;
            }
            if rebuild.slice(&wake) {
                break;
            }
            shown_ms.push(rebuild.progress_ms().0);
        }
        assert!(
            shown_ms.windows(2).all(|pair| pair[0] < pair[1]),
            "{shown_ms:?}"
        );
        let built = rebuild.built().timeline;
        let mut direct = Timeline::new(World::new(&scenario).unwrap_or_else(|_| panic!("runs")));
        direct.seek(target_ms);
        assert_eq!(built.position_ms(), target_ms);
        assert_eq!(built.world().trace_hash(), direct.world().trace_hash());
    }
}
