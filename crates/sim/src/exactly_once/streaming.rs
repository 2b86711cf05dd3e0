//! A streaming job's lane (Flink's model), with checkpoints or without.
//!
//! With checkpoints, a failure loses the instance and everything in it; after the restart
//! delay a new instance restores the last completed checkpoint: its state, and positions
//! from which the sources read again (for an unaligned checkpoint, its stored in-flight
//! records come first, which here is the same as reading from its positions). Without
//! checkpoints, the Kafka consumer's auto-committed offsets are all that outlives the
//! instance: the new one starts with an empty state there, or at the input's start.
//!
//! In the zombie comparison (`zombie.rs`) an instance can also pause, be replaced while
//! paused, and run again beside its replacement until its next heartbeat; its writes carry
//! its epoch to the results store, and only the current instance takes part in checkpoints.

use super::checkpoints::{BarrierOutcome, Completed, Pending, Summary};
use super::events::{EosEventKind, Model, RestoreFrom};
use super::instance::{Instance, Step};
use super::lane::Ctx;
use super::scenario::{EosScenario, Mode, RestartFrom, SinkKind};
use super::sink::{Delivery, ResultsTable, Sink};
use super::tally::Tally;
use super::zombie::ZombieClock;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamingLane {
    pub model: Model,
    /// The instance the JobManager runs; `None` while the job restarts.
    pub current: Option<Instance>,
    /// An instance replaced while paused, running again without knowing it.
    pub zombie: Option<Instance>,
    pub restart_at_ms: Option<u64>,
    pub(crate) next_epoch: u32,
    pub pending: Option<Pending>,
    pub completed: Option<Completed>,
    /// Every completed checkpoint, in order.
    pub history: Vec<Summary>,
    next_checkpoint: u32,
    next_trigger_ms: u64,
    trigger_waiting: bool,
    /// Without checkpoints: the offsets the consumer last auto-committed.
    pub committed_offsets: Vec<u32>,
    next_commit_ms: u64,
    pub sink: Sink,
    /// The zombie comparison's store.
    pub table: Option<ResultsTable>,
    pub(crate) zombie_clock: Option<ZombieClock>,
    pub tally: Tally,
    duplicate_told: bool,
}

impl StreamingLane {
    pub fn new(model: Model, scenario: &EosScenario, records: usize) -> Self {
        let partitions = scenario.input.partitions as usize;
        let keys = scenario.input.keys as usize;
        let zombie = scenario.mode == Mode::Zombie;
        let delivery = match (model, scenario.sink.kind) {
            (Model::Checkpoint, SinkKind::Kafka) => Delivery::Transactional,
            _ => Delivery::Plain,
        };
        let mut table = zombie.then(|| ResultsTable::new(scenario.zombie.fencing, keys));
        if let Some(table) = &mut table {
            table.register(1);
        }
        Self {
            model,
            current: Some(Instance::new(1, vec![0; partitions], vec![0; keys])),
            zombie: None,
            restart_at_ms: None,
            next_epoch: 2,
            pending: None,
            completed: None,
            history: Vec::new(),
            next_checkpoint: 1,
            next_trigger_ms: scenario.checkpoint.interval_ms,
            trigger_waiting: false,
            committed_offsets: vec![0; partitions],
            next_commit_ms: scenario.no_checkpoint.auto_commit_interval_ms,
            sink: Sink::new(
                scenario.sink.kind,
                scenario.sink.isolation_level,
                delivery,
                records,
                partitions,
            ),
            table,
            zombie_clock: zombie.then(|| ZombieClock::new(&scenario.zombie)),
            tally: Tally::new(keys, partitions),
            duplicate_told: false,
        }
    }

    fn checkpoints(&self) -> bool {
        self.model == Model::Checkpoint
    }

    /// When the lane next has something to do.
    pub fn due_ms(&self, scenario: &EosScenario) -> Option<u64> {
        let running = self.current.as_ref().filter(|i| i.is_working());
        let trigger = running
            .filter(|_| self.checkpoints())
            .map(|_| self.next_trigger_ms);
        let completion = running
            .and(self.pending.as_ref())
            .and_then(|p| p.completes_at_ms(scenario.checkpoint.upload_ms));
        let commit = running
            .filter(|_| !self.checkpoints())
            .map(|_| self.next_commit_ms);
        let work = [&self.current, &self.zombie]
            .into_iter()
            .flatten()
            .filter(|i| i.is_working())
            .filter_map(Instance::due_ms);
        let zombie = self.zombie_clock.as_ref().and_then(|c| c.due_ms(self));
        [self.restart_at_ms, trigger, completion, commit, zombie]
            .into_iter()
            .flatten()
            .chain(work)
            .min()
    }

