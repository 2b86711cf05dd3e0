//! Kafka's `RoundRobinAssignor`: deal every partition in turn around the sorted members.
//!
//! All partitions of all subscribed topics are laid out sorted by topic (Java's string order),
//! then partition number; members are sorted by id the same way and visited in a circle that
//! carries over from one topic to the next. A member not subscribed to a partition's topic is
//! skipped for that partition. With identical subscriptions this is perfectly balanced; with
//! different ones it can be far from it, which is why Kafka added the sticky assignors.

use super::{java_string_order, sort_partitions, Assignment, TopicPartition, ValidGroup};
use crate::replay::sorted_map::SortedSet;

pub(super) fn assign(group: &ValidGroup<'_>) -> Assignment {
    let mut assignment = group.empty_assignment();
    let mut members: Vec<_> = group.members.iter().collect();
    crate::replay::sort::sort_by(&mut members, |a, b| java_string_order(a.id, b.id));
    let mut topics: Vec<&str> = group
        .members
        .iter()
        .flat_map(|member| member.topics.iter().copied())
        .collect::<SortedSet<_>>()
        .into_iter()
        .collect();
    crate::replay::sort::sort_by(&mut topics, |a, b| java_string_order(a, b));

    // The position of the member the circle points at; it survives across topics.
    let mut next_member = 0;
    for topic in topics {
        for partition in 0..group.partition_count(topic) {
            // Some member subscribes to `topic` (that is how it got into the list), so this
            // search always ends within one turn of the circle.
            while !members[next_member].topics.contains(&topic) {
                next_member = (next_member + 1) % members.len();
            }
            if let Some(assigned) = assignment.get_mut(members[next_member].id) {
                assigned.push(TopicPartition::new(topic, partition));
            }
            next_member = (next_member + 1) % members.len();
        }
    }
    sort_partitions(&mut assignment);
    assignment
}
