//! What must hold at every instant of an exactly-once run, checked after every tick in debug
//! builds (`crate::family::debug_check`). Every rule reads what the lanes keep as they go;
//! the one costly check (a completed checkpoint's state against a recount of the input)
//! runs once per checkpoint, in the tick that completed it.
//!
//! * Exactly once inside the job: the microbatch job's and the checkpointing job's state
//!   always equals, key by key, the exact count of the records before their positions, and no
//!   restart ever found them off. A completed checkpoint's state is the exact count of the
//!   records before its positions.
//! * Records are conserved in a streaming instance: what its sources sent and it has not
//!   counted is in its channels or in its hands; positions never pass the sources, sources
//!   never pass the log, a channel never holds more than its capacity, and an aligned
//!   snapshot is taken exactly at the sources' barrier offsets.
//! * Outside the job: a non-idempotent call is duplicated exactly as often as records are
//!   processed again; an idempotent call, a database with offsets and a transactional Kafka
//!   sink read with `read_committed` never let a duplicate out; a fenced store never takes a
//!   stale write, and an unfenced one never refuses one.
//! * Events are in time order and never ahead of the clock.

use super::events::Model;
use super::instance::Instance;
use super::scenario::{Fencing, Isolation, SinkKind, CHANNEL_CAPACITY};
use super::sink::Sink;
use super::streaming::StreamingLane;
use super::tally::Tally;
use super::world::EosWorld;

/// How far the run had got when the latest tick began.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TickMarks {
    events: usize,
    completed_checkpoint: Option<u32>,
}

impl TickMarks {
    pub(crate) fn at_start_of(world: &EosWorld) -> Self {
        Self {
            events: world.events().len(),
            completed_checkpoint: world.checkpoint.completed.as_ref().map(|c| c.id),
        }
    }
}

/// Every rule below; the first broken one, as a sentence.
pub(crate) fn check(world: &EosWorld) -> Result<(), String> {
    crate::family::newest_events_in_order(world, world.tick.events)?;
    if let Some(lane) = &world.microbatch {
        let batch = &lane.batch;
        if lane.running {
            exact_state(Model::Microbatch, &lane.state, &lane.tally)?;
        }
        for (p, (&committed, &at)) in lane
            .committed_offsets
            .iter()
            .zip(&lane.positions)
            .enumerate()
        {
            let end = batch.as_ref().map_or(at, |b| b.planned.end[p]);
            if lane.running && !(committed <= at && at <= end) {
                return Err(format!(
                    "the microbatch job's partition {p} is at {at}, outside its batch \
                     [{committed}, {end}]"
                ));
            }
        }
        outside(Model::Microbatch, &lane.sink, &lane.tally)?;
    }
    for lane in world.streaming_lanes() {
        check_streaming(world, lane)?;
    }
    check_completed_checkpoint(world)
}

/// The state of a model that promises exactly once inside the job is the exact count.
fn exact_state(model: Model, state: &[u64], tally: &Tally) -> Result<(), String> {
    if let Some(key) = (0..state.len()).find(|&k| state[k] != tally.exact[k]) {
        return Err(format!(
            "the {} state holds {} for key-{key}, but {} records of it lie before its positions",
            model.name(),
            state[key],
            tally.exact[key]
        ));
    }
    if tally.state_errors > 0 {
        return Err(format!(
            "a restart of the {} job found its state {} records off",
            model.name(),
            tally.state_errors
        ));
    }
    Ok(())
}

