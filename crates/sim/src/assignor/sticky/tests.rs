//! The two ways of computing a sticky assignment must agree where both apply: with identical
//! subscriptions, the greedy keep-and-complete and the exact search keep equally many owned
//! partitions and complete a kept set identically. The cooperative follow-up rebalance relies on
//! this whenever one round takes one path and the next round the other.

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
            // Each partition gets at most one owner; picks past the member count mean nobody.
            for (tp, &pick) in partitions.zip(owner_picks.iter().cycle()) {
                if let Some(owner) = members.get_mut(pick) {
                    owner.owned.push(tp);
                }
            }
            GroupSubscription {
                topics: topics.into_iter().zip(partition_counts).collect(),
                members,
            }
        })
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
