//! Exact branch and bound over balanced assignments, counted per (topic, member) entry.
//!
//! Whether an assignment is balanced depends only on how many partitions of each topic each
//! member holds: member `A` holding some of topic `t` while a subscriber `B` of `t` carries two
//! partitions fewer is the only way to be unbalanced. [`maximize`] finds the best balanced
//! count matrix for a linear objective, subject to per-entry bounds:
//!
//! * a *box* bounds every member's load and every topic's level (the least load among its
//!   subscribers); `bounds::tighten` first narrows it with facts every balanced assignment in
//!   it obeys;
//! * the box's *relaxation* (`relaxation`) is a min-cost flow that keeps only what the box
//!   implies about balance; its optimum bounds every balanced assignment in the box;
//! * if that optimum is balanced, it is the box's best. Otherwise it shows `A` holding `t`
//!   with `load(A) >= load(B) + 2` for a subscriber `B` of `t`, and with `k` between the two
//!   loads the box splits in three: `level(t) > k`; or `level(t) <= k` and `load(A) <= k + 1`;
//!   or `level(t) <= k` and `load(A) >= k + 2`, where `A` cannot hold `t` at all (a holder is
//!   at most one above the level). Every balanced assignment of the box lies in one part and
//!   the violating optimum in none; boxes only shrink, so the search ends;
//! * boxes are explored best bound first, so the first balanced optimum taken from the queue
//!   is the overall best; boxes that cannot beat the best assignment known are dropped.
//!
//! The worst case is exponential (the problem looks hard in general), but the tightening pins
//! loads to `q` or `q + 1` when subscriptions are identical, and lesson-sized groups with
//! mixed subscriptions take well under a millisecond.

use super::bounds::{root_bounds, tighten, SearchBox};
use super::problem::{Objective, PartitionClass, Problem, Solution};
use super::relaxation::relax;
use std::collections::BinaryHeap;

/// The best balanced assignment for `objective`, or `incumbent` if nothing beats it. `None`
/// only when no balanced assignment satisfies the entry bounds and there is no incumbent.
pub(super) fn maximize(
    problem: &Problem<'_>,
    objective: Objective<'_>,
    incumbent: Option<Solution>,
) -> Option<Solution> {
    let best = incumbent;
    let mut queue = SearchQueue::default();
    if let Some(root) = Node::solve(problem, objective, root_bounds(problem)) {
        queue.push(root);
    }
    while let Some(node) = queue.pop() {
        if best
            .as_ref()
            .is_some_and(|known| node.relaxed.value <= known.value)
        {
            break;
        }
        let Some(violation) = find_violation(problem, &node.relaxed.entry_counts) else {
            // Best bound first: nothing left in the queue can beat this balanced optimum.
            return Some(node.relaxed);
        };
        for child in split(&node.bounds, &violation) {
            let Some(child) = Node::solve(problem, objective, child) else {
                continue;
            };
            if best
                .as_ref()
                .is_none_or(|known| child.relaxed.value > known.value)
            {
                queue.push(child);
            }
        }
    }
    best
}

/// A balanced assignment with a high [`Objective::KeptOwned`] score, found quickly: the root
/// relaxation, then single moves from overloaded to underloaded members until balanced. The
/// search starts from it so that most boxes are pruned. Needs entry bounds left at their
/// defaults (nothing required, nothing capped), which is how the kept-owned search runs.
pub(super) fn greedy_balanced(problem: &Problem<'_>) -> Solution {
    let start = Node::solve(problem, Objective::KeptOwned, root_bounds(problem))
        .map(|node| node.relaxed)
        .unwrap_or_else(|| first_subscriber_takes_all(problem));
    let mut class_counts = start.class_counts;
    while let Some(violation) = find_violation(problem, &problem.entry_counts_of(&class_counts)) {
        move_partitions(problem, &mut class_counts, &violation);
    }
    let entry_counts = problem.entry_counts_of(&class_counts);
    let mut solution = Solution {
        value: 0,
        entry_counts,
        class_counts,
    };
    solution.value = problem.score(Objective::KeptOwned, &solution);
    solution
}

/// A valid (unbalanced) assignment that exists whenever every topic has a subscriber.
fn first_subscriber_takes_all(problem: &Problem<'_>) -> Solution {
    let class_counts: Vec<Vec<u64>> = problem
        .classes
        .iter()
        .map(|class| {
            let mut counts = vec![0; problem.shape.subscribers[class.topic].len()];
            if let Some(first) = counts.first_mut() {
                *first = class.size;
            }
            counts
        })
        .collect();
    Solution {
        value: 0,
        entry_counts: problem.entry_counts_of(&class_counts),
        class_counts,
    }
}

