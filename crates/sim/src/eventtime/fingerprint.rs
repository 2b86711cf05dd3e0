//! The event-time run's trace hash, folded as the run goes rather than read off a snapshot:
//! every record the processor reads (its index and the event time the pipeline gives it),
//! every move of the combined watermark, and every typed event by
//! [`EventTimeEvent::fold_into`]. Three running hashes, one per stream, so each can be
//! recomputed from the run's plain data (the records read, the watermark's steps, the events)
//! and a test can show that nothing else, narration least of all, feeds the fingerprint. The
//! folds happen at the instants the run visits, which are the same however finely it is
//! advanced, so many small steps and one big step give the same hash.

use super::events::EventTimeEvent;
use super::watermarks::WatermarkStep;
use crate::replay::trace::TraceHasher;
use crate::window::Watermark;

/// The three running folds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunTrace {
    records: TraceHasher,
    watermark: TraceHasher,
    events: TraceHasher,
}

impl RunTrace {
    /// The processor read record `index`, stamped `event_ms`.
    pub(crate) fn fold_record(&mut self, index: u32, event_ms: i64) {
        fold_record(&mut self.records, index, event_ms);
    }

    pub(crate) fn fold_watermark_step(&mut self, step: &WatermarkStep) {
        fold_watermark_step(&mut self.watermark, step);
    }

    pub(crate) fn fold_event(&mut self, event: &EventTimeEvent) {
        event.fold_into(&mut self.events);
    }

    /// The fingerprint of the run at `now_ms`: the three folds, and how far the clock got.
    pub(crate) fn finish(&self, now_ms: i64) -> TraceHasher {
        combine(
            self.records.finish(),
            self.watermark.finish(),
            self.events.finish(),
            now_ms,
        )
    }
}

pub(crate) fn fold_record(trace: &mut TraceHasher, index: u32, event_ms: i64) {
    trace.write_u64(u64::from(index));
    trace.write_u64(event_ms as u64);
}

pub(crate) fn fold_watermark_step(trace: &mut TraceHasher, step: &WatermarkStep) {
    trace.write_u64(step.at_ms as u64);
    match step.watermark {
        Watermark::MinusInfinity => trace.write_u64(0),
        Watermark::At(ms) => {
            trace.write_u64(1);
            trace.write_u64(ms as u64);
        }
        Watermark::PlusInfinity => trace.write_u64(2),
    }
}

pub(crate) fn combine(records: u64, watermark: u64, events: u64, now_ms: i64) -> TraceHasher {
    let mut trace = TraceHasher::default();
    for part in [records, watermark, events, now_ms as u64] {
        trace.write_u64(part);
    }
    trace
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eventtime::{drop_vs_restate_vs_side, idle_partition_stalls, outage_spike};
    use crate::eventtime::{EventTimeScenario, EventTimeWorld};

    /// The hash rebuilt from the run's plain data alone: the records read, the watermark's
    /// moves and the typed events. If it matches, nothing else fed the fingerprint, and no
    /// sentence can have.
    fn refolded(world: &EventTimeWorld) -> TraceHasher {
        let timestamp = world.scenario().timestamp;
        let mut records = TraceHasher::default();
        for record in world.records_seen() {
            fold_record(&mut records, record.index, record.event_time_ms(timestamp));
        }
        let mut watermark = TraceHasher::default();
        for step in &world.snapshot().watermark_steps {
            fold_watermark_step(&mut watermark, step);
        }
        let mut events = TraceHasher::default();
        for event in world.events() {
            event.fold_into(&mut events);
        }
        combine(
            records.finish(),
            watermark.finish(),
            events.finish(),
            world.now_ms(),
        )
    }

    #[test]
    fn the_hash_is_the_records_the_watermark_and_the_typed_events_and_nothing_else() {
        for scenario in [
            outage_spike(),
            drop_vs_restate_vs_side(),
            idle_partition_stalls(),
        ] {
            let mut world = EventTimeWorld::new(scenario).unwrap();
            for at_ms in [0, 30_000, 61_234, 400_000] {
                world.advance_to(at_ms);
                assert_eq!(world.trace_hash(), refolded(&world), "{at_ms}");
            }
        }
    }

    #[test]
    fn another_seed_or_another_moment_is_another_hash() {
        let at = |scenario: EventTimeScenario, at_ms| {
            let mut world = EventTimeWorld::new(scenario).unwrap();
            world.advance_to(at_ms);
            world.trace_hash()
        };
        let mut other = outage_spike();
        other.seed += 1;
        assert_ne!(at(outage_spike(), 50_000), at(other, 50_000));
        assert_ne!(at(outage_spike(), 50_000), at(outage_spike(), 50_001));
        assert_eq!(at(outage_spike(), 50_000), at(outage_spike(), 50_000));
    }
}
