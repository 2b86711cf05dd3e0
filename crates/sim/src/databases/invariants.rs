//! What must hold at every instant of a databases run, checked after every tick in debug
//! builds (`crate::family::debug_check`). The rules read counters the comparisons keep as
//! they go, and recount from scratch only what is small or what the tick changed.
//!
//! * Dual writes: every acknowledged request is, in each dual-write lane, exactly one of
//!   applied, lost or in flight; every exception is a retry or a loss. A connector lane never
//!   applies a write after a newer one of its key, and once its connector has caught up its
//!   index equals the database (the guarantee CDC and the outbox give).
//! * Compaction: offsets only grow; after a cleaning the table read from offset 0 is exactly
//!   the open accounts with their balances (no closed account comes back), and the clean tail
//!   holds one record per key; a tombstone goes no sooner than `delete.retention.ms`.
//! * Snapshot: a snapshot tied to its position misses nothing, applies nothing twice and
//!   never sends a row back; once its stream has caught up, the new store equals the table.
//! * Events are in time order and never ahead of the clock.

use super::bootstrap::{Phase, SnapshotWorld};
use super::compaction::CompactionWorld;
use super::events::{BootstrapMethod, Lane};
use super::sync::SyncWorld;
use super::world::{Comparison, DatabasesWorld};
use std::collections::BTreeSet;

/// Stores up to this many keys are recounted from scratch after every tick.
const RECOUNT_KEYS_MAX: usize = 64;

/// Every rule; the first broken one, as a sentence.
pub(crate) fn check(world: &DatabasesWorld) -> Result<(), String> {
    crate::family::newest_events_in_order(world, world.events_before_tick)?;
    match &world.comparison {
        Comparison::Sync(sync) => check_sync(sync),
        Comparison::Compaction(compaction) => {
            check_compaction(compaction, world.scenario().topic.delete_retention_ms)
        }
        Comparison::Snapshot(snapshot) => check_snapshot(snapshot),
    }
}

fn check_sync(sync: &SyncWorld) -> Result<(), String> {
    let committed = sync.db.log.len();
    if sync.acked > committed || committed > sync.arrived {
        return Err(format!(
            "{} requests arrived, {committed} committed, {} acknowledged: out of order",
            sync.arrived, sync.acked
        ));
    }
    for lane in [Lane::DualWrite, Lane::TryCatch] {
        let d = &sync.dual[lane.index()];
        if d.applied + d.lost_writes + d.in_flight != sync.acked as u64 {
            return Err(format!(
                "{}: {} applied + {} lost + {} in flight is not the {} acknowledged requests",
                lane.name(),
                d.applied,
                d.lost_writes,
                d.in_flight,
                sync.acked
            ));
        }
        if d.exceptions != d.retries + d.lost_writes {
            return Err(format!(
                "{}: {} exceptions, but {} retries and {} losses",
                lane.name(),
                d.exceptions,
                d.retries,
                d.lost_writes
            ));
        }
    }
    for lane in [Lane::Cdc, Lane::Outbox] {
        let store = &sync.stores[lane.index()];
        let connector = sync.connector(lane);
        if sync.out_of_order[lane.index()] > 0 {
            return Err(format!(
                "{} applied a write after a newer one of its key",
                lane.name()
            ));
        }
        if connector.applied_upto > connector.read_upto || connector.read_upto > committed as u64 {
            return Err(format!(
                "{}: applied up to {}, read up to {}, the log ends at {committed}",
                lane.name(),
                connector.applied_upto,
                connector.read_upto
            ));
        }
        if connector.caught_up(&sync.db) && store.divergent > 0 {
            return Err(format!(
                "{} has applied the whole log but differs from the database on {} keys",
                lane.name(),
                store.divergent
            ));
        }
    }
    if sync.db.rows.len() <= RECOUNT_KEYS_MAX {
        for lane in Lane::ALL {
            let store = &sync.stores[lane.index()];
            if store.recount(&sync.db) != store.divergent {
                return Err(format!(
                    "{} counts {} divergent keys, a recount finds {}",
                    lane.name(),
                    store.divergent,
                    store.recount(&sync.db)
                ));
            }
        }
    }
    Ok(())
}

fn check_compaction(world: &CompactionWorld, delete_retention_ms: u64) -> Result<(), String> {
    let log = &world.log;
    if let Some(pair) = log.records.windows(2).find(|p| p[0].offset >= p[1].offset) {
        return Err(format!(
            "offset {} follows offset {} in the log",
            pair[1].offset, pair[0].offset
        ));
    }
    if log.cleaned_upto > log.active_base() {
        return Err(format!(
            "the cleaner's checkpoint {} is inside the active segment (from {})",
            log.cleaned_upto,
            log.active_base()
        ));
    }
    if world.wrong_if_compacted as usize > world.balances.len() {
        return Err("more accounts wrong from their last event than accounts open".into());
    }
    if let Some(watched) = world.watched {
        if let Some(removed) = watched.removed_at_ms {
            if removed < watched.written_at_ms + delete_retention_ms {
                return Err(format!(
                    "the tombstone of key {} written at {} ms went at {removed} ms, before \
                     delete.retention.ms ({delete_retention_ms} ms)",
                    watched.key, watched.written_at_ms
                ));
            }
        }
    }
    if !world.cleaned_this_tick {
        return Ok(());
    }
    if log.table() != world.balances {
        return Err(
            "after a cleaning, reading the log from offset 0 no longer gives the open accounts \
             and their balances"
                .into(),
        );
    }
    let mut seen = BTreeSet::new();
    for r in log
        .records
        .iter()
        .take_while(|r| r.offset < log.cleaned_upto)
    {
        if !seen.insert(r.key) {
            return Err(format!(
                "key {} has two records in the clean tail after a cleaning",
                r.key
            ));
        }
    }
    Ok(())
}

fn check_snapshot(world: &SnapshotWorld) -> Result<(), String> {
    if world.method == BootstrapMethod::Initial
        && (world.missed, world.duplicated, world.regressions) != (0, 0, 0)
    {
        return Err(format!(
            "a snapshot tied to its position missed {}, duplicated {} and sent back {} changes",
            world.missed, world.duplicated, world.regressions
        ));
    }
    if world.missed > world.db.log_end() {
        return Err("more changes missed than were ever committed".into());
    }
    let caught_up = world.phase == Phase::Streaming
        && world
            .connector
            .as_ref()
            .is_some_and(|c| c.caught_up(&world.db));
    if caught_up && world.method == BootstrapMethod::Initial && world.store.divergent > 0 {
        return Err(format!(
            "the new store has every change after its snapshot but differs from the table on \
             {} rows",
            world.store.divergent
        ));
    }
    if world.db.rows.len() <= RECOUNT_KEYS_MAX
        && world.store.recount(&world.db) != world.store.divergent
    {
        return Err("the new store's divergent rows do not match a recount".into());
    }
    Ok(())
}