fn check_streaming(world: &EosWorld, lane: &StreamingLane) -> Result<(), String> {
    let log_ends = world.input().log_ends(world.now_ms());
    for instance in [&lane.current, &lane.zombie].into_iter().flatten() {
        conserved(lane.model, instance, &log_ends, world)?;
    }
    if let (Model::Checkpoint, Some(instance)) = (lane.model, &lane.current) {
        exact_state(Model::Checkpoint, &instance.state, &lane.tally)?;
        if let Some(snapshot) = lane.pending.as_ref().filter(|p| p.all_seen.is_some()) {
            let taken = snapshot.snapshot.as_ref().map(|s| &s.positions);
            if !world.scenario().checkpoint.unaligned && taken != Some(&snapshot.source_offsets) {
                return Err(format!(
                    "checkpoint {}'s aligned snapshot is at {taken:?}, not at the sources' \
                     barrier offsets {:?}",
                    snapshot.id, snapshot.source_offsets
                ));
            }
        }
    }
    if lane.pending.is_none() && lane.current.iter().any(|i| i.blocked.contains(&true)) {
        return Err("an input is held back with no checkpoint in progress".into());
    }
    if lane.table.is_none() {
        outside(lane.model, &lane.sink, &lane.tally)?;
    }
    if let Some(table) = &lane.table {
        let fenced = world.scenario().zombie.fencing != Fencing::None;
        if fenced && table.stale_writes > 0 {
            return Err(format!(
                "the fenced store took {} stale writes",
                table.stale_writes
            ));
        }
        if !fenced && table.refused_writes > 0 {
            return Err("an unfenced store refused a write".into());
        }
    }
    Ok(())
}

/// Every record a streaming instance's sources sent is counted, in a channel, or in hand.
fn conserved(
    model: Model,
    instance: &Instance,
    log_ends: &[u32],
    world: &EosWorld,
) -> Result<(), String> {
    let input = world.input();
    for (p, channel) in instance.channels.iter().enumerate() {
        let (source, at) = (instance.source_positions[p], instance.positions[p]);
        if !(at <= source && source <= log_ends[p]) {
            return Err(format!(
                "the {} job's partition {p}: counted to {at}, read to {source}, log end {}",
                model.name(),
                log_ends[p]
            ));
        }
        let in_hand = instance
            .busy
            .is_some_and(|b| input.records[b.seq as usize].partition as usize == p);
        if u64::from(source - at) != channel.records() as u64 + u64::from(in_hand) {
            return Err(format!(
                "the {} job lost track of partition {p}'s records in flight ({} sent, {} \
                 counted, {} in its channel)",
                model.name(),
                source,
                at,
                channel.records()
            ));
        }
        if channel.records() > CHANNEL_CAPACITY {
            return Err(format!(
                "partition {p}'s channel holds {}",
                channel.records()
            ));
        }
    }
    Ok(())
}

/// What the outside world saw agrees with the sink's claim.
fn outside(model: Model, sink: &Sink, tally: &Tally) -> Result<(), String> {
    let name = model.name();
    let claims_once = match sink.kind {
        SinkKind::Email => {
            if sink.duplicates != tally.reprocessed_records {
                return Err(format!(
                    "the {name} job sent {} duplicate emails for {} records processed again",
                    sink.duplicates, tally.reprocessed_records
                ));
            }
            false
        }
        SinkKind::Kafka => {
            model == Model::Checkpoint && sink.isolation() == Isolation::ReadCommitted
        }
        SinkKind::Idempotent | SinkKind::Database => true,
        SinkKind::State => true,
    };
    if claims_once && sink.duplicates > 0 {
        return Err(format!(
            "the {name} job's {:?} sink let out {} duplicates",
            sink.kind, sink.duplicates
        ));
    }
    Ok(())
}

/// A checkpoint completed in this tick holds the exact count of the records before its
/// positions (a recount of the input, once per checkpoint).
fn check_completed_checkpoint(world: &EosWorld) -> Result<(), String> {
    let Some(done) = &world.checkpoint.completed else {
        return Ok(());
    };
    if world.tick.completed_checkpoint == Some(done.id) {
        return Ok(());
    }
    let snapshot = &done.snapshot;
    let exact = world
        .input()
        .exact_counts(&snapshot.positions, snapshot.state.len());
    if exact != snapshot.state {
        return Err(format!(
            "checkpoint {} holds {:?} but the records before its positions count {:?}",
            done.id, snapshot.state, exact
        ));
    }
    Ok(())
}
