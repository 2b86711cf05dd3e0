//! The sticky assignors: balanced assignments that keep as many owned partitions as possible.
//!
//! **What is computed.** *Balanced* is Kafka's definition: for any members `A` and `B`, if `A`
//! holds a partition of a topic `B` subscribes to, `A` holds at most one partition more than
//! `B`. Among all valid balanced assignments, the result keeps the largest possible number of
//! owned partitions with their owner. Among those it is the one whose sequence "member of each
//! partition" (partitions by topic then number, members by id bytes) is lexicographically
//! smallest *given which owned partitions are kept*: the non-kept partitions fill up members
//! in id order, like contiguous ranges.
//!
//! **How.** Members and topics split into connected components (members sharing topics); each
//! is solved on its own, in two steps:
//!
//! 1. *Keep*: choose a largest set `K` of owned partitions that some balanced assignment keeps.
//!    With identical subscriptions, balanced means loads `q` or `q + 1`: with no doubly-owned
//!    partition a greedy choice of which members get the `P % M` larger loads is optimal, and
//!    with some a maximum flow finds `K` (`homogeneous`). With mixed subscriptions balanced
//!    loads are not unique (`A: t1` and `B: t1, t2`, with 2 and 1 partitions, balance as 2–1
//!    or 1–2), so an exact branch and bound (`search`) maximises the kept count: boxes of
//!    member loads and topic levels, each bounded by a min-cost-flow relaxation
//!    (`relaxation`) after narrowing with consequences of balance (`bounds`).
//! 2. *Complete*: the lexicographically smallest balanced assignment containing `K`. Within a
//!    topic the free partitions then go to members in ascending order, so this is the same as
//!    maximising, topic by topic and member by member, how many free partitions each member
//!    gets: the same exact search with weights `B^k` that make one weighted maximum the
//!    lexicographic one for a run of members, or a linear greedy with identical subscriptions.
//!
//! Identical subscriptions (the simulation's single topic) take time linear in partitions and
//! members (a small flow where partitions have several owners), and never reach the search:
//! [`assign_identical`] answers only such groups, so a program that calls nothing else (the
//! simulation, through `Assignor::EVERY_IDENTICAL`) leaves the search out. Mixed subscriptions
//! take the search, exponential in the worst case: lesson-sized groups finish in well under a
//! millisecond, but dozens of members spread over many overlapping topics, after an assignment
//! far from balanced, can take seconds.
//!
//! **Why cooperative-sticky ends where sticky does.** The completion is the smallest element
//! of `{balanced G : G ⊇ K}` in an order that does not depend on what anyone owned. In the
//! cooperative follow-up rebalance members own `S` with `K ⊆ S ⊆ F` (`F` our result): the
//! largest keepable set is then `S` itself, and the smallest balanced `G ⊇ S` is `F` again,
//! because `{G ⊇ S}` is a subset of `{G ⊇ K}` that still contains `F`.

mod bounds;
mod flow;
mod homogeneous;
mod problem;
mod relaxation;
mod search;

use super::{sort_partitions, Assignment, TopicPartition, ValidGroup};
use crate::replay::sorted_map::{SortedMap, SortedSet};
use problem::{Objective, PartitionClass, Problem, Shape, Solution};
use std::collections::VecDeque;

/// Per member of a component (local index), its `(topic, partition)` pairs, sorted.
type Holdings = Vec<Vec<(usize, u32)>>;

pub(super) fn assign(group: &ValidGroup<'_>) -> Assignment {
    assign_components(group, |component| Some(solve(component))).expect("every component is solved")
}

/// The same assignment for a group whose members all subscribe to the same topics (the
/// simulation's groups read one topic), or `None` for any other group. It never reaches the
/// search, so a build that only calls this leaves the search out (most of this module's code).
pub(super) fn assign_identical(group: &ValidGroup<'_>) -> Option<Assignment> {
    assign_components(group, |component| {
        component
            .has_identical_subscriptions()
            .then(|| solve_identical(component))
    })
}

