//! Checks every family's integration tests make of their runs the same way: a run is the same
//! however finely it is stepped, wherever a timeline seeks, and when a lesson link opens it; a
//! seed is part of the run; a reported event carries tags and numbers (never sentences) besides
//! its narration; and what a preset's run tells.

use serde_json::Value;
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::family::Simulation;
use streamlab_sim::headless::{self, RunOptions};
use streamlab_sim::replay::share::query::query_for;

/// The run of `scenario` from zero to `at_ms`, in one jump.
pub fn run_to<W: Simulation>(scenario: &W::Scenario, at_ms: u64) -> W {
    let mut world = W::new(scenario).unwrap();
    world.advance_to(at_ms);
    world
}

/// Runs `scenario` to `end_ms` in one jump and in steps of `step_ms`, and asserts the two
/// runs agree: trace, figures and events.
pub fn same_run_however_stepped<W: Simulation>(
    scenario: &W::Scenario,
    end_ms: u64,
    step_ms: u64,
    name: &str,
) where
    W::Event: std::fmt::Debug,
{
    let mut jump = W::new(scenario).unwrap();
    jump.advance_to(end_ms);
    let mut steps = W::new(scenario).unwrap();
    let mut t = 0;
    while t < end_ms {
        t = (t + step_ms).min(end_ms);
        steps.advance_to(t);
    }
    assert_eq!(jump.trace_hash(), steps.trace_hash(), "{name}");
    assert_eq!(jump.figures(), steps.figures(), "{name}");
    assert_eq!(jump.events(), steps.events(), "{name}");
}

/// A timeline of `scenario` sought to each of `times_ms` in turn (forward and back, so that it
/// replays from a checkpoint) holds the run from zero to that time.
pub fn seeking_gives_the_run_from_zero<W: Simulation>(scenario: &W::Scenario, times_ms: &[u64]) {
    let mut timeline = Timeline::new(W::new(scenario).unwrap());
    for &t_ms in times_ms {
        timeline.seek(t_ms);
        let fresh = run_to::<W>(scenario, t_ms);
        assert_eq!(timeline.world().trace_hash(), fresh.trace_hash(), "{t_ms}");
    }
}

/// The scenario `with_seed` gives for a seed, run to `at_ms`: the same seed is the same run,
/// and another seed another (the seed reaches the draws).
pub fn another_seed_is_another_run<W: Simulation>(
    with_seed: impl Fn(u64) -> W::Scenario,
    at_ms: u64,
) {
    let hash = |seed| run_to::<W>(&with_seed(seed), at_ms).trace_hash();
    assert_eq!(hash(1), hash(1));
    assert_ne!(hash(1), hash(2));
}

/// A link to `lesson` that carries `changed` (as its changes from `base`, the lesson's
/// default) and `at_ms` opens that lesson on the run of `changed` at that time.
pub fn a_lesson_link_runs<W: Simulation>(
    lesson: &str,
    base: &W::Scenario,
    changed: &W::Scenario,
    at_ms: u64,
) {
    let query = query_for(base, changed, Some(at_ms));
    let link = format!("#/{lesson}?{query}");
    let report = headless::run_link(&link, RunOptions::default()).unwrap();
    assert_eq!(report["lesson"], lesson);
    assert_eq!(report["at_ms"], at_ms);
    let fresh = run_to::<W>(changed, at_ms);
    assert_eq!(report["trace_hash"], fresh.trace_hash().hex());
}

/// The trace hash folds the events' fields, so a sentence must never be one of them: every
/// string field of a reported event, besides its narration and type, is an enum tag.
pub fn events_carry_tags_never_prose(preset: &str) {
    let report = headless::run_preset(preset, RunOptions::default()).unwrap();
    for event in report["events"].as_array().unwrap() {
        for (name, value) in event.as_object().unwrap() {
            if name != "text" && name != "type" && value.is_string() {
                assert!(
                    value
                        .as_str()
                        .unwrap()
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_'),
                    "{name}: {value}"
                );
            }
        }
    }
}

/// Every sentence a preset's run tells, in order.
pub fn told(preset: &str) -> Vec<String> {
    let report: Value = headless::run_preset(preset, RunOptions::default()).unwrap();
    report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

pub fn tells(texts: &[String], words: &str) -> bool {
    texts.iter().any(|t| t.contains(words))
}
