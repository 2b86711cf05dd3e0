//! Scenarios that refute a common belief about Kafka by running it: the consumer-group side of
//! the ten misconceptions (`misconception-1` … `-4`). Each is an ordinary scenario; the number
//! that refutes the belief comes out of the model's rules, and `crate::misconceptions` names
//! the figure a test asserts.

use crate::kafka::scenario::{
    AutoOffsetReset, GroupConfig, ManualCommit, MemberAction, Scenario, ScheduledAction,
};

/// "Kafka keeps a global order." Three partitions, three members, keyed records: each member
/// works through its partition in offset order, but the three run side by side, so the group
/// as a whole handles records in an order the producer never sent them in.
pub fn global_order() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 30_000;
    scenario.topic.partitions = 3;
    scenario.producer.rate_per_s = 60;
    scenario.producer.key_count = 12;
    let mut group = GroupConfig::named("search");
    group.processing.time_ms = 20;
    scenario.groups = vec![group];
    scenario
}

/// "An acknowledgement means exactly once." Offsets are committed (the consumer's ack) only
/// after each batch is processed, and a member crashes twice mid-batch: the records it had
/// processed but not yet acked are processed again by whoever takes its partitions over.
pub fn ack_is_not_exactly_once() -> Scenario {
    crate::kafka::presets::commit_base(ManualCommit::AfterBatch)
}

/// "Add consumers to go faster." Four partitions and eight members, each able to handle 40
/// records a second, for 200 a second: only four members get a partition, so the group
/// handles 160 a second, the other four sit idle, and lag grows anyway.
pub fn more_consumers_than_partitions() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 30_000;
    scenario.topic.partitions = 4;
    scenario.producer.rate_per_s = 200;
    let mut group = GroupConfig::named("search");
    group.members = 8;
    group.processing.time_ms = 25;
    scenario.groups = vec![group];
    scenario
}

/// "Delete what you consumed, as from a queue." billing keeps up and, every 10 s, deletes the
/// records it has committed (`Admin.deleteRecords`); audit reads the same topic at half the
/// inflow, so the deletions overtake it: records it had not read yet are gone for it too.
pub fn delete_like_a_queue() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 60_000;
    scenario.topic.partitions = 3;
    scenario.producer.rate_per_s = 100;
    let billing = GroupConfig::named("billing");
    let mut audit = GroupConfig::named("audit");
    audit.members = 1;
    audit.processing.time_ms = 20;
    audit.auto_offset_reset = AutoOffsetReset::Earliest;
    scenario.groups = vec![billing, audit];
    scenario.schedule = (1..=5)
        .map(|i| ScheduledAction {
            at_ms: i * 10_000,
            group_id: "billing".into(),
            member_id: "c1".into(),
            action: MemberAction::DeleteRecords,
        })
        .collect();
    scenario
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::world::World;

    fn group_figures(scenario: &Scenario, group_id: &str) -> crate::kafka::snapshot::GroupView {
        let mut world = World::new(scenario).unwrap();
        world.advance_to(scenario.duration_ms);
        let snapshot = world.snapshot(0);
        snapshot
            .groups
            .into_iter()
            .find(|g| g.group_id == group_id)
            .unwrap()
    }

    #[test]
    fn one_partition_keeps_the_produced_order_and_three_do_not() {
        let mut single = global_order();
        single.topic.partitions = 1;
        single.groups[0].members = 1;
        single.groups[0].processing.time_ms = 5;
        assert_eq!(group_figures(&single, "search").out_of_produced_order, 0);
        assert!(group_figures(&global_order(), "search").out_of_produced_order > 0);
    }

    #[test]
    fn deleting_consumed_records_costs_the_slower_group_and_not_the_deleter() {
        let scenario = delete_like_a_queue();
        let billing = group_figures(&scenario, "billing");
        let audit = group_figures(&scenario, "audit");
        assert_eq!(billing.lost_to_deletion, 0);
        assert_eq!(billing.tallies.lost, 0);
        assert!(audit.lost_to_deletion > 0);
        assert!(audit.tallies.lost >= audit.lost_to_deletion);
        let mut no_deletes = scenario.clone();
        no_deletes.schedule.clear();
        assert_eq!(group_figures(&no_deletes, "audit").lost_to_deletion, 0);
    }

    #[test]
    fn deleting_moves_every_log_start_to_the_deleters_commits() {
        let scenario = delete_like_a_queue();
        let mut world = World::new(&scenario).unwrap();
        // Actions come first in a tick: the deletion at 10 s sees the commits as they stood.
        world.advance_to(9_999);
        let committed: Vec<u64> = world.groups()[0]
            .partitions
            .iter()
            .map(|p| p.committed)
            .collect();
        world.advance_to(10_000);
        let starts: Vec<u64> = world
            .topic()
            .partitions
            .iter()
            .map(|p| p.log_start_offset())
            .collect();
        assert!(committed.iter().all(|&c| c > 0));
        assert_eq!(starts, committed);
    }
}