fn assign_components(
    group: &ValidGroup<'_>,
    solve: impl Fn(&Component<'_>) -> Option<Holdings>,
) -> Option<Assignment> {
    let mut assignment = group.empty_assignment();
    for component in components(group) {
        let holdings = solve(&component)?;
        for (member, partitions) in holdings.into_iter().enumerate() {
            let Some(assigned) = assignment.get_mut(component.member_ids[member]) else {
                continue;
            };
            assigned.extend(partitions.into_iter().map(|(topic, partition)| {
                TopicPartition::new(component.topic_names[topic], partition)
            }));
        }
    }
    sort_partitions(&mut assignment);
    Some(assignment)
}

fn solve(component: &Component<'_>) -> Holdings {
    if component.has_identical_subscriptions() {
        return solve_identical(component);
    }
    let (kept, balanced) = keep_most_owned(component);
    complete(component, &kept, balanced)
}

/// Identical subscriptions: loads are `q` or `q + 1`, so both steps have direct answers.
fn solve_identical(component: &Component<'_>) -> Holdings {
    let kept = if component.has_shared_owners() {
        homogeneous::keep_most_owned_shared(component)
    } else {
        homogeneous::keep_most_owned(component)
    };
    homogeneous::complete(component, &kept)
}

/// One connected part of the group, with members and topics renumbered from 0 in id/name
/// order.
struct Component<'g> {
    member_ids: Vec<&'g str>,
    topic_names: Vec<&'g str>,
    shape: Shape,
    /// Per topic: each owned partition and its owners (ascending), from valid claims only.
    owners: Vec<SortedMap<u32, Vec<usize>>>,
}

/// The components of `group`'s subscription graph that contain at least one topic.
fn components<'g>(group: &ValidGroup<'g>) -> Vec<Component<'g>> {
    let mut subscribers_by_topic: SortedMap<&str, Vec<usize>> = SortedMap::new();
    for (index, member) in group.members.iter().enumerate() {
        for &topic in &member.topics {
            subscribers_by_topic.entry(topic).or_default().push(index);
        }
    }
    let mut visited = vec![false; group.members.len()];
    let mut found = Vec::new();
    for start in 0..group.members.len() {
        if visited[start] || group.members[start].topics.is_empty() {
            continue;
        }
        let (members, topics) = reachable_from(group, &subscribers_by_topic, start, &mut visited);
        found.push(Component::new(group, members, topics));
    }
    found
}

/// Breadth-first search over member–topic links; returns members and topics, both sorted.
fn reachable_from<'g>(
    group: &ValidGroup<'g>,
    subscribers_by_topic: &SortedMap<&'g str, Vec<usize>>,
    start: usize,
    visited: &mut [bool],
) -> (Vec<usize>, Vec<&'g str>) {
    let mut members = Vec::new();
    let mut topics = SortedSet::new();
    let mut queue = VecDeque::from([start]);
    visited[start] = true;
    while let Some(member) = queue.pop_front() {
        members.push(member);
        for &topic in &group.members[member].topics {
            if !topics.insert(topic) {
                continue;
            }
            for &neighbour in &subscribers_by_topic[topic] {
                if !visited[neighbour] {
                    visited[neighbour] = true;
                    queue.push_back(neighbour);
                }
            }
        }
    }
    crate::replay::sort::sort(&mut members);
    (members, topics.into_iter().collect())
}

impl<'g> Component<'g> {
    fn new(group: &ValidGroup<'g>, members: Vec<usize>, topic_names: Vec<&'g str>) -> Self {
        let topic_index = |name: &str| topic_names.binary_search(&name).ok();
        let mut subscribers = vec![Vec::new(); topic_names.len()];
        let mut subscriptions = Vec::with_capacity(members.len());
        let mut owners: Vec<SortedMap<u32, Vec<usize>>> = vec![SortedMap::new(); topic_names.len()];
        for (local, &global) in members.iter().enumerate() {
            let member = &group.members[global];
            let topics: Vec<usize> = member
                .topics
                .iter()
                .filter_map(|t| topic_index(t))
                .collect();
            for &topic in &topics {
                subscribers[topic].push(local);
            }
            subscriptions.push(topics);
            for &(topic, partition) in &member.owned {
                if let Some(topic) = topic_index(topic) {
                    owners[topic].entry(partition).or_default().push(local);
                }
            }
        }
        let partition_counts = topic_names
            .iter()
            .map(|name| u64::from(group.partition_count(name)))
            .collect();
        Self {
            member_ids: members
                .iter()
                .map(|&index| group.members[index].id)
                .collect(),
            topic_names,
            shape: Shape {
                partition_counts,
                subscribers,
                subscriptions,
            },
            owners,
        }
    }

