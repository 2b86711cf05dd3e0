//! The exactly-once family's CSV export: one row per sample of each recovery model, from a
//! fresh run of the scenario to the instant on screen (determinism makes it the same run).

use streamlab_sim::exactly_once::{EosScenario, EosWorld};
use streamlab_sim::family::Simulation;

/// The run's sampled series up to `at_ms`, re-simulated.
pub fn csv_at(scenario: &EosScenario, at_ms: u64) -> String {
    let Ok(mut world) = <EosWorld as Simulation>::new(scenario) else {
        return String::new();
    };
    world.advance_to(at_ms);
    let mut rows = vec!["at_ms,model,lag,processed,reprocessed_records,duplicates".to_string()];
    for s in world.samples() {
        rows.push(format!(
            "{},{},{},{},{},{}",
            s.at_ms,
            s.model.name(),
            s.lag,
            s.processed,
            s.reprocessed_records,
            s.duplicates
        ));
    }
    rows.join("\n") + "\n"
}
