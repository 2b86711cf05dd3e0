//! Strict deserialization of [`WindowConfig`], written by hand because serde's derives are
//! lenient in ways the contract forbids: a derived struct also accepts a JSON array of its
//! field values, an internally tagged enum accepts `["tumbling", 60000]`, and a unit variant
//! accepts `{"drop": null}`. Here the config and its window must be JSON objects with exactly
//! the contract's field names, each at most once, and the late policy a plain string.

use super::config::{LatePolicy, WindowConfig, WindowSpec};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use std::fmt;

const CONFIG_FIELDS: &[&str] = &["window", "max_out_of_orderness", "allowed_lateness", "late"];
const WINDOW_TYPES: &[&str] = &["tumbling", "hopping", "session", "sliding"];
const WINDOW_FIELDS: &[&str] = &["type", "size", "hop", "gap", "time_difference"];
const LATE_POLICIES: &[&str] = &["drop", "side"];

impl<'de> Deserialize<'de> for WindowConfig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ConfigVisitor)
    }
}

impl<'de> Deserialize<'de> for WindowSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(WindowSpecVisitor)
    }
}

impl<'de> Deserialize<'de> for LatePolicy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(LatePolicyVisitor)
    }
}

/// Stores a field's value, refusing a second occurrence of the same field.
fn set_once<T, E: de::Error>(slot: &mut Option<T>, field: &'static str, value: T) -> Result<(), E> {
    if slot.replace(value).is_some() {
        return Err(E::duplicate_field(field));
    }
    Ok(())
}

fn required<T, E: de::Error>(slot: Option<T>, field: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(field))
}

struct ConfigVisitor;

impl<'de> Visitor<'de> for ConfigVisitor {
    type Value = WindowConfig;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a window config object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WindowConfig, A::Error> {
        let mut window = None;
        let mut max_out_of_orderness_ms = None;
        let mut allowed_lateness_ms = None;
        let mut late = None;
        while let Some(field) = map.next_key::<String>()? {
            match field.as_str() {
                "window" => set_once(&mut window, "window", map.next_value()?)?,
                "max_out_of_orderness" => set_once(
                    &mut max_out_of_orderness_ms,
                    "max_out_of_orderness",
                    map.next_value()?,
                )?,
                "allowed_lateness" => set_once(
                    &mut allowed_lateness_ms,
                    "allowed_lateness",
                    map.next_value()?,
                )?,
                "late" => set_once(&mut late, "late", map.next_value()?)?,
                other => return Err(de::Error::unknown_field(other, CONFIG_FIELDS)),
            }
        }
        Ok(WindowConfig {
            window: required(window, "window")?,
            max_out_of_orderness_ms: required(max_out_of_orderness_ms, "max_out_of_orderness")?,
            allowed_lateness_ms: required(allowed_lateness_ms, "allowed_lateness")?,
            late: required(late, "late")?,
        })
    }
}

struct WindowSpecVisitor;

impl<'de> Visitor<'de> for WindowSpecVisitor {
    type Value = WindowSpec;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a window object such as {\"type\": \"tumbling\", \"size\": 60000}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WindowSpec, A::Error> {
        let mut kind: Option<String> = None;
        let mut size_ms = None;
        let mut hop_ms = None;
        let mut gap_ms = None;
        let mut time_difference_ms = None;
        // The type may come after the numbers, so collect everything first and check which
        // fields belong to the type at the end.
        while let Some(field) = map.next_key::<String>()? {
            match field.as_str() {
                "type" => set_once(&mut kind, "type", map.next_value()?)?,
                "size" => set_once(&mut size_ms, "size", map.next_value()?)?,
                "hop" => set_once(&mut hop_ms, "hop", map.next_value()?)?,
                "gap" => set_once(&mut gap_ms, "gap", map.next_value()?)?,
                "time_difference" => set_once(
                    &mut time_difference_ms,
                    "time_difference",
                    map.next_value()?,
                )?,
                other => return Err(de::Error::unknown_field(other, WINDOW_FIELDS)),
            }
        }
        let kind = required(kind, "type")?;
        let present = [
            ("size", size_ms),
            ("hop", hop_ms),
            ("gap", gap_ms),
            ("time_difference", time_difference_ms),
        ];
        let (spec, allowed): (WindowSpec, &'static [&'static str]) = match kind.as_str() {
            "tumbling" => (
                WindowSpec::Tumbling {
                    size_ms: required(size_ms, "size")?,
                },
                &["type", "size"],
            ),
            "hopping" => (
                WindowSpec::Hopping {
                    size_ms: required(size_ms, "size")?,
                    hop_ms: required(hop_ms, "hop")?,
                },
                &["type", "size", "hop"],
            ),
            "session" => (
                WindowSpec::Session {
                    gap_ms: required(gap_ms, "gap")?,
                },
                &["type", "gap"],
            ),
            "sliding" => (
                WindowSpec::Sliding {
                    time_difference_ms: required(time_difference_ms, "time_difference")?,
                },
                &["type", "time_difference"],
            ),
            other => return Err(de::Error::unknown_variant(other, WINDOW_TYPES)),
        };
        for (field, value) in present {
            if value.is_some() && !allowed.contains(&field) {
                return Err(de::Error::unknown_field(field, allowed));
            }
        }
        Ok(spec)
    }
}

struct LatePolicyVisitor;

impl Visitor<'_> for LatePolicyVisitor {
    type Value = LatePolicy;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"drop\" or \"side\"")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<LatePolicy, E> {
        match value {
            "drop" => Ok(LatePolicy::Drop),
            "side" => Ok(LatePolicy::Side),
            other => Err(E::unknown_variant(other, LATE_POLICIES)),
        }
    }
}
