//! Kafka's consumer-group partition assignors: who consumes which partition after a rebalance.
//!
//! [`assign`] takes a group (topics with their partition counts, members with their
//! subscriptions and the partitions they owned before the rebalance) and returns every member's
//! new partitions. `range` and `roundrobin` reproduce Kafka's `RangeAssignor` and
//! `RoundRobinAssignor` exactly, including Java's string order for member ids and topics.
//! `sticky` and `cooperative-sticky` compute a balanced assignment that keeps as many owned
//! partitions as any balanced assignment can (see the `sticky` module for the algorithm and
//! its proof sketch); [`cooperative_rebalance`] also shows the two rounds of the cooperative
//! protocol. Everything here is deterministic: ordered maps only, no randomness, no floats.

mod range;
mod roundrobin;
mod sticky;

use crate::replay::sorted_map::{SortedMap, SortedSet};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// The most partitions (summed over the topics some member subscribes to) one call assigns.
///
/// Far above any group a lesson shows; it exists so that a typo such as a billion partitions
/// is an error message instead of an attempt to allocate gigabytes.
pub const MAX_ASSIGNED_PARTITIONS: u64 = 1_000_000;

/// A partition assignment strategy, named as in Kafka's `partition.assignment.strategy`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Strategy {
    #[default]
    #[serde(rename = "range")]
    Range,
    #[serde(rename = "roundrobin")]
    RoundRobin,
    #[serde(rename = "sticky")]
    Sticky,
    #[serde(rename = "cooperative-sticky")]
    CooperativeSticky,
}

impl Strategy {
    /// Every strategy, in the order Kafka introduced them.
    pub const ALL: [Strategy; 4] = [
        Strategy::Range,
        Strategy::RoundRobin,
        Strategy::Sticky,
        Strategy::CooperativeSticky,
    ];

    /// The short name Kafka's assignor reports (`ConsumerPartitionAssignor.name()`).
    pub fn config_name(self) -> &'static str {
        match self {
            Strategy::Range => "range",
            Strategy::RoundRobin => "roundrobin",
            Strategy::Sticky => "sticky",
            Strategy::CooperativeSticky => "cooperative-sticky",
        }
    }

    /// The class a Java consumer lists in `partition.assignment.strategy`.
    pub fn kafka_class_name(self) -> &'static str {
        match self {
            Strategy::Range => "org.apache.kafka.clients.consumer.RangeAssignor",
            Strategy::RoundRobin => "org.apache.kafka.clients.consumer.RoundRobinAssignor",
            Strategy::Sticky => "org.apache.kafka.clients.consumer.StickyAssignor",
            Strategy::CooperativeSticky => {
                "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
            }
        }
    }

    /// Whether members keep consuming unaffected partitions during a rebalance (the
    /// incremental protocol) instead of revoking everything first.
    pub fn is_cooperative(self) -> bool {
        self == Strategy::CooperativeSticky
    }

    /// The strategy whose [`config_name`](Self::config_name) is `name`.
    pub fn parse(name: &str) -> Option<Strategy> {
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.config_name() == name)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.config_name())
    }
}

/// One partition of one topic. Orders by topic (bytes), then partition number.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: u32,
}

impl TopicPartition {
    pub fn new(topic: impl Into<String>, partition: u32) -> Self {
        Self {
            topic: topic.into(),
            partition,
        }
    }
}

/// What one member tells the group leader: its id, the topics it subscribes to, and the
/// partitions it held before this rebalance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberSubscription {
    pub id: String,
    pub topics: Vec<String>,
    /// Ignored where the partition does not exist or the member no longer subscribes to its
    /// topic, as Kafka's sticky assignors do.
    #[serde(default)]
    pub owned: Vec<TopicPartition>,
}

/// Everything an assignor needs: partition counts per topic and every member's subscription.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GroupSubscription {
    pub topics: SortedMap<String, u32>,
    pub members: Vec<MemberSubscription>,
}

/// Every member id mapped to its partitions, sorted; members that get nothing map to `[]`.
///
/// A `SortedMap` (a `BTreeMap`'s order and API on one sorted vector), like the group's topics
/// and the sets below: a group has tens of members, and each B-tree type would compile its
/// own node code into every bundle that runs a consumer group.
pub type Assignment = SortedMap<String, Vec<TopicPartition>>;

/// Why a group cannot be assigned. `Display` is one line naming the problem.
/// `MixedSubscriptions` comes only from [`Assignor::EVERY_IDENTICAL`], the simulation's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssignError {
    TopicWithoutPartitions { topic: String },
    UnknownTopic { member: String, topic: String },
    DuplicateMember { id: String },
    TooManyPartitions { total: u64 },
    MixedSubscriptions,
}

