//! The contract every lesson family's world fills in, so that one timeline, one share-link
//! format, one headless runner and one browser shell serve them all.
//!
//! A family is a kind of world (the consumer-group world of [`crate::kafka`], the event-time
//! world of [`crate::eventtime`], ...). Each supplies a scenario type (plain serde data with
//! its defaults), a [`Simulation`] built from it, a table of its knobs ([`knob`]) and its named
//! presets ([`preset`]). Everything generic over a family (the [`Timeline`] with its
//! checkpoints, the CLI's `simulate`, the browser's playground) reads a world only through this
//! trait, so adding a family adds no plumbing.
//!
//! [`Timeline`]: crate::family::timeline::Timeline

pub mod figures;
pub mod kept;
pub mod knob;
pub mod lesson;
pub mod preset;
pub mod timeline;
pub mod words;

pub use figures::{Figure, Figures};

use knob::Bounds;
use lesson::LessonDefault;
use preset::Preset;

use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

/// One run of one family's scenario, advanced through simulated time.
///
/// `Clone` is a full checkpoint: the timeline keeps clones and replays from the nearest one.
/// A run must be deterministic: the same scenario advanced to the same time, in any number of
/// steps, gives the same [`trace_hash`](Simulation::trace_hash) natively and in WebAssembly.
pub trait Simulation: Clone {
    /// Everything the run depends on; a share link carries it (as changes from a lesson's
    /// default).
    type Scenario: Clone + PartialEq + Default + Serialize + DeserializeOwned + 'static;
    /// The plain-data picture of one moment that a lesson draws.
    type Snapshot;
    /// One thing that happened, typed: numbers and ids, never sentences.
    type Event: Serialize + PartialEq;

    /// The family's name, as the CLI prints it.
    const FAMILY: &'static str;

    /// Builds the run at time zero, or says which field of the scenario is out of range.
    fn new(scenario: &Self::Scenario) -> Result<Self, ScenarioError>;
    fn scenario(&self) -> &Self::Scenario;
    /// Runs everything due up to and including `target_ms` (never backwards).
    fn advance_to(&mut self, target_ms: u64);
    /// The time up to which the run has been advanced.
    fn now_ms(&self) -> u64;
    /// When a headless run of this scenario ends (its duration, or the end of its input).
    fn end_ms(&self) -> u64;
    fn snapshot(&self) -> Self::Snapshot;
    /// Every event so far, in the order they happened. Held in chunks that checkpoints
    /// share, so a long run's thousands of events are not copied at every checkpoint.
    fn events(&self) -> &ChunkedVec<Self::Event>;
    /// When `event` happened.
    fn event_at_ms(event: &Self::Event) -> u64;
    /// The sentence a learner reads for `event`: what happened and why; `None` for an event
    /// too fine-grained to narrate on its own (a family may narrate a summary event instead).
    fn narrate(event: &Self::Event) -> Option<String>;
    /// A fingerprint of everything the run did so far, folded from typed fields (never from
    /// narration): equal hashes, same run.
    fn trace_hash(&self) -> TraceHasher;
    /// The headline numbers by stable names: what the CLI prints, the course-page API posts
    /// and a comparison sets side by side.
    fn figures(&self) -> Figures;
    /// What must hold at every moment; a violation is a sentence naming the broken rule.
    fn check_invariants(&self) -> Result<(), String>;
    /// Roughly how many bytes a clone holds of its own, for the timeline's memory budget.
    fn size_hint_bytes(&self) -> usize;
    /// Roughly how many bytes the clones of one run from `first` to `last` share between
    /// them, counted once.
    fn shared_size_hint_bytes(first: &Self, last: &Self) -> usize {
        let _ = (first, last);
        0
    }
    /// Continues this run under `scenario` if it differs from the run's own only in what
    /// happens after now (an action a learner takes at this moment): the result equals the
    /// run of `scenario` from zero. Returns false, changing nothing, otherwise; a family whose
    /// scenarios have no future actions never forks.
    fn reschedule(&mut self, scenario: &Self::Scenario) -> bool {
        let _ = scenario;
        false
    }
    /// `scenario` without the actions a learner had seen happen in `(now_ms, seen_until_ms]`:
    /// acting after a seek back starts a new future from there.
    fn without_future(
        scenario: &Self::Scenario,
        now_ms: u64,
        seen_until_ms: u64,
    ) -> Self::Scenario {
        let _ = (now_ms, seen_until_ms);
        scenario.clone()
    }
}

/// Asserts the family's invariants after a tick, in debug builds only (tests, the
/// `cargo test` sweeps and the wasm tests), so a broken rule fails at the tick that broke it.
#[inline]
pub fn debug_check<S: Simulation>(world: &S) {
    #[cfg(debug_assertions)]
    if let Err(broken) = world.check_invariants() {
        panic!(
            "invariant broken at {} ms in a {} run: {broken}",
            world.now_ms(),
            S::FAMILY
        );
    }
    #[cfg(not(debug_assertions))]
    let _ = world;
}

/// The invariant every family's events keep: the events told since the list was
/// `told_before` long, and the one before them, are in time order, none ahead of the clock.
/// Checked after every tick, so the whole list is in order without rereading it each time.
pub fn newest_events_in_order<S: Simulation>(world: &S, told_before: usize) -> Result<(), String> {
    let newest = world.events().iter_from(told_before.saturating_sub(1));
    events_in_order(newest.map(S::event_at_ms), world.now_ms())
}

