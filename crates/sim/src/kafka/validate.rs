//! Whether a consumer-group scenario can run: every knob inside its range (from the knob
//! table), the groups and the schedule consistent, and one sentence naming the field when
//! not.

use super::knobs::{GROUP_KNOBS, SCENARIO_KNOBS};
use super::scenario::{
    is_member_id, GroupConfig, MemberAction, OffsetTarget, Scenario, MAX_GROUPS, MAX_MEMBER_NUMBER,
    MAX_SCHEDULED_ACTIONS, SCENARIO_VERSION,
};
use crate::family::knob::check_numbers;
use crate::family::ScenarioError;
use crate::quote::quote;

/// The documented ranges of the scheduled actions' numbers (the knobs' ranges are in
/// [`super::knobs`]).
pub mod schedule_bounds {
    use crate::family::knob::Bounds;

    pub const AT_MS: Bounds = Bounds::new(0.0, 3_600_000.0, "ms");
    pub const DOWN_MS: Bounds = Bounds::new(0.0, 3_600_000.0, "ms");
    pub const DURATION_MS: Bounds = Bounds::new(1.0, 3_600_000.0, "ms");
    pub const FACTOR: Bounds = Bounds::new(1.0, 1_000.0, "x");
    pub const RESET_TO_MS: Bounds = Bounds::new(0.0, 3_600_000.0, "ms");
}

fn refuse(field: &str, message: String) -> ScenarioError {
    ScenarioError::new(field, message)
}

impl Scenario {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.version == 0 || self.version > SCENARIO_VERSION {
            return Err(refuse(
                "version",
                format!(
                    "scenario version {} is not one this Streamlab reads (1..={SCENARIO_VERSION})",
                    self.version
                ),
            ));
        }
        if self.groups.is_empty() || self.groups.len() > MAX_GROUPS {
            return Err(refuse(
                "groups",
                format!(
                    "groups has {} entries; a scenario has 1..={MAX_GROUPS} groups",
                    self.groups.len()
                ),
            ));
        }
        for group in &self.groups {
            group.validate()?;
        }
        self.check_unique_group_ids()?;
        check_numbers(SCENARIO_KNOBS, self)?;
        self.check_schedule()
    }

    fn check_schedule(&self) -> Result<(), ScenarioError> {
        if self.schedule.len() > MAX_SCHEDULED_ACTIONS {
            return Err(refuse(
                "schedule",
                format!(
                    "schedule has {} actions; at most {MAX_SCHEDULED_ACTIONS}",
                    self.schedule.len()
                ),
            ));
        }
        for action in &self.schedule {
            schedule_bounds::AT_MS.check("schedule[].at_ms", action.at_ms as f64)?;
            if !self.groups.iter().any(|g| g.group_id == action.group_id) {
                return Err(refuse(
                    "schedule[].group_id",
                    format!(
                        "schedule names group {}, which the scenario does not have",
                        quote(&action.group_id)
                    ),
                ));
            }
            if !is_member_id(&action.member_id) {
                return Err(refuse(
                    "schedule[].member_id",
                    format!(
                        "schedule names member {}; member ids are c1..=c{MAX_MEMBER_NUMBER}",
                        quote(&action.member_id)
                    ),
                ));
            }
            match action.action {
                MemberAction::Restart { down_ms } => {
                    schedule_bounds::DOWN_MS.check("schedule[].down_ms", down_ms as f64)?
                }
                MemberAction::Pause { duration_ms } => schedule_bounds::DURATION_MS
                    .check("schedule[].duration_ms", duration_ms as f64)?,
                MemberAction::SlowDown {
                    duration_ms,
                    factor,
                } => {
                    schedule_bounds::DURATION_MS
                        .check("schedule[].duration_ms", duration_ms as f64)?;
                    schedule_bounds::FACTOR.check("schedule[].factor", f64::from(factor))?;
                }
                MemberAction::ResetOffsets {
                    to: OffsetTarget::Timestamp { at_ms },
                } => schedule_bounds::RESET_TO_MS.check("schedule[].to.at_ms", at_ms as f64)?,
                MemberAction::Start
                | MemberAction::Leave
                | MemberAction::Crash
                | MemberAction::ResetOffsets { .. }
                | MemberAction::DeleteRecords => {}
            }
        }
        Ok(())
    }

    fn check_unique_group_ids(&self) -> Result<(), ScenarioError> {
        for (i, group) in self.groups.iter().enumerate() {
            if self.groups[..i]
                .iter()
                .any(|g| g.group_id == group.group_id)
            {
                return Err(refuse(
                    "groups[].group_id",
                    format!(
                        "group.id {} appears twice; each group needs its own id",
                        quote(&group.group_id)
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl GroupConfig {
    fn validate(&self) -> Result<(), ScenarioError> {
        if self.group_id.is_empty() || self.group_id.len() > 64 {
            return Err(refuse(
                "groups[].group_id",
                "group.id must be 1..=64 characters long".to_string(),
            ));
        }
        check_numbers(GROUP_KNOBS, self)?;
        let errors = &self.errors;
        if errors.dead_letter_topic.len() > 249 {
            return Err(refuse(
                "groups[].errors.dead_letter_topic",
                "errors.deadletterqueue.topic.name is longer than Kafka's 249 characters".into(),
            ));
        }
        if self.heartbeat_interval_ms >= self.session_timeout_ms {
            return Err(refuse(
                "groups[].heartbeat_interval_ms",
                format!(
                    "heartbeat.interval.ms ({}) must be below session.timeout.ms ({})",
                    self.heartbeat_interval_ms, self.session_timeout_ms
                ),
            ));
        }
        Ok(())
    }
}
