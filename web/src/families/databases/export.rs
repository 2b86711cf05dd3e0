//! The databases family's CSV export: one row per sample of the run's series (each lane's
//! divergent keys and lag, or the compacted log's size against all writes, or the new
//! store's rows copied and differing), from a fresh run of the scenario to the instant on
//! screen (determinism makes it the same run).

use streamlab_sim::databases::{DatabasesScenario, DatabasesWorld, Lane};
use streamlab_sim::family::Simulation;

/// The run's sampled series up to `at_ms`, re-simulated.
pub fn csv_at(scenario: &DatabasesScenario, at_ms: u64) -> String {
    let Ok(mut world) = <DatabasesWorld as Simulation>::new(scenario) else {
        return String::new();
    };
    world.advance_to(at_ms);
    let mut rows = Vec::new();
    if let Some(sync) = world.sync() {
        rows.push("at_ms,lane,divergent_keys,peak_divergent_keys,connector_lag_ms".to_string());
        for s in &sync.samples {
            for lane in Lane::ALL {
                let l = s.lanes[lane.index()];
                rows.push(format!(
                    "{},{},{},{},{}",
                    s.at_ms,
                    lane.name(),
                    l.divergent,
                    l.peak,
                    l.lag_ms
                ));
            }
        }
    }
    if let Some(c) = world.compaction() {
        rows.push("at_ms,total_writes,log_records,event_records,live_keys,dirty_ratio".to_string());
        for s in &c.samples {
            rows.push(format!(
                "{},{},{},{},{},{}",
                s.at_ms,
                s.total_writes,
                s.log_records,
                s.event_records,
                s.live_keys,
                s.dirty_permille as f64 / 1000.0
            ));
        }
    }
    if let Some(b) = world.bootstrap() {
        rows.push(
            "at_ms,rows_copied,divergent_keys,connector_lag_ms,missed,duplicated".to_string(),
        );
        for s in &b.samples {
            rows.push(format!(
                "{},{},{},{},{},{}",
                s.at_ms, s.rows_copied, s.divergent, s.lag_ms, s.missed, s.duplicated
            ));
        }
    }
    rows.join("\n") + "\n"
}