/// `times_ms` are in order, and none is ahead of `now_ms`.
fn events_in_order(times_ms: impl IntoIterator<Item = u64>, now_ms: u64) -> Result<(), String> {
    let mut last = None;
    for at_ms in times_ms {
        if let Some(before) = last.filter(|&before| before > at_ms) {
            return Err(format!(
                "an event at {at_ms} ms was told after one at {before} ms"
            ));
        }
        last = Some(at_ms);
    }
    match last {
        Some(at_ms) if at_ms > now_ms => Err(format!(
            "an event at {at_ms} ms is ahead of the clock ({now_ms} ms)"
        )),
        _ => Ok(()),
    }
}

/// Why a scenario cannot run: the field (as serde spells its path) and a sentence naming the
/// value and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub field: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// A family a headless run can run.
pub trait Headless: Simulation {
    /// Every preset of the family.
    fn presets() -> &'static [Preset<Self::Scenario>];
    /// The lesson that offers the preset called `slug`: where a link to it belongs. A family
    /// whose lessons have bundles of their own answers from a table of slugs, so a bundle
    /// need not carry the other lessons' presets to send a link on to them.
    fn preset_home(slug: &str) -> Option<&'static str> {
        preset::find(Self::presets(), slug).map(|p| p.lesson)
    }
    /// Every lesson of the family, with the default its links patch.
    fn lessons() -> &'static [LessonDefault<Self::Scenario>];
    /// The latest time a link may ask to open at.
    const MAX_AT_MS: u64;
    /// The scenario's own checks, beyond what serde reads.
    fn validate(scenario: &Self::Scenario) -> Result<(), ScenarioError>;
    /// The range `--duration-ms` may take, and what it sets in a scenario.
    const DURATION: Bounds;
    fn set_duration(scenario: &mut Self::Scenario, duration_ms: u64);
    /// The family's report fields beyond the common ones (an object, merged in).
    fn details(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
}

#[cfg(test)]
mod tests {
    use super::{events_in_order, newest_events_in_order, Headless};
    use crate::kafka::events::{Event, EventKind};
    use crate::kafka::scenario::Scenario;
    use crate::kafka::World;
    use std::sync::Arc;

    #[test]
    fn the_newest_events_are_checked_with_the_one_before_them() {
        let mut world = World::new(&Scenario::default()).unwrap();
        world.advance_to(20_000);
        let told = world.events().len();
        let last_ms = world.events().last().map(|e| e.at_ms);
        assert!(last_ms.is_some_and(|ms| ms > 0), "{last_ms:?}");
        assert_eq!(newest_events_in_order(&world, told), Ok(()));
        let caught_up = |at_ms| {
            Arc::new(Event {
                at_ms,
                kind: EventKind::CaughtUp {
                    group_id: "g".into(),
                    partition: 0,
                },
            })
        };
        let mut ahead = world.clone();
        ahead.events.push(caught_up(20_001));
        assert_eq!(
            newest_events_in_order(&ahead, told),
            Err("an event at 20001 ms is ahead of the clock (20000 ms)".to_string())
        );
        let mut early = world.clone();
        early.events.push(caught_up(last_ms.unwrap() - 1));
        let broken = newest_events_in_order(&early, told).unwrap_err();
        assert!(broken.contains("was told after one at"), "{broken}");
        // Checked after every tick, so what was told before is not read again.
        assert_eq!(newest_events_in_order(&early, told + 1), Ok(()));
        assert_eq!(world.now_ms(), 20_000);
    }

    #[test]
    fn events_must_keep_time_order_and_stay_behind_the_clock() {
        assert_eq!(events_in_order([], 0), Ok(()));
        assert_eq!(events_in_order([5, 5, 9], 9), Ok(()));
        assert_eq!(
            events_in_order([5, 9, 7], 9),
            Err("an event at 7 ms was told after one at 9 ms".to_string())
        );
        assert_eq!(
            events_in_order([5, 10], 9),
            Err("an event at 10 ms is ahead of the clock (9 ms)".to_string())
        );
    }

    /// Every preset's link is sent to the lesson that offers it, and a name no preset has
    /// to none, in every family.
    fn presets_are_found_at_home<H: Headless>() {
        for preset in H::presets() {
            assert_eq!(
                H::preset_home(preset.slug),
                Some(preset.lesson),
                "{}",
                preset.slug
            );
        }
        assert_eq!(H::preset_home("no-such-preset"), None);
    }

    #[test]
    fn every_familys_presets_are_found_at_home() {
        presets_are_found_at_home::<World>();
        presets_are_found_at_home::<crate::eventtime::EventTimeWorld>();
        presets_are_found_at_home::<crate::queues::QueuesWorld>();
        presets_are_found_at_home::<crate::databases::DatabasesWorld>();
        presets_are_found_at_home::<crate::exactly_once::EosWorld>();
        presets_are_found_at_home::<crate::joins::JoinsWorld>();
        presets_are_found_at_home::<crate::replication::ReplicationWorld>();
        presets_are_found_at_home::<crate::practice::InkwellWorld>();
    }
}
