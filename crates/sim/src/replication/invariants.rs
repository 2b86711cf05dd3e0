//! What must hold at every instant of a replication run, checked after every tick in debug
//! builds (`crate::family::debug_check`). Each rule reads state the lanes keep as they go,
//! a few numbers per partition, never the whole run again.
//!
//! * The ledger balances: no more records acknowledged or failed than sent, no more lost
//!   than acknowledged.
//! * The controller's leader is in its ISR; the ISR is a non-empty set of the partition's
//!   replicas; a reachable leader knows it leads, in the controller's epoch.
//! * No replica's high watermark passes its log end, and a reachable leader's high watermark
//!   passes no in-sync replica's log end: what the high watermark covers is on every replica
//!   an election may pick.
//! * A follower the current leader has answered with records agrees with it at its last
//!   offset (the cheap check of "a follower's log is a prefix of the leader's"; the property
//!   tests compare whole logs).
//! * The subject lane's events are in time order and never ahead of the clock.

use super::lane::Lane;
use super::world::ReplicationWorld;

/// Every rule; the first broken one, as a sentence.
pub(crate) fn check(world: &ReplicationWorld) -> Result<(), String> {
    crate::family::newest_events_in_order(world, world.events_before_tick)?;
    for lane in world.lanes() {
        check_ledger(lane)?;
        check_partitions(lane)?;
    }
    Ok(())
}

fn check_ledger(lane: &Lane) -> Result<(), String> {
    let l = &lane.ledger;
    if l.acknowledged + l.failed > lane.sent() {
        return Err(format!(
            "acks={:?}: {} acknowledged and {} failed, but only {} sent",
            lane.acks,
            l.acknowledged,
            l.failed,
            lane.sent()
        ));
    }
    if l.acknowledged_then_lost > l.acknowledged || l.consumed_then_lost > l.consumed {
        return Err(format!(
            "acks={:?}: {} lost of {} acknowledged, {} lost of {} consumed",
            lane.acks, l.acknowledged_then_lost, l.acknowledged, l.consumed_then_lost, l.consumed
        ));
    }
    Ok(())
}

fn check_partitions(lane: &Lane) -> Result<(), String> {
    for part in &lane.partitions {
        let p = part.id;
        if part.isr.is_empty() || part.isr.iter().any(|&i| i >= part.reps.len()) {
            return Err(format!(
                "p{p}'s ISR {:?} is not a set of its replicas",
                part.isr
            ));
        }
        if part.isr.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("p{p}'s ISR {:?} repeats or is unordered", part.isr));
        }
        for (r, rep) in part.reps.iter().enumerate() {
            if rep.hw > rep.log.end_offset() {
                return Err(format!(
                    "p{p}: broker {}'s high watermark {} is past its log end {}",
                    rep.broker + 1,
                    rep.hw,
                    rep.log.end_offset()
                ));
            }
            if part.leader != Some(r) {
                check_follower(lane, part, r)?;
            }
        }
        let Some(l) = part.leader else {
            continue;
        };
        if !part.isr.contains(&l) {
            return Err(format!("p{p}'s leader is not in its ISR {:?}", part.isr));
        }
        let leader = &part.reps[l];
        if !lane.connected(leader.broker) {
            continue;
        }
        if leader
            .lead
            .as_ref()
            .is_none_or(|lead| lead.epoch != part.epoch)
        {
            return Err(format!(
                "p{p}: broker {} is reachable but does not know it leads epoch {}",
                leader.broker + 1,
                part.epoch
            ));
        }
        for &i in &part.isr {
            let end = part.reps[i].log.end_offset();
            if leader.hw > end {
                return Err(format!(
                    "p{p}: the high watermark {} passes in-sync broker {}'s log end {end}",
                    leader.hw,
                    part.reps[i].broker + 1
                ));
            }
        }
    }
    Ok(())
}

/// A follower aligned with the current leader agrees with it at its last record.
fn check_follower(lane: &Lane, part: &super::lane::Partition, r: usize) -> Result<(), String> {
    let (Some(l), rep) = (part.leader, &part.reps[r]) else {
        return Ok(());
    };
    if rep.aligned_epoch != Some(part.epoch) || !lane.connected(part.reps[l].broker) {
        return Ok(());
    }
    let leader = &part.reps[l].log;
    let end = rep.log.end_offset();
    if end > leader.end_offset() || (end > 0 && rep.log.entry(end - 1) != leader.entry(end - 1)) {
        return Err(format!(
            "p{}: broker {}'s log (to {end}) is not a prefix of the leader's (to {})",
            part.id,
            rep.broker + 1,
            leader.end_offset()
        ));
    }
    Ok(())
}
