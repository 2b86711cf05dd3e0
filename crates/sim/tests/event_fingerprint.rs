//! The trace hash folds events, so events must not carry prose: a reworded narration sentence
//! would otherwise change every fingerprint. Every preset's events are checked here, as the
//! trace hash sees them (their compact JSON, `TraceHasher::write_json`): each string is an id or an enum tag.

use serde_json::Value;
use streamlab_sim::kafka::presets::PRESETS;
use streamlab_sim::kafka::World;

/// Fields that hold names from the scenario (group, member, dead-letter topic): free to be any
/// string, because they identify things rather than describe them.
const ID_FIELDS: [&str; 3] = ["group_id", "member_id", "topic"];

/// An enum tag as serde writes it (`rebalance_started`, `cooperative-sticky`): one word-like
/// token, where a sentence has spaces and punctuation.
fn is_tag(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// Every string in `value` that is neither an id field nor a tag, with the path to it.
fn prose_in(value: &Value, path: &str, found: &mut Vec<String>) {
    match value {
        Value::String(text) => {
            let field = path.rsplit('.').next().unwrap_or_default();
            if !ID_FIELDS.contains(&field) && !is_tag(text) {
                found.push(format!("{path} = {text:?}"));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                prose_in(item, &format!("{path}[{i}]"), found);
            }
        }
        Value::Object(fields) => {
            for (name, field) in fields {
                prose_in(field, &format!("{path}.{name}"), found);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[test]
fn events_hold_ids_numbers_and_tags_but_no_sentences() {
    for preset in PRESETS {
        let scenario = (preset.build)();
        let mut world = World::new(&scenario).expect("presets are valid");
        world.advance_to(scenario.duration_ms);
        assert!(!world.events().is_empty(), "{}: no events", preset.slug);
        for event in world.events() {
            let folded: Value = serde_json::to_value(event).unwrap();
            let mut found = Vec::new();
            prose_in(&folded, "event", &mut found);
            assert!(found.is_empty(), "{}: {found:?}", preset.slug);
        }
    }
}

#[test]
fn the_checker_would_catch_a_sentence() {
    let mut found = Vec::new();
    let sentence = serde_json::json!({"reason": "c1 joined", "member_id": "c 1"});
    prose_in(&sentence, "event", &mut found);
    assert_eq!(found, ["event.reason = \"c1 joined\""]);
}