    fn has_identical_subscriptions(&self) -> bool {
        let all_topics = self.topic_names.len();
        self.shape
            .subscriptions
            .iter()
            .all(|topics| topics.len() == all_topics)
    }

    fn has_shared_owners(&self) -> bool {
        self.owners
            .iter()
            .flat_map(SortedMap::values)
            .any(|owners| owners.len() > 1)
    }

    /// Per member, the partitions it validly owns, sorted.
    fn owned_by_member(&self) -> Holdings {
        let mut owned = vec![Vec::new(); self.member_ids.len()];
        for (topic, partitions) in self.owners.iter().enumerate() {
            for (&partition, owners) in partitions {
                for &member in owners {
                    owned[member].push((topic, partition));
                }
            }
        }
        owned
    }

    /// Per topic, per partition: whether `holdings` already places it.
    fn taken_flags(&self, holdings: &Holdings) -> Vec<Vec<bool>> {
        let mut taken: Vec<Vec<bool>> = self
            .shape
            .partition_counts
            .iter()
            .map(|&count| vec![false; count as usize])
            .collect();
        for &(topic, partition) in holdings.iter().flatten() {
            taken[topic][partition as usize] = true;
        }
        taken
    }

    /// The classes of partitions that are interchangeable for keeping: same topic, same owners.
    fn ownership_classes(&self) -> (Vec<PartitionClass>, Vec<Vec<u32>>) {
        let mut classes = Vec::new();
        let mut members_of_class = Vec::new();
        for (topic, owned) in self.owners.iter().enumerate() {
            let mut by_owners: SortedMap<&[usize], Vec<u32>> = SortedMap::new();
            for (&partition, owners) in owned {
                by_owners.entry(owners).or_default().push(partition);
            }
            let partition_count = self.shape.partition_counts[topic] as u32;
            let unowned: Vec<u32> = (0..partition_count)
                .filter(|partition| !owned.contains_key(partition))
                .collect();
            if !unowned.is_empty() {
                by_owners.insert(&[], unowned);
            }
            for (owners, partitions) in by_owners {
                classes.push(PartitionClass {
                    topic,
                    size: partitions.len() as u64,
                    owners: owners.to_vec(),
                });
                members_of_class.push(partitions);
            }
        }
        (classes, members_of_class)
    }
}

/// Step 1 in general: an exact search for the most owned partitions a balanced assignment
/// keeps. Returns the kept partitions and the balanced assignment (in counts) that keeps them.
fn keep_most_owned(component: &Component<'_>) -> (Holdings, Solution) {
    let (classes, class_partitions) = component.ownership_classes();
    let problem = Problem::new(&component.shape, classes);
    let greedy = search::greedy_balanced(&problem);
    let best =
        search::maximize(&problem, Objective::KeptOwned, Some(greedy.clone())).unwrap_or(greedy);
    let kept = kept_partitions(&problem, component, &class_partitions, &best);
    (kept, best)
}

/// Which owned partitions `solution` keeps: within each class, partitions in order go to the
/// class's holders in member order, and an owner's share is kept.
fn kept_partitions(
    problem: &Problem<'_>,
    component: &Component<'_>,
    class_partitions: &[Vec<u32>],
    solution: &Solution,
) -> Holdings {
    let mut kept = vec![Vec::new(); component.member_ids.len()];
    for (class_index, partitions) in class_partitions.iter().enumerate() {
        let topic = problem.class_topic(class_index);
        let mut next = partitions.iter();
        let subscribers = &component.shape.subscribers[topic];
        for (&member, &count) in subscribers.iter().zip(&solution.class_counts[class_index]) {
            let share: Vec<u32> = next.by_ref().take(count as usize).copied().collect();
            if problem.class_owned_by(class_index, member) {
                kept[member].extend(share.into_iter().map(|partition| (topic, partition)));
            }
        }
    }
    for partitions in &mut kept {
        crate::replay::sort::sort(partitions);
    }
    kept
}

