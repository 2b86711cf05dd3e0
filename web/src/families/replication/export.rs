//! The replication family's CSV export: one row per second of each `acks` lane, from a fresh
//! run of the scenario to the instant on screen (determinism makes it the same run).

use streamlab_sim::family::Simulation;
use streamlab_sim::replication::{ReplicationScenario, ReplicationWorld};

/// Each lane's sampled series up to `at_ms`, re-simulated.
pub fn csv_at(scenario: &ReplicationScenario, at_ms: u64) -> String {
    let Ok(mut world) = <ReplicationWorld as Simulation>::new(scenario) else {
        return String::new();
    };
    world.advance_to(at_ms);
    let mut rows = vec![
        "at_ms,acks,acknowledged_per_s,produce_latency_p99_ms,acknowledged_then_lost,offline_partitions"
            .to_string(),
    ];
    for lane in world.lanes() {
        for s in &lane.samples {
            rows.push(format!(
                "{},{},{},{},{},{}",
                s.at_ms,
                lane.acks.figure_name(),
                s.acknowledged,
                s.latency_p99_ms
                    .map(|ms| ms.to_string())
                    .unwrap_or_default(),
                s.acknowledged_then_lost,
                s.offline_partitions
            ));
        }
    }
    rows.join("\n") + "\n"
}
