//! Kafka's `RangeAssignor`: each topic on its own, split into contiguous ranges.
//!
//! For every subscribed topic, its subscribers are sorted by member id (Java's string order) and
//! its partitions laid out in numeric order; each subscriber gets `partitions / subscribers`
//! consecutive partitions and the first `partitions % subscribers` get one more. Because every
//! topic starts again from the first member, members early in the order collect the extras of
//! every topic: the imbalance this assignor is known for, and one the lessons show.

use super::{java_string_order, sort_partitions, Assignment, TopicPartition, ValidGroup};

pub(super) fn assign(group: &ValidGroup<'_>) -> Assignment {
    let mut assignment = group.empty_assignment();
    for (topic, &partition_count) in group.topics {
        let mut subscribers: Vec<&str> = group
            .members
            .iter()
            .filter(|member| member.topics.contains(&topic.as_str()))
            .map(|member| member.id)
            .collect();
        crate::replay::sort::sort_by(&mut subscribers, |a, b| java_string_order(a, b));
        let ranges = split_into_ranges(partition_count, subscribers.len());
        for (member_id, partitions) in subscribers.iter().zip(ranges) {
            if let Some(assigned) = assignment.get_mut(*member_id) {
                assigned.extend(partitions.map(|partition| TopicPartition::new(topic, partition)));
            }
        }
    }
    sort_partitions(&mut assignment);
    assignment
}

/// The consecutive partition range each of `subscriber_count` sorted subscribers receives.
fn split_into_ranges(
    partition_count: u32,
    subscriber_count: usize,
) -> impl Iterator<Item = std::ops::Range<u32>> {
    let partitions = u64::from(partition_count);
    let subscribers = subscriber_count.max(1) as u64;
    let per_subscriber = partitions / subscribers;
    let with_extra = partitions % subscribers;
    (0..subscribers).map(move |position| {
        let start = per_subscriber * position + position.min(with_extra);
        let length = per_subscriber + u64::from(position < with_extra);
        // Both ends are at most `partition_count`, so they fit back into u32.
        to_u32(start)..to_u32(start + length)
    })
}

fn to_u32(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}
