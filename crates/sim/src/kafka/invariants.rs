//! Invariants: what must hold after every tick, checked in tests and property sweeps.
//!
//! [`check_invariants`] looks at one moment; [`InvariantChecker`] also remembers the previous
//! moment so it can check that what must only grow never shrinks. A violation is a sentence
//! naming the broken rule and the numbers that broke it.

use crate::kafka::group::{Group, GroupState};
use crate::kafka::topic::Topic;
use crate::kafka::world::World;

/// Checks everything that must hold at any single moment of a run.
pub fn check_invariants(world: &World) -> Result<(), String> {
    let topic = world.topic();
    let produced = world.producer().sent();
    let in_flight = world.producer().in_flight().count() as u64;
    if topic.total_records() + in_flight != produced {
        return Err(format!(
            "records sent ({produced}) != appended ({}) + in flight ({in_flight})",
            topic.total_records()
        ));
    }
    for group in world.groups() {
        check_offsets_ordered(group, topic)?;
        check_ownership(group)?;
        check_conservation(group, topic)?;
        check_busy_members(group, world.now_ms())?;
    }
    Ok(())
}

/// A member the tick skips would have done nothing if asked: skipping it changes nothing.
fn check_busy_members(group: &Group, now_ms: u64) -> Result<(), String> {
    if group.busy_until_ms.len() != group.members.len() {
        return Err(format!(
            "{}: {} busy times for {} members",
            group.group_id(),
            group.busy_until_ms.len(),
            group.members.len()
        ));
    }
    for (m, &busy_until_ms) in group.busy_until_ms.iter().enumerate() {
        let asleep_until_ms = group.asleep_until_ms(m);
        if busy_until_ms > now_ms && asleep_until_ms < busy_until_ms {
            return Err(format!(
                "{} {}: skipped until {busy_until_ms} ms, but it may act from {asleep_until_ms} ms",
                group.group_id(),
                group.members[m].id
            ));
        }
    }
    Ok(())
}

/// committed <= position <= log end, processed <= position and high water <= log end,
/// everywhere (a reset or `auto.offset.reset` can move processed past the high water).
fn check_offsets_ordered(group: &Group, topic: &Topic) -> Result<(), String> {
    for (p, (progress, log)) in group.partitions.iter().zip(&topic.partitions).enumerate() {
        let end = log.log_end_offset();
        let ordered = progress.committed <= progress.position
            && progress.processed <= progress.position
            && progress.position <= end
            && progress.high_water <= end
            && log.log_start_offset() <= end;
        if !ordered {
            return Err(format!(
                "{} p{p}: committed {} / processed {} / position {} / high water {} / log end {end} out of order",
                group.group_id(),
                progress.committed,
                progress.processed,
                progress.position,
                progress.high_water,
            ));
        }
    }
    Ok(())
}

/// No partition is ever held by two members the coordinator counts in the group (under any
/// protocol, mid-rebalance included); in a Stable group with members, every partition has
/// exactly one owner and the owner agrees.
fn check_ownership(group: &Group) -> Result<(), String> {
    let has_members = group.members.iter().any(|m| m.in_group);
    for (p, progress) in group.partitions.iter().enumerate() {
        let holders: Vec<usize> = (0..group.members.len())
            .filter(|&m| group.members[m].owns(p as u32))
            .collect();
        if holders.len() > 1 {
            return Err(format!(
                "{} p{p} is held by members {holders:?} at once",
                group.group_id()
            ));
        }
        let stable = group.state == GroupState::Stable && has_members;
        if stable && (holders.len() != 1 || progress.owner != Some(holders[0])) {
            return Err(format!(
                "{} p{p} in a stable group: owner {:?} but held by {holders:?}",
                group.group_id(),
                progress.owner
            ));
        }
    }
    Ok(())
}

