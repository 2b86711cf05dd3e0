//! Properties every assignment must have, on random groups: valid for every strategy; balanced
//! and as sticky as possible (checked against brute force on small groups) for the sticky
//! ones; cooperative-sticky ending where sticky does; nothing depending on member order.

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use streamlab_sim::assignor::{
    assign, cooperative_rebalance, AssignError, Assignment, Assignor, GroupSubscription,
    MemberSubscription, Strategy as AssignStrategy, TopicPartition,
};

const STICKY: [AssignStrategy; 2] = [AssignStrategy::Sticky, AssignStrategy::CooperativeSticky];

/// Random groups: `topic_count` topics of `1..=max_partitions` partitions; up to `max_members`
/// members with random subscriptions (possibly none) and random owned partitions, which may be
/// claimed twice, belong to unsubscribed topics or not exist at all.
fn groups(
    topic_count: std::ops::RangeInclusive<usize>,
    max_partitions: u32,
    max_members: usize,
) -> impl Strategy<Value = GroupSubscription> {
    let topics = prop::collection::vec(1..=max_partitions, topic_count);
    topics.prop_flat_map(move |partition_counts| {
        let topic_count = partition_counts.len();
        let member = (
            prop::collection::vec(any::<bool>(), topic_count),
            prop::collection::vec((0..topic_count + 1, 0..max_partitions + 2), 0..12),
        );
        let members = prop::collection::vec(member, 0..=max_members);
        (Just(partition_counts), members).prop_map(build_group)
    })
}

fn topic_name(index: usize) -> String {
    format!("t{index}")
}

/// A generated member: which topics it subscribes to, and (topic index, partition) it owned.
type GeneratedMember = (Vec<bool>, Vec<(usize, u32)>);

fn build_group((partition_counts, members): (Vec<u32>, Vec<GeneratedMember>)) -> GroupSubscription {
    GroupSubscription {
        topics: partition_counts
            .iter()
            .enumerate()
            .map(|(index, &count)| (topic_name(index), count))
            .collect(),
        members: members
            .into_iter()
            .enumerate()
            .map(|(index, (subscribed, owned))| MemberSubscription {
                // m0, m1, ..., m10, m11: byte order differs from numeric order.
                id: format!("m{index}"),
                topics: subscribed
                    .iter()
                    .enumerate()
                    .filter(|(_, &yes)| yes)
                    .map(|(topic, _)| topic_name(topic))
                    .collect(),
                owned: owned
                    .into_iter()
                    .map(|(topic, partition)| TopicPartition::new(topic_name(topic), partition))
                    .collect(),
            })
            .collect(),
    }
}

/// Groups whose owned partitions are what an earlier assignment handed out, as in a real
/// rebalance: since then some members left and some joined.
fn rebalanced_groups() -> impl Strategy<Value = GroupSubscription> {
    (
        groups(1..=6, 12, 10),
        prop::collection::vec(any::<bool>(), 10),
        0usize..4,
        prop::sample::select(AssignStrategy::ALL.to_vec()),
    )
        .prop_map(|(before, leaves, joining, earlier_strategy)| {
            let earlier = assign(earlier_strategy, &before).expect("generated groups are valid");
            let mut after = before.clone();
            for member in &mut after.members {
                member.owned = earlier[&member.id].clone();
            }
            let mut index = 0;
            after.members.retain(|_| {
                index += 1;
                !leaves[index - 1]
            });
            for newcomer in 0..joining {
                after.members.push(MemberSubscription {
                    id: format!("new{newcomer}"),
                    topics: after.topics.keys().take(newcomer + 1).cloned().collect(),
                    owned: Vec::new(),
                });
            }
            after
        })
}

fn subscriptions(group: &GroupSubscription) -> BTreeMap<&str, BTreeSet<&str>> {
    group
        .members
        .iter()
        .map(|member| {
            let topics = member.topics.iter().map(String::as_str).collect();
            (member.id.as_str(), topics)
        })
        .collect()
}

/// Every partition of every subscribed topic goes to exactly one of its subscribers, nothing
/// else is assigned, every member is listed, and lists are sorted.
fn check_valid(group: &GroupSubscription, assignment: &Assignment) -> Result<(), TestCaseError> {
    let subscriptions = subscriptions(group);
    let listed: BTreeSet<&str> = assignment.keys().map(String::as_str).collect();
    let members: BTreeSet<&str> = subscriptions.keys().copied().collect();
    prop_assert_eq!(listed, members);
    let mut holders: BTreeMap<&TopicPartition, usize> = BTreeMap::new();
    for (member, partitions) in assignment {
        prop_assert!(
            partitions.windows(2).all(|pair| pair[0] < pair[1]),
            "unsorted"
        );
        for tp in partitions {
            prop_assert!(subscriptions[member.as_str()].contains(tp.topic.as_str()));
            prop_assert!(tp.partition < group.topics[&tp.topic]);
            *holders.entry(tp).or_default() += 1;
        }
    }
    let subscribed: BTreeSet<&str> = subscriptions.values().flatten().copied().collect();
    let expected_total: u32 = subscribed.iter().map(|topic| group.topics[*topic]).sum();
    prop_assert_eq!(holders.len(), expected_total as usize);
    prop_assert!(holders.values().all(|&count| count == 1));
    Ok(())
}

