//! Every misconception card's claim, checked on its preset's headless run: the figure the card
//! names appears in `streamlab simulate --preset misconception-N`'s JSON and refutes the belief,
//! and the preset lives in the lesson the card links to.

use serde_json::Value;
use streamlab_sim::headless::{self, RunOptions};
use streamlab_sim::misconceptions::MISCONCEPTIONS;

/// The largest number anywhere in `value` whose path of keys ends in `name`'s dotted segments
/// (`duplicated` in every group, or `microbatch.external_duplicates` in one lane).
fn largest_under(value: &Value, name: &str) -> Option<f64> {
    let wanted: Vec<&str> = name.split('.').collect();
    let mut found = Vec::new();
    collect(value, &mut Vec::new(), &wanted, &mut found);
    found.into_iter().reduce(f64::max)
}

fn collect<'a>(value: &'a Value, path: &mut Vec<&'a str>, wanted: &[&str], found: &mut Vec<f64>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                path.push(key);
                collect(inner, path, wanted, found);
                path.pop();
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect(item, path, wanted, found)),
        _ => {
            if path.ends_with(wanted) {
                found.extend(value.as_f64());
            }
        }
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
