//! What must hold at every instant of a queues run, checked after every tick in debug builds
//! (`crate::family::debug_check`). Every rule reads counters the lanes keep as they go and
//! the events of the latest tick, never the whole run again, so a check costs about as much
//! as the tick it follows.
//!
//! * Every record is accounted for once in each reader: the consumer group's committed
//!   offsets add up to its completed records; each share-partition's Acknowledged, Archived,
//!   Acquired and Available records add up to its end offset, and no illegal transition (a
//!   second acknowledgement, a delivery of an archived record, a delivery count past the
//!   limit) was ever tried; the queue's messages are acknowledged, dead-lettered, ready or
//!   unacknowledged at one consumer.
//! * The share group's acquisition locks are kept in deadline order, at most one batch per
//!   member, and each member knows whether it has one (an idle member without one skips its
//!   poll when nothing is acquirable).
//! * The consumer group never processes a partition with two members at once and, while the
//!   partition count stays put, never inverts a key's order.
//! * Each lane of the backpressure and direct comparisons conserves its records: sent equals
//!   processed plus lost plus waiting, and a broker never loses one.
//! * Kinesis shards never accept more than their limits in a second.
//! * Events are in time order and never ahead of the clock.
//! * The due time the world keeps for each reader lane is the one the lane gives now (a lane
//!   whose steps a tick skipped must have had nothing to do).

use super::kinesis::{SHARD_BYTES_PER_S, SHARD_RECORDS_PER_S};
use super::lane_dues::LaneDues;
use super::world::QueuesWorld;

/// How far the run had got when the latest tick began.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TickMarks {
    /// Events told before it.
    pub(crate) events: usize,
}

impl TickMarks {
    pub(crate) fn at_start_of(world: &QueuesWorld) -> Self {
        Self {
            events: world.events().len(),
        }
    }
}

/// Every rule below; the first broken one, as a sentence.
pub(crate) fn check(world: &QueuesWorld) -> Result<(), String> {
    crate::family::newest_events_in_order(world, world.tick.events)?;
    check_production(world)?;
    check_consumer_group(world)?;
    check_share_group(world)?;
    check_queue(world)?;
    check_pipes(world)?;
    check_kinesis(world)?;
    check_lane_dues(world)
}

/// The kept due times are the lanes' own.
fn check_lane_dues(world: &QueuesWorld) -> Result<(), String> {
    let fresh = LaneDues::of(world);
    if world.lane_dues != fresh {
        return Err(format!(
            "the reader lanes' kept due times {:?} are not what the lanes say, {fresh:?}",
            world.lane_dues
        ));
    }
    Ok(())
}

/// Every record due by now has gone into the topic, the queue or the stream.
fn check_production(world: &QueuesWorld) -> Result<(), String> {
    if !world.pipes.is_empty() {
        return Ok(());
    }
    let offered = world.offered();
    if world.arrived() != offered {
        return Err(format!(
            "{offered} records were due by {} ms but {} were produced",
            world.now_ms(),
            world.arrived()
        ));
    }
    if world.kinesis.is_none() {
        let in_logs: u64 = world.logs().iter().map(|l| l.len() as u64).sum();
        if in_logs != offered {
            return Err(format!(
                "the partitions hold {in_logs} records, the producer sent {offered}"
            ));
        }
    }
    Ok(())
}