/// Every processing that reached the sink is either a record's first write or a duplicate; and
/// every record of a partition, from where the group began, is exactly one of: written at least
/// once, dead-lettered, in a live member's hands, lost (skipped below the frontier: by a commit before processing, by
/// retention, by a reset to latest), or still waiting (at or above the frontier). Lost to retention or to a
/// `deleteRecords` call is part of lost or waiting, never more than both.
fn check_conservation(group: &Group, topic: &Topic) -> Result<(), String> {
    let written: u64 = group.sink.partitions.iter().map(|r| r.covered()).sum();
    if group.processed_total != written + group.duplicates_total {
        return Err(format!(
            "{}: processed {} != first-time {written} + duplicates {}",
            group.group_id(),
            group.processed_total,
            group.duplicates_total
        ));
    }
    let tallies = group.tallies();
    let mut produced = 0;
    let mut waiting = 0;
    let mut written_in_span = 0;
    for (p, ((progress, log), runs)) in group
        .partitions
        .iter()
        .zip(&topic.partitions)
        .zip(&group.sink.partitions)
        .enumerate()
    {
        let first = progress.first_offset;
        let frontier = group.frontier(p).max(first);
        produced += log.log_end_offset().saturating_sub(first);
        waiting += log.log_end_offset().saturating_sub(frontier);
        written_in_span += runs.covered_below(frontier) - runs.covered_below(first);
    }
    let accounted =
        written_in_span + tallies.lost + waiting + tallies.dead_lettered + tallies.in_hand;
    if produced != accounted {
        return Err(format!(
            "{}: produced {produced} != processed {written_in_span} + lost {} + waiting {waiting} + dead-lettered {} + in hand {}",
            group.group_id(),
            tallies.lost,
            tallies.dead_lettered,
            tallies.in_hand
        ));
    }
    let deleted_unread = group.lost_to_retention() + group.lost_to_deletion();
    if deleted_unread > tallies.lost + waiting {
        return Err(format!(
            "{}: lost to retention and deletion {deleted_unread} exceeds what is lost or waiting",
            group.group_id(),
        ));
    }
    Ok(())
}

/// Checks a run tick after tick, including what may only grow.
#[derive(Debug, Default)]
pub struct InvariantChecker {
    previous: Option<Seen>,
}

#[derive(Debug)]
struct Seen {
    log_end_offsets: Vec<u64>,
    /// Per group: generation, offset resets so far, and committed offsets.
    groups: Vec<(u32, u64, Vec<u64>)>,
}

impl InvariantChecker {
    pub fn check(&mut self, world: &World) -> Result<(), String> {
        check_invariants(world)?;
        let seen = Seen {
            log_end_offsets: world
                .topic()
                .partitions
                .iter()
                .map(|p| p.log_end_offset())
                .collect(),
            groups: world
                .groups()
                .iter()
                .map(|g| {
                    (
                        g.generation,
                        g.resets_total,
                        g.partitions.iter().map(|p| p.committed).collect(),
                    )
                })
                .collect(),
        };
        if let Some(previous) = &self.previous {
            compare(previous, &seen)?;
        }
        self.previous = Some(seen);
        Ok(())
    }
}

fn compare(before: &Seen, after: &Seen) -> Result<(), String> {
    let grew = |a: &[u64], b: &[u64]| a.iter().zip(b).all(|(x, y)| x <= y);
    if !grew(&before.log_end_offsets, &after.log_end_offsets) {
        return Err("a log end offset went backwards".into());
    }
    for (
        g,
        ((gen_before, resets_before, committed_before), (gen_after, resets_after, committed_after)),
    ) in before.groups.iter().zip(&after.groups).enumerate()
    {
        if gen_after < gen_before {
            return Err(format!(
                "group {g}: generation went from {gen_before} to {gen_after}"
            ));
        }
        // Only an explicit reset may move a committed offset backwards.
        if resets_after == resets_before && !grew(committed_before, committed_after) {
            return Err(format!("group {g}: a committed offset went backwards"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::group::Activity;
    use crate::kafka::scenario::Scenario;

    /// A default-lesson world at 10 s whose first member holds a record until 20 s, skipped
    /// until `busy_until_ms`.
    fn world_with_a_member_skipped_until(busy_until_ms: u64) -> World {
        let mut world = World::new(&Scenario::default()).unwrap();
        world.advance_to(10_000);
        let group = &mut world.groups[0];
        group.members[0].activity = Activity::Processing {
            partition: 0,
            offset: 0,
            started_ms: 9_000,
            done_ms: 20_000,
        };
        group.busy_until_ms[0] = busy_until_ms;
        world
    }

    #[test]
    fn a_member_may_be_skipped_until_its_record_ends_and_no_longer() {
        for busy_until_ms in [0, 10_000, 10_001, 20_000] {
            let world = world_with_a_member_skipped_until(busy_until_ms);
            assert_eq!(check_invariants(&world), Ok(()), "{busy_until_ms}");
        }
        let world = world_with_a_member_skipped_until(20_001);
        let broken = check_invariants(&world).unwrap_err();
        assert!(broken.contains("skipped until 20001 ms"), "{broken}");
    }

    #[test]
    fn a_ready_member_is_not_skipped_after_now() {
        let mut world = world_with_a_member_skipped_until(0);
        world.groups[0].members[0].activity = Activity::Ready;
        for (busy_until_ms, holds) in [(1, true), (10_000, true), (10_001, false)] {
            world.groups[0].busy_until_ms[0] = busy_until_ms;
            assert_eq!(check_invariants(&world).is_ok(), holds, "{busy_until_ms}");
        }
    }
}
