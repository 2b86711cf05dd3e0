//! The boxes of the search and the facts that shrink them.
//!
//! A box bounds every member's load and every topic's *level* (the least load among the
//! topic's subscribers). [`tighten`] narrows a box with consequences of balance that hold for
//! every balanced assignment inside it, so that the relaxation solved on it is tighter.

use super::problem::Problem;

/// One box of the search: bounds on every member's load and on every topic's level.
#[derive(Clone, Debug)]
pub(super) struct SearchBox {
    pub(super) load_min: Vec<u64>,
    pub(super) load_max: Vec<u64>,
    /// Per topic, bounds on its level: the least load among its subscribers.
    pub(super) level_min: Vec<u64>,
    pub(super) level_max: Vec<u64>,
}

pub(super) fn root_bounds(problem: &Problem<'_>) -> SearchBox {
    let load_max = problem
        .member_entries
        .iter()
        .map(|entries| entries.iter().map(|&e| problem.entry_ceiling[e]).sum())
        .collect();
    let topic_count = problem.shape.partition_counts.len();
    SearchBox {
        load_min: vec![0; problem.shape.member_count()],
        load_max,
        level_min: vec![0; topic_count],
        level_max: vec![u64::MAX; topic_count],
    }
}

/// Tightens `bounds` with facts every balanced assignment inside them satisfies, until nothing
/// changes; `None` if the box holds no balanced assignment.
///
/// With `level(t)` the least load among `t`'s subscribers `S(t)`, in a balanced assignment:
/// * every subscriber of `t` has load `>= level(t)`, and a holder of `t` has load
///   `<= level(t) + 1`, so it holds at most `level(t) + 1` of `t`;
/// * `level(t) <= (what S(t) can hold in all) / |S(t)|` — a minimum is at most the average;
/// * `level(t) >= ceil((P_t + 1) / |S(t)|) - 1`, since the least-loaded subscriber holds at
///   most `level(t)` of `t`'s `P_t` partitions and the others at most `level(t) + 1` each;
/// * a member that must hold some of `t` (its entry has a floor, or the other subscribers
///   cannot hold all of `t`) has load at most `level(t) + 1`, so `level(t) >= its load - 1`;
/// * a member's load is at most `level(t) + 1` for the topics it can still hold, and exactly
///   the group's total minus the others' loads;
/// * looking one step further: a member at load `k` leaves every topic it subscribes to at a
///   level `<= k`, so all their partitions must fit with its neighbours at `<= k + 1`; a member
///   at load `h` holds a topic whose other subscribers all carry `>= h - 1`, which must fit in
///   the total.
pub(super) fn tighten(problem: &Problem<'_>, mut bounds: SearchBox) -> Option<SearchBox> {
    let shape = problem.shape;
    let total = problem.total_partitions;
    let mut forced = problem.entry_floor.clone();
    loop {
        let total_min: u64 = bounds.load_min.iter().sum();
        let total_max: u64 = bounds.load_max.iter().sum();
        if total_min > total || total_max < total {
            return None;
        }
        for topic in 0..shape.partition_counts.len() {
            let (low, high) = level_range(problem, &bounds, &forced, topic, total_min);
            let low = low.max(bounds.level_min[topic]);
            let high = high.min(bounds.level_max[topic]);
            if low > high {
                return None;
            }
            bounds.level_min[topic] = low;
            bounds.level_max[topic] = high;
        }
        forced = forced_counts(problem, &bounds, &bounds.level_max)?;
        let totals = LoadTotals {
            min: total_min,
            max: total_max,
        };
        let mut changed = false;
        for member in 0..shape.member_count() {
            let range = member_load_range(problem, &bounds, &forced, member, totals);
            let (low, high) = range;
            if low > high {
                return None;
            }
            if range != (bounds.load_min[member], bounds.load_max[member]) {
                bounds.load_min[member] = low;
                bounds.load_max[member] = high;
                changed = true;
            }
        }
        if !changed {
            return Some(bounds);
        }
    }
}

/// Bounds on `level(topic)`, the least load among its subscribers.
fn level_range(
    problem: &Problem<'_>,
    bounds: &SearchBox,
    forced: &[u64],
    topic: usize,
    total_min: u64,
) -> (u64, u64) {
    let subscribers = &problem.shape.subscribers[topic];
    let count = subscribers.len().max(1) as u64;
    let load_mins = subscribers.iter().map(|&m| bounds.load_min[m]);
    let least_min = load_mins.clone().min().unwrap_or(0);
    let least_max = subscribers
        .iter()
        .map(|&m| bounds.load_max[m])
        .min()
        .unwrap_or(0);
    let others_min = total_min - load_mins.sum::<u64>();
    let holdable =
        problem.neighbourhood_partitions[topic].min(problem.total_partitions - others_min);
    let partitions = problem.shape.partition_counts[topic];
    let forced_holder_min = problem.entry_ids[topic]
        .iter()
        .zip(subscribers)
        .filter(|(&entry, _)| forced[entry] > 0)
        .map(|(_, &member)| bounds.load_min[member].saturating_sub(1))
        .max()
        .unwrap_or(0);
    let low = least_min
        .max((partitions + 1).div_ceil(count) - 1)
        .max(forced_holder_min);
    let high = least_max.min(holdable / count);
    (low, high)
}

