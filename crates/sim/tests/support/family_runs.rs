//! Checks every family's integration tests make of their presets the same way: a run is the
//! same however finely it is stepped, a reported event carries tags and numbers (never
//! sentences) besides its narration, and what a preset's run tells.

use serde_json::Value;
use streamlab_sim::family::Simulation;
use streamlab_sim::headless::{self, RunOptions};

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