/// The contract's balance: if A holds a partition of a topic B subscribes to, A holds at most
/// one partition more than B.
fn is_balanced(group: &GroupSubscription, assignment: &Assignment) -> bool {
    let subscriptions = subscriptions(group);
    assignment.values().all(|held| {
        held.iter().all(|tp| {
            subscriptions
                .iter()
                .filter(|(_, topics)| topics.contains(tp.topic.as_str()))
                .all(|(b, _)| held.len() <= assignment[*b].len() + 1)
        })
    })
}

/// Owned partitions (that exist and are still subscribed) held by their owner.
fn kept_count(group: &GroupSubscription, assignment: &Assignment) -> usize {
    group
        .members
        .iter()
        .map(|member| {
            let owned: BTreeSet<&TopicPartition> = member.owned.iter().collect();
            assignment[&member.id]
                .iter()
                .filter(|tp| owned.contains(tp))
                .count()
        })
        .sum()
}

/// The most owned partitions any valid balanced assignment keeps, by trying them all.
fn brute_force_best_kept(group: &GroupSubscription) -> usize {
    let subscriptions = subscriptions(group);
    let slots: Vec<(TopicPartition, Vec<&str>)> = group
        .topics
        .iter()
        .flat_map(|(topic, &count)| (0..count).map(move |p| TopicPartition::new(topic, p)))
        .map(|tp| {
            let takers: Vec<&str> = subscriptions
                .iter()
                .filter(|(_, topics)| topics.contains(tp.topic.as_str()))
                .map(|(id, _)| *id)
                .collect();
            (tp, takers)
        })
        .filter(|(_, takers)| !takers.is_empty())
        .collect();
    let mut choice = vec![0; slots.len()];
    let mut best = None;
    loop {
        let mut assignment: Assignment = subscriptions
            .keys()
            .map(|id| (id.to_string(), Vec::new()))
            .collect();
        for ((tp, takers), &pick) in slots.iter().zip(&choice) {
            assignment.get_mut(takers[pick]).unwrap().push(tp.clone());
        }
        if is_balanced(group, &assignment) {
            best = best.max(Some(kept_count(group, &assignment)));
        }
        // Next choice vector, like an odometer.
        let Some(position) = (0..slots.len()).find(|&i| choice[i] + 1 < slots[i].1.len()) else {
            break;
        };
        choice[position] += 1;
        choice[..position].iter_mut().for_each(|pick| *pick = 0);
    }
    best.expect("a balanced assignment always exists")
}

