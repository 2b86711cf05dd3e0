//! The sticky assignment when every member of a component subscribes to the same topics — the
//! simulation's case (one topic) and the common one — in time linear in partitions and members.
//!
//! With identical subscriptions, balanced means every load is `q` or `q + 1` with
//! `q = P / M`, and exactly `r = P % M` members at `q + 1`. If no partition has two owners,
//! the most a member can keep is `min(owned, its load)`, so the `r` larger loads go to the
//! members owning the most (ties to the lower id), and each keeps its first owned partitions.
//! [`complete`] then hands out the rest exactly as the general search's completion does.

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
