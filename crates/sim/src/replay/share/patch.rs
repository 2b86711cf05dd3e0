//! The difference between two JSON values, and applying it: what a version 2 link carries
//! instead of the whole scenario.
//!
//! A patch is an RFC 7386 JSON merge patch (an object lists the members that changed, `null`
//! removes one, anything else replaces), extended for arrays: when the base array and the new
//! one have the same length, the patch is an object whose keys are the indices that changed
//! (`{"groups":{"0":{"members":4}}}`), so turning one knob of one consumer group does not
//! carry the whole group list. An array whose length changed (a schedule with a new crash) is
//! replaced whole, as in plain merge patch.

use crate::quote::quote;
use serde_json::{Map, Value};

/// The patch that turns `base` into `target`; `None` when they are equal.
pub fn diff(base: &Value, target: &Value) -> Option<Value> {
    if base == target {
        return None;
    }
    match (base, target) {
        (Value::Object(from), Value::Object(to)) => {
            let mut patch = Map::new();
            for (key, new) in to {
                let changed = match from.get(key) {
                    Some(old) => diff(old, new),
                    None => Some(new.clone()),
                };
                if let Some(change) = changed {
                    patch.insert(key.clone(), change);
                }
            }
            for key in from.keys().filter(|k| !to.contains_key(*k)) {
                patch.insert(key.clone(), Value::Null);
            }
            Some(Value::Object(patch))
        }
        (Value::Array(from), Value::Array(to)) if from.len() == to.len() => {
            // Extended rather than collected: collecting into serde_json's B-tree map sorts
            // first, which would bring a standard sort of its own into the site.
            let mut patch = Map::new();
            patch.extend(
                from.iter()
                    .zip(to)
                    .enumerate()
                    .filter_map(|(i, (old, new))| Some((i.to_string(), diff(old, new)?))),
            );
            Some(Value::Object(patch))
        }
        // Anything else (a number, a string, an array of another length) travels whole. As
        // in RFC 7386, a `null` inside a value that travels whole cannot be told from a
        // removal; the link writer checks every patch round-trips and otherwise writes the
        // whole scenario.
        _ => Some(target.clone()),
    }
}

/// Applies `patch` to `base`. Fails only when the patch names an array index the base does
/// not have (a damaged link).
pub fn apply(base: &mut Value, patch: &Value) -> Result<(), String> {
    let Value::Object(changes) = patch else {
        *base = patch.clone();
        return Ok(());
    };
    match base {
        Value::Array(items) => {
            for (key, change) in changes {
                let item = key
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get_mut(i))
                    .ok_or_else(|| {
                        format!("it changes a list item {} that does not exist", quote(key))
                    })?;
                apply(item, change)?;
            }
        }
        Value::Object(members) => {
            if changes.values().any(Value::is_null) {
                // Rebuilt rather than removed from: `Map::remove` would bring the B-tree's
                // rebalancing code for this one map type into every lesson's download.
                for (key, value) in std::mem::take(members) {
                    if !changes.get(&key).is_some_and(Value::is_null) {
                        members.insert(key, value);
                    }
                }
            }
            for (key, change) in changes.iter().filter(|(_, change)| !change.is_null()) {
                apply(members.entry(key.clone()).or_insert(Value::Null), change)?;
            }
        }
        _ => {
            *base = Value::Object(Map::new());
            apply(base, patch)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(base: Value, target: Value) -> Value {
        let patch = diff(&base, &target).unwrap_or(json!({}));
        let mut patched = base;
        apply(&mut patched, &patch).unwrap();
        assert_eq!(patched, target);
        patch
    }

    #[test]
    fn only_what_changed_travels() {
        let patch = round_trip(
            json!({"seed": 1, "groups": [{"members": 3, "id": "a"}, {"members": 2}]}),
            json!({"seed": 1, "groups": [{"members": 4, "id": "a"}, {"members": 2}]}),
        );
        assert_eq!(patch, json!({"groups": {"0": {"members": 4}}}));
    }

    #[test]
    fn a_list_that_grew_is_replaced_whole() {
        let patch = round_trip(json!({"s": [1]}), json!({"s": [1, 2]}));
        assert_eq!(patch, json!({"s": [1, 2]}));
    }

    #[test]
    fn objects_replacing_scalars_and_removed_members_round_trip() {
        round_trip(json!({"a": 1, "b": 2}), json!({"a": {"x": 1}}));
        round_trip(json!({"a": [1, 2]}), json!({"a": [{"x": 5}, 2]}));
        round_trip(json!({"a": {"x": 1}}), json!({"a": 3}));
    }

    #[test]
    fn an_index_the_base_lacks_is_an_error() {
        let mut base = json!({"a": [1]});
        assert!(apply(&mut base, &json!({"a": {"5": 2}})).is_err());
        assert!(apply(&mut base, &json!({"a": {"x": 2}})).is_err());
    }
}
