//! Per-partition watermarks and the combined watermark the window operator runs on.
//!
//! Each partition's watermark follows the largest event time processed from it minus
//! `max_out_of_orderness_ms` (Flink's bounded-out-of-orderness generator, without Flink's extra
//! `- 1` so it agrees with the `window` module's rules). The combined watermark is the minimum
//! over the partitions that are not idle: one slow or silent partition holds back every window
//! downstream. With `idleness_ms > 0` a partition that has had no record for that long is
//! declared idle and ignored until its next record (Flink `withIdleness`). If every partition
//! is idle the combined watermark stays where it is. It never goes back, even when an idle
//! partition wakes up behind it: the records that partition then brings are late.

use crate::window::Watermark;

/// One partition's watermark state, as plain data for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartitionWatermark {
    pub partition: u32,
    /// Largest event time processed from this partition minus the out-of-orderness bound;
    /// minus infinity before its first record.
    pub watermark: Watermark,
    /// Processing time of its latest record (0 before the first: the clock starts at 0).
    pub last_record_at_ms: i64,
    /// Whether it is declared idle and so ignored by the combined watermark.
    pub idle: bool,
    /// Records processed from it so far.
    pub records_processed: u64,
}

/// The combined watermark after it moved, for drawing its path over processing time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatermarkStep {
    pub at_ms: i64,
    pub watermark: Watermark,
}

/// A partition going idle or becoming active again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdlenessChange {
    pub at_ms: i64,
    pub partition: u32,
    pub idle: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Watermarks {
    partitions: Vec<PartitionWatermark>,
    combined: Watermark,
    max_out_of_orderness_ms: i64,
    idleness_ms: i64,
    pub(crate) steps: Vec<WatermarkStep>,
    pub(crate) idleness_changes: Vec<IdlenessChange>,
}

impl Watermarks {
    pub(crate) fn new(partitions: u32, max_out_of_orderness_ms: i64, idleness_ms: i64) -> Self {
        let partitions = (0..partitions)
            .map(|partition| PartitionWatermark {
                partition,
                watermark: Watermark::MinusInfinity,
                last_record_at_ms: 0,
                idle: false,
                records_processed: 0,
            })
            .collect();
        Self {
            partitions,
            combined: Watermark::MinusInfinity,
            max_out_of_orderness_ms,
            idleness_ms,
            steps: Vec::new(),
            idleness_changes: Vec::new(),
        }
    }

    pub(crate) fn partitions(&self) -> &[PartitionWatermark] {
        &self.partitions
    }

    pub(crate) fn combined(&self) -> Watermark {
        self.combined
    }

    /// The active partition whose watermark is the minimum, i.e. the one holding every window
    /// back right now (the lowest id on a tie); `None` if every partition is idle.
    pub(crate) fn holding_partition(&self) -> Option<u32> {
        self.partitions
            .iter()
            .filter(|state| !state.idle)
            .min_by_key(|state| (state.watermark, state.partition))
            .map(|state| state.partition)
    }

    /// A record with event time `event_ms` was processed from `partition` at `now_ms`.
    pub(crate) fn observe(&mut self, partition: u32, event_ms: i64, now_ms: i64) {
        let state = &mut self.partitions[partition as usize];
        let candidate = Watermark::At(event_ms - self.max_out_of_orderness_ms);
        state.watermark = state.watermark.max(candidate);
        state.last_record_at_ms = now_ms;
        state.records_processed += 1;
        if state.idle {
            state.idle = false;
            self.idleness_changes.push(IdlenessChange {
                at_ms: now_ms,
                partition,
                idle: false,
            });
        }
    }

    /// The next processing time at which a partition that is active now would be declared
    /// idle, if idle detection is on.
    pub(crate) fn next_idle_deadline_ms(&self) -> Option<i64> {
        if self.idleness_ms == 0 {
            return None;
        }
        self.partitions
            .iter()
            .filter(|state| !state.idle)
            .map(|state| state.last_record_at_ms + self.idleness_ms)
            .min()
    }

    /// Declares idle every partition silent for `idleness_ms` or longer at `now_ms`.
    pub(crate) fn declare_idle(&mut self, now_ms: i64) {
        if self.idleness_ms == 0 {
            return;
        }
        for state in &mut self.partitions {
            if !state.idle && now_ms - state.last_record_at_ms >= self.idleness_ms {
                state.idle = true;
                self.idleness_changes.push(IdlenessChange {
                    at_ms: now_ms,
                    partition: state.partition,
                    idle: true,
                });
            }
        }
    }

    /// Recomputes the combined watermark at `now_ms` and returns it.
    pub(crate) fn recombine(&mut self, now_ms: i64) -> Watermark {
        let slowest_active = self
            .partitions
            .iter()
            .filter(|state| !state.idle)
            .map(|state| state.watermark)
            .min();
        if let Some(candidate) = slowest_active {
            self.move_combined(candidate, now_ms);
        }
        self.combined
    }

    /// The input has ended: everything is complete (Flink emits `Long.MAX_VALUE` when a
    /// bounded source finishes).
    pub(crate) fn end_of_input(&mut self, now_ms: i64) {
        self.move_combined(Watermark::PlusInfinity, now_ms);
    }

    fn move_combined(&mut self, candidate: Watermark, now_ms: i64) {
        if candidate > self.combined {
            self.combined = candidate;
            self.steps.push(WatermarkStep {
                at_ms: now_ms,
                watermark: candidate,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combined_is_the_slowest_active_partition() {
        let mut watermarks = Watermarks::new(2, 100, 0);
        watermarks.observe(0, 5_000, 10);
        assert_eq!(watermarks.recombine(10), Watermark::MinusInfinity);
        watermarks.observe(1, 3_000, 20);
        assert_eq!(watermarks.recombine(20), Watermark::At(2_900));
    }

    #[test]
    fn an_idle_partition_stops_counting_and_waking_up_cannot_pull_it_back() {
        let mut watermarks = Watermarks::new(2, 0, 1_000);
        watermarks.observe(0, 5_000, 10);
        assert_eq!(watermarks.next_idle_deadline_ms(), Some(1_000));
        watermarks.declare_idle(1_000);
        assert_eq!(watermarks.recombine(1_000), Watermark::At(5_000));
        watermarks.observe(1, 1_000, 1_200);
        assert_eq!(watermarks.recombine(1_200), Watermark::At(5_000));
    }
}