/// Step 2 in general: the lexicographically smallest balanced assignment containing `kept`.
/// Fixes, topic by topic and member by member, the largest count each member can have, with
/// `balanced` (which contains `kept`) as the starting point of every search. Consecutive
/// members of a topic are maximised together, with weights `B^k` (`B` above any count) that
/// make one weighted maximum the lexicographic one.
fn complete(component: &Component<'_>, kept: &Holdings, balanced: Solution) -> Holdings {
    let shape = &component.shape;
    let classes = (0..shape.partition_counts.len())
        .map(|topic| PartitionClass {
            topic,
            size: shape.partition_counts[topic],
            owners: Vec::new(),
        })
        .collect();
    let mut problem = Problem::new(shape, classes);
    let kept_counts = kept_counts(&problem, kept);
    for (entry, &count) in kept_counts.iter().enumerate() {
        problem.bound_entry(entry, count, problem.entry_ceiling(entry));
    }
    let mut current = problem.solution_from_entry_counts(balanced.entry_counts);
    for (topic, &partitions) in shape.partition_counts.iter().enumerate() {
        let entries = problem.entry_ids(topic);
        // The last subscriber's count follows from the others'.
        let open: Vec<usize> = entries[..entries.len().saturating_sub(1)]
            .iter()
            .copied()
            .filter(|&entry| problem.entry_floor(entry) < problem.entry_ceiling(entry))
            .collect();
        for chunk in lexicographic_chunks(&open, partitions + 1) {
            let mut weights = vec![0; problem.entry_count()];
            for (&entry, weight) in chunk.iter().rev().zip(powers(partitions + 1)) {
                weights[entry] = weight;
            }
            let objective = Objective::WeightedEntries(&weights);
            current.value = problem.score(objective, &current);
            current =
                search::maximize(&problem, objective, Some(current.clone())).unwrap_or(current);
            for &entry in chunk {
                let fixed = current.entry_counts[entry];
                problem.bound_entry(entry, fixed, fixed);
            }
        }
    }
    fill_free_partitions(
        component,
        &problem,
        kept,
        &kept_counts,
        &current.entry_counts,
    )
}

/// The largest weight a lexicographic chunk may use, so that weighted scores and the search's
/// costs stay far inside their integer types.
const MAX_CHUNK_WEIGHT: u64 = 1 << 40;

/// Splits `entries` into runs whose weights `base^(len-1) .. base^0` stay below
/// [`MAX_CHUNK_WEIGHT`]; a run has at least one entry.
fn lexicographic_chunks(entries: &[usize], base: u64) -> Vec<&[usize]> {
    let mut chunks = Vec::new();
    let mut rest = entries;
    while !rest.is_empty() {
        let mut length = 1;
        let mut top_weight = 1u64;
        while length < rest.len() {
            match top_weight.checked_mul(base) {
                Some(weight) if weight <= MAX_CHUNK_WEIGHT => top_weight = weight,
                _ => break,
            }
            length += 1;
        }
        let (chunk, tail) = rest.split_at(length);
        chunks.push(chunk);
        rest = tail;
    }
    chunks
}

/// `1, base, base^2, ...`
fn powers(base: u64) -> impl Iterator<Item = u64> {
    std::iter::successors(Some(1u64), move |power| power.checked_mul(base))
}

/// Per entry, how many partitions of its topic its member keeps.
fn kept_counts(problem: &Problem<'_>, kept: &Holdings) -> Vec<u64> {
    let mut counts = vec![0; problem.entry_count()];
    for (member, partitions) in kept.iter().enumerate() {
        for &(topic, _) in partitions {
            if let Some(entry) = problem.entry(topic, member) {
                counts[entry] += 1;
            }
        }
    }
    counts
}

/// Materialises counts: every member keeps `kept`, and each topic's free partitions go, in
/// order, to its subscribers in member order, as many as their counts leave room for.
fn fill_free_partitions(
    component: &Component<'_>,
    problem: &Problem<'_>,
    kept: &Holdings,
    kept_counts: &[u64],
    entry_counts: &[u64],
) -> Holdings {
    let taken = component.taken_flags(kept);
    let mut holdings = kept.clone();
    for (topic, flags) in taken.iter().enumerate() {
        let mut free = (0..flags.len()).filter(|&partition| !flags[partition]);
        let subscribers = &component.shape.subscribers[topic];
        for (&member, &entry) in subscribers.iter().zip(problem.entry_ids(topic)) {
            let room = entry_counts[entry].saturating_sub(kept_counts[entry]);
            holdings[member].extend(
                free.by_ref()
                    .take(room as usize)
                    .map(|partition| (topic, partition as u32)),
            );
        }
    }
    for partitions in &mut holdings {
        crate::replay::sort::sort(partitions);
    }
    holdings
}

#[cfg(test)]
mod tests;
