//! Whether a queues scenario can run: every knob inside its range (from the knob table, other
//! knobs narrowing some), no more records than a browser can rebuild on each knob change,
//! and the few rules that tie knobs together; one sentence naming the field when not.

use super::knobs::KNOBS;
use super::scenario::{Mode, QueuesScenario, MAX_RECORDS};
use crate::family::knob::check_numbers;
use crate::family::ScenarioError;

impl QueuesScenario {
    /// Checks every knob against its documented range and the rules between knobs.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check_numbers(KNOBS, self)?;
        let records = self.record_count();
        if records > MAX_RECORDS {
            return Err(ScenarioError::new(
                "producer.records_per_second",
                format!(
                    "producer.records_per_second: duration_ms · records_per_second / 1000 is \
                     {records} records, more than the {MAX_RECORDS} a run may hold"
                ),
            ));
        }
        if self.mode == Mode::Repartition
            && self.repartition.new_partitions <= self.topic.partitions
        {
            return Err(ScenarioError::new(
                "repartition.new_partitions",
                format!(
                    "repartition.new_partitions is {}, not more than topic.partitions ({}): \
                     Kafka can add partitions to a topic, never remove them",
                    self.repartition.new_partitions, self.topic.partitions
                ),
            ));
        }
        let read_from_the_log = matches!(self.mode, Mode::Readers | Mode::Repartition);
        if read_from_the_log && self.topic.retention_ms < self.duration_ms {
            return Err(ScenarioError::new(
                "topic.retention_ms",
                format!(
                    "topic.retention_ms is {} ms, shorter than the run ({} ms): in this \
                     comparison the readers are assumed to read within retention; the \
                     backpressure comparison's log lane is where retention deletes records",
                    self.topic.retention_ms, self.duration_ms
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
        assert_eq!(QueuesScenario::default().validate(), Ok(()));
        let mut scenario = QueuesScenario::default();
        scenario.consumers = 0;
        assert_eq!(scenario.validate().unwrap_err().field, "consumers");
        let mut scenario = QueuesScenario::default();
        scenario.crash.consumer = 6;
        assert_eq!(scenario.validate().unwrap_err().field, "crash.consumer");
        let mut scenario = QueuesScenario::default();
        scenario.mode = Mode::Repartition;
        scenario.repartition.new_partitions = 3;
        assert_eq!(
            scenario.validate().unwrap_err().field,
            "repartition.new_partitions"
        );
        let mut scenario = QueuesScenario::default();
        scenario.topic.retention_ms = 10_000;
        assert_eq!(scenario.validate().unwrap_err().field, "topic.retention_ms");
        scenario.mode = Mode::Backpressure;
        assert_eq!(scenario.validate(), Ok(()));
        let mut scenario = QueuesScenario::default();
        scenario.duration_ms = 3_600_000;
        scenario.producer.records_per_second = 1_000;
        assert_eq!(
            scenario.validate().unwrap_err().field,
            "producer.records_per_second"
        );
    }
}