    /// Everything due at `ctx.now_ms`, in a fixed order: the restart, the zombie's
    /// schedule, the auto-commit, a checkpoint trigger, the instances' work, and a
    /// checkpoint's completion.
    pub fn tick(&mut self, ctx: &mut Ctx) {
        let now = ctx.now_ms;
        if self.restart_at_ms.is_some_and(|at| at <= now) {
            self.restart_at_ms = None;
            self.restart(ctx);
        }
        if let Some(mut clock) = self.zombie_clock.take() {
            clock.tick(self, ctx);
            self.zombie_clock = Some(clock);
        }
        let running = self.current.as_ref().is_some_and(Instance::is_working);
        if let Some(instance) = self.current.as_ref().filter(|_| running) {
            if !self.checkpoints() && self.next_commit_ms <= now {
                self.committed_offsets = instance.source_positions.clone();
                self.next_commit_ms = next_multiple(
                    self.next_commit_ms,
                    ctx.scenario.no_checkpoint.auto_commit_interval_ms,
                    now,
                );
            }
        }
        if self.checkpoints() && self.current.is_some() && self.next_trigger_ms <= now {
            // Triggers missed while the instance was paused collapse into one.
            self.next_trigger_ms = next_multiple(
                self.next_trigger_ms,
                ctx.scenario.checkpoint.interval_ms,
                now,
            );
            if running && self.pending.is_none() {
                self.trigger(ctx);
            } else {
                self.trigger_waiting = true;
            }
        }
        self.work(ctx, false);
        self.work(ctx, true);
        self.complete_if_due(ctx);
    }

    fn trigger(&mut self, ctx: &mut Ctx) {
        let Some(instance) = self.current.as_mut() else {
            return;
        };
        let delays: Vec<u64> = (0..ctx.scenario.input.partitions)
            .map(|p| ctx.scenario.channel_delay_ms(p))
            .collect();
        self.pending = Some(Pending::trigger(
            self.next_checkpoint,
            instance,
            &delays,
            ctx.scenario.checkpoint.unaligned,
            ctx.now_ms,
        ));
        self.next_checkpoint += 1;
    }

    fn complete_if_due(&mut self, ctx: &mut Ctx) {
        let running = self.current.as_ref().is_some_and(Instance::is_working);
        let upload_ms = ctx.scenario.checkpoint.upload_ms;
        let due = self
            .pending
            .as_ref()
            .and_then(|p| p.completes_at_ms(upload_ms));
        if !running || due.is_none_or(|at| at > ctx.now_ms) {
            return;
        }
        let Some(done) = self.pending.take().and_then(|p| p.complete(ctx.now_ms)) else {
            return;
        };
        self.sink.commit(done.id, &ctx.input.records, ctx.now_ms);
        self.history.push(done.summary());
        ctx.tell(EosEventKind::CheckpointCompleted {
            checkpoint: done.id,
            alignment_ms: done.alignment_ms,
            last_partition: done.last_partition,
            duration_ms: ctx.now_ms - done.triggered_at_ms,
            inflight_records: done.inflight_records,
            unaligned: ctx.scenario.checkpoint.unaligned,
        });
        self.completed = Some(done);
        if std::mem::take(&mut self.trigger_waiting) {
            self.trigger(ctx);
        }
    }

    /// Lets the current instance (or the zombie) do all it can at this instant.
    fn work(&mut self, ctx: &mut Ctx, zombie: bool) {
        let slot = if zombie {
            &mut self.zombie
        } else {
            &mut self.current
        };
        if !slot.as_ref().is_some_and(Instance::is_working) {
            return;
        }
        let Some(mut instance) = slot.take() else {
            return;
        };
        loop {
            instance.read_sources(ctx.input, ctx.scenario, ctx.now_ms);
            match instance.step(ctx.input, ctx.scenario.processing_ms, ctx.now_ms) {
                None => break,
                Some(Step::Counted { seq }) => self.counted(ctx, &instance, seq, zombie),
                Some(Step::Barrier {
                    partition,
                    checkpoint,
                }) if !zombie => self.barrier(ctx, &mut instance, partition, checkpoint),
                // The JobManager no longer checkpoints a replaced instance.
                Some(Step::Barrier { .. }) => {}
            }
        }
        let slot = if zombie {
            &mut self.zombie
        } else {
            &mut self.current
        };
        *slot = Some(instance);
    }

    fn barrier(&mut self, ctx: &mut Ctx, instance: &mut Instance, partition: u32, id: u32) {
        let Some(pending) = self.pending.as_mut() else {
            return;
        };
        let unaligned = ctx.scenario.checkpoint.unaligned;
        if pending.barrier(instance, partition, id, unaligned, ctx.now_ms)
            == BarrierOutcome::Snapshot
        {
            // The sink is chained to the counter: it pre-commits its transaction at the
            // operator's snapshot, and writes after it belong to the next one.
            self.sink.precommit(id);
        }
    }

