//! The assignor input the storm lesson produces at its largest, shared by the assignor tests
//! and the assignor benchmark so both speak of the same group.

use streamlab_sim::assignor::{GroupSubscription, MemberSubscription, TopicPartition};
use streamlab_sim::replay::sorted_map::SortedMap;

/// A single-topic group of the size the simulation uses: 32 members, 64 partitions, owned as
/// a previous rebalance among the first 24 members left them.
pub fn simulation_sized_group() -> GroupSubscription {
    let members = (0..32u32)
        .map(|member| MemberSubscription {
            id: format!("consumer-{member:02}"),
            topics: vec!["t".to_string()],
            owned: (0..64u32)
                .filter(|partition| member < 24 && partition * 24 / 64 == member)
                .map(|partition| TopicPartition::new("t", partition))
                .collect(),
        })
        .collect();
    GroupSubscription {
        topics: SortedMap::from([("t".to_string(), 64)]),
        members,
    }
}
