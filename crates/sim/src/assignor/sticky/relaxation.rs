//! The relaxation of one search box: a min-cost flow that ignores the balance rule except for
//! what the box's bounds imply, so its optimum bounds every balanced assignment in the box.

use super::bounds::{entry_capacity, SearchBox};
use super::flow::{Cost, FlowNetwork};
use super::problem::{Objective, Problem, Solution};

/// The relaxation of one box as a min-cost flow. Per topic, a *pool* node collects the
/// partitions nobody owns and any owned ones their owners give up; owned partitions reach
/// their owners' entries directly. Entries (a member's share of a topic) carry the entry
/// bounds and the box's caps, members carry the load bounds:
///
/// `source → owned class → (owner's entry | topic pool) → entry → member → sink`,
/// `source → topic pool → entry`.
///
/// Costs stack three priorities, each worth more than everything below it can add up to:
/// meeting every lower bound, then the objective, then (only to steer the search towards
/// balanced relaxations) a convex cost on each member's load.
pub(super) fn relax(
    problem: &Problem<'_>,
    objective: Objective<'_>,
    bounds: &SearchBox,
) -> Option<Solution> {
    let total = problem.total_partitions;
    let weights = CostWeights::for_objective(total, problem.max_score(objective));
    let capacities: Vec<u64> = (0..problem.entries.len())
        .map(|entry| entry_capacity(problem, bounds, &bounds.level_max, entry))
        .collect();
    if (0..problem.entries.len()).any(|e| problem.entry_floor[e] > capacities[e]) {
        return None;
    }

    let member_count = problem.shape.member_count();
    let topic_count = problem.shape.partition_counts.len();
    let (source, sink) = (0, 1);
    let mut network = FlowNetwork::new(2 + member_count + topic_count);
    let member_node = |member: usize| 2 + member;
    let pool_node = |topic: usize| 2 + member_count + topic;
    let mut lower_bound_edges = Vec::new();

    // Entries: pool → entry → member.
    let mut entry_nodes = vec![usize::MAX; problem.entries.len()];
    let mut pool_edges = vec![None; problem.entries.len()];
    for (entry, &(topic, member)) in problem.entries.iter().enumerate() {
        let capacity = capacities[entry];
        if capacity == 0 {
            continue;
        }
        let node = network.add_node();
        entry_nodes[entry] = node;
        let gain = match objective {
            Objective::KeptOwned => 0,
            Objective::WeightedEntries(entry_weights) => entry_weights[entry],
        };
        let pool_cost = -weights.objective * Cost::from(gain);
        pool_edges[entry] = Some(network.add_edge(pool_node(topic), node, capacity, pool_cost));
        let floor = problem.entry_floor[entry];
        if floor > 0 {
            let id = network.add_edge(node, member_node(member), floor, -weights.required);
            lower_bound_edges.push((id, floor));
        }
        network.add_edge(node, member_node(member), capacity - floor, 0);
    }

    // Classes: unowned ones feed their pool; owned ones go to an owner or to the pool.
    let mut owner_edges: Vec<Vec<(usize, usize)>> = Vec::with_capacity(problem.classes.len());
    let mut pool_feeds: Vec<Option<usize>> = Vec::with_capacity(problem.classes.len());
    for class in &problem.classes {
        if class.owners.is_empty() {
            pool_feeds.push(Some(network.add_edge(
                source,
                pool_node(class.topic),
                class.size,
                0,
            )));
            owner_edges.push(Vec::new());
            continue;
        }
        let node = network.add_node();
        network.add_edge(source, node, class.size, 0);
        pool_feeds.push(Some(network.add_edge(
            node,
            pool_node(class.topic),
            class.size,
            0,
        )));
        let kept_cost = match objective {
            Objective::KeptOwned => -weights.objective,
            Objective::WeightedEntries(_) => 0,
        };
        let mut edges = Vec::new();
        for (position, &entry) in problem.entry_ids[class.topic].iter().enumerate() {
            let member = problem.entries[entry].1;
            if entry_nodes[entry] != usize::MAX && class.owners.contains(&member) {
                let id = network.add_edge(node, entry_nodes[entry], class.size, kept_cost);
                edges.push((position, id));
            }
        }
        owner_edges.push(edges);
    }

    for member in 0..member_count {
        let (low, high) = (bounds.load_min[member], bounds.load_max[member]);
        if low > 0 {
            let id = network.add_edge(member_node(member), sink, low, -weights.required);
            lower_bound_edges.push((id, low));
        }
        for (capacity, cost) in convex_pieces(low, high) {
            network.add_edge(member_node(member), sink, capacity, cost);
        }
    }

    if network.min_cost_flow(source, sink, total) < total {
        return None;
    }
    if lower_bound_edges
        .iter()
        .any(|&(edge, required)| network.flow_on(edge) < required)
    {
        return None;
    }
    let class_counts = attribute_flows(problem, &network, &owner_edges, &pool_feeds, &pool_edges);
    let mut solution = Solution {
        value: 0,
        entry_counts: problem.entry_counts_of(&class_counts),
        class_counts,
    };
    solution.value = problem.score(objective, &solution);
    Some(solution)
}

