//! One simulated run of a lesson family, seekable, and what is drawn from it: the core's
//! [`Timeline`] (checkpoints, so seeking anywhere costs one clone and a little replay), the
//! family's view model, how far the run has been, and the marks it met on the way (they stay
//! on the scrubber after a seek back).
//!
//! A run dropped hands its timeline to [`kept_runs`], and a new run of a scenario still kept
//! there starts from that timeline: going back to a setting costs a seek, not a run from zero.
//! Either way the run is the scenario's, from zero to `at_ms`, bit for bit.

use super::components::timeline_scrubber::TimelineMark;
use super::family::{Lesson, LessonFamily, Scenario};
use super::kept_runs;
use super::test_hooks::{count_rehearsal, count_run_start};
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::family::{ScenarioError, Simulation};

pub struct Run<F: LessonFamily> {
    /// Always there until the run is dropped, when it goes to [`kept_runs`].
    timeline: Option<Timeline<F::Sim>>,
    pub view: F::View,
    /// The furthest time the run has been to.
    pub furthest_ms: u64,
    /// Marks for the events met so far (rebalances, say).
    event_marks: Vec<TimelineMark>,
    events_marked: usize,
    lesson: &'static Lesson<F>,
}

impl<F: LessonFamily> Run<F> {
    /// The run of `scenario`, advanced to `at_ms`: a kept run of it if the page still has one.
    pub fn new(
        lesson: &'static Lesson<F>,
        scenario: &Scenario<F>,
        at_ms: u64,
    ) -> Result<Self, ScenarioError> {
        Ok(match kept_runs::take::<F::Sim>(scenario) {
            Some(mut kept) => {
                // The view is built from the world where it will be shown, as a rebuilt
                // run's is ([`super::rebuild`]).
                kept.seek(at_ms);
                Self::from_timeline(lesson, kept, at_ms, true)
            }
            None => {
                let timeline = Timeline::new(F::Sim::new(scenario)?);
                Self::from_timeline(lesson, timeline, at_ms, false)
            }
        })
    }

    /// The run of `timeline`, moved to `at_ms`; `from_kept` says whether the page had kept it
    /// (rather than building it from zero for this change).
    pub fn from_timeline(
        lesson: &'static Lesson<F>,
        timeline: Timeline<F::Sim>,
        at_ms: u64,
        from_kept: bool,
    ) -> Self {
        count_run_start(from_kept);
        let mut run = Self {
            view: F::new_view(lesson, timeline.world()),
            timeline: Some(timeline),
            furthest_ms: 0,
            event_marks: Vec::new(),
            events_marked: 0,
            lesson,
        };
        run.seek(at_ms, true);
        run
    }

    pub fn world(&self) -> &F::Sim {
        self.timeline().world()
    }

    fn timeline(&self) -> &Timeline<F::Sim> {
        held(&self.timeline)
    }

    fn timeline_mut(&mut self) -> &mut Timeline<F::Sim> {
        self.timeline.as_mut().expect(HELD)
    }

    pub fn now_ms(&self) -> u64 {
        self.world().now_ms()
    }

    /// Moves the run to `at_ms` (backwards too) and refreshes the view; `force` asks for the
    /// view's slow parts as well.
    pub fn seek(&mut self, at_ms: u64, force: bool) {
        self.timeline_mut().seek(at_ms);
        let world = held(&self.timeline).world();
        if world.now_ms() >= self.furthest_ms {
            let events = world.events();
            let new = events.iter_from(self.events_marked);
            self.event_marks.extend(new.filter_map(F::event_mark));
            self.events_marked = events.len();
            self.furthest_ms = world.now_ms();
        }
        F::refresh(&mut self.view, self.lesson, world, force);
    }

    /// Takes `timeline`, this run's scenario built again to the same time, in place of its
    /// own, and refreshes the whole view from it: the same picture, drawn again from scratch
    /// (see [`super::rehearsal`]). Not a run the learner asked for, so counted apart.
    pub fn renew(&mut self, timeline: Timeline<F::Sim>) {
        count_rehearsal();
        let at_ms = self.now_ms();
        debug_assert_eq!(timeline.world().now_ms(), at_ms);
        // Freed now, in idle time: no picture waits for this one. The same run as the one
        // taking its place, which joins the kept runs when it is replaced.
        drop(self.timeline.replace(timeline));
        self.seek(at_ms, true);
    }

    /// Continues under `scenario` from now if it changes only the future (an action taken
    /// now); the future already seen, and its marks, are forgotten.
    pub fn fork(&mut self, scenario: &Scenario<F>) -> bool {
        if !self.timeline_mut().fork(scenario) {
            return false;
        }
        let world = held(&self.timeline).world();
        self.furthest_ms = world.now_ms();
        let now_ms = self.furthest_ms;
        self.event_marks.retain(|mark| mark.at_ms <= now_ms);
        self.events_marked = world.events().len();
        F::refresh(&mut self.view, self.lesson, world, true);
        true
    }

    /// The run is showing an earlier time than it has been to.
    pub fn in_the_past(&self) -> bool {
        self.now_ms() < self.furthest_ms
    }

    /// What the scrubber marks: what the scenario injects, and the events met so far.
    pub fn marks(&self) -> Vec<TimelineMark> {
        let mut marks = F::scheduled_marks(self.world());
        marks.extend(self.event_marks.iter().cloned());
        marks
    }
}

const HELD: &str = "a run holds its timeline until dropped";

/// A run's timeline, borrowed alone so the run's other fields stay free to change.
fn held<W>(timeline: &Option<Timeline<W>>) -> &Timeline<W> {
    timeline.as_ref().expect(HELD)
}

impl<F: LessonFamily> Drop for Run<F> {
    fn drop(&mut self) {
        if let Some(timeline) = self.timeline.take() {
            kept_runs::keep(timeline);
        }
    }
}

/// When two runs first did something different: the time of the first event in which they
/// differ, if any has so far.
pub fn first_difference_ms<S: Simulation>(a: &S, b: &S) -> Option<u64> {
    let (left, right) = (a.events(), b.events());
    let diverged = left.iter().zip(right).position(|(x, y)| x != y);
    match diverged {
        Some(i) => Some(S::event_at_ms(&left[i]).min(S::event_at_ms(&right[i]))),
        // One run has more events so far: its next one is the first difference, if both have
        // reached the same time.
        None if left.len() != right.len() && a.now_ms() == b.now_ms() => {
            let longer = if left.len() > right.len() {
                left
            } else {
                right
            };
            longer.get(left.len().min(right.len())).map(S::event_at_ms)
        }
        None => None,
    }
}
