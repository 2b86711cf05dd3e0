//! Every misconception card's claim, checked on its preset's headless run: the figure the card
//! names appears in `streamlab simulate --preset misconception-N`'s JSON and refutes the belief,
//! and the preset lives in the lesson the card links to.

use serde_json::Value;
use streamlab_sim::headless::{self, RunOptions};
use streamlab_sim::misconceptions::MISCONCEPTIONS;

/// The largest number stored under `name` anywhere in `value`.
fn largest_under(value: &Value, name: &str) -> Option<f64> {
    match value {
        Value::Object(map) => map
            .iter()
            .filter_map(|(key, inner)| {
                let here = (key == name).then(|| inner.as_f64()).flatten();
                let deeper = largest_under(inner, name);
                here.into_iter().chain(deeper).reduce(f64::max)
            })
            .reduce(f64::max),
        Value::Array(items) => items
            .iter()
            .filter_map(|item| largest_under(item, name))
            .reduce(f64::max),
        _ => None,
    }
}

#[test]
fn every_card_is_refuted_by_its_presets_own_run() {
    for m in MISCONCEPTIONS {
        let report = headless::run_preset(m.preset, RunOptions::default())
            .unwrap_or_else(|e| panic!("misconception {}: {e}", m.number));
        let value = largest_under(&report["figures"], m.figure)
            .unwrap_or_else(|| panic!("{} reports no figure {}", m.preset, m.figure));
        assert!(
            m.refuted_when.holds(value),
            "{}: {} = {value} does not refute {:?}",
            m.preset,
            m.figure,
            m.belief
        );
    }
}

#[test]
fn every_card_links_to_the_lesson_that_offers_its_preset() {
    let presets = headless::presets();
    for m in MISCONCEPTIONS {
        let entry = presets
            .iter()
            .find(|p| p.slug == m.preset)
            .unwrap_or_else(|| panic!("no preset {}", m.preset));
        assert_eq!(entry.lesson, m.lesson, "{}", m.preset);
    }
}
