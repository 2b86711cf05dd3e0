//! The Inkwell challenge's knob table: the only settings a learner may change, written once
//! with their real names, ranges and hints. Validation, the practice page's controls, its
//! real-config panel and docs/knobs.md all read it.
//!
//! The ranges are the consumer-group family's (a topic of up to 64 partitions, up to 32
//! consumers a group, Kafka's own bounds for retention), so every submission the table accepts
//! is a scenario the consumer-group world runs.

use super::scenario::InkwellScenario;
use crate::family::knob::{number, real_number, Bounds, Knob};

/// Section headings, in the order the page shows them.
pub mod section {
    /// The topic's partitions and retention.
    pub const TOPIC: &str = "Topic";
    /// How many consumers each service runs.
    pub const CONSUMERS: &str = "Consumers";
}

/// One service's consumer count: a group's member count, with no real setting behind it
/// (a team runs that many processes with the same `group.id`).
const fn consumers(
    field: &'static str,
    label: &'static str,
    hint: &'static str,
    get: fn(&InkwellScenario) -> f64,
    set: fn(&mut InkwellScenario, f64),
) -> Knob<InkwellScenario> {
    Knob {
        field,
        label,
        config_name: None,
        hint,
        section: section::CONSUMERS,
        control: number(
            Bounds::new(0.0, 32.0, "consumers"),
            1.0,
            Some(12.0),
            get,
            set,
        ),
    }
}

/// Every knob of the challenge.
pub const KNOBS: &[Knob<InkwellScenario>] = &[
    Knob {
        field: "partitions",
        label: "Partitions",
        config_name: Some("num.partitions"),
        hint: "Independent logs: no service can keep more consumers busy than this.",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(1.0, 64.0, "partitions"),
            1.0,
            Some(16.0),
            Some(1.0),
            |s| f64::from(s.partitions),
            |s, v| s.partitions = v as u32,
        ),
    },
    Knob {
        field: "retention_ms",
        label: "Retention time",
        config_name: Some("retention.ms"),
        hint: "Records older than this are deleted, read or not (-1 keeps them for ever).",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(-1.0, 604_800_000.0, "ms"),
            1000.0,
            Some(120_000.0),
            Some(604_800_000.0),
            |s| s.retention_ms as f64,
            |s, v| s.retention_ms = v as i64,
        ),
    },
    Knob {
        field: "retention_bytes",
        label: "Retention size",
        config_name: Some("retention.bytes"),
        hint: "Each partition larger than this deletes its oldest records (-1: no limit).",
        section: section::TOPIC,
        control: real_number(
            Bounds::new(-1.0, 1_000_000_000.0, "bytes"),
            100_000.0,
            Some(10_000_000.0),
            // Kafka's default too: no limit by size.
            None,
            |s| s.retention_bytes as f64,
            |s, v| s.retention_bytes = v as i64,
        ),
    },
    consumers(
        "consumers.search",
        "search",
        "Consumers in the search group; each handles a record in 5 ms.",
        |s| f64::from(s.consumers.search),
        |s, v| s.consumers.search = v as u32,
    ),
    consumers(
        "consumers.analytics",
        "analytics",
        "Consumers in the analytics group; each handles a record in 4 ms, five times \
         slower while the warehouse is slow.",
        |s| f64::from(s.consumers.analytics),
        |s, v| s.consumers.analytics = v as u32,
    ),
    consumers(
        "consumers.recommender",
        "recommender",
        "Consumers in the recommender group; each handles a record in 12 ms.",
        |s| f64::from(s.consumers.recommender),
        |s, v| s.consumers.recommender = v as u32,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::{check_numbers, check_table};

    #[test]
    fn the_table_passes_the_checks_every_table_must() {
        // The format version is not a setting.
        check_table(KNOBS, super::super::PRESETS, &["version"]);
    }

    #[test]
    fn the_broken_start_is_inside_every_range_and_the_ranges_refuse_the_rest() {
        let scenario = InkwellScenario::default();
        check_numbers(KNOBS, &scenario).unwrap();
        let mut too_many = scenario.clone();
        too_many.consumers.recommender = 33;
        let error = too_many.validate().unwrap_err();
        assert_eq!(error.field, "consumers.recommender");
        let mut no_partitions = scenario;
        no_partitions.partitions = 0;
        assert!(no_partitions.validate().is_err());
    }

    #[test]
    fn every_setter_writes_what_its_getter_reads() {
        let mut scenario = InkwellScenario::default();
        for (i, knob) in KNOBS.iter().enumerate() {
            let number = knob.number().expect("every knob is a number");
            (number.set)(&mut scenario, 7.0 + i as f64);
            assert_eq!((number.get)(&scenario), 7.0 + i as f64, "{}", knob.field);
        }
    }
}
