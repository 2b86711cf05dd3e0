//! The microbatch lane (Spark Structured Streaming's model).
//!
//! At every `trigger(processingTime=...)` instant, if no batch is running and new records
//! exist, a batch is planned: its offset range (from the last committed offsets to each
//! partition's end) is written to the offset log first. Its records are then counted one at
//! a time, in the order they were written, each update going to the sink as it is made;
//! when the last is counted the batch commits its state, its offsets and (for the database)
//! its output transaction together. A trigger that finds a batch running is remembered, and
//! the next batch starts as soon as that one ends; with a trigger of 0, batches follow one
//! another. A failure throws away the running batch's state; after the restart delay the job
//! reads the offset log and runs the same batch again, over the same range, from the last
//! committed state.

use super::events::{EosEventKind, Model, RestoreFrom};
use super::instance::Busy;
use super::lane::Ctx;
use super::records::Input;
use super::scenario::{EosScenario, SinkKind};
use super::sink::{Delivery, Sink};
use super::streaming::next_multiple;
use super::tally::Tally;

/// The batch the offset log holds: planned, not yet committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub id: u32,
    pub start: Vec<u32>,
    pub end: Vec<u32>,
}

/// A running batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub planned: Planned,
    /// Its records, in the order they were written.
    pub records: Vec<u32>,
    /// How many are counted.
    pub done: usize,
    pub started_at_ms: u64,
    pub busy: Option<Busy>,
    pub rerun: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MicrobatchLane {
    pub epoch: u32,
    pub running: bool,
    pub restart_at_ms: Option<u64>,
    /// The running batch's working state and positions.
    pub state: Vec<u64>,
    pub positions: Vec<u32>,
    /// What the last committed batch left: what a restart goes back to.
    pub committed_state: Vec<u64>,
    pub committed_offsets: Vec<u32>,
    pub batch: Option<Batch>,
    /// The offset log's latest entry, while its batch is not committed.
    pub planned: Option<Planned>,
    pub batches_committed: u32,
    next_batch: u32,
    next_trigger_ms: u64,
    overdue: bool,
    pub sink: Sink,
    pub tally: Tally,
    duplicate_told: bool,
}

impl MicrobatchLane {
    pub fn new(scenario: &EosScenario, records: usize) -> Self {
        let partitions = scenario.input.partitions as usize;
        let keys = scenario.input.keys as usize;
        let delivery = match scenario.sink.kind {
            SinkKind::Database => Delivery::PerBatch,
            _ => Delivery::Plain,
        };
        Self {
            epoch: 1,
            running: true,
            restart_at_ms: None,
            state: vec![0; keys],
            positions: vec![0; partitions],
            committed_state: vec![0; keys],
            committed_offsets: vec![0; partitions],
            batch: None,
            planned: None,
            batches_committed: 0,
            next_batch: 1,
            next_trigger_ms: scenario.microbatch.trigger_ms,
            overdue: false,
            sink: Sink::new(
                scenario.sink.kind,
                scenario.sink.isolation_level,
                delivery,
                records,
                partitions,
            ),
            tally: Tally::new(keys, partitions),
            duplicate_told: false,
        }
    }

    /// When the lane next has something to do (`next_record_ms`: when the next record is
    /// written, which a batch-after-batch trigger waits for when idle).
    pub fn due_ms(&self, scenario: &EosScenario, next_record_ms: Option<u64>) -> Option<u64> {
        if !self.running {
            return self.restart_at_ms;
        }
        if let Some(batch) = &self.batch {
            return Some(batch.busy.map_or(batch.started_at_ms, |b| b.done_at_ms));
        }
        if scenario.microbatch.trigger_ms == 0 {
            return next_record_ms;
        }
        Some(self.next_trigger_ms)
    }

    pub fn tick(&mut self, ctx: &mut Ctx) {
        let now = ctx.now_ms;
        if self.restart_at_ms.is_some_and(|at| at <= now) {
            self.restart_at_ms = None;
            self.restart(ctx);
        }
        if !self.running {
            return;
        }
        let trigger_ms = ctx.scenario.microbatch.trigger_ms;
        if trigger_ms > 0 && self.next_trigger_ms <= now {
            self.next_trigger_ms = next_multiple(self.next_trigger_ms, trigger_ms, now);
            self.overdue = true;
        }
        loop {
            if self.batch.is_none() {
                if !(self.overdue || trigger_ms == 0) || !self.start(ctx.input, now, false) {
                    break;
                }
                self.overdue = false;
            }
            if !self.count_next(ctx) {
                break;
            }
        }
    }