/// How many partitions of its topic each entry's member must hold at least: its floor, or what
/// the other subscribers cannot take. `None` if a topic's subscribers cannot hold it all.
fn forced_counts(problem: &Problem<'_>, bounds: &SearchBox, level_max: &[u64]) -> Option<Vec<u64>> {
    let mut forced = problem.entry_floor.clone();
    for (topic, entries) in problem.entry_ids.iter().enumerate() {
        let capacities: Vec<u64> = entries
            .iter()
            .map(|&entry| entry_capacity(problem, bounds, level_max, entry))
            .collect();
        let room: u64 = capacities.iter().sum();
        let partitions = problem.shape.partition_counts[topic];
        if room < partitions {
            return None;
        }
        for (&entry, capacity) in entries.iter().zip(&capacities) {
            let elsewhere = room - capacity;
            forced[entry] = forced[entry].max(partitions.saturating_sub(elsewhere));
        }
    }
    Some(forced)
}

/// The most of its topic an entry's member can hold inside `bounds` (0 if it may hold none).
pub(super) fn entry_capacity(
    problem: &Problem<'_>,
    bounds: &SearchBox,
    level_max: &[u64],
    entry: usize,
) -> u64 {
    let (topic, member) = problem.entries[entry];
    if bounds.load_min[member] > level_max[topic] + 1 {
        return 0;
    }
    problem.entry_ceiling[entry]
        .min(level_max[topic] + 1)
        .min(bounds.load_max[member])
}

/// The sums of all members' load bounds at the start of a tightening pass.
#[derive(Clone, Copy)]
struct LoadTotals {
    min: u64,
    max: u64,
}

/// Bounds on one member's load given the level bounds of its topics.
fn member_load_range(
    problem: &Problem<'_>,
    bounds: &SearchBox,
    forced: &[u64],
    member: usize,
    totals: LoadTotals,
) -> (u64, u64) {
    let (level_min, level_max) = (&bounds.level_min, &bounds.level_max);
    let (total_min, total_max) = (totals.min, totals.max);
    let total = problem.total_partitions;
    let current_min = bounds.load_min[member];
    let mut low = current_min;
    let mut high = bounds.load_max[member];
    let mut required = 0;
    let mut holdable_partitions = 0;
    let mut holdable_level_cap = 0;
    for &entry in &problem.member_entries[member] {
        let topic = problem.entries[entry].0;
        low = low.max(level_min[topic]);
        required += forced[entry];
        if forced[entry] > 0 {
            high = high.min(level_max[topic] + 1);
        }
        let capacity = entry_capacity(problem, bounds, level_max, entry);
        if capacity > 0 {
            holdable_partitions += capacity;
            holdable_level_cap = holdable_level_cap.max(level_max[topic] + 1);
        }
    }
    low = low
        .max(required)
        .max(total.saturating_sub(total_max - bounds.load_max[member]))
        .max(least_load_with_neighbours(problem, bounds, member));
    high = high
        .min(holdable_partitions)
        .min(holdable_level_cap)
        .min(total - (total_min - current_min))
        .min(most_load_with_neighbours(
            problem, bounds, member, total_min,
        ));
    (low, high)
}

/// A member with load `k` has every topic at a level `<= k`, so the partitions of its topics
/// all sit with its neighbours at load `<= k + 1` (and with itself at `<= k`): the least `k`
/// for which they fit.
fn least_load_with_neighbours(problem: &Problem<'_>, bounds: &SearchBox, member: usize) -> u64 {
    let needed = problem.subscribed_partitions[member];
    let fits = |k: u64| {
        let room: u64 = problem.neighbours[member]
            .iter()
            .map(|&other| {
                let limit = if other == member { k } else { k + 1 };
                limit.min(bounds.load_max[other])
            })
            .sum();
        room >= needed
    };
    least_satisfying(bounds.load_min[member], bounds.load_max[member], fits)
}

/// A member with load `h >= 1` holds some topic `t` at level `>= h - 1`, so every other
/// subscriber of `t` has load `>= h - 1`: the largest `h` for which that fits in the total.
fn most_load_with_neighbours(
    problem: &Problem<'_>,
    bounds: &SearchBox,
    member: usize,
    total_min: u64,
) -> u64 {
    let (low, high) = (bounds.load_min[member], bounds.load_max[member]);
    let others_min = total_min - low;
    let budget = problem.total_partitions - others_min;
    let mut best = 0;
    for &entry in &problem.member_entries[member] {
        let topic = problem.entries[entry].0;
        if entry_capacity(problem, bounds, &bounds.level_max, entry) == 0 {
            continue;
        }
        let fits = |h: u64| {
            let lifted: u64 = problem.shape.subscribers[topic]
                .iter()
                .filter(|&&other| other != member)
                .map(|&other| h.saturating_sub(1).saturating_sub(bounds.load_min[other]))
                .sum();
            h + lifted <= budget
        };
        if fits(low) {
            best = best.max(most_satisfying(low, high, fits));
        }
    }
    best
}

/// The least value in `low..=high` where the monotone `fits` holds (`high + 1` if none).
fn least_satisfying(low: u64, high: u64, fits: impl Fn(u64) -> bool) -> u64 {
    let (mut low, mut high) = (low, high.saturating_add(1));
    while low < high {
        let middle = low + (high - low) / 2;
        if fits(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    low
}

/// The largest value in `low..=high` where the antitone `fits` holds; `fits(low)` must hold.
fn most_satisfying(low: u64, high: u64, fits: impl Fn(u64) -> bool) -> u64 {
    let (mut low, mut high) = (low, high);
    while low < high {
        let middle = low + (high - low).div_ceil(2);
        if fits(middle) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    low
}
