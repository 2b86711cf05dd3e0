//! `streamlab simulate (--scenario FILE | --preset NAME) [--duration-ms N]`: a scenario run
//! headless. A preset is one of the core's named scenarios, the ones lessons link to.
//!
//! Prints one JSON object: the trace hash (the determinism tests compare it with the browser's),
//! per-group totals, the sampled metrics (thinned to at most [`MAX_PRINTED_SAMPLES`] rows) and
//! every event with its narration. The browser runs the same core, so these numbers are what
//! the lesson shows for the same link.

use crate::args::Flags;
use crate::CliError;
use serde::Serialize;
use std::ffi::OsString;
use streamlab_sim::kafka::events::{narrate, Event};
use streamlab_sim::kafka::metrics::Sample;
use streamlab_sim::kafka::scenario::{knob_range, Scenario};
use streamlab_sim::kafka::sink::Tallies;
use streamlab_sim::kafka::World;

/// Longest metrics series printed; longer runs print every n-th sample.
const MAX_PRINTED_SAMPLES: usize = 1_000;

#[derive(Serialize)]
struct Report<'a> {
    trace_hash: String,
    duration_ms: u64,
    produced: u64,
    groups: Vec<GroupReport>,
    samples: Vec<&'a Sample>,
    events: Vec<NarratedEvent<'a>>,
}

#[derive(Serialize)]
struct GroupReport {
    group_id: String,
    processed: u64,
    throughput_per_s: f64,
    lag_total: u64,
    lag_per_partition: Vec<u64>,
    /// Lost, duplicated and exactly-once records, from the group's output store.
    tallies: Tallies,
    lost_to_retention: u64,
}

#[derive(Serialize)]
struct NarratedEvent<'a> {
    #[serde(flatten)]
    event: &'a Event,
    text: String,
}

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["scenario", "preset", "duration-ms"])?;
    let mut scenario = match (flags.optional("scenario"), flags.optional("preset")) {
        (Some(path), None) => read_scenario(path)?,
        (None, Some(name)) => preset(name)?,
        (Some(_), Some(_)) => {
            return Err(CliError::new("give --scenario or --preset, not both"));
        }
        (None, None) => return Err(CliError::new("missing --scenario (or --preset)")),
    };
    if let Some(raw) = flags.optional("duration-ms") {
        scenario.duration_ms = parse_duration(raw)?;
    }
    let mut world = World::new(&scenario).map_err(|e| CliError::new(e.0))?;
    world.advance_to(scenario.duration_ms);
    let report = report(&world, scenario.duration_ms);
    let json = serde_json::to_string(&report).map_err(|e| CliError::new(e.to_string()))?;
    println!("{json}");
    Ok(())
}

fn read_scenario(path: &str) -> Result<Scenario, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::new(format!("cannot read scenario {path}: {e}")))?;
    serde_json::from_str(&text)
        .map_err(|e| CliError::new(format!("scenario {path} is malformed: {e}")))
}

fn preset(name: &str) -> Result<Scenario, CliError> {
    let preset = streamlab_sim::kafka::presets::find(name).ok_or_else(|| {
        let names: Vec<&str> = streamlab_sim::kafka::presets::PRESETS
            .iter()
            .map(|p| p.slug)
            .collect();
        CliError::new(format!(
            "no preset called {name:?}; presets: {}",
            names.join(", ")
        ))
    })?;
    Ok((preset.build)())
}

fn parse_duration(raw: &str) -> Result<u64, CliError> {
    let range = knob_range("duration_ms");
    raw.parse::<u64>()
        .ok()
        .filter(|&ms| (range.min..=range.max).contains(&(ms as f64)))
        .ok_or_else(|| {
            CliError::new(format!(
                "--duration-ms must be a whole number in {}..={}, got {raw:?}",
                range.min, range.max
            ))
        })
}

fn report(world: &World, duration_ms: u64) -> Report<'_> {
    let snapshot = world.snapshot(0);
    let groups = snapshot
        .groups
        .iter()
        .map(|g| GroupReport {
            group_id: g.group_id.clone(),
            processed: g.processed_total,
            throughput_per_s: g.processed_total as f64 * 1000.0 / duration_ms as f64,
            lag_total: g.partitions.iter().map(|p| p.lag).sum(),
            lag_per_partition: g.partitions.iter().map(|p| p.lag).collect(),
            tallies: g.tallies,
            lost_to_retention: g.lost_to_retention,
        })
        .collect();
    let samples = &world.metrics().samples;
    let stride = samples.len().div_ceil(MAX_PRINTED_SAMPLES).max(1);
    Report {
        trace_hash: world.trace_hash().hex(),
        duration_ms,
        produced: world.producer().sent(),
        groups,
        samples: samples.iter().step_by(stride).collect(),
        events: world
            .events()
            .iter()
            .map(|event| NarratedEvent {
                event,
                text: narrate(event),
            })
            .collect(),
    }
}
