//! The page's runs left behind ([`KeptTimelines`]), so that going back to a setting (a knob
//! turned back, a preset picked again, Back in the browser) shows its picture after a seek
//! instead of a run from zero.
//!
//! A run hands its timeline over here when it is dropped, whatever dropped it: a knob change
//! replacing it, a comparison closed, the playground remounted by Back or Forward. They live
//! in one thread-local per page, so they outlast the playground; a page carries one family's
//! bundle, and the store is typed by the family's world. The runs one knob step either side
//! of the current setting are prepared into the same store ([`super::nearby_runs`]). Runs the
//! store lets go are freed after the next paint, not while a new picture is waited for.

use crate::platform::browser::after_next_paint;
use gloo_timers::callback::Timeout;
use std::any::Any;
use std::cell::RefCell;
use streamlab_sim::family::kept::{KeptTimelines, Prepared};
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::family::{ScenarioError, Simulation};

thread_local! {
    static KEPT: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

fn with_kept<W: Simulation + 'static, R>(f: impl FnOnce(&mut KeptTimelines<W>) -> R) -> R {
    KEPT.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fits = slot.as_ref().is_some_and(|b| b.is::<KeptTimelines<W>>());
        if !fits {
            *slot = Some(Box::new(KeptTimelines::<W>::default()));
        }
        let kept = slot
            .as_mut()
            .and_then(|b| b.downcast_mut::<KeptTimelines<W>>())
            .expect("the store was just made for this world");
        f(kept)
    })
}

/// Keeps a run left behind. The runs this lets go are freed once the browser has painted:
/// a knob change keeps the run it replaces, and freeing an older one (tens of MiB at ten
/// minutes) would hold back the new picture by milliseconds.
pub fn keep<W: Simulation + 'static>(timeline: Timeline<W>) {
    let let_go = with_kept(|kept| kept.keep(timeline));
    if !let_go.is_empty() {
        // A task of its own after the paint's, so that what measures the paint does not
        // wait for it either.
        after_next_paint(move || {
            Timeout::new(0, move || drop(let_go)).forget();
        });
    }
}

/// The run of `scenario` left earlier on this page, if it is still kept.
pub fn take<W: Simulation + 'static>(scenario: &W::Scenario) -> Option<Timeline<W>> {
    with_kept(|kept| kept.take(scenario))
}

/// Advances (or builds) the kept run of `scenario` toward `at_ms` while `more_time` says so;
/// see [`KeptTimelines::prepare`].
pub fn prepare<W: Simulation + 'static>(
    scenario: &W::Scenario,
    at_ms: u64,
    slice_ms: u64,
    more_time: impl FnMut() -> bool,
) -> Result<Prepared, ScenarioError> {
    with_kept(|kept: &mut KeptTimelines<W>| kept.prepare(scenario, at_ms, slice_ms, more_time))
}
