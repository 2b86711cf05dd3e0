//! What must hold at every instant of an event-time run, checked after every tick in debug
//! builds (`crate::family::debug_check`). Each check reads the world's state now and what the
//! latest tick changed (its events, records read and watermark moves, from the [`TickMarks`]
//! the tick left behind), never the whole run again, so a check costs about as much as the
//! tick it follows and long runs stay quick under test.

use super::events::{EventTimeEvent, EventTimeEventKind, WindowKind};
use super::scenario::{LateRecordPolicy, TimeDomain};
use super::world::EventTimeWorld;
use crate::window::Watermark;

/// How far the run had got when the latest tick began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TickMarks {
    /// Events told before it.
    pub(crate) events: usize,
    /// Records read before it.
    pub(crate) seen: usize,
    /// Moves of the combined watermark before it.
    pub(crate) watermark_steps: usize,
    /// Records the event-time operator had dropped before it.
    pub(crate) dropped: u64,
    /// The combined watermark before it.
    pub(crate) combined: Watermark,
}

impl Default for TickMarks {
    fn default() -> Self {
        Self {
            events: 0,
            seen: 0,
            watermark_steps: 0,
            dropped: 0,
            combined: Watermark::MinusInfinity,
        }
    }
}

/// Every rule below; the first broken one, as a sentence.
pub(crate) fn check(world: &EventTimeWorld) -> Result<(), String> {
    check_reading(world)?;
    check_every_record_reached_the_operator(world)?;
    check_partition_watermarks(world)?;
    check_combined_watermark(world)?;
    check_too_late_records(world)?;
    check_tick_events(world)
}

/// The processor never reads ahead of the clock, nor leaves a record unread past its time.
fn check_reading(world: &EventTimeWorld) -> Result<(), String> {
    let now_ms = world.now_ms();
    let seen = world.records_seen();
    if let Some(last) = seen.last().filter(|last| last.processed_ms > now_ms) {
        return Err(format!(
            "record #{} read at {} ms, after the clock ({now_ms} ms)",
            last.index, last.processed_ms
        ));
    }
    let next = world.records().get(seen.len());
    if let Some(next) = next.filter(|r| r.processed_ms < now_ms) {
        return Err(format!(
            "record #{} was due at {} ms and is still unread at {now_ms} ms",
            next.index, next.processed_ms
        ));
    }
    Ok(())
}

/// Every record read went into the event-time operator: counted, or dropped as too late.
fn check_every_record_reached_the_operator(world: &EventTimeWorld) -> Result<(), String> {
    let read = world.records_seen().len() as u64;
    let summary = world.event_time_summary();
    if summary.events != read || summary.dropped > summary.events {
        return Err(format!(
            "{read} records read but the event-time operator took {} and dropped {}",
            summary.events, summary.dropped
        ));
    }
    Ok(())
}

/// Each partition's watermark is the largest event time read from it minus the bounded
/// out-of-orderness (Flink `forBoundedOutOfOrderness`), minus infinity before its first
/// record, and the partitions together read every record.
fn check_partition_watermarks(world: &EventTimeWorld) -> Result<(), String> {
    let out_of_orderness_ms = world.scenario().max_out_of_orderness_ms;
    let partitions = world.watermarks().partitions();
    for (state, largest) in partitions.iter().zip(world.largest_event_ms()) {
        let expected = largest.map_or(Watermark::MinusInfinity, |ms| {
            Watermark::At(ms - out_of_orderness_ms)
        });
        if state.watermark != expected {
            return Err(format!(
                "partition {}'s watermark is {:?}, but its largest event time read is {largest:?} \
                 and the out-of-orderness bound {out_of_orderness_ms} ms",
                state.partition, state.watermark
            ));
        }
    }
    let read: u64 = partitions.iter().map(|p| p.records_processed).sum();
    if read != world.records_seen().len() as u64 {
        return Err(format!(
            "the partitions read {read} records, the processor {}",
            world.records_seen().len()
        ));
    }
    Ok(())
}

/// The combined watermark never goes back; after the input it is plus infinity; otherwise it
/// is the minimum of the active partitions' watermarks, held where it stood when that
/// minimum falls behind it. The minimum can fall only when a partition wakes up from
/// idleness, so in a tick where none did it must equal the larger of where it stood and that
/// minimum (where it stood, if every partition is idle).
fn check_combined_watermark(world: &EventTimeWorld) -> Result<(), String> {
    let watermarks = world.watermarks();
    let combined = watermarks.combined();
    let tick = world.tick();
    let steps = &watermarks.steps;
    let recent = &steps[tick.watermark_steps.saturating_sub(1)..];
    if let Some(pair) = recent
        .windows(2)
        .find(|p| p[0].watermark >= p[1].watermark || p[0].at_ms > p[1].at_ms)
    {
        return Err(format!(
            "the combined watermark went from {:?} at {} ms to {:?} at {} ms",
            pair[0].watermark, pair[0].at_ms, pair[1].watermark, pair[1].at_ms
        ));
    }
    let last = steps
        .last()
        .map_or(Watermark::MinusInfinity, |s| s.watermark);
    if last != combined || combined < tick.combined {
        return Err(format!(
            "the combined watermark is {combined:?}, its last move says {last:?}, and it stood \
             at {:?} before this tick",
            tick.combined
        ));
    }
    if world.input_ended() {
        return if combined == Watermark::PlusInfinity {
            Ok(())
        } else {
            Err(format!(
                "the input ended, yet the watermark is {combined:?}"
            ))
        };
    }
    let active_minimum = watermarks
        .partitions()
        .iter()
        .filter(|p| !p.idle)
        .map(|p| p.watermark)
        .min();
    let woke_up = (world.events().iter_from(tick.events))
        .any(|e| matches!(e.kind, EventTimeEventKind::PartitionActive { .. }));
    let expected = active_minimum.map_or(tick.combined, |minimum| minimum.max(tick.combined));
    let below_minimum = active_minimum.is_some_and(|minimum| combined < minimum);
    if below_minimum || (!woke_up && combined != expected) {
        return Err(format!(
            "the combined watermark is {combined:?}, but the active partitions' minimum is \
             {active_minimum:?} and it stood at {:?}",
            tick.combined
        ));
    }
    Ok(())
}