/// Per class, per subscriber position, how many of the class the relaxation gives each member:
/// direct owner flows, plus each pool's inflow (classes in order) shared out over its outflow
/// (entries in member order). Any such split is a solution of the same relaxation.
fn attribute_flows(
    problem: &Problem<'_>,
    network: &FlowNetwork,
    owner_edges: &[Vec<(usize, usize)>],
    pool_feeds: &[Option<usize>],
    pool_edges: &[Option<usize>],
) -> Vec<Vec<u64>> {
    let mut class_counts: Vec<Vec<u64>> = problem
        .classes
        .iter()
        .map(|class| vec![0; problem.entry_ids[class.topic].len()])
        .collect();
    for (class, edges) in owner_edges.iter().enumerate() {
        for &(position, id) in edges {
            class_counts[class][position] += network.flow_on(id);
        }
    }
    for (topic, entries) in problem.entry_ids.iter().enumerate() {
        let mut supply: Vec<(usize, u64)> = problem
            .classes
            .iter()
            .enumerate()
            .filter(|(_, class)| class.topic == topic)
            .filter_map(|(index, _)| Some((index, network.flow_on(pool_feeds[index]?))))
            .filter(|&(_, amount)| amount > 0)
            .collect();
        supply.reverse();
        for (position, &entry) in entries.iter().enumerate() {
            let mut wanted = pool_edges[entry].map_or(0, |id| network.flow_on(id));
            while wanted > 0 {
                let Some((class, available)) = supply.last_mut() else {
                    break;
                };
                let taken = wanted.min(*available);
                class_counts[*class][position] += taken;
                *available -= taken;
                wanted -= taken;
                if *available == 0 {
                    supply.pop();
                }
            }
        }
    }
    class_counts
}

/// The cost scale of [`relax`]: `required` outweighs any objective plus convex cost, and
/// `objective` outweighs any difference in convex cost (each unit's convex cost is at most
/// `2 * total`, so all of them at most `2 * total^2`).
struct CostWeights {
    objective: Cost,
    required: Cost,
}

impl CostWeights {
    fn for_objective(total: u64, max_score: u64) -> Self {
        let total = Cost::from(total);
        let objective = 2 * total * total + 1;
        Self {
            objective,
            required: objective * (Cost::from(max_score) + 1),
        }
    }
}

/// Edges `(capacity, cost per unit)` that charge loads above `low` (up to `high`) increasingly:
/// unit by unit when the range is short, in at most [`CONVEX_PIECES`] equal pieces when long.
fn convex_pieces(low: u64, high: u64) -> Vec<(u64, Cost)> {
    let span = high.saturating_sub(low);
    let width = span.div_ceil(CONVEX_PIECES).max(1);
    let mut pieces = Vec::new();
    let mut start = low + 1;
    while start <= high {
        let end = (start + width - 1).min(high);
        // The sum of the first and last load of the piece: twice its midpoint, increasing.
        pieces.push((end - start + 1, Cost::from(start + end - 1)));
        start = end + 1;
    }
    pieces
}

const CONVEX_PIECES: u64 = 64;
