//! Comparing a consumer-group lesson with itself: the one-click changes each lesson offers
//! (the other rebalance protocol; commits after processing; an idempotent sink), and what
//! tells the two sides apart, from the knob table and the scheduled actions.

use crate::shell::compare::{captions, knob_differences};
use crate::shell::family::CompareChange;
use streamlab_sim::assignor::Strategy;
use streamlab_sim::eventtime::events::clock_time;
use streamlab_sim::kafka::knobs::{GROUP_KNOBS, SCENARIO_KNOBS};
use streamlab_sim::kafka::scenario::{ManualCommit, ScheduledAction};
use streamlab_sim::kafka::sink::SinkMode;
use streamlab_sim::kafka::Scenario;

/// The rebalances lesson's comparison: the first group on the other rebalance protocol.
pub const PROTOCOLS: &[CompareChange<Scenario>] = &[CompareChange {
    label: "eager and cooperative side by side",
    apply: |s, _| {
        let group = &mut s.groups[0];
        group.partition_assignment_strategy =
            if group.partition_assignment_strategy.is_cooperative() {
                Strategy::Range
            } else {
                Strategy::CooperativeSticky
            };
    },
}];

/// The delivery lesson's comparisons: where the commit goes, and what the sink does.
pub const DELIVERY: &[CompareChange<Scenario>] = &[
    CompareChange {
        label: "commit after processing",
        apply: |s, _| {
            for group in &mut s.groups {
                group.enable_auto_commit = false;
                group.manual_commit = ManualCommit::AfterBatch;
            }
        },
    },
    CompareChange {
        label: "an idempotent sink",
        apply: |s, _| {
            for group in &mut s.groups {
                group.sink = SinkMode::Idempotent;
            }
        },
    },
];

/// What tells `b` from `a`: knobs set differently, and actions only one side schedules.
pub fn differences(a: &Scenario, b: &Scenario) -> (String, String) {
    let mut rows: Vec<(String, String, String)> = knob_differences(SCENARIO_KNOBS, a, b)
        .into_iter()
        .map(|(name, x, y)| (name.to_string(), x, y))
        .collect();
    for (ga, gb) in a.groups.iter().zip(&b.groups) {
        for (name, x, y) in knob_differences(GROUP_KNOBS, ga, gb) {
            let name = if a.groups.len() > 1 {
                format!("{}: {name}", ga.group_id)
            } else {
                name.to_string()
            };
            rows.push((name, x, y));
        }
    }
    let only_in = |this: &Scenario, other: &Scenario| -> Vec<String> {
        this.schedule
            .iter()
            .filter(|action| !other.schedule.contains(action))
            .map(describe)
            .collect()
    };
    captions(&rows, &only_in(a, b), &only_in(b, a))
}

/// "c3 crashes at 0:21".
fn describe(action: &ScheduledAction) -> String {
    let what = serde_json::to_value(action.action)
        .ok()
        .and_then(|v| match v {
            serde_json::Value::String(name) => Some(name),
            serde_json::Value::Object(map) => map.keys().next().cloned(),
            _ => None,
        })
        .unwrap_or_default()
        .replace('_', " ");
    format!(
        "{} {what} at {}",
        action.member_id,
        clock_time(action.at_ms as i64)
    )
}
