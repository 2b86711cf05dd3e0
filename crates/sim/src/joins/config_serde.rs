//! Strict deserialization of [`JoinConfig`] and [`TopKConfig`], for the reasons the window
//! operator's `config_serde` gives: serde's derives would take a JSON array of the field
//! values, a tagged enum in several shapes, and a repeated field silently. Here a config is a
//! JSON object with exactly the fields of its kind, each once; enum values are plain strings.

use super::config::{
    IntervalConfig, JoinConfig, Outer, TemporalConfig, TemporalTime, TopKConfig, MAX_K,
};
use crate::replay::share::typed_tree::from_tree;
use crate::window::WindowSpec;
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

const JOIN_KINDS: &[&str] = &["interval", "temporal"];
const INTERVAL_FIELDS: &[&str] = &["join", "lower", "upper", "outer", "max_out_of_orderness"];
const TEMPORAL_FIELDS: &[&str] = &["join", "time", "max_out_of_orderness"];
const TOPK_FIELDS: &[&str] = &["window", "k", "max_out_of_orderness"];

/// A config object's fields, each present once.
struct Fields(BTreeMap<String, Value>);

/// Reads a JSON object into its fields, refusing a repeated field.
struct FieldsVisitor(&'static str);

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut fields = BTreeMap::new();
        while let Some(name) = map.next_key::<String>()? {
            let value: Value = map.next_value()?;
            if fields.contains_key(&name) {
                return Err(de::Error::custom(format!("duplicate field `{name}`")));
            }
            fields.insert(name, value);
        }
        Ok(Fields(fields))
    }
}

impl Fields {
    /// Refuses any field not in `allowed`.
    fn only<E: de::Error>(&self, allowed: &'static [&'static str]) -> Result<(), E> {
        match self.0.keys().find(|name| !allowed.contains(&name.as_str())) {
            Some(unknown) => Err(E::unknown_field(unknown, allowed)),
            None => Ok(()),
        }
    }

    /// The field `name`, read as `T`; its absence or a wrong type names the field.
    fn take<T: DeserializeOwned, E: de::Error>(&mut self, name: &'static str) -> Result<T, E> {
        let value = self.0.remove(name).ok_or_else(|| E::missing_field(name))?;
        from_tree(value).map_err(|error| E::custom(format!("{name}: {error}")))
    }

    /// A string field that must be one of `allowed`.
    fn choice<E: de::Error>(
        &mut self,
        name: &'static str,
        allowed: &'static [&'static str],
    ) -> Result<&'static str, E> {
        let value: String = self.take(name)?;
        allowed
            .iter()
            .find(|a| **a == value)
            .copied()
            .ok_or_else(|| {
                E::custom(format!(
                    "{name}: unknown value {value:?}, expected one of {allowed:?}"
                ))
            })
    }
}

impl<'de> Deserialize<'de> for JoinConfig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut fields = deserializer.deserialize_map(FieldsVisitor("a join config object"))?;
        match fields.choice("join", JOIN_KINDS)? {
            "interval" => {
                fields.only(INTERVAL_FIELDS)?;
                let outer = match fields.choice("outer", &["inner", "left", "full"])? {
                    "inner" => Outer::Inner,
                    "left" => Outer::Left,
                    _ => Outer::Full,
                };
                Ok(JoinConfig::Interval(IntervalConfig {
                    lower_ms: fields.take("lower")?,
                    upper_ms: fields.take("upper")?,
                    outer,
                    max_out_of_orderness_ms: fields.take("max_out_of_orderness")?,
                }))
            }
            _ => {
                fields.only(TEMPORAL_FIELDS)?;
                let time = match fields.choice("time", &["event", "processing"])? {
                    "event" => TemporalTime::Event,
                    _ => TemporalTime::Processing,
                };
                Ok(JoinConfig::Temporal(TemporalConfig {
                    time,
                    max_out_of_orderness_ms: fields.take("max_out_of_orderness")?,
                }))
            }
        }
    }
}