    fn counted(&mut self, ctx: &mut Ctx, instance: &Instance, seq: u32, zombie: bool) {
        let record = ctx.input.records[seq as usize];
        ctx.fold_count(self.model, instance.epoch, seq);
        let count = instance.state[record.key as usize];
        if let Some(table) = self.table.as_mut() {
            let outcome = table.write(instance.epoch, record.key, count);
            if zombie {
                if let Some(clock) = self.zombie_clock.as_mut() {
                    clock.zombie_wrote(ctx, instance.epoch, record.key, outcome);
                }
            }
        }
        if zombie {
            return;
        }
        self.tally.processed(&record);
        if self.table.is_none() && self.sink.write(seq, &record, ctx.now_ms) && !self.duplicate_told
        {
            self.duplicate_told = true;
            ctx.tell(EosEventKind::FirstDuplicate {
                model: self.model,
                sink: self.sink.kind,
                partition: record.partition,
                offset: record.offset,
            });
        }
    }

    /// Where a restart would take its state and positions from.
    pub fn restore_point(
        &self,
        scenario: &EosScenario,
    ) -> (RestoreFrom, Option<u32>, Vec<u32>, Vec<u64>) {
        let partitions = scenario.input.partitions as usize;
        let keys = scenario.input.keys as usize;
        match (
            self.model,
            &self.completed,
            scenario.no_checkpoint.restart_from,
        ) {
            (Model::Checkpoint, Some(done), _) => (
                RestoreFrom::Checkpoint,
                Some(done.id),
                done.snapshot.positions.clone(),
                done.snapshot.state.clone(),
            ),
            (Model::Checkpoint, None, _) => (
                RestoreFrom::Nothing,
                None,
                vec![0; partitions],
                vec![0; keys],
            ),
            (_, _, RestartFrom::CommittedOffsets) => (
                RestoreFrom::CommittedOffsets,
                None,
                self.committed_offsets.clone(),
                vec![0; keys],
            ),
            (_, _, RestartFrom::Earliest) => (
                RestoreFrom::Earliest,
                None,
                vec![0; partitions],
                vec![0; keys],
            ),
        }
    }

    /// The job fails: the current instance and all it held are gone.
    pub fn fail(&mut self, ctx: &mut Ctx) {
        let Some(instance) = self.current.take() else {
            return;
        };
        self.lose(ctx, instance.epoch);
    }

    /// The current instance is lost to the job (dead, or given up on): what it held is
    /// abandoned and a restart is scheduled.
    pub(crate) fn lose(&mut self, ctx: &mut Ctx, epoch: u32) {
        self.tally.failures += 1;
        let (_, _, positions, _) = self.restore_point(ctx.scenario);
        let since_restore_point = self.tally.beyond(&positions);
        let rolled_back = self.sink.abort();
        if let Some(pending) = self.pending.take() {
            ctx.tell(EosEventKind::CheckpointDiscarded {
                checkpoint: pending.id,
            });
        }
        self.trigger_waiting = false;
        ctx.tell(EosEventKind::JobFailed {
            model: self.model,
            epoch,
            since_restore_point,
            rolled_back,
        });
        self.restart_at_ms = Some(ctx.now_ms + ctx.scenario.crash.restart_delay_ms);
    }

    /// A new instance starts from the restore point.
    fn restart(&mut self, ctx: &mut Ctx) {
        let (from, restored, positions, state) = self.restore_point(ctx.scenario);
        let found = self.tally.restarted(ctx.input, &positions, &state);
        let epoch = self.next_epoch;
        self.next_epoch += 1;
        self.current = Some(Instance::new(epoch, positions, state));
        if let Some(table) = self.table.as_mut() {
            table.register(epoch);
        }
        self.next_trigger_ms = ctx.now_ms + ctx.scenario.checkpoint.interval_ms;
        self.next_commit_ms = ctx.now_ms + ctx.scenario.no_checkpoint.auto_commit_interval_ms;
        ctx.tell(EosEventKind::JobRestarted {
            model: self.model,
            epoch,
            from,
            restored,
            replayed: found.replayed,
            skipped: found.skipped,
            state_errors: found.state_errors,
        });
        if let Some(clock) = self.zombie_clock.as_mut() {
            clock.replacement_started(ctx, epoch, restored);
        }
    }

    /// The zombie's writes, refused or landed: `(writes, stale, refused)`.
    pub fn zombie_tally(&self) -> Option<(u64, u64, u64)> {
        self.zombie_clock.as_ref().map(|c| c.tally())
    }
}

/// The first instant after `now_ms` on the grid `from + k · step`.
pub(crate) fn next_multiple(from_ms: u64, step_ms: u64, now_ms: u64) -> u64 {
    let step = step_ms.max(1);
    from_ms + (now_ms.saturating_sub(from_ms) / step + 1) * step
}