/// Moves up to half the load gap of `violation` from the heavy member to the light one,
/// preferring partitions the heavy member does not own and the light member does. Each move
/// lowers the sum of squared loads, so repeating it ends.
fn move_partitions(problem: &Problem<'_>, class_counts: &mut [Vec<u64>], violation: &Violation) {
    let subscribers = &problem.shape.subscribers[violation.topic];
    let (Ok(heavy), Ok(light)) = (
        subscribers.binary_search(&violation.heavy),
        subscribers.binary_search(&violation.light),
    ) else {
        return;
    };
    let preference = |class: &PartitionClass| {
        let heavy_owns = class.owners.contains(&violation.heavy);
        let light_owns = class.owners.contains(&violation.light);
        (heavy_owns, !light_owns)
    };
    let chosen = problem
        .classes
        .iter()
        .enumerate()
        .filter(|(index, class)| class.topic == violation.topic && class_counts[*index][heavy] > 0)
        .min_by_key(|(index, class)| (preference(class), *index))
        .map(|(index, _)| index);
    if let Some(index) = chosen {
        let gap = violation.heavy_load - violation.light_load;
        let moved = class_counts[index][heavy].min(gap / 2).max(1);
        class_counts[index][heavy] -= moved;
        class_counts[index][light] += moved;
    }
}

struct Node {
    bounds: SearchBox,
    relaxed: Solution,
}

impl Node {
    /// Tightens `bounds` and solves the relaxation; `None` if the box holds no balanced
    /// assignment.
    fn solve(problem: &Problem<'_>, objective: Objective<'_>, bounds: SearchBox) -> Option<Node> {
        let bounds = tighten(problem, bounds)?;
        let relaxed = relax(problem, objective, &bounds)?;
        Some(Node { bounds, relaxed })
    }
}

/// Boxes ordered by relaxation value, ties to the most recently created (so the search dives
/// towards complete assignments instead of widening).
#[derive(Default)]
struct SearchQueue {
    order: BinaryHeap<(u64, u64, usize)>,
    nodes: Vec<Option<Node>>,
}

impl SearchQueue {
    fn push(&mut self, node: Node) {
        let sequence = self.nodes.len() as u64;
        self.order
            .push((node.relaxed.value, sequence, self.nodes.len()));
        self.nodes.push(Some(node));
    }

    fn pop(&mut self) -> Option<Node> {
        let (_, _, index) = self.order.pop()?;
        self.nodes[index].take()
    }
}

/// One way the relaxation is unbalanced: `heavy` holds part of `topic`, which `light`
/// subscribes to, and carries at least two partitions more.
#[derive(Clone, Copy, Debug)]
struct Violation {
    heavy: usize,
    light: usize,
    topic: usize,
    heavy_load: u64,
    light_load: u64,
}

/// The violation with the largest load gap (first in entry order among equals), if any.
fn find_violation(problem: &Problem<'_>, entry_counts: &[u64]) -> Option<Violation> {
    let loads = problem.member_loads(entry_counts);
    let mut worst: Option<Violation> = None;
    for (&(topic, heavy), &count) in problem.entries.iter().zip(entry_counts) {
        if count == 0 {
            continue;
        }
        let Some(&light) = problem.shape.subscribers[topic]
            .iter()
            .min_by_key(|&&member| (loads[member], member))
        else {
            continue;
        };
        if loads[heavy] < loads[light] + 2 {
            continue;
        }
        let gap = loads[heavy] - loads[light];
        if worst.is_none_or(|known| gap > known.heavy_load - known.light_load) {
            worst = Some(Violation {
                heavy,
                light,
                topic,
                heavy_load: loads[heavy],
                light_load: loads[light],
            });
        }
    }
    worst
}

/// The three boxes that together hold every balanced assignment of `bounds` but not the
/// relaxation that showed `violation` (see the module documentation).
fn split(bounds: &SearchBox, violation: &Violation) -> Vec<SearchBox> {
    let threshold = violation.light_load + (violation.heavy_load - violation.light_load - 2) / 2;
    let (heavy, topic) = (violation.heavy, violation.topic);

    // Every subscriber of the topic above the threshold...
    let mut level_above = bounds.clone();
    level_above.level_min[topic] = level_above.level_min[topic].max(threshold + 1);

    // ...or one at or below it, and then the heavy member either light enough to hold the
    // topic or too heavy to hold any of it.
    let mut heavy_capped = bounds.clone();
    heavy_capped.level_max[topic] = heavy_capped.level_max[topic].min(threshold);
    heavy_capped.load_max[heavy] = heavy_capped.load_max[heavy].min(threshold + 1);

    let mut heavy_apart = bounds.clone();
    heavy_apart.level_max[topic] = heavy_apart.level_max[topic].min(threshold);
    heavy_apart.load_min[heavy] = heavy_apart.load_min[heavy].max(threshold + 2);

    [level_above, heavy_capped, heavy_apart]
        .into_iter()
        .filter(|child| {
            let loads_fit = child
                .load_min
                .iter()
                .zip(&child.load_max)
                .all(|(l, h)| l <= h);
            let levels_fit = child
                .level_min
                .iter()
                .zip(&child.level_max)
                .all(|(l, h)| l <= h);
            loads_fit && levels_fit
        })
        .collect()
}