impl fmt::Display for AssignError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssignError::TopicWithoutPartitions { topic } => write!(
                formatter,
                "topic {topic:?} has 0 partitions; a topic needs at least 1"
            ),
            AssignError::UnknownTopic { member, topic } => write!(
                formatter,
                "member {member:?} subscribes to topic {topic:?}, which is not in \"topics\""
            ),
            AssignError::DuplicateMember { id } => {
                write!(formatter, "member id {id:?} appears more than once")
            }
            AssignError::TooManyPartitions { total } => write!(
                formatter,
                "the subscribed topics have {total} partitions in all; \
                 at most {MAX_ASSIGNED_PARTITIONS} are supported"
            ),
            AssignError::MixedSubscriptions => write!(
                formatter,
                "members subscribe to different topics; this assignor table serves groups \
                 whose members all subscribe to the same topics"
            ),
        }
    }
}

impl std::error::Error for AssignError {}

/// The new assignment `strategy` computes for `group`.
///
/// For [`Strategy::CooperativeSticky`] this is the assignment after the follow-up rebalance;
/// it equals [`Strategy::Sticky`]'s (see [`cooperative_rebalance`]).
pub fn assign(strategy: Strategy, group: &GroupSubscription) -> Result<Assignment, AssignError> {
    let group = ValidGroup::new(group)?;
    Ok(match strategy {
        Strategy::Range => range::assign(&group),
        Strategy::RoundRobin => roundrobin::assign(&group),
        Strategy::Sticky => sticky::assign(&group),
        Strategy::CooperativeSticky => {
            cooperative_rounds(&group, general_sticky)
                .expect("the general sticky assignment exists for every group")
                .1
        }
    })
}

/// What a group leader's assignor computes in one rebalance: every member's partitions and
/// what each member must revoke first (empty for the eager strategies).
pub type RebalanceFn = fn(&GroupSubscription) -> Result<(Assignment, Assignment), AssignError>;

/// One strategy with its rebalance.
///
/// A world is built with a table of these rather than calling [`assign`], which matches on a
/// run-time strategy and so links all four assignors: a site bundle whose scenarios use only
/// `range` leaves out the sticky assignors, the largest code of the core, and one built with
/// [`Assignor::EVERY_IDENTICAL`] leaves out their search for mixed subscriptions.
#[derive(Clone, Copy, Debug)]
pub struct Assignor {
    pub strategy: Strategy,
    pub rebalance: RebalanceFn,
}

impl Assignor {
    pub const RANGE: Assignor = Assignor {
        strategy: Strategy::Range,
        rebalance: |group| eager(group, range::assign),
    };
    pub const ROUND_ROBIN: Assignor = Assignor {
        strategy: Strategy::RoundRobin,
        rebalance: |group| eager(group, roundrobin::assign),
    };
    pub const STICKY: Assignor = Assignor {
        strategy: Strategy::Sticky,
        rebalance: |group| eager(group, sticky::assign),
    };
    /// The first round of the cooperative protocol: the follow-up rebalance, which the
    /// revocations trigger, is another call.
    pub const COOPERATIVE_STICKY: Assignor = Assignor {
        strategy: Strategy::CooperativeSticky,
        rebalance: |group| {
            let rounds = cooperative_rebalance(group)?;
            Ok((rounds.first_round, rounds.revoked))
        },
    };

    /// Every strategy Kafka offers, in [`Strategy::ALL`]'s order.
    pub const EVERY: [Assignor; 4] = [
        Assignor::RANGE,
        Assignor::ROUND_ROBIN,
        Assignor::STICKY,
        Assignor::COOPERATIVE_STICKY,
    ];

    /// Every strategy, for groups whose members all subscribe to the same topics, as the
    /// simulation's groups do (they read one topic). The sticky pair gives the same
    /// assignments as in [`Assignor::EVERY`] without the search that mixed subscriptions
    /// need, which is most of the sticky assignors' code, so a site bundle is smaller; a group
    /// with mixed subscriptions gets [`AssignError::MixedSubscriptions`].
    pub const EVERY_IDENTICAL: [Assignor; 4] = [
        Assignor::RANGE,
        Assignor::ROUND_ROBIN,
        Assignor {
            strategy: Strategy::Sticky,
            rebalance: |group| {
                let group = ValidGroup::new(group)?;
                let assignment =
                    sticky::assign_identical(&group).ok_or(AssignError::MixedSubscriptions)?;
                Ok((assignment, Assignment::new()))
            },
        },
        Assignor {
            strategy: Strategy::CooperativeSticky,
            rebalance: |group| {
                let rounds = cooperative_rebalance_with(group, sticky::assign_identical)?;
                Ok((rounds.first_round, rounds.revoked))
            },
        },
    ];

    /// The entry of `table` for `strategy`.
    pub fn find(table: &[Assignor], strategy: Strategy) -> Option<Assignor> {
        table
            .iter()
            .copied()
            .find(|assignor| assignor.strategy == strategy)
    }
}

