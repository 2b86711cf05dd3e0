//! The zombie comparison's schedule: the instance pauses without dying; if it is still
//! paused when `heartbeat.timeout` runs out, the JobManager declares it lost and, after the
//! restart delay, starts a replacement from the last completed checkpoint. When the pause
//! ends the old instance runs again, unaware: it reads, counts and writes to the results
//! store under its old epoch until its next heartbeat (`heartbeat.interval` later) tells it
//! it was replaced. A pause shorter than the timeout is only a delay.
//!
//! Inside the job the old instance is harmless: the JobManager no longer checkpoints it and
//! its state is thrown away. Outside, its writes land over the replacement's newer counts
//! unless the store fences it.

use super::events::EosEventKind;
use super::instance::Status;
use super::lane::Ctx;
use super::scenario::{Fencing, ZombieSpec};
use super::sink::WriteOutcome;
use super::streaming::StreamingLane;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZombieClock {
    pause_due_ms: Option<u64>,
    pause_ms: u64,
    detection_due_ms: Option<u64>,
    timeout_ms: u64,
    interval_ms: u64,
    fencing: Fencing,
    /// The JobManager gave up on an instance: the next restart is its replacement.
    lost: bool,
    writes: u64,
    stale: u64,
    refused: u64,
    told_first: bool,
}

fn paused_until(status: Option<Status>) -> Option<u64> {
    match status? {
        Status::Paused { until_ms } => Some(until_ms),
        _ => None,
    }
}

impl ZombieClock {
    pub fn new(spec: &ZombieSpec) -> Self {
        Self {
            pause_due_ms: Some(spec.pause_at_ms),
            pause_ms: spec.pause_ms,
            detection_due_ms: None,
            timeout_ms: spec.heartbeat_timeout_ms,
            interval_ms: spec.heartbeat_interval_ms,
            fencing: spec.fencing,
            lost: false,
            writes: 0,
            stale: 0,
            refused: 0,
            told_first: false,
        }
    }

    /// The next instant of the schedule.
    pub fn due_ms(&self, lane: &StreamingLane) -> Option<u64> {
        let current = paused_until(lane.current.as_ref().map(|i| i.status));
        let zombie = lane.zombie.as_ref().and_then(|i| match i.status {
            Status::Paused { until_ms } => Some(until_ms),
            Status::Zombie { stops_at_ms } => Some(stops_at_ms),
            Status::Running => None,
        });
        [self.pause_due_ms, self.detection_due_ms, current, zombie]
            .into_iter()
            .flatten()
            .min()
    }

    /// What is due now, in order: the pause, a resume in time, the JobManager giving up, the
    /// replaced instance running again, and it stopping.
    pub fn tick(&mut self, lane: &mut StreamingLane, ctx: &mut Ctx) {
        let now = ctx.now_ms;
        if self.pause_due_ms.is_some_and(|at| at <= now) {
            self.pause_due_ms = None;
            if let Some(instance) = lane.current.as_mut() {
                instance.status = Status::Paused {
                    until_ms: now + self.pause_ms,
                };
                self.detection_due_ms = Some(now + self.timeout_ms);
                ctx.tell(EosEventKind::InstancePaused {
                    epoch: instance.epoch,
                });
            }
        }
        // A heartbeat that comes back by the timeout's instant is in time.
        if let Some(instance) = lane.current.as_mut() {
            if paused_until(Some(instance.status)).is_some_and(|until| until <= now) {
                instance.status = Status::Running;
                self.detection_due_ms = None;
                ctx.tell(EosEventKind::InstanceResumed {
                    epoch: instance.epoch,
                });
            }
        }
        if self.detection_due_ms.is_some_and(|at| at <= now) {
            self.detection_due_ms = None;
            if let Some(instance) = lane.current.take() {
                let epoch = instance.epoch;
                lane.zombie = Some(instance);
                self.lost = true;
                ctx.tell(EosEventKind::InstanceLost {
                    epoch,
                    heartbeat_timeout_ms: self.timeout_ms,
                });
                lane.lose(ctx, epoch);
            }
        }
        let newer_epoch = lane.current.as_ref().map_or(lane.next_epoch, |i| i.epoch);
        if let Some(zombie) = lane.zombie.as_mut() {
            if paused_until(Some(zombie.status)).is_some_and(|until| until <= now) {
                zombie.status = Status::Zombie {
                    stops_at_ms: now + self.interval_ms,
                };
                ctx.tell(EosEventKind::ZombieResumed {
                    epoch: zombie.epoch,
                    newer_epoch,
                });
            }
        }
        let stopped = lane
            .zombie
            .as_ref()
            .filter(|z| matches!(z.status, Status::Zombie { stops_at_ms } if stops_at_ms <= now));
        if let Some(zombie) = stopped {
            ctx.tell(EosEventKind::ZombieStopped {
                epoch: zombie.epoch,
                writes: self.writes,
                stale: self.stale,
                refused: self.refused,
            });
            lane.zombie = None;
        }
    }

    /// A restart happened; after a loss it is the replacement.
    pub fn replacement_started(&mut self, ctx: &mut Ctx, epoch: u32, checkpoint: Option<u32>) {
        if std::mem::take(&mut self.lost) {
            ctx.tell(EosEventKind::ReplacementStarted {
                epoch,
                checkpoint,
                fencing: self.fencing,
            });
        }
    }

    /// The zombie wrote key `key`; the store answered `outcome`.
    pub fn zombie_wrote(&mut self, ctx: &mut Ctx, epoch: u32, key: u32, outcome: WriteOutcome) {
        self.writes += 1;
        match outcome {
            WriteOutcome::Stale => self.stale += 1,
            WriteOutcome::Refused => self.refused += 1,
            WriteOutcome::Accepted => return,
        }
        if !std::mem::replace(&mut self.told_first, true) {
            ctx.tell(EosEventKind::ZombieFirstWrite {
                epoch,
                key,
                outcome,
                fencing: self.fencing,
            });
        }
    }

    /// The zombie's writes so far: `(writes, stale, refused)`.
    pub fn tally(&self) -> (u64, u64, u64) {
        (self.writes, self.stale, self.refused)
    }
}
