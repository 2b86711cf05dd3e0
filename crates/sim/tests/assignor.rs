//! Kafka's assignors on the examples Kafka documents and tests, plus the sticky behaviours a
//! lesson shows (who keeps what when members join, leave or subscribe differently).

#[path = "support/simulation_sized_group.rs"]
mod simulation_sized_group;

use simulation_sized_group::simulation_sized_group;
use streamlab_sim::assignor::{
    assign, cooperative_rebalance, AssignError, Assignment, GroupSubscription, MemberSubscription,
    Strategy, TopicPartition,
};

/// A member as `(id, subscribed topics, owned (topic, partition) pairs)`.
type MemberSpec<'a> = (&'a str, &'a [&'a str], &'a [(&'a str, u32)]);

fn group(topics: &[(&str, u32)], members: &[MemberSpec<'_>]) -> GroupSubscription {
    GroupSubscription {
        topics: topics
            .iter()
            .map(|&(name, count)| (name.to_string(), count))
            .collect(),
        members: members
            .iter()
            .map(|&(id, topics, owned)| MemberSubscription {
                id: id.to_string(),
                topics: topics.iter().map(|t| t.to_string()).collect(),
                owned: owned
                    .iter()
                    .map(|&(topic, partition)| TopicPartition::new(topic, partition))
                    .collect(),
            })
            .collect(),
    }
}

fn expected(members: &[(&str, &[(&str, u32)])]) -> Assignment {
    members
        .iter()
        .map(|&(id, partitions)| {
            let partitions = partitions
                .iter()
                .map(|&(topic, partition)| TopicPartition::new(topic, partition))
                .collect();
            (id.to_string(), partitions)
        })
        .collect()
}

fn run(strategy: Strategy, group: &GroupSubscription) -> Assignment {
    assign(strategy, group).expect("valid group")
}

/// The two consumers, two topics of three partitions each, of Kafka's assignor javadocs.
fn two_consumers_two_topics() -> GroupSubscription {
    group(
        &[("t0", 3), ("t1", 3)],
        &[("C0", &["t0", "t1"], &[]), ("C1", &["t0", "t1"], &[])],
    )
}

#[test]
fn range_matches_kafkas_javadoc_example() {
    assert_eq!(
        run(Strategy::Range, &two_consumers_two_topics()),
        expected(&[
            ("C0", &[("t0", 0), ("t0", 1), ("t1", 0), ("t1", 1)]),
            ("C1", &[("t0", 2), ("t1", 2)]),
        ])
    );
}

#[test]
fn roundrobin_matches_kafkas_javadoc_example() {
    assert_eq!(
        run(Strategy::RoundRobin, &two_consumers_two_topics()),
        expected(&[
            ("C0", &[("t0", 0), ("t0", 2), ("t1", 1)]),
            ("C1", &[("t0", 1), ("t1", 0), ("t1", 2)]),
        ])
    );
}

#[test]
fn roundrobin_matches_kafkas_javadoc_example_with_different_subscriptions() {
    let group = group(
        &[("t0", 1), ("t1", 2), ("t2", 3)],
        &[
            ("C0", &["t0"], &[]),
            ("C1", &["t0", "t1"], &[]),
            ("C2", &["t0", "t1", "t2"], &[]),
        ],
    );
    assert_eq!(
        run(Strategy::RoundRobin, &group),
        expected(&[
            ("C0", &[("t0", 0)]),
            ("C1", &[("t1", 0)]),
            ("C2", &[("t1", 1), ("t2", 0), ("t2", 1), ("t2", 2)]),
        ])
    );
}

/// Kafka's `testMultipleConsumersMixedTopics` (in both assignors' test suites).
fn mixed_topics() -> GroupSubscription {
    group(
        &[("topic1", 3), ("topic2", 2)],
        &[
            ("consumer1", &["topic1"], &[]),
            ("consumer2", &["topic1", "topic2"], &[]),
            ("consumer3", &["topic1"], &[]),
        ],
    )
}

#[test]
fn range_and_roundrobin_match_kafkas_mixed_topics_test() {
    let want = expected(&[
        ("consumer1", &[("topic1", 0)]),
        ("consumer2", &[("topic1", 1), ("topic2", 0), ("topic2", 1)]),
        ("consumer3", &[("topic1", 2)]),
    ]);
    assert_eq!(run(Strategy::Range, &mixed_topics()), want);
    assert_eq!(run(Strategy::RoundRobin, &mixed_topics()), want);
}

#[test]
fn range_gives_the_extra_partitions_of_every_topic_to_the_first_members() {
    let group = group(
        &[("a", 5), ("b", 5)],
        &[
            ("m3", &["a", "b"], &[]),
            ("m1", &["a", "b"], &[]),
            ("m2", &["a", "b"], &[]),
        ],
    );
    let assignment = run(Strategy::Range, &group);
    let loads: Vec<usize> = assignment.values().map(Vec::len).collect();
    assert_eq!(loads, [4, 4, 2]);
    assert_eq!(
        assignment["m1"][..2],
        [TopicPartition::new("a", 0), TopicPartition::new("a", 1)]
    );
}

#[test]
fn range_and_roundrobin_sort_member_ids_as_java_strings() {
    // U+FF01 sorts before U+1F600 by bytes (and code points) but after it in UTF-16, which is
    // the order Java's String.compareTo and so Kafka use.
    let (fullwidth, emoji) = ("\u{ff01}", "\u{1f600}");
    let group = group(
        &[("t", 3)],
        &[(fullwidth, &["t"], &[]), (emoji, &["t"], &[])],
    );
    let range = run(Strategy::Range, &group);
    assert_eq!(
        range[emoji],
        [TopicPartition::new("t", 0), TopicPartition::new("t", 1)]
    );
    assert_eq!(range[fullwidth], [TopicPartition::new("t", 2)]);
    let roundrobin = run(Strategy::RoundRobin, &group);
    assert_eq!(
        roundrobin[emoji],
        [TopicPartition::new("t", 0), TopicPartition::new("t", 2)]
    );
    // The output itself lists members by bytes.
    let ids: Vec<&str> = range.keys().map(String::as_str).collect();
    assert_eq!(ids, [fullwidth, emoji]);
}

#[test]
fn members_without_partitions_are_listed_with_nothing() {
    let group = group(
        &[("t", 1)],
        &[("a", &["t"], &[]), ("b", &["t"], &[]), ("idle", &[], &[])],
    );
    for strategy in Strategy::ALL {
        let assignment = run(strategy, &group);
        assert_eq!(assignment.len(), 3, "{strategy}");
        assert!(assignment["idle"].is_empty(), "{strategy}");
        assert_eq!(
            assignment.values().map(Vec::len).sum::<usize>(),
            1,
            "{strategy}"
        );
    }
}

#[test]
fn an_empty_group_assigns_nothing() {
    let group = group(&[("t", 4)], &[]);
    for strategy in Strategy::ALL {
        assert_eq!(run(strategy, &group), Assignment::new());
    }
}

#[test]
fn sticky_keeps_the_contract_example_owner() {
    let group = group(
        &[("orders", 6), ("clicks", 3)],
        &[
            ("c1", &["orders"], &[("orders", 0)]),
            ("c2", &["orders", "clicks"], &[]),
        ],
    );
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let assignment = run(strategy, &group);
        assert!(assignment["c1"].contains(&TopicPartition::new("orders", 0)));
        let clicks = assignment["c2"]
            .iter()
            .filter(|tp| tp.topic == "clicks")
            .count();
        assert_eq!(clicks, 3, "only c2 subscribes to clicks");
        assert_eq!(assignment["c1"].len() + assignment["c2"].len(), 9);
    }
}