impl<'de> Deserialize<'de> for TopKConfig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut fields = deserializer.deserialize_map(FieldsVisitor("a topk config object"))?;
        fields.only(TOPK_FIELDS)?;
        let window: WindowSpec = fields.take("window")?;
        // Read wider than u32 so that a k of 5000 or -1 is named as out of range.
        let k: i64 = fields.take("k")?;
        let k = u32::try_from(k)
            .ok()
            .filter(|k| (1..=MAX_K).contains(k))
            .ok_or_else(|| de::Error::custom(format!("k is {k}, outside 1..={MAX_K}")))?;
        Ok(TopKConfig {
            window,
            k,
            max_out_of_orderness_ms: fields.take("max_out_of_orderness")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(text: &str) -> Result<JoinConfig, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    fn topk(text: &str) -> Result<TopKConfig, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn the_contracts_examples_read() {
        assert_eq!(
            join(
                r#"{"join": "interval", "lower": -5000, "upper": 10000, "outer": "inner", "max_out_of_orderness": 2000}"#
            ),
            Ok(JoinConfig::Interval(IntervalConfig {
                lower_ms: -5_000,
                upper_ms: 10_000,
                outer: Outer::Inner,
                max_out_of_orderness_ms: 2_000
            }))
        );
        assert_eq!(
            join(r#"{"join": "temporal", "time": "event", "max_out_of_orderness": 0}"#),
            Ok(JoinConfig::Temporal(TemporalConfig {
                time: TemporalTime::Event,
                max_out_of_orderness_ms: 0
            }))
        );
        assert_eq!(
            topk(
                r#"{"window": {"type": "tumbling", "size": 60000}, "k": 3, "max_out_of_orderness": 5000}"#
            ),
            Ok(TopKConfig {
                window: WindowSpec::Tumbling { size_ms: 60_000 },
                k: 3,
                max_out_of_orderness_ms: 5_000
            })
        );
    }

    #[test]
    fn every_field_is_required_once_and_nothing_else_is_taken() {
        let missing = join(r#"{"join": "interval", "lower": 0, "upper": 1, "outer": "left"}"#);
        assert!(missing.unwrap_err().contains("max_out_of_orderness"));
        let twice = join(
            r#"{"join": "temporal", "time": "event", "time": "event", "max_out_of_orderness": 0}"#,
        );
        assert!(twice.unwrap_err().contains("duplicate field `time`"));
        let foreign = join(
            r#"{"join": "temporal", "time": "event", "max_out_of_orderness": 0, "outer": "left"}"#,
        );
        assert!(foreign.unwrap_err().contains("unknown field `outer`"));
        assert!(join(r#"["interval", 0, 1, "inner", 0]"#).is_err());
        let float = join(
            r#"{"join": "interval", "lower": 0.5, "upper": 1, "outer": "left", "max_out_of_orderness": 0}"#,
        );
        assert!(float.unwrap_err().starts_with("lower: invalid type"));
        let outer = join(
            r#"{"join": "interval", "lower": 0, "upper": 1, "outer": "right", "max_out_of_orderness": 0}"#,
        );
        assert!(outer
            .unwrap_err()
            .contains("outer: unknown value \"right\""));
        assert!(join(r#"{"join": "window"}"#)
            .unwrap_err()
            .contains("join: unknown value"));
    }

    #[test]
    fn k_out_of_range_is_named_even_past_u32() {
        for k in ["0", "-1", "1001", "99999999999"] {
            let text = format!(
                r#"{{"window": {{"type": "tumbling", "size": 10}}, "k": {k}, "max_out_of_orderness": 0}}"#
            );
            let error = topk(&text).unwrap_err();
            assert!(
                error.contains(&format!("k is {k}, outside 1..=1000")),
                "{error}"
            );
        }
        let session = topk(
            r#"{"window": {"type": "session", "gap": 10}, "k": 3, "max_out_of_orderness": 0}"#,
        );
        // Reads (the window spec is well formed); validation refuses it.
        assert!(session.unwrap().validate().is_err());
    }
}
