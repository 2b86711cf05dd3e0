//! Whether a databases scenario can run: every knob inside its range (from the knob table,
//! other knobs narrowing some), no more writes than a browser can rebuild on each knob change;
//! one sentence naming the field when not.

use super::knobs::KNOBS;
use super::scenario::{DatabasesScenario, MAX_WRITES};
use crate::family::knob::check_numbers;
use crate::family::ScenarioError;

impl DatabasesScenario {
    /// Checks every knob against its documented range and the rules between knobs.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check_numbers(KNOBS, self)?;
        let writes = self.expected_writes();
        if writes > MAX_WRITES {
            return Err(ScenarioError::new(
                "writes.per_second",
                format!(
                    "writes.per_second: duration_ms · per_second / 1000 is {writes} writes, more \
                     than the {MAX_WRITES} a run may hold"
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
        assert_eq!(DatabasesScenario::default().validate(), Ok(()));
        let mut scenario = DatabasesScenario::default();
        scenario.writes.keys = 0;
        assert_eq!(scenario.validate().unwrap_err().field, "writes.keys");
        let mut scenario = DatabasesScenario::default();
        scenario.topic.min_cleanable_dirty_ratio = 1.5;
        assert_eq!(
            scenario.validate().unwrap_err().field,
            "topic.min_cleanable_dirty_ratio"
        );
        let mut scenario = DatabasesScenario::default();
        scenario.duration_ms = 3_600_000;
        scenario.writes.per_second = 1_000;
        assert_eq!(scenario.validate().unwrap_err().field, "writes.per_second");
    }
}