/// An eager strategy's rebalance: `assign`'s assignment, and nothing to revoke first (every
/// member gives up all its partitions when it rejoins).
fn eager(
    group: &GroupSubscription,
    assign: fn(&ValidGroup<'_>) -> Assignment,
) -> Result<(Assignment, Assignment), AssignError> {
    Ok((assign(&ValidGroup::new(group)?), Assignment::new()))
}

/// The two rounds of the cooperative (incremental) rebalance protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CooperativeRebalance {
    /// What each member holds after the first rebalance: its sticky target, minus partitions
    /// another member still owns (those move only once their owner has revoked them).
    pub first_round: Assignment,
    /// What each member gives up in the first rebalance: owned partitions not in its
    /// `first_round` list.
    pub revoked: Assignment,
    /// What each member holds after the follow-up rebalance, which the revocations trigger.
    pub final_assignment: Assignment,
}

/// Runs the cooperative-sticky protocol on `group`: a first rebalance in which members only
/// revoke, then the follow-up rebalance in which the revoked partitions find their new owners.
///
/// `final_assignment` always equals `assign(Strategy::Sticky, group)`: the sticky assignment
/// of a group that owns a subset of its own result is that result again (see `sticky`).
pub fn cooperative_rebalance(
    group: &GroupSubscription,
) -> Result<CooperativeRebalance, AssignError> {
    cooperative_rebalance_with(group, general_sticky)
}

/// A sticky assignment: the general one, or one that answers only some groups (`None` for
/// the others).
type StickyFn = fn(&ValidGroup<'_>) -> Option<Assignment>;

fn general_sticky(group: &ValidGroup<'_>) -> Option<Assignment> {
    Some(sticky::assign(group))
}

fn cooperative_rebalance_with(
    group: &GroupSubscription,
    sticky: StickyFn,
) -> Result<CooperativeRebalance, AssignError> {
    let group = ValidGroup::new(group)?;
    let (first_round, final_assignment) =
        cooperative_rounds(&group, sticky).ok_or(AssignError::MixedSubscriptions)?;
    let revoked = group
        .members
        .iter()
        .map(|member| {
            let held = &first_round[member.id];
            let given_up: SortedSet<TopicPartition> = member
                .claimed
                .iter()
                .filter(|partition| held.binary_search(partition).is_err())
                .cloned()
                .collect();
            (member.id.to_string(), given_up.into_iter().collect())
        })
        .collect();
    Ok(CooperativeRebalance {
        first_round,
        revoked,
        final_assignment,
    })
}

/// The assignments after the first and after the follow-up rebalance.
fn cooperative_rounds(
    group: &ValidGroup<'_>,
    sticky: StickyFn,
) -> Option<(Assignment, Assignment)> {
    let target = sticky(group)?;
    let first_round = withhold_partitions_owned_elsewhere(group, &target);
    let follow_up = ValidGroup::with_owned(group, &first_round);
    let final_assignment = sticky(&follow_up)?;
    Some((first_round, final_assignment))
}

/// The first cooperative round: a member receives a partition of its target only if it owned
/// it already or no other member claims it.
fn withhold_partitions_owned_elsewhere(group: &ValidGroup<'_>, target: &Assignment) -> Assignment {
    // Every valid claim as (topic, partition, claimant), sorted, so a partition's claimants
    // are one contiguous run.
    let mut claims: Vec<(&str, u32, &str)> = group
        .members
        .iter()
        .flat_map(|member| {
            member
                .owned
                .iter()
                .map(|&(topic, partition)| (topic, partition, member.id))
        })
        .collect();
    crate::replay::sort::sort(&mut claims);
    let receivable = |id: &str, tp: &TopicPartition| {
        let start = claims.partition_point(|&(t, p, _)| (t, p) < (tp.topic.as_str(), tp.partition));
        let mut claimants = claims[start..]
            .iter()
            .take_while(|&&(t, p, _)| (t, p) == (tp.topic.as_str(), tp.partition))
            .peekable();
        claimants.peek().is_none() || claimants.any(|&(_, _, claimant)| claimant == id)
    };
    target
        .iter()
        .map(|(id, partitions)| {
            let kept = partitions
                .iter()
                .filter(|tp| receivable(id, tp))
                .cloned()
                .collect();
            (id.clone(), kept)
        })
        .collect()
}

/// A group that passed validation, with members sorted by id bytes, subscriptions
/// deduplicated and owned partitions filtered to the ones that count.
pub(crate) struct ValidGroup<'a> {
    pub(crate) topics: &'a SortedMap<String, u32>,
    pub(crate) members: Vec<ValidMember<'a>>,
}