#[test]
fn sticky_moves_only_what_a_joining_member_needs() {
    let owned_by_a: &[(&str, u32)] = &[("t", 0), ("t", 1), ("t", 2)];
    let owned_by_b: &[(&str, u32)] = &[("t", 3), ("t", 4), ("t", 5)];
    let group = group(
        &[("t", 6)],
        &[
            ("a", &["t"], owned_by_a),
            ("b", &["t"], owned_by_b),
            ("c", &["t"], &[]),
        ],
    );
    let assignment = run(Strategy::Sticky, &group);
    assert_eq!(assignment["a"].len(), 2);
    assert_eq!(assignment["b"].len(), 2);
    assert_eq!(assignment["c"].len(), 2);
    let kept = |id: &str, owned: &[(&str, u32)]| {
        owned
            .iter()
            .filter(|&&(t, p)| assignment[id].contains(&TopicPartition::new(t, p)))
            .count()
    };
    assert_eq!(kept("a", owned_by_a) + kept("b", owned_by_b), 4);
}

#[test]
fn sticky_hands_a_leaving_members_partitions_to_the_others_and_moves_nothing_else() {
    let group = group(
        &[("t", 6)],
        &[
            ("a", &["t"], &[("t", 0), ("t", 1)]),
            ("c", &["t"], &[("t", 4), ("t", 5)]),
        ],
    );
    let assignment = run(Strategy::Sticky, &group);
    assert!(
        assignment["a"].starts_with(&[TopicPartition::new("t", 0), TopicPartition::new("t", 1)])
    );
    assert!(assignment["c"].ends_with(&[TopicPartition::new("t", 4), TopicPartition::new("t", 5)]));
    assert_eq!(assignment["a"].len(), 3);
    assert_eq!(assignment["c"].len(), 3);
}