    /// Plans a batch of everything written since the committed offsets; false if there is
    /// nothing new (Spark runs no empty batch).
    fn start(&mut self, input: &Input, now_ms: u64, rerun: bool) -> bool {
        let planned = match (&self.planned, rerun) {
            (Some(planned), true) => planned.clone(),
            _ => {
                let end = input.log_ends(now_ms);
                if end == self.committed_offsets {
                    return false;
                }
                let planned = Planned {
                    id: self.next_batch,
                    start: self.committed_offsets.clone(),
                    end,
                };
                self.next_batch += 1;
                self.planned = Some(planned.clone());
                planned
            }
        };
        let mut records: Vec<u32> = (0..planned.end.len())
            .flat_map(|p| {
                input.logs[p][planned.start[p] as usize..planned.end[p] as usize]
                    .iter()
                    .copied()
            })
            .collect();
        crate::replay::sort::sort(&mut records);
        self.batch = Some(Batch {
            planned,
            records,
            done: 0,
            started_at_ms: now_ms,
            busy: None,
            rerun,
        });
        true
    }

    /// Moves the running batch on at this instant; true if it committed (and another may
    /// start now).
    fn count_next(&mut self, ctx: &mut Ctx) -> bool {
        let now = ctx.now_ms;
        let processing_ms = ctx.scenario.processing_ms.max(1);
        loop {
            let Some(batch) = self.batch.as_mut() else {
                return false;
            };
            match batch.busy {
                Some(busy) if busy.done_at_ms > now => return false,
                Some(busy) => {
                    batch.busy = None;
                    batch.done += 1;
                    self.counted(ctx, busy.seq);
                }
                None => match batch.records.get(batch.done) {
                    Some(&seq) => {
                        batch.busy = Some(Busy {
                            seq,
                            started_at_ms: now,
                            done_at_ms: now + processing_ms,
                        });
                    }
                    None => {
                        self.commit(ctx);
                        return true;
                    }
                },
            }
        }
    }

    fn counted(&mut self, ctx: &mut Ctx, seq: u32) {
        let record = ctx.input.records[seq as usize];
        ctx.fold_count(Model::Microbatch, self.epoch, seq);
        self.state[record.key as usize] += 1;
        self.positions[record.partition as usize] += 1;
        self.tally.processed(&record);
        if self.sink.write(seq, &record, ctx.now_ms) && !self.duplicate_told {
            self.duplicate_told = true;
            ctx.tell(EosEventKind::FirstDuplicate {
                model: Model::Microbatch,
                sink: self.sink.kind,
                partition: record.partition,
                offset: record.offset,
            });
        }
    }

    fn commit(&mut self, ctx: &mut Ctx) {
        let Some(batch) = self.batch.take() else {
            return;
        };
        self.committed_state = self.state.clone();
        self.committed_offsets = batch.planned.end.clone();
        self.planned = None;
        self.sink.commit_batch(&ctx.input.records, ctx.now_ms);
        self.batches_committed += 1;
        ctx.tell(EosEventKind::BatchCommitted {
            batch: batch.planned.id,
            records: batch.records.len() as u64,
            duration_ms: ctx.now_ms - batch.started_at_ms,
            rerun: batch.rerun,
        });
    }

    /// The job fails: the running batch's state and output transaction are lost.
    pub fn fail(&mut self, ctx: &mut Ctx) {
        if !self.running {
            return;
        }
        self.running = false;
        self.tally.failures += 1;
        let since_restore_point = self.tally.beyond(&self.committed_offsets);
        let rolled_back = self.sink.abort();
        self.batch = None;
        ctx.tell(EosEventKind::JobFailed {
            model: Model::Microbatch,
            epoch: self.epoch,
            since_restore_point,
            rolled_back,
        });
        self.restart_at_ms = Some(ctx.now_ms + ctx.scenario.crash.restart_delay_ms);
    }

    /// The job runs again from the last committed batch, and reruns the planned one.
    fn restart(&mut self, ctx: &mut Ctx) {
        self.running = true;
        self.epoch += 1;
        self.state = self.committed_state.clone();
        self.positions = self.committed_offsets.clone();
        let found = self
            .tally
            .restarted(ctx.input, &self.positions, &self.state);
        let trigger_ms = ctx.scenario.microbatch.trigger_ms;
        self.next_trigger_ms = ctx.now_ms + trigger_ms;
        self.overdue = false;
        let rerun = self.planned.as_ref().map(|p| p.id);
        ctx.tell(EosEventKind::JobRestarted {
            model: Model::Microbatch,
            epoch: self.epoch,
            from: if rerun.is_some() {
                RestoreFrom::Batch
            } else if self.batches_committed > 0 {
                RestoreFrom::CommittedBatch
            } else {
                RestoreFrom::Nothing
            },
            restored: rerun,
            replayed: found.replayed,
            skipped: found.skipped,
            state_errors: found.state_errors,
        });
        if rerun.is_some() {
            self.start(ctx.input, ctx.now_ms, true);
        }
    }
}