fn small_groups() -> impl Strategy<Value = GroupSubscription> {
    groups(1..=3, 3, 4).prop_filter("at most 6 partitions and 4 members", |group| {
        group.topics.values().sum::<u32>() <= 6 && (1..=4).contains(&group.members.len())
    })
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn every_strategy_assigns_each_subscribed_partition_once_to_a_subscriber(
        group in groups(1..=8, 16, 12),
    ) {
        for strategy in AssignStrategy::ALL {
            let assignment = assign(strategy, &group).expect("generated groups are valid");
            check_valid(&group, &assignment)?;
        }
    }

    #[test]
    fn the_general_assignor_table_rebalances_as_assign_does(group in groups(1..=8, 16, 12)) {
        let strategies: Vec<_> = Assignor::EVERY.iter().map(|a| a.strategy).collect();
        prop_assert_eq!(strategies, AssignStrategy::ALL.to_vec());
        let rounds = cooperative_rebalance(&group).expect("valid");
        for assignor in Assignor::EVERY {
            let (assignment, revoked) = (assignor.rebalance)(&group).expect("valid");
            if assignor.strategy.is_cooperative() {
                prop_assert_eq!(&assignment, &rounds.first_round);
                prop_assert_eq!(&revoked, &rounds.revoked);
            } else {
                prop_assert_eq!(&assignment, &assign(assignor.strategy, &group).expect("valid"));
                prop_assert!(revoked.is_empty());
            }
        }
    }

    #[test]
    fn the_simulations_table_rebalances_as_the_general_one_or_refuses_mixed_subscriptions(
        group in groups(1..=4, 12, 8),
        everyone_reads_every_topic in any::<bool>(),
    ) {
        let mut group = group;
        if everyone_reads_every_topic {
            let every_topic: Vec<String> = group.topics.keys().cloned().collect();
            for member in &mut group.members {
                member.topics = every_topic.clone();
            }
        }
        let subscriptions = subscriptions(&group);
        let distinct: BTreeSet<_> = subscriptions.values().filter(|t| !t.is_empty()).collect();
        for (general, simulation) in Assignor::EVERY.iter().zip(Assignor::EVERY_IDENTICAL) {
            prop_assert_eq!(general.strategy, simulation.strategy);
            match (simulation.rebalance)(&group) {
                Ok(rebalance) => {
                    prop_assert_eq!(rebalance, (general.rebalance)(&group).expect("valid"));
                }
                Err(error) => {
                    prop_assert_eq!(error, AssignError::MixedSubscriptions);
                    prop_assert!(distinct.len() > 1, "refused identical subscriptions");
                    prop_assert!(STICKY.contains(&general.strategy));
                }
            }
        }
    }

    #[test]
    fn sticky_assignments_are_balanced_and_cooperative_ends_where_sticky_does(
        group in groups(1..=8, 16, 12),
    ) {
        let sticky = assign(AssignStrategy::Sticky, &group).expect("valid");
        prop_assert!(is_balanced(&group, &sticky));
        let rounds = cooperative_rebalance(&group).expect("valid");
        prop_assert_eq!(&rounds.final_assignment, &sticky);
        // The first round never gives a member a partition somebody else still owns.
        for (member, partitions) in &rounds.first_round {
            prop_assert!(partitions.iter().all(|tp| rounds.final_assignment[member].contains(tp)));
        }
    }

    #[test]
    fn sticky_is_a_fixed_point_of_its_own_result(group in rebalanced_groups()) {
        for strategy in STICKY {
            let assignment = assign(strategy, &group).expect("valid");
            check_valid(&group, &assignment)?;
            prop_assert!(is_balanced(&group, &assignment));
            let mut settled = group.clone();
            for member in &mut settled.members {
                member.owned = assignment[&member.id].clone();
            }
            prop_assert_eq!(&assign(strategy, &settled).expect("valid"), &assignment);
        }
    }

    #[test]
    fn no_strategy_depends_on_the_order_members_are_listed(
        group in groups(1..=5, 8, 8),
        rotation in 0usize..8,
    ) {
        let mut reordered = group.clone();
        let len = reordered.members.len().max(1);
        reordered.members.rotate_left(rotation % len);
        reordered.members.reverse();
        for strategy in AssignStrategy::ALL {
            prop_assert_eq!(assign(strategy, &group), assign(strategy, &reordered));
        }
    }

    #[test]
    fn range_and_roundrobin_are_even_when_subscriptions_are_identical(
        partition_counts in prop::collection::vec(1u32..=16, 1..=4),
        member_count in 1usize..=9,
    ) {
        let topics: Vec<String> = (0..partition_counts.len()).map(topic_name).collect();
        let group = GroupSubscription {
            topics: topics.iter().cloned().zip(partition_counts.iter().copied()).collect(),
            members: (0..member_count)
                .map(|index| MemberSubscription {
                    id: format!("m{index}"),
                    topics: topics.clone(),
                    owned: Vec::new(),
                })
                .collect(),
        };
        let roundrobin = assign(AssignStrategy::RoundRobin, &group).expect("valid");
        let loads: Vec<usize> = roundrobin.values().map(Vec::len).collect();
        prop_assert!(loads.iter().max().unwrap() - loads.iter().min().unwrap() <= 1);
        // Range is even per topic, not overall.
        let range = assign(AssignStrategy::Range, &group).expect("valid");
        for topic in &topics {
            let per_member: Vec<usize> = range
                .values()
                .map(|partitions| partitions.iter().filter(|tp| &tp.topic == topic).count())
                .collect();
            prop_assert!(per_member.windows(2).all(|pair| pair[0] >= pair[1]));
            prop_assert!(per_member.iter().max().unwrap() - per_member.iter().min().unwrap() <= 1);
        }
    }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn sticky_keeps_as_many_owned_partitions_as_the_best_balanced_assignment(
        group in small_groups(),
    ) {
        let best = brute_force_best_kept(&group);
        for strategy in STICKY {
            let assignment = assign(strategy, &group).expect("valid");
            check_valid(&group, &assignment)?;
            prop_assert!(is_balanced(&group, &assignment));
            prop_assert_eq!(kept_count(&group, &assignment), best, "{}", strategy);
        }
    }
}