#[test]
fn sticky_picks_the_balanced_load_split_that_keeps_ownership() {
    // a subscribes to t1 (2 partitions); b to t1 and t2 (1 partition). Loads 2–1 and 1–2 are
    // both balanced; which one is right depends on who owned what.
    let topics = [("t1", 2), ("t2", 1)];
    let a_owns_t1 = group(
        &topics,
        &[
            ("a", &["t1"], &[("t1", 0), ("t1", 1)]),
            ("b", &["t1", "t2"], &[("t2", 0)]),
        ],
    );
    assert_eq!(
        run(Strategy::Sticky, &a_owns_t1),
        expected(&[("a", &[("t1", 0), ("t1", 1)]), ("b", &[("t2", 0)])])
    );
    let b_owns_t1 = group(
        &topics,
        &[
            ("a", &["t1"], &[("t1", 1)]),
            ("b", &["t1", "t2"], &[("t1", 0), ("t2", 0)]),
        ],
    );
    assert_eq!(
        run(Strategy::Sticky, &b_owns_t1),
        expected(&[("a", &[("t1", 1)]), ("b", &[("t1", 0), ("t2", 0)])])
    );
}

#[test]
fn sticky_keeps_a_staircase_of_loads_when_that_is_balanced() {
    // a–t1–b–t2–c: loads 3, 2, 1 are balanced (each holder is at most one above every other
    // subscriber of its topic), so nothing has to move, although 2, 2, 2 would be evener.
    let group = group(
        &[("t1", 3), ("t2", 3)],
        &[
            ("a", &["t1"], &[("t1", 0), ("t1", 1), ("t1", 2)]),
            ("b", &["t1", "t2"], &[("t2", 0), ("t2", 1)]),
            ("c", &["t2"], &[("t2", 2)]),
        ],
    );
    let assignment = run(Strategy::Sticky, &group);
    let loads: Vec<usize> = assignment.values().map(Vec::len).collect();
    assert_eq!(loads, [3, 2, 1]);
}

#[test]
fn sticky_ignores_owned_partitions_that_no_longer_count() {
    let topics = [("t", 3), ("u", 2)];
    let with_stale_claims = group(
        &topics,
        // a no longer subscribes to u, and t-7 does not exist.
        &[
            ("a", &["t"], &[("u", 0), ("u", 1), ("t", 7), ("t", 2)]),
            ("b", &["t", "u"], &[]),
        ],
    );
    let without = group(
        &topics,
        &[("a", &["t"], &[("t", 2)]), ("b", &["t", "u"], &[])],
    );
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        let assignment = run(strategy, &with_stale_claims);
        assert_eq!(assignment, run(strategy, &without));
        assert!(assignment["a"].contains(&TopicPartition::new("t", 2)));
    }
}

#[test]
fn sticky_gives_a_doubly_claimed_partition_to_one_claimant() {
    let group = group(
        &[("t", 2)],
        &[("a", &["t"], &[("t", 0)]), ("b", &["t"], &[("t", 0)])],
    );
    let assignment = run(Strategy::Sticky, &group);
    assert_eq!(assignment["a"].len(), 1);
    assert_eq!(assignment["b"].len(), 1);
    let holder_of_0 = ["a", "b"]
        .into_iter()
        .filter(|id| assignment[*id].contains(&TopicPartition::new("t", 0)))
        .count();
    assert_eq!(holder_of_0, 1);
}

#[test]
fn cooperative_rebalance_revokes_first_and_moves_in_the_follow_up() {
    let group = group(
        &[("t", 4)],
        &[
            ("a", &["t"], &[("t", 0), ("t", 1), ("t", 2), ("t", 3)]),
            ("b", &["t"], &[]),
        ],
    );
    let rounds = cooperative_rebalance(&group).expect("valid group");
    assert_eq!(rounds.final_assignment, run(Strategy::Sticky, &group));
    assert_eq!(
        rounds.final_assignment,
        run(Strategy::CooperativeSticky, &group)
    );
    // b's two partitions still belong to a in the first round, so b waits for them.
    assert!(rounds.first_round["b"].is_empty());
    assert_eq!(rounds.first_round["a"].len(), 2);
    assert_eq!(rounds.revoked["a"].len(), 2);
    assert!(rounds.revoked["b"].is_empty());
    for tp in &rounds.revoked["a"] {
        assert!(rounds.final_assignment["b"].contains(tp));
    }
}

