//! A small min-cost flow solver: successive shortest paths with Dijkstra on reduced costs.
//!
//! The sticky search solves one of these per search node, so it is kept simple and exact:
//! integer capacities, `i128` costs (the search stacks several priorities into one cost and
//! needs the headroom), and ties broken by node index so the result is deterministic. Negative
//! edge costs are allowed as long as the network has no negative cycle (the search's networks
//! are layered, so they have no cycles at all); Bellman–Ford sets the first potentials.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub(super) type Cost = i128;

/// One direction of an edge; edge `i` and edge `i ^ 1` are each other's reverse.
struct Edge {
    head: usize,
    residual: u64,
    cost: Cost,
}

pub(super) struct FlowNetwork {
    edges: Vec<Edge>,
    outgoing: Vec<Vec<usize>>,
}

impl FlowNetwork {
    pub(super) fn new(node_count: usize) -> Self {
        Self {
            edges: Vec::new(),
            outgoing: vec![Vec::new(); node_count],
        }
    }

    pub(super) fn add_node(&mut self) -> usize {
        self.outgoing.push(Vec::new());
        self.outgoing.len() - 1
    }

    /// Adds an edge and returns its id, for reading its flow back with [`flow_on`](Self::flow_on).
    pub(super) fn add_edge(
        &mut self,
        tail: usize,
        head: usize,
        capacity: u64,
        cost: Cost,
    ) -> usize {
        let id = self.edges.len();
        self.edges.push(Edge {
            head,
            residual: capacity,
            cost,
        });
        self.edges.push(Edge {
            head: tail,
            residual: 0,
            cost: -cost,
        });
        self.outgoing[tail].push(id);
        self.outgoing[head].push(id + 1);
        id
    }

    /// The flow the last solve routed through edge `id`.
    pub(super) fn flow_on(&self, id: usize) -> u64 {
        self.edges[id + 1].residual
    }

    /// Sends up to `limit` units from `source` to `sink` at the least total cost among all
    /// flows of the amount sent (which is `limit` unless the network cannot carry more).
    /// Returns the amount sent.
    ///
    /// Primal–dual: after each Dijkstra, every shortest path has reduced cost 0, and a blocking
    /// flow over those zero-cost edges sends along all of them at once. The search's networks
    /// have few distinct costs, so this needs far fewer Dijkstra runs than one path at a time.
    pub(super) fn min_cost_flow(&mut self, source: usize, sink: usize, limit: u64) -> u64 {
        let mut potential = self.initial_potentials(source);
        let mut sent = 0;
        while sent < limit {
            let distance = self.shortest_distances(source, &potential);
            if distance[sink].is_none() {
                break;
            }
            for (node, reached) in distance.iter().enumerate() {
                if let Some(extra) = reached {
                    potential[node] += extra;
                }
            }
            sent += self.blocking_flow_on_tight_edges(source, sink, &potential, limit - sent);
        }
        sent
    }

    /// Sends as much as `source` can send to `sink` in a network whose edges all cost 0; the
    /// flows are read back with [`flow_on`](Self::flow_on). At zero potentials every edge
    /// with room is tight, so this is Dinic's algorithm, without the shortest-path rounds
    /// [`min_cost_flow`](Self::min_cost_flow) needs.
    pub(super) fn max_flow(&mut self, source: usize, sink: usize) {
        debug_assert!(self.edges.iter().all(|edge| edge.cost == 0));
        let potential = vec![0; self.outgoing.len()];
        self.blocking_flow_on_tight_edges(source, sink, &potential, u64::MAX);
    }

    /// Whether edge `id` can carry more flow at zero reduced cost.
    fn is_tight(&self, id: usize, tail: usize, potential: &[Cost]) -> bool {
        let edge = &self.edges[id];
        edge.residual > 0 && edge.cost + potential[tail] - potential[edge.head] == 0
    }

