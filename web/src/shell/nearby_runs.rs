//! The runs one knob step either side of the current setting, built while the page is idle,
//! so that the knob's next step shows its picture after a seek instead of a run from zero.
//!
//! A knob applies from time zero, so a new setting late in a run re-simulates the whole run:
//! longer than a frame. After the learner turns a number knob, the settings one step either
//! side (the one further in the same direction first) are built into the page's kept runs
//! ([`kept_runs`]) in short slices on a timer, each a few milliseconds, so input and rendering
//! keep their turn. Nothing is built while the clock plays (the frames have the time then);
//! the next change replaces what is pending. The runs are the scenarios' own runs, built the
//! same way as any other (the core is deterministic), so a prepared run is indistinguishable
//! from one built on demand. The first slice waits until the knob's own picture has been
//! rendered and painted ([`NearbyRuns::resume`]), so preparing never delays the answer to the
//! change that asked for it.

use super::family::{LessonFamily, Scenario};
use super::kept_runs;
use super::test_hooks::{now_ms, publish_nearby_pending};
use crate::platform::browser::{after_next_paint, emit_after};
use gloo_timers::callback::Timeout;
use std::collections::VecDeque;
use streamlab_sim::family::kept::Prepared;
use streamlab_sim::family::timeline::slice_ms_toward;
use yew::Callback;

/// Wall time one slice of preparing may take before it yields: short enough that a click
/// waiting behind it is still answered within a frame.
const SLICE_BUDGET_MS: f64 = 6.0;
/// How often to look again while the clock plays.
const WHILE_PLAYING_POLL_MS: u32 = 250;

pub struct NearbyRuns<F: LessonFamily> {
    /// Still to build, first first.
    pending: VecDeque<Scenario<F>>,
    /// The next slice; dropping it cancels it.
    timer: Option<Timeout>,
    /// The first slice after a render is asked for and waits for the browser's paint.
    awaiting_paint: bool,
}

impl<F: LessonFamily> Default for NearbyRuns<F> {
    fn default() -> Self {
        Self {
            pending: VecDeque::new(),
            timer: None,
            awaiting_paint: false,
        }
    }
}

impl<F: LessonFamily> NearbyRuns<F> {
    /// Prepares `scenarios` instead of whatever was pending, from the next [`Self::resume`].
    pub fn start(&mut self, scenarios: Vec<Scenario<F>>) {
        self.pending = scenarios.into();
        publish_nearby_pending(self.pending.len());
        self.timer = None;
    }

    /// Called once the page has rendered: asks for the first slice of work just started, if
    /// no slice is already asked for. `wake` asks the playground for it ([`Self::work`]). The
    /// slice waits until the browser has painted the render: a timer armed now could run
    /// before the frame and hold the picture back by a slice.
    pub fn resume(&mut self, wake: &Callback<()>) {
        if !self.pending.is_empty() && self.timer.is_none() && !self.awaiting_paint {
            self.awaiting_paint = true;
            let wake = wake.clone();
            after_next_paint(move || wake.emit(()));
        }
    }

    /// Forgets what was pending (the learner did something the nearby runs no longer fit).
    pub fn stop(&mut self) {
        self.pending.clear();
        publish_nearby_pending(0);
        self.timer = None;
    }

    /// One slice: builds the pending runs toward `at_ms` until the slice's time is up, then
    /// asks for the next slice if any work is left.
    pub fn work(&mut self, at_ms: u64, playing: bool, wake: &Callback<()>) {
        self.timer = None;
        self.awaiting_paint = false;
        if self.pending.is_empty() {
            return;
        }
        if playing {
            self.arm(WHILE_PLAYING_POLL_MS, wake);
            return;
        }
        let deadline_ms = now_ms() + SLICE_BUDGET_MS;
        let slice_ms = slice_ms_toward(at_ms);
        while let Some(scenario) = self.pending.front() {
            let prepared =
                kept_runs::prepare::<F::Sim>(scenario, at_ms, slice_ms, || now_ms() < deadline_ms);
            // A scenario that cannot run (a step past another knob's limit) is skipped.
            if prepared == Ok(Prepared::Unfinished) {
                break;
            }
            self.pending.pop_front();
            publish_nearby_pending(self.pending.len());
            if now_ms() >= deadline_ms {
                break;
            }
        }
        if !self.pending.is_empty() {
            self.arm(0, wake);
        }
    }

    fn arm(&mut self, after_ms: u32, wake: &Callback<()>) {
        self.timer = Some(emit_after(after_ms, wake));
    }
}