#[test]
fn cooperative_first_round_hands_out_unowned_partitions_at_once() {
    let group = group(
        &[("t", 4)],
        &[("a", &["t"], &[("t", 0), ("t", 1)]), ("b", &["t"], &[])],
    );
    let rounds = cooperative_rebalance(&group).expect("valid group");
    assert!(rounds.revoked.values().all(Vec::is_empty));
    assert_eq!(rounds.first_round, rounds.final_assignment);
}

#[test]
fn invalid_groups_are_rejected_with_a_one_line_reason() {
    let zero = group(&[("t", 0)], &[("a", &["t"], &[])]);
    let unknown = group(&[("t", 1)], &[("a", &["t", "nope"], &[])]);
    let duplicate = group(&[("t", 1)], &[("a", &["t"], &[]), ("a", &[], &[])]);
    let cases = [
        (
            zero,
            AssignError::TopicWithoutPartitions { topic: "t".into() },
            "\"t\"",
        ),
        (
            unknown,
            AssignError::UnknownTopic {
                member: "a".into(),
                topic: "nope".into(),
            },
            "\"nope\"",
        ),
        (
            duplicate,
            AssignError::DuplicateMember { id: "a".into() },
            "\"a\"",
        ),
    ];
    for (group, error, named) in cases {
        for strategy in Strategy::ALL {
            assert_eq!(assign(strategy, &group), Err(error.clone()));
        }
        let message = error.to_string();
        assert!(message.contains(named), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn the_duplicate_named_is_the_first_member_whose_id_came_before() {
    // "b" is listed first, but "a" is the first id to repeat.
    let ids = ["b", "a", "c", "a", "b"];
    let members: Vec<MemberSpec<'_>> = ids.iter().map(|&id| (id, &["t"][..], &[][..])).collect();
    let group = group(&[("t", 1)], &members);
    let error = assign(Strategy::Range, &group).unwrap_err();
    assert_eq!(error, AssignError::DuplicateMember { id: "a".into() });
}

#[test]
fn absurd_partition_counts_are_an_error_not_an_allocation() {
    let group = group(&[("t", u32::MAX)], &[("a", &["t"], &[])]);
    let error = assign(Strategy::Range, &group).unwrap_err();
    assert!(
        matches!(error, AssignError::TooManyPartitions { .. }),
        "{error}"
    );
    // A huge topic nobody subscribes to costs nothing and is fine.
    let unsubscribed = group_with_idle_topic();
    assert!(assign(Strategy::Sticky, &unsubscribed).is_ok());
}

fn group_with_idle_topic() -> GroupSubscription {
    group(&[("big", u32::MAX), ("t", 2)], &[("a", &["t"], &[])])
}

#[test]
fn strategy_names_match_kafkas() {
    let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.config_name()).collect();
    assert_eq!(
        names,
        ["range", "roundrobin", "sticky", "cooperative-sticky"]
    );
    for strategy in Strategy::ALL {
        assert_eq!(Strategy::parse(strategy.config_name()), Some(strategy));
        let json = serde_json::to_string(&strategy).unwrap();
        assert_eq!(json, format!("\"{}\"", strategy.config_name()));
        assert_eq!(serde_json::from_str::<Strategy>(&json).unwrap(), strategy);
    }
    assert_eq!(Strategy::parse("Range"), None);
    assert_eq!(Strategy::default(), Strategy::Range);
    assert_eq!(
        Strategy::CooperativeSticky.kafka_class_name(),
        "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
    );
    assert_eq!(
        Strategy::Range.kafka_class_name(),
        "org.apache.kafka.clients.consumer.RangeAssignor"
    );
    let cooperative: Vec<Strategy> = Strategy::ALL
        .into_iter()
        .filter(|s| s.is_cooperative())
        .collect();
    assert_eq!(cooperative, [Strategy::CooperativeSticky]);
}

#[test]
fn a_group_the_size_the_simulation_uses_gets_two_partitions_each() {
    // 32 members and 64 partitions, the storm lesson at its largest: every member, including
    // the eight that owned nothing before, ends with two. (How fast this runs is measured by
    // `cargo bench -p streamlab-sim --bench assignor`, not asserted here.)
    let group = simulation_sized_group();
    for strategy in Strategy::ALL {
        let assignment = run(strategy, &group);
        assert_eq!(assignment.len(), 32, "{strategy:?}");
        assert!(
            assignment.values().all(|partitions| partitions.len() == 2),
            "{strategy:?}"
        );
    }
}
