//! The two ways of computing a sticky assignment must agree where both apply: with identical
//! subscriptions, the greedy keep-and-complete and the exact search keep equally many owned
//! partitions and complete a kept set identically. The cooperative follow-up rebalance relies on
//! this whenever one round takes one path and the next round the other. Where a partition has
//! several owners, the flow keeps as many as the search (the direct path has no search).

use super::*;
use crate::assignor::{GroupSubscription, MemberSubscription};
use proptest::prelude::*;

/// Groups in which every member subscribes to every topic and no partition has two owners.
fn identical_subscription_groups() -> impl Strategy<Value = GroupSubscription> {
    (
        prop::collection::vec(1u32..=12, 1..=3),
        1usize..=6,
        prop::collection::vec(0usize..8, 0..40),
    )
        .prop_map(|(partition_counts, member_count, owner_picks)| {
            // One owner per partition: bit `pick` alone, or nobody past the member count.
            let owner_sets = owner_picks.iter().map(|&pick| 1u64 << pick).collect();
            group_with_owners(partition_counts, member_count, owner_sets)
        })
}

/// Groups in which every member subscribes to every topic, and a partition may have several
/// owners.
fn shared_owner_groups() -> impl Strategy<Value = GroupSubscription> {
    (
        prop::collection::vec(1u32..=12, 1..=3),
        1usize..=6,
        prop::collection::vec(0u64..64, 1..40),
    )
        .prop_map(|(partition_counts, member_count, owner_sets)| {
            group_with_owners(partition_counts, member_count, owner_sets)
        })
}

/// Partitions in order take their owners from `owner_sets` in turn (bit `m`: member `m`).
fn group_with_owners(
    partition_counts: Vec<u32>,
    member_count: usize,
    owner_sets: Vec<u64>,
) -> GroupSubscription {
    let topics: Vec<String> = (0..partition_counts.len())
        .map(|t| format!("t{t}"))
        .collect();
    let mut members: Vec<MemberSubscription> = (0..member_count)
        .map(|index| MemberSubscription {
            id: format!("m{index}"),
            topics: topics.clone(),
            owned: Vec::new(),
        })
        .collect();
    let partitions = topics
        .iter()
        .zip(&partition_counts)
        .flat_map(|(topic, &count)| (0..count).map(move |p| TopicPartition::new(topic, p)));
    for (tp, &owners) in partitions.zip(owner_sets.iter().cycle()) {
        for (index, member) in members.iter_mut().enumerate() {
            if owners & (1 << index) != 0 {
                member.owned.push(tp.clone());
            }
        }
    }
    GroupSubscription {
        topics: topics.into_iter().zip(partition_counts).collect(),
        members,
    }
}

fn kept_total(kept: &Holdings) -> usize {
    kept.iter().map(Vec::len).sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn greedy_and_search_agree_on_identical_subscriptions(group in identical_subscription_groups()) {
        let valid = ValidGroup::new(&group).expect("generated groups are valid");
        for component in components(&valid) {
            prop_assert!(component.has_identical_subscriptions());
            let greedy_kept = homogeneous::keep_most_owned(&component);
            let (search_kept, balanced) = keep_most_owned(&component);
            prop_assert_eq!(kept_total(&greedy_kept), kept_total(&search_kept));
            prop_assert_eq!(
                homogeneous::complete(&component, &search_kept),
                complete(&component, &search_kept, balanced)
            );
        }
    }

    #[test]
    fn the_flow_keeps_as_many_shared_partitions_as_the_search(group in shared_owner_groups()) {
        let valid = ValidGroup::new(&group).expect("generated groups are valid");
        for component in components(&valid) {
            let flow_kept = homogeneous::keep_most_owned_shared(&component);
            let (search_kept, _) = keep_most_owned(&component);
            prop_assert_eq!(kept_total(&flow_kept), kept_total(&search_kept));
            // Each kept partition is its keeper's and kept once, and the set fits a balanced
            // assignment: the completion holds all of it.
            let owned = component.owned_by_member();
            let mut kept_once: Vec<(usize, u32)> = flow_kept.concat();
            crate::replay::sort::sort(&mut kept_once);
            prop_assert!(kept_once.windows(2).all(|pair| pair[0] != pair[1]));
            let completed = homogeneous::complete(&component, &flow_kept);
            for (member, partitions) in flow_kept.iter().enumerate() {
                for partition in partitions {
                    prop_assert!(owned[member].contains(partition));
                    prop_assert!(completed[member].contains(partition));
                }
            }
            let total: usize = completed.iter().map(Vec::len).sum();
            prop_assert_eq!(total as u64, component.shape.total_partitions());
        }
    }
}

#[test]
fn lexicographic_chunks_keep_weights_in_range_and_cover_every_entry() {
    let entries: Vec<usize> = (0..50).collect();
    for base in [2, 17, 65, 1 << 20] {
        let chunks = lexicographic_chunks(&entries, base);
        let flattened: Vec<usize> = chunks
            .iter()
            .flat_map(|chunk| chunk.iter().copied())
            .collect();
        assert_eq!(flattened, entries);
        for chunk in chunks {
            let top = powers(base).nth(chunk.len() - 1).expect("fits in u64");
            assert!(
                top <= MAX_CHUNK_WEIGHT,
                "base {base}, chunk of {}",
                chunk.len()
            );
        }
    }
}