fn check_consumer_group(world: &QueuesWorld) -> Result<(), String> {
    let Some(group) = world.consumer_group.as_ref() else {
        return Ok(());
    };
    let logs = world.logs();
    let committed: u64 = group.partitions.iter().map(|p| p.committed).sum();
    if committed != group.order.completed_count || group.order.duplicates != 0 {
        return Err(format!(
            "the consumer group committed {committed} records but completed {} (and {} twice)",
            group.order.completed_count, group.order.duplicates
        ));
    }
    for (p, partition) in group.partitions.iter().enumerate() {
        if partition.committed > logs[p].len() as u64 {
            return Err(format!(
                "partition {p}'s committed offset {} is past its end {}",
                partition.committed,
                logs[p].len()
            ));
        }
        if let Some(member) = partition.busy_by {
            let work = group.members[member as usize].work;
            let on_it =
                work.is_some_and(|w| w.partition == p as u32 && w.offset == partition.committed);
            if !on_it {
                return Err(format!(
                    "partition {p} is marked busy by consumer-{member}, which is not processing \
                     its next record"
                ));
            }
        }
    }
    for (id, member) in group.members.iter().enumerate() {
        if let Some(work) = member.work {
            let partition = &group.partitions[work.partition as usize];
            if partition.busy_by != Some(id as u32) || !member.alive {
                return Err(format!(
                    "consumer-{id} processes partition {} without holding it",
                    work.partition
                ));
            }
        }
    }
    if !group.repartitioned && group.order.inversions != 0 {
        return Err(format!(
            "the consumer group inverted a key's order {} times on a fixed partition count",
            group.order.inversions
        ));
    }
    Ok(())
}

fn check_share_group(world: &QueuesWorld) -> Result<(), String> {
    let Some(group) = world.share_group.as_ref() else {
        return Ok(());
    };
    let share = &world.scenario().share;
    for (p, partition) in group.partitions.iter().enumerate() {
        if let Some(violation) = &partition.violation {
            return Err(format!("share group: {violation}"));
        }
        let settled_or_not = partition.acknowledged + partition.archived + partition.unsettled();
        if settled_or_not != partition.speo() {
            return Err(format!(
                "share-partition {p}: {} acknowledged, {} archived and {} in flight do not add \
                 up to its end offset {}",
                partition.acknowledged,
                partition.archived,
                partition.unsettled(),
                partition.speo()
            ));
        }
        if partition.speo() > world.logs()[p].len() as u64
            || partition.in_flight() > u64::from(share.partition_max_record_locks)
        {
            return Err(format!(
                "share-partition {p} holds offsets {}..{} in flight, past its log or its \
                 record-lock limit",
                partition.spso,
                partition.speo()
            ));
        }
    }
    // One lock duration for the whole run, locks appended as they are taken and removed in
    // place: they stay in deadline order, which lets expiry and the next due time look at the
    // first lock alone.
    if let Some(pair) = group
        .locks
        .windows(2)
        .find(|pair| pair[0].deadline_ms > pair[1].deadline_ms)
    {
        return Err(format!(
            "share group: locks out of deadline order, one due at {} ms before one due at {} ms",
            pair[0].deadline_ms, pair[1].deadline_ms
        ));
    }
    for (id, member) in group.members.iter().enumerate() {
        let batches = group.locks.iter().filter(|l| l.member == id as u32).count();
        if batches > 1 || member.holds_lock != (batches == 1) {
            return Err(format!(
                "share group: member {id} has {batches} lock batches but counts itself as {} one",
                if member.holds_lock {
                    "holding"
                } else {
                    "not holding"
                }
            ));
        }
    }
    if group.acknowledged() > group.order.completed_count {
        return Err(format!(
            "the share group acknowledged {} records but processed only {}",
            group.acknowledged(),
            group.order.completed_count
        ));
    }
    Ok(())
}

fn check_queue(world: &QueuesWorld) -> Result<(), String> {
    let Some(queue) = world.queue.as_ref() else {
        return Ok(());
    };
    let placed = queue.acked + queue.dead_lettered + queue.ready.len() as u64 + queue.unacked();
    if placed != world.arrived() {
        return Err(format!(
            "the queue holds {placed} messages acknowledged, dead-lettered, ready or unacked, \
             but {} were published",
            world.arrived()
        ));
    }
    if queue.acked != queue.order.completed_count {
        return Err(format!(
            "the queue acknowledged {} messages but {} were processed",
            queue.acked, queue.order.completed_count
        ));
    }
    let prefetch = world.scenario().queue.prefetch_count as usize;
    for (id, consumer) in queue.consumers.iter().enumerate() {
        let over = prefetch > 0 && consumer.unacked.len() > prefetch;
        if over || (!consumer.alive && !consumer.unacked.is_empty()) {
            return Err(format!(
                "consumer-{id} of the queue holds {} unacknowledged messages (prefetch \
                 {prefetch}, alive {})",
                consumer.unacked.len(),
                consumer.alive
            ));
        }
    }
    Ok(())
}

