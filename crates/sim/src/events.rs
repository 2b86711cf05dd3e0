//! Typed events: the one stream that narration, counters and the trace hash are derived from.
//!
//! The core appends an [`Event`] whenever something a learner should hear about happens: a
//! group gets an assignment, a member commits, a partition's lag crosses a threshold or drains.
//! Per-record work is not an event (it would be millions); it is folded into the trace hash
//! instead. [`narrate`] turns an event into a sentence that says what happened and why.

use crate::assignor::Strategy;
use serde::Serialize;

/// Something that happened at a simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// A group received a (new) assignment of the topic's partitions.
    Assigned {
        group_id: String,
        generation: u32,
        strategy: Strategy,
        partition_count: u32,
        members: Vec<MemberPartitions>,
    },
    /// A member committed its positions (auto-commit inside `poll()`).
    OffsetsCommitted {
        group_id: String,
        member_id: String,
        offsets: Vec<PartitionOffset>,
    },
    /// A partition's lag rose past a threshold (100, 1000, ...); says why with rates.
    LagRising {
        group_id: String,
        partition: u32,
        threshold: u64,
        lag: u64,
        /// Records appended to the partition per second, over the last few seconds.
        inflow_per_s: u64,
        /// The member that owns the partition, if any.
        owner: Option<MemberLoad>,
    },
    /// A partition whose lag had risen past the first threshold is caught up again.
    CaughtUp { group_id: String, partition: u32 },
}

/// A member and the partitions it owns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberPartitions {
    pub member_id: String,
    pub partitions: Vec<u32>,
}

/// A partition and an offset in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionOffset {
    pub partition: u32,
    pub offset: u64,
}

/// How much a member can do: the context of a lag alert.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberLoad {
    pub member_id: String,
    pub partitions: Vec<u32>,
    /// Mean processing time per record in ms.
    pub processing_time_ms: u32,
}

/// One sentence about `event`, in plain words.
pub fn narrate(event: &Event) -> String {
    match &event.kind {
        EventKind::Assigned {
            group_id,
            generation,
            strategy,
            partition_count,
            members,
        } => narrate_assignment(group_id, *generation, *strategy, *partition_count, members),
        EventKind::OffsetsCommitted {
            group_id,
            member_id,
            offsets,
        } => format!(
            "{group_id}/{member_id} committed {}: after a crash, reading resumes there.",
            list_offsets(offsets)
        ),
        EventKind::LagRising {
            group_id,
            partition,
            threshold,
            lag,
            inflow_per_s,
            owner,
        } => narrate_lag(group_id, *partition, *threshold, *lag, *inflow_per_s, owner),
        EventKind::CaughtUp {
            group_id,
            partition,
        } => format!("{group_id}: p{partition} caught up; its lag is back near zero."),
    }
}

fn narrate_assignment(
    group_id: &str,
    generation: u32,
    strategy: Strategy,
    partition_count: u32,
    members: &[MemberPartitions],
) -> String {
    if members.is_empty() {
        return format!("{group_id} has no members: nobody reads its partitions, so lag grows.");
    }
    let working: Vec<String> = members
        .iter()
        .filter(|m| !m.partitions.is_empty())
        .map(|m| format!("{} got {}", m.member_id, list_partitions(&m.partitions)))
        .collect();
    let idle: Vec<&str> = members
        .iter()
        .filter(|m| m.partitions.is_empty())
        .map(|m| m.member_id.as_str())
        .collect();
    let mut sentence = format!(
        "{group_id}, generation {generation} ({}): {}.",
        strategy.config_name(),
        working.join("; ")
    );
    if !idle.is_empty() {
        sentence.push_str(&format!(
            " {} idle: {partition_count} partitions can keep at most {partition_count} members busy.",
            join_names(&idle)
        ));
    }
    sentence
}

fn narrate_lag(
    group_id: &str,
    partition: u32,
    threshold: u64,
    lag: u64,
    inflow_per_s: u64,
    owner: &Option<MemberLoad>,
) -> String {
    let head = format!(
        "{group_id}: p{partition}'s lag passed {} ({lag} records behind); it receives about {inflow_per_s}/s",
        thousands(threshold)
    );
    match owner {
        None => format!("{head}, and no member owns it."),
        Some(load) if load.processing_time_ms == 0 => format!("{head}."),
        Some(load) => {
            let capacity_per_s = 1000 / u64::from(load.processing_time_ms);
            let share = if load.partitions.len() > 1 {
                format!(
                    ", shared across its {} partitions ({})",
                    load.partitions.len(),
                    list_partitions(&load.partitions)
                )
            } else {
                String::new()
            };
            format!(
                "{head}, but its owner {} handles one record at a time, {} ms each: at most {capacity_per_s}/s{share}.",
                load.member_id, load.processing_time_ms
            )
        }
    }
}

fn list_partitions(partitions: &[u32]) -> String {
    let names: Vec<String> = partitions.iter().map(|p| format!("p{p}")).collect();
    names.join(", ")
}

fn list_offsets(offsets: &[PartitionOffset]) -> String {
    let parts: Vec<String> = offsets
        .iter()
        .map(|o| format!("p{} at {}", o.partition, o.offset))
        .collect();
    parts.join(", ")
}

fn join_names(names: &[&str]) -> String {
    match names {
        [one] => format!("{one} is"),
        [rest @ .., last] => format!("{} and {last} are", rest.join(", ")),
        [] => String::new(),
    }
}

/// `12345` as `12,345`.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assigned(members: Vec<(&str, Vec<u32>)>) -> Event {
        Event {
            at_ms: 0,
            kind: EventKind::Assigned {
                group_id: "search".into(),
                generation: 1,
                strategy: Strategy::Range,
                partition_count: 6,
                members: members
                    .into_iter()
                    .map(|(id, partitions)| MemberPartitions {
                        member_id: id.into(),
                        partitions,
                    })
                    .collect(),
            },
        }
    }

    #[test]
    fn an_assignment_names_who_got_what_and_who_is_idle() {
        let text = narrate(&assigned(vec![
            ("c1", vec![0, 1]),
            ("c2", vec![2]),
            ("c3", vec![]),
            ("c4", vec![]),
        ]));
        assert!(text.contains("c1 got p0, p1"), "{text}");
        assert!(text.contains("c3 and c4 are idle"), "{text}");
        assert!(text.contains("(range)"), "{text}");
    }

    #[test]
    fn a_lag_alert_explains_the_owners_ceiling() {
        let event = Event {
            at_ms: 0,
            kind: EventKind::LagRising {
                group_id: "search".into(),
                partition: 3,
                threshold: 1000,
                lag: 1004,
                inflow_per_s: 120,
                owner: Some(MemberLoad {
                    member_id: "c2".into(),
                    partitions: vec![2, 3],
                    processing_time_ms: 20,
                }),
            },
        };
        let text = narrate(&event);
        assert!(text.contains("passed 1,000"), "{text}");
        assert!(text.contains("at most 50/s"), "{text}");
        assert!(text.contains("p2, p3"), "{text}");
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
