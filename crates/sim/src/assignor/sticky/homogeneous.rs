//! The sticky assignment when every member of a component subscribes to the same topics — the
//! simulation's case (one topic) and the common one — in time linear in partitions and members.
//!
//! With identical subscriptions, balanced means every load is `q` or `q + 1` with
//! `q = P / M`, and exactly `r = P % M` members at `q + 1`. If no partition has two owners,
//! the most a member can keep is `min(owned, its load)`, so the `r` larger loads go to the
//! members owning the most (ties to the lower id), and each keeps its first owned partitions.
//! If a partition has several owners (a member that kept working after it was removed, say),
//! which owner keeps it is a matching problem, solved as a maximum flow
//! ([`keep_most_owned_shared`]). [`complete`] then hands out the rest exactly as the general
//! search's completion does.

use super::flow::FlowNetwork;
use super::{Component, Holdings};

/// The owned partitions each member keeps: a largest set any balanced assignment keeps.
/// Requires identical subscriptions and no partition owned twice.
pub(super) fn keep_most_owned(component: &Component<'_>) -> Holdings {
    let (base_load, extra_loads) = load_split(component);
    let owned = component.owned_by_member();
    let mut by_owned_count: Vec<usize> = (0..owned.len()).collect();
    crate::replay::sort::sort_by_key(&mut by_owned_count, |&member| {
        (std::cmp::Reverse(owned[member].len()), member)
    });
    let mut capacity = vec![base_load; owned.len()];
    for &member in by_owned_count.iter().take(extra_loads) {
        capacity[member] += 1;
    }
    owned
        .into_iter()
        .zip(capacity)
        .map(|(partitions, limit)| partitions.into_iter().take(limit).collect())
        .collect()
}

/// The owned partitions each member keeps when some partition has several owners: a largest
/// set any balanced assignment keeps. A maximum flow finds it: each owned partition sends one
/// unit to one of its owners, every member takes up to `q` units, and `r` of them one more
/// (through a shared node of capacity `r`). Any such set fits a balanced assignment, since
/// the free partitions can go to anyone. Requires identical subscriptions.
pub(super) fn keep_most_owned_shared(component: &Component<'_>) -> Holdings {
    const SOURCE: usize = 0;
    const SINK: usize = 1;
    const EXTRA: usize = 2;
    let (base_load, extra_loads) = load_split(component);
    let members = component.member_ids.len();
    let member_node = |member: usize| 3 + member;
    let mut network = FlowNetwork::new(3 + members);
    for member in 0..members {
        network.add_edge(member_node(member), SINK, base_load as u64, 0);
        network.add_edge(member_node(member), EXTRA, 1, 0);
    }
    network.add_edge(EXTRA, SINK, extra_loads as u64, 0);
    let mut claims = Vec::new();
    for (topic, partitions) in component.owners.iter().enumerate() {
        for (&partition, owners) in partitions {
            let node = network.add_node();
            network.add_edge(SOURCE, node, 1, 0);
            for &member in owners {
                let edge = network.add_edge(node, member_node(member), 1, 0);
                claims.push((edge, member, (topic, partition)));
            }
        }
    }
    network.max_flow(SOURCE, SINK);
    let mut kept = vec![Vec::new(); members];
    for (edge, member, partition) in claims {
        if network.flow_on(edge) > 0 {
            kept[member].push(partition);
        }
    }
    for partitions in &mut kept {
        crate::replay::sort::sort(partitions);
    }
    kept
}

/// The balanced assignment containing `kept` whose member-per-partition sequence (partitions
/// by topic then number, members by id) is lexicographically smallest: each free partition, in
/// order, goes to the lowest member that can still take one. Requires identical subscriptions
/// and a `kept` that some balanced assignment contains.
pub(super) fn complete(component: &Component<'_>, kept: &Holdings) -> Holdings {
    let (base_load, extra_loads) = load_split(component);
    let mut loads: Vec<usize> = kept.iter().map(Vec::len).collect();
    let mut at_extra_load = loads.iter().filter(|&&load| load > base_load).count();
    let taken = component.taken_flags(kept);
    let mut holdings = kept.clone();
    // A member that cannot take a partition now never can again (loads and the number of
    // members at the larger load only grow), so one cursor walks the members once.
    let mut cursor = 0;
    for (topic, flags) in taken.iter().enumerate() {
        for (partition, _) in flags.iter().enumerate().filter(|(_, &is_taken)| !is_taken) {
            while cursor < loads.len()
                && !(loads[cursor] < base_load
                    || (loads[cursor] == base_load && at_extra_load < extra_loads))
            {
                cursor += 1;
            }
            let Some(load) = loads.get_mut(cursor) else {
                return holdings; // unreachable for a `kept` that fits a balanced assignment
            };
            *load += 1;
            if *load > base_load {
                at_extra_load += 1;
            }
            holdings[cursor].push((topic, partition as u32));
        }
    }
    for partitions in &mut holdings {
        crate::replay::sort::sort(partitions);
    }
    holdings
}

/// `(q, r)`: every member holds `q` partitions and `r` of them one more.
fn load_split(component: &Component<'_>) -> (usize, usize) {
    let total = component.shape.total_partitions() as usize;
    let members = component.shape.member_count().max(1);
    (total / members, total % members)
}