fn check_pipes(world: &QueuesWorld) -> Result<(), String> {
    let offered = world.offered();
    for pipe in &world.pipes {
        let name = pipe.kind.name();
        let cursor = pipe.cursor as u64;
        let behind_ok = pipe.kind == super::events::PipeKind::Block || cursor == offered;
        if cursor > offered || !behind_ok || pipe.sent != cursor {
            return Err(format!(
                "the {name} lane sent {} records up to #{cursor}, with {offered} due",
                pipe.sent
            ));
        }
        if pipe.sent != pipe.processed + pipe.lost() + pipe.depth() {
            return Err(format!(
                "the {name} lane sent {} records, but {} were processed, {} lost and {} wait",
                pipe.sent,
                pipe.processed,
                pipe.lost(),
                pipe.depth()
            ));
        }
        if pipe.kind.is_durable() && pipe.lost() != pipe.lost_to_retention {
            return Err(format!(
                "the {name} lane lost records other than to retention"
            ));
        }
        let over = !pipe.kind.is_durable() && pipe.memory.len() as u64 > pipe.capacity;
        if over || (!pipe.spill && !pipe.disk.is_empty()) {
            return Err(format!(
                "the {name} lane holds {} records in memory (capacity {}) and {} on disk",
                pipe.memory.len(),
                pipe.capacity,
                pipe.disk.len()
            ));
        }
    }
    Ok(())
}

fn check_kinesis(world: &QueuesWorld) -> Result<(), String> {
    let Some(kinesis) = world.kinesis.as_ref() else {
        return Ok(());
    };
    if kinesis.accepted() + kinesis.throttled() != world.arrived() {
        return Err(format!(
            "Kinesis accepted {} and throttled {} of {} puts",
            kinesis.accepted(),
            kinesis.throttled(),
            world.arrived()
        ));
    }
    for (i, shard) in kinesis.shards.iter().enumerate() {
        if shard.records_this_second > SHARD_RECORDS_PER_S
            || shard.bytes_this_second > SHARD_BYTES_PER_S
        {
            return Err(format!(
                "shard {i} accepted {} records and {} bytes in one second",
                shard.records_this_second, shard.bytes_this_second
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queues::QueuesScenario;

    #[test]
    fn a_tampered_consumer_group_is_caught() {
        let mut world = QueuesWorld::new(QueuesScenario::default()).unwrap();
        world.advance_to(2_000);
        assert_eq!(check(&world), Ok(()));
        let group = world.consumer_group.as_mut().unwrap();
        group.partitions[0].committed += 1;
        assert!(check(&world).unwrap_err().contains("committed"));
    }

    #[test]
    fn share_locks_out_of_deadline_order_are_caught() {
        let mut world = QueuesWorld::new(QueuesScenario::default()).unwrap();
        world.advance_to(2_000);
        let group = world.share_group.as_mut().unwrap();
        assert!(group.locks.len() >= 2, "members hold locks two seconds in");
        group.locks.reverse();
        assert!(check(&world).unwrap_err().contains("deadline"));
    }

    #[test]
    fn a_member_wrong_about_its_lock_batch_is_caught() {
        let mut world = QueuesWorld::new(QueuesScenario::default()).unwrap();
        world.advance_to(2_000);
        let group = world.share_group.as_mut().unwrap();
        let holder = group.locks[0].member as usize;
        group.members[holder].holds_lock = false;
        assert!(check(&world).unwrap_err().contains("lock batches"));
    }

    #[test]
    fn a_lane_due_time_kept_stale_is_caught() {
        let mut world = QueuesWorld::new(QueuesScenario::default()).unwrap();
        world.advance_to(2_000);
        world.lane_dues.queue = Some(1);
        assert!(check(&world).unwrap_err().contains("kept due times"));
    }

    #[test]
    fn a_queue_that_loses_a_message_is_caught() {
        let mut world = QueuesWorld::new(QueuesScenario::default()).unwrap();
        world.advance_to(2_000);
        let queue = world.queue.as_mut().unwrap();
        queue.acked -= 1;
        assert!(check(&world).is_err());
    }
}