    /// Dinic's algorithm restricted to tight edges: sends up to `limit` units.
    fn blocking_flow_on_tight_edges(
        &mut self,
        source: usize,
        sink: usize,
        potential: &[Cost],
        limit: u64,
    ) -> u64 {
        let mut sent = 0;
        while sent < limit {
            let Some(level) = self.tight_levels(source, sink, potential) else {
                break;
            };
            let mut next_edge = vec![0; self.outgoing.len()];
            loop {
                let pushed = self.push_along_levels(
                    source,
                    sink,
                    limit - sent,
                    &level,
                    potential,
                    &mut next_edge,
                );
                if pushed == 0 {
                    break;
                }
                sent += pushed;
                if sent == limit {
                    break;
                }
            }
        }
        sent
    }

    /// Breadth-first distances from `source` over tight edges; `None` if `sink` is not reached.
    fn tight_levels(&self, source: usize, sink: usize, potential: &[Cost]) -> Option<Vec<usize>> {
        let mut level = vec![usize::MAX; self.outgoing.len()];
        level[source] = 0;
        let mut queue = std::collections::VecDeque::from([source]);
        while let Some(tail) = queue.pop_front() {
            for &id in &self.outgoing[tail] {
                let head = self.edges[id].head;
                if level[head] == usize::MAX && self.is_tight(id, tail, potential) {
                    level[head] = level[tail] + 1;
                    queue.push_back(head);
                }
            }
        }
        (level[sink] != usize::MAX).then_some(level)
    }

    /// One augmenting path along increasing levels (depth-first, resuming where earlier
    /// searches left each node's edge list); returns the amount pushed, 0 if none is left.
    fn push_along_levels(
        &mut self,
        node: usize,
        sink: usize,
        limit: u64,
        level: &[usize],
        potential: &[Cost],
        next_edge: &mut [usize],
    ) -> u64 {
        if node == sink {
            return limit;
        }
        while next_edge[node] < self.outgoing[node].len() {
            let id = self.outgoing[node][next_edge[node]];
            let head = self.edges[id].head;
            if level[head] == level[node] + 1 && self.is_tight(id, node, potential) {
                let capacity = limit.min(self.edges[id].residual);
                let pushed =
                    self.push_along_levels(head, sink, capacity, level, potential, next_edge);
                if pushed > 0 {
                    self.edges[id].residual -= pushed;
                    self.edges[id ^ 1].residual += pushed;
                    return pushed;
                }
            }
            next_edge[node] += 1;
        }
        0
    }

    /// Shortest distances from `source` over edges with residual capacity (Bellman–Ford), so
    /// that reduced costs start non-negative. Unreachable nodes get 0; they stay unreachable.
    fn initial_potentials(&self, source: usize) -> Vec<Cost> {
        let mut distance: Vec<Option<Cost>> = vec![None; self.outgoing.len()];
        distance[source] = Some(0);
        for _ in 0..self.outgoing.len() {
            let mut changed = false;
            for (tail, edges) in self.outgoing.iter().enumerate() {
                let Some(base) = distance[tail] else { continue };
                for &id in edges {
                    let edge = &self.edges[id];
                    if edge.residual == 0 {
                        continue;
                    }
                    let candidate = base + edge.cost;
                    if distance[edge.head].is_none_or(|known| candidate < known) {
                        distance[edge.head] = Some(candidate);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        distance.into_iter().map(|d| d.unwrap_or(0)).collect()
    }

    /// Dijkstra on reduced costs: each node's distance, `None` when unreachable.
    fn shortest_distances(&self, source: usize, potential: &[Cost]) -> Vec<Option<Cost>> {
        let node_count = self.outgoing.len();
        let mut distance: Vec<Option<Cost>> = vec![None; node_count];
        let mut settled = vec![false; node_count];
        let mut queue = BinaryHeap::new();
        distance[source] = Some(0);
        queue.push(Reverse((0 as Cost, source)));
        while let Some(Reverse((base, tail))) = queue.pop() {
            if settled[tail] {
                continue;
            }
            settled[tail] = true;
            for &id in &self.outgoing[tail] {
                let edge = &self.edges[id];
                if edge.residual == 0 || settled[edge.head] {
                    continue;
                }
                let candidate = base + edge.cost + potential[tail] - potential[edge.head];
                if distance[edge.head].is_none_or(|known| candidate < known) {
                    distance[edge.head] = Some(candidate);
                    queue.push(Reverse((candidate, edge.head)));
                }
            }
        }
        distance
    }
}
