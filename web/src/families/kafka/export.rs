//! The consumer-group family's CSV export: one row per metrics sample and group, built from a
//! fresh run of the scenario to the instant on screen (determinism makes it the same run).

use crate::shell::export::csv_field;
use streamlab_sim::family::Simulation;
use streamlab_sim::kafka::metrics::Metrics;
use streamlab_sim::kafka::{Scenario, World};

/// One row per metrics sample and group: totals, and the lag of each partition.
pub fn group_metrics_csv(scenario: &Scenario, metrics: &Metrics) -> String {
    let partitions = scenario.topic.partitions as usize;
    let mut header = String::from(
        "at_ms,group_id,produced_total,processed_total,duplicates_total,rebalances_total,lag_total",
    );
    for p in 0..partitions {
        header.push_str(&format!(",lag_p{p}"));
    }
    let mut rows = vec![header];
    for sample in &metrics.samples {
        for (group, config) in sample.groups.iter().zip(&scenario.groups) {
            let mut row = format!(
                "{},{},{},{},{},{},{}",
                sample.at_ms,
                csv_field(&config.group_id),
                sample.produced_total,
                group.processed_total,
                group.duplicates_total,
                group.rebalances_total,
                group.lag.iter().sum::<u64>()
            );
            for p in 0..partitions {
                let lag = group.lag.get(p).map_or(String::new(), u64::to_string);
                row.push_str(&format!(",{lag}"));
            }
            rows.push(row);
        }
    }
    rows.join("\n") + "\n"
}

/// The consumer-group run's metrics up to `now_ms`, re-simulated in the family's own world
/// `S`, whose consumer-group world `kafka_world` returns. Building `S` rather than a plain
/// [`World`] matters to the bundle's size: the practice family's world offers only the
/// assignor its groups use, and a plain `World::new` would link the other three.
pub fn group_csv_at<S: Simulation>(
    scenario: &S::Scenario,
    now_ms: u64,
    kafka_world: fn(&S) -> &World,
) -> String {
    match S::new(scenario) {
        Ok(mut world) => {
            world.advance_to(now_ms);
            let world = kafka_world(&world);
            group_metrics_csv(world.scenario(), world.metrics())
        }
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_metrics_csv_has_a_row_per_sample_and_group_and_a_lag_column_per_partition() {
        let scenario = Scenario::default();
        let csv = group_csv_at::<World>(&scenario, 10_000, |world| world);
        let mut lines = csv.lines();
        let header = lines.next().unwrap();
        let columns = header.split(',').count();
        assert_eq!(columns, 7 + scenario.topic.partitions as usize);
        let rows: Vec<&str> = lines.collect();
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|r| r.split(',').count() == columns));
        // Produced never goes down over time.
        let produced: Vec<u64> = rows
            .iter()
            .map(|r| r.split(',').nth(2).unwrap().parse().unwrap())
            .collect();
        assert!(produced.windows(2).all(|w| w[0] <= w[1]));
        assert!(*produced.last().unwrap() > 0);
    }
}
