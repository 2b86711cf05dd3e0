//! The queues family's CSV export: one row per sample of each reader (or lane, or the
//! stream), from a fresh run of the scenario to the instant on screen (determinism makes it
//! the same run).

use streamlab_sim::family::Simulation;
use streamlab_sim::queues::{QueuesScenario, QueuesWorld};

/// The run's sampled series up to `at_ms`, re-simulated.
pub fn csv_at(scenario: &QueuesScenario, at_ms: u64) -> String {
    let Ok(mut world) = <QueuesWorld as Simulation>::new(scenario) else {
        return String::new();
    };
    world.advance_to(at_ms);
    let mut rows = vec![
        "at_ms,series,completed_per_s_or_producer_per_s,backlog_or_consumer_per_s,depth,lost"
            .to_string(),
    ];
    for s in world.reader_samples() {
        rows.push(format!(
            "{},{},{},{},,",
            s.at_ms,
            s.reader.name(),
            s.completed_per_s,
            s.backlog
        ));
    }
    for pipe in world.pipes() {
        for s in &pipe.samples {
            rows.push(format!(
                "{},{},{},{},{},{}",
                s.at_ms,
                pipe.kind.name(),
                s.producer_per_s,
                s.consumer_per_s,
                s.depth,
                s.lost
            ));
        }
    }
    if let Some(kinesis) = world.kinesis() {
        for s in &kinesis.samples {
            rows.push(format!(
                "{},kinesis,{},{},,",
                s.at_ms, s.accepted_per_s, s.throttled_per_s
            ));
        }
    }
    rows.join("\n") + "\n"
}
