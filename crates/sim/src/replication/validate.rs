//! Whether a replication scenario can run: every knob inside its range (from the knob table,
//! other knobs narrowing some), no more records than a browser can rebuild, Kafka's own rules
//! between settings (the `ConfigException`s it throws), and faults that name a broker of the
//! cluster; one sentence naming the field when not.

use super::knobs::KNOBS;
use super::scenario::{
    Acks, FaultKind, ReplicationScenario, MAX_DURATION_MS, MAX_FAULTS, MAX_RECORDS,
};
use crate::family::knob::check_numbers;
use crate::family::ScenarioError;

/// The longest a slow follower's fetches may be delayed, in ms.
const MAX_SLOW_MS: u64 = MAX_DURATION_MS;

impl ReplicationScenario {
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
        if self.producer.enable_idempotence && self.producer.acks != Acks::All {
            return Err(ScenarioError::new(
                "producer.enable_idempotence",
                "producer.enable_idempotence needs acks=all: Kafka throws a ConfigException for \
                 enable.idempotence=true with acks 0 or 1",
            ));
        }
        if self.producer.enable_idempotence && self.producer.retries == 0 {
            return Err(ScenarioError::new(
                "producer.enable_idempotence",
                "producer.enable_idempotence needs retries > 0: Kafka throws a ConfigException \
                 for enable.idempotence=true with retries=0",
            ));
        }
        self.validate_faults()
    }

    fn validate_faults(&self) -> Result<(), ScenarioError> {
        if self.faults.len() > MAX_FAULTS {
            return Err(ScenarioError::new(
                "faults",
                format!(
                    "faults holds {} faults, more than the {MAX_FAULTS} a run may schedule",
                    self.faults.len()
                ),
            ));
        }
        for (i, fault) in self.faults.iter().enumerate() {
            if fault.broker == 0 || fault.broker > self.cluster.brokers {
                return Err(ScenarioError::new(
                    format!("faults[{i}].broker"),
                    format!(
                        "faults[{i}].broker is {}, not one of the brokers 1..={}",
                        fault.broker, self.cluster.brokers
                    ),
                ));
            }
            if fault.at_ms > MAX_DURATION_MS {
                return Err(ScenarioError::new(
                    format!("faults[{i}].at_ms"),
                    format!(
                        "faults[{i}].at_ms is {}, later than the longest run ({MAX_DURATION_MS} ms)",
                        fault.at_ms
                    ),
                ));
            }
            let slow = fault.kind == FaultKind::Slow;
            if slow && !(1..=MAX_SLOW_MS).contains(&fault.extra_ms) {
                return Err(ScenarioError::new(
                    format!("faults[{i}].extra_ms"),
                    format!(
                        "faults[{i}].extra_ms is {}, outside 1..={MAX_SLOW_MS} ms for a slow follower",
                        fault.extra_ms
                    ),
                ));
            }
            if !slow && fault.extra_ms != 0 {
                return Err(ScenarioError::new(
                    format!("faults[{i}].extra_ms"),
                    format!("faults[{i}].extra_ms is set, but only a slow fault takes one"),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replication::scenario::Fault;

    #[test]
    fn the_default_runs_and_each_broken_rule_names_its_field() {
        assert_eq!(ReplicationScenario::default().validate(), Ok(()));
        let field = |s: ReplicationScenario| s.validate().unwrap_err().field;
        let mut s = ReplicationScenario::default();
        s.topic.replication_factor = 4;
        assert_eq!(field(s), "topic.replication_factor");
        let mut s = ReplicationScenario::default();
        s.producer.acks = Acks::One;
        assert_eq!(field(s), "producer.enable_idempotence");
        let mut s = ReplicationScenario::default();
        s.producer.retries = 0;
        assert_eq!(field(s), "producer.enable_idempotence");
        let mut s = ReplicationScenario::default();
        s.producer.request_timeout_ms = 200_000;
        assert_eq!(field(s), "producer.request_timeout_ms");
        let mut s = ReplicationScenario::default();
        s.faults.push(Fault::new(1_000, 4, FaultKind::Crash));
        assert_eq!(field(s), "faults[0].broker");
        let mut s = ReplicationScenario::default();
        s.faults.push(Fault::new(1_000, 1, FaultKind::Slow));
        assert_eq!(field(s), "faults[0].extra_ms");
        let mut s = ReplicationScenario::default();
        s.duration_ms = 600_000;
        s.producer.records_per_second = 1_000;
        assert_eq!(field(s), "producer.records_per_second");
    }
}