/// Too-late records are exactly the operator's drops, and they reach the side output under
/// the side-output policy (Flink `sideOutputLateData`) and under no other.
fn check_too_late_records(world: &EventTimeWorld) -> Result<(), String> {
    let tick = world.tick();
    let dropped = world.event_time_summary().dropped;
    let told = (world.events().iter_from(tick.events))
        .filter(|e| matches!(e.kind, EventTimeEventKind::RecordTooLate { .. }))
        .count() as u64;
    if dropped < tick.dropped || told != dropped - tick.dropped {
        return Err(format!(
            "{told} too-late records told in this tick, but drops went from {} to {dropped}",
            tick.dropped
        ));
    }
    let aside = world.scenario().late_policy == LateRecordPolicy::SideOutput;
    let side_outputs = world.side_outputs().len() as u64;
    if side_outputs != if aside { dropped } else { 0 } {
        return Err(format!(
            "{side_outputs} side outputs for {dropped} drops under {:?}",
            world.scenario().late_policy
        ));
    }
    Ok(())
}

/// The latest tick's events come in time order, none ahead of the clock, and each says
/// something that is true now.
fn check_tick_events(world: &EventTimeWorld) -> Result<(), String> {
    let from = world.tick().events;
    crate::family::newest_events_in_order(world, from)?;
    for event in world.events().iter_from(from) {
        check_event(world, event).map_err(|broken| format!("{broken}: {event:?}"))?;
    }
    Ok(())
}

/// What one event claims about the world, checked against it.
fn check_event(world: &EventTimeWorld, event: &EventTimeEvent) -> Result<(), &'static str> {
    let combined = world.combined_watermark();
    let kind = WindowKind::of(world.scenario().window);
    let partition_idle = |partition: u32| world.watermarks().partitions()[partition as usize].idle;
    let on_the_clock = |end_ms: i64| {
        event.at_ms == end_ms.max(0) as u64
            || (world.input_ended() && event.at_ms == world.input_end_ms().max(0) as u64)
    };
    let rule = |holds: bool, broken: &'static str| if holds { Ok(()) } else { Err(broken) };
    match event.kind {
        EventTimeEventKind::PaneFired {
            clock: TimeDomain::EventTime,
            end_ms,
            ..
        } => rule(
            combined.has_reached(end_ms),
            "an on-time pane for a window the watermark has not passed",
        ),
        EventTimeEventKind::WindowClosed {
            clock: TimeDomain::EventTime,
            end_ms,
            ..
        } => rule(
            combined.has_reached(end_ms) && kind.is_shared(),
            "a window closed by event time that the watermark has not passed, or not shared",
        ),
        EventTimeEventKind::PaneFired {
            clock: TimeDomain::ProcessingTime,
            end_ms,
            ..
        } => rule(
            on_the_clock(end_ms),
            "a processing-time pane neither at its window's end nor at the input's end",
        ),
        EventTimeEventKind::WindowClosed {
            clock: TimeDomain::ProcessingTime,
            end_ms,
            ..
        } => rule(
            on_the_clock(end_ms) && kind.is_shared(),
            "a processing-time window closed off the clock, or not shared",
        ),
        EventTimeEventKind::LatePaneFired { closed_at_ms, .. } => rule(
            closed_at_ms.is_some_and(|closed_at_ms| closed_at_ms <= event.at_ms),
            "a late pane before the watermark passed its window's end (its on-time answer)",
        ),
        EventTimeEventKind::SessionsMerged { merged, .. } => rule(
            kind == WindowKind::Session && merged > 0,
            "sessions merged in a run without session windows",
        ),
        EventTimeEventKind::RecordTooLate { routed_aside, .. } => rule(
            routed_aside == (world.scenario().late_policy == LateRecordPolicy::SideOutput),
            "a too-late record routed aside under another policy than the side output, or kept \
             from it under that policy",
        ),
        EventTimeEventKind::PartitionIdle { partition, .. } => rule(
            partition_idle(partition),
            "a partition declared idle that is active",
        ),
        EventTimeEventKind::PartitionActive { partition } => rule(
            !partition_idle(partition),
            "a partition active again that is idle",
        ),
        EventTimeEventKind::OutageStarted { .. } | EventTimeEventKind::ProcessorBack { .. } => {
            Ok(())
        }
    }
}
