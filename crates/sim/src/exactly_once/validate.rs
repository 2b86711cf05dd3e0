//! Whether an exactly-once scenario can run: every knob inside its range (from the knob
//! table, other knobs narrowing some) and no more records than a browser can rebuild on each
//! knob change; one sentence naming the field when not.

use super::knobs::KNOBS;
use super::scenario::{EosScenario, MAX_RECORDS};
use crate::family::knob::check_numbers;
use crate::family::ScenarioError;

impl EosScenario {
    /// Checks every knob against its documented range and the rules between knobs.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check_numbers(KNOBS, self)?;
        let records = self.record_count();
        if records > MAX_RECORDS {
            return Err(ScenarioError::new(
                "input.records_per_second",
                format!(
                    "input.records_per_second: duration_ms · records_per_second / 1000 is \
                     {records} records, more than the {MAX_RECORDS} a run may hold"
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_runs_and_each_broken_rule_names_its_field() {
        assert_eq!(EosScenario::default().validate(), Ok(()));
        let mut scenario = EosScenario::default();
        scenario.input.partitions = 9;
        assert_eq!(scenario.validate().unwrap_err().field, "input.partitions");
        let mut scenario = EosScenario::default();
        scenario.slow_partition.partition = 4;
        assert_eq!(
            scenario.validate().unwrap_err().field,
            "slow_partition.partition"
        );
        let mut scenario = EosScenario::default();
        scenario.zombie.heartbeat_interval_ms = 20_000;
        assert_eq!(
            scenario.validate().unwrap_err().field,
            "zombie.heartbeat_interval_ms"
        );
        let mut scenario = EosScenario::default();
        scenario.duration_ms = 600_000;
        scenario.input.records_per_second = 1_000;
        assert_eq!(
            scenario.validate().unwrap_err().field,
            "input.records_per_second"
        );
    }
}