pub(crate) struct ValidMember<'a> {
    pub(crate) id: &'a str,
    pub(crate) topics: SortedSet<&'a str>,
    /// Owned partitions that exist and whose topic the member still subscribes to.
    pub(crate) owned: SortedSet<(&'a str, u32)>,
    /// Everything the member said it owned, as given (for revocations).
    pub(crate) claimed: &'a [TopicPartition],
}

impl<'a> ValidGroup<'a> {
    fn new(group: &'a GroupSubscription) -> Result<Self, AssignError> {
        if let Some((topic, _)) = group.topics.iter().find(|(_, &count)| count == 0) {
            return Err(AssignError::TopicWithoutPartitions {
                topic: topic.clone(),
            });
        }
        if let Some(repeat) = first_repeated_id(&group.members) {
            return Err(AssignError::DuplicateMember {
                id: group.members[repeat].id.clone(),
            });
        }
        for member in &group.members {
            if let Some(topic) = member
                .topics
                .iter()
                .find(|topic| !group.topics.contains_key(*topic))
            {
                return Err(AssignError::UnknownTopic {
                    member: member.id.clone(),
                    topic: topic.clone(),
                });
            }
        }
        let members: Vec<ValidMember<'a>> = group
            .members
            .iter()
            .map(|member| ValidMember::new(member, &group.topics))
            .collect();
        let subscribed: SortedSet<&str> = members
            .iter()
            .flat_map(|member| member.topics.iter().copied())
            .collect();
        let total: u64 = subscribed
            .iter()
            .map(|topic| u64::from(group.topics[*topic]))
            .sum();
        if total > MAX_ASSIGNED_PARTITIONS {
            return Err(AssignError::TooManyPartitions { total });
        }
        let mut members = members;
        crate::replay::sort::sort_by(&mut members, |a, b| a.id.cmp(b.id));
        Ok(Self {
            topics: &group.topics,
            members,
        })
    }

    /// The same group with every member's owned partitions replaced by `holdings`.
    fn with_owned(group: &ValidGroup<'a>, holdings: &'a Assignment) -> Self {
        let members = group
            .members
            .iter()
            .map(|member| {
                let held = &holdings[member.id];
                ValidMember {
                    id: member.id,
                    topics: member.topics.clone(),
                    owned: held
                        .iter()
                        .map(|tp| (tp.topic.as_str(), tp.partition))
                        .collect(),
                    claimed: held,
                }
            })
            .collect();
        Self {
            topics: group.topics,
            members,
        }
    }

    /// The partition count of `topic`, which validation guarantees exists.
    pub(crate) fn partition_count(&self, topic: &str) -> u32 {
        self.topics[topic]
    }

    /// An assignment in which every member holds nothing yet.
    pub(crate) fn empty_assignment(&self) -> Assignment {
        self.members
            .iter()
            .map(|member| (member.id.to_string(), Vec::new()))
            .collect()
    }
}

impl<'a> ValidMember<'a> {
    fn new(member: &'a MemberSubscription, topics: &SortedMap<String, u32>) -> Self {
        let subscribed: SortedSet<&'a str> = member.topics.iter().map(String::as_str).collect();
        let owned = member
            .owned
            .iter()
            .filter(|tp| subscribed.contains(&tp.topic.as_str()))
            .filter(|tp| tp.partition < topics[&tp.topic])
            .map(|tp| (tp.topic.as_str(), tp.partition))
            .collect();
        Self {
            id: &member.id,
            topics: subscribed,
            owned,
            claimed: &member.owned,
        }
    }
}

/// The position of the first member whose id an earlier member already has. Found by sorting
/// (id, position) pairs, since inserting ids one by one into a sorted vector would cost n²
/// moves for a long member list in reverse order.
fn first_repeated_id(members: &[MemberSubscription]) -> Option<usize> {
    let mut ids: Vec<(&str, usize)> = members
        .iter()
        .enumerate()
        .map(|(position, member)| (member.id.as_str(), position))
        .collect();
    crate::replay::sort::sort(&mut ids);
    // In a run of one id the positions ascend, so each pair's second is a repeat, and the
    // smallest of them over all runs is the first repeat in the list.
    ids.windows(2)
        .filter(|pair| pair[0].0 == pair[1].0)
        .map(|pair| pair[1].1)
        .min()
}

/// Java's `String.compareTo`: compares UTF-16 code units, which differs from byte order once
/// characters above U+FFFF meet characters in U+E000..U+FFFF. Kafka sorts member ids and
/// topics this way, so range and roundrobin must too to match it exactly.
pub(crate) fn java_string_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Sorts every member's list so output does not depend on the order partitions were handed out.
pub(crate) fn sort_partitions(assignment: &mut Assignment) {
    for partitions in assignment.values_mut() {
        crate::replay::sort::sort(partitions);
    }
}
