//! Flink's checkpoints, as the coordinator and the counting operator see them.
//!
//! At every `execution.checkpointing.interval` the coordinator triggers checkpoint n: each
//! source records its read offset and sends barrier n down its channel, behind the records it
//! has sent (aligned) or ahead of them (unaligned). At most one checkpoint is in progress
//! (`execution.checkpointing.max-concurrent-checkpoints` is 1): a trigger that finds one
//! waits for it. Aligned, the operator holds back each channel whose barrier it has read
//! until the last one arrives, then snapshots its state: the state then covers exactly the
//! records before the sources' offsets. Unaligned, it snapshots at the first barrier and
//! stores the records still in flight (between its own positions and the sources' offsets)
//! with the checkpoint, holding nothing back. Either way the snapshot is then written out
//! (the asynchronous phase), and only then is the checkpoint complete and restorable; the
//! sink's transaction for it commits at that moment.

use super::instance::Instance;
use serde::Serialize;

/// The checkpoint in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pending {
    pub id: u32,
    pub triggered_at_ms: u64,
    /// Where each source was when it sent the barrier.
    pub source_offsets: Vec<u32>,
    /// Which channels' barriers the operator has read.
    pub seen: Vec<bool>,
    pub first_barrier_ms: Option<u64>,
    /// When the last barrier was read, and from which channel.
    pub all_seen: Option<(u64, u32)>,
    pub snapshot: Option<Snapshot>,
}

/// The operator's state and positions at its snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    pub at_ms: u64,
    pub state: Vec<u64>,
    /// Per partition, the next offset to count after a restore (for an unaligned checkpoint,
    /// the stored in-flight records start here).
    pub positions: Vec<u32>,
}

/// A completed checkpoint: what a restore brings back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Completed {
    pub id: u32,
    pub triggered_at_ms: u64,
    pub completed_at_ms: u64,
    pub snapshot: Snapshot,
    pub source_offsets: Vec<u32>,
    pub alignment_ms: u64,
    pub last_partition: u32,
    /// Records in flight stored with it.
    pub inflight_records: u64,
}

/// A completed checkpoint in a few numbers, for its history and its picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub id: u32,
    pub triggered_at_ms: u64,
    pub completed_at_ms: u64,
    pub alignment_ms: u64,
    pub last_partition: u32,
    pub inflight_records: u64,
}

impl Completed {
    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id,
            triggered_at_ms: self.triggered_at_ms,
            completed_at_ms: self.completed_at_ms,
            alignment_ms: self.alignment_ms,
            last_partition: self.last_partition,
            inflight_records: self.inflight_records,
        }
    }
}

/// What reading a barrier did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierOutcome {
    /// Not this checkpoint's (one a failure abandoned): ignored.
    Stale,
    /// Read; still waiting for others.
    Waiting,
    /// The operator snapshotted its state just now (the sink pre-commits).
    Snapshot,
    /// The last barrier, after an unaligned snapshot.
    AllSeen,
}

impl Pending {
    /// Triggers checkpoint `id`: every source sends its barrier.
    pub fn trigger(
        id: u32,
        instance: &mut Instance,
        delays_ms: &[u64],
        unaligned: bool,
        now_ms: u64,
    ) -> Self {
        for (p, channel) in instance.channels.iter_mut().enumerate() {
            channel.push_barrier(id, now_ms, delays_ms[p], unaligned);
        }
        Self {
            id,
            triggered_at_ms: now_ms,
            source_offsets: instance.source_positions.clone(),
            seen: vec![false; delays_ms.len()],
            first_barrier_ms: None,
            all_seen: None,
            snapshot: None,
        }
    }

    /// The operator read barrier `checkpoint` from `partition`'s channel.
    pub fn barrier(
        &mut self,
        instance: &mut Instance,
        partition: u32,
        checkpoint: u32,
        unaligned: bool,
        now_ms: u64,
    ) -> BarrierOutcome {
        if checkpoint != self.id {
            return BarrierOutcome::Stale;
        }
        self.seen[partition as usize] = true;
        self.first_barrier_ms.get_or_insert(now_ms);
        let all_seen = self.seen.iter().all(|&s| s);
        if all_seen {
            self.all_seen = Some((now_ms, partition));
        }
        if unaligned {
            if self.snapshot.is_none() {
                self.snapshot = Some(Snapshot::of(instance, now_ms));
                return BarrierOutcome::Snapshot;
            }
            return if all_seen {
                BarrierOutcome::AllSeen
            } else {
                BarrierOutcome::Waiting
            };
        }
        if !all_seen {
            instance.blocked[partition as usize] = true;
            return BarrierOutcome::Waiting;
        }
        instance.blocked.iter_mut().for_each(|b| *b = false);
        self.snapshot = Some(Snapshot::of(instance, now_ms));
        BarrierOutcome::Snapshot
    }

    /// When it completes: once every barrier was read and the snapshot written out.
    pub fn completes_at_ms(&self, upload_ms: u64) -> Option<u64> {
        let (all_seen_ms, _) = self.all_seen?;
        let snapshot_ms = self.snapshot.as_ref()?.at_ms;
        Some(all_seen_ms.max(snapshot_ms) + upload_ms)
    }

    /// The completed checkpoint, at `now_ms`.
    pub fn complete(self, now_ms: u64) -> Option<Completed> {
        let (last_ms, last_partition) = self.all_seen?;
        let snapshot = self.snapshot?;
        let inflight_records = self
            .source_offsets
            .iter()
            .zip(&snapshot.positions)
            .map(|(&source, &at)| u64::from(source.saturating_sub(at)))
            .sum();
        Some(Completed {
            id: self.id,
            triggered_at_ms: self.triggered_at_ms,
            completed_at_ms: now_ms,
            alignment_ms: last_ms - self.first_barrier_ms.unwrap_or(last_ms),
            last_partition,
            inflight_records,
            source_offsets: self.source_offsets,
            snapshot,
        })
    }
}

impl Snapshot {
    fn of(instance: &Instance, now_ms: u64) -> Self {
        Self {
            at_ms: now_ms,
            state: instance.state.clone(),
            positions: instance.positions.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_the_operator_holds_each_input_until_the_last_barrier_then_snapshots() {
        let mut instance = Instance::new(1, vec![5, 7], vec![3, 9]);
        let mut pending = Pending::trigger(1, &mut instance, &[0, 1_000], false, 100);
        assert_eq!(pending.source_offsets, vec![5, 7]);
        assert_eq!(
            pending.barrier(&mut instance, 0, 1, false, 100),
            BarrierOutcome::Waiting
        );
        assert_eq!(instance.blocked, vec![true, false]);
        assert_eq!(
            pending.barrier(&mut instance, 1, 1, false, 1_100),
            BarrierOutcome::Snapshot
        );
        assert_eq!(instance.blocked, vec![false, false]);
        assert_eq!(pending.completes_at_ms(200), Some(1_300));
        let done = pending.complete(1_300).unwrap();
        assert_eq!((done.alignment_ms, done.last_partition), (1_000, 1));
        assert_eq!(done.snapshot.state, vec![3, 9]);
        assert_eq!(done.inflight_records, 0);
    }

    #[test]
    fn unaligned_the_snapshot_comes_at_the_first_barrier_and_keeps_the_records_in_flight() {
        let mut instance = Instance::new(1, vec![0, 0], vec![0, 0]);
        instance.source_positions = vec![4, 6];
        let mut pending = Pending::trigger(2, &mut instance, &[0, 1_000], true, 100);
        assert_eq!(
            pending.barrier(&mut instance, 1, 2, true, 100),
            BarrierOutcome::Snapshot
        );
        assert_eq!(
            pending.barrier(&mut instance, 0, 2, true, 100),
            BarrierOutcome::AllSeen
        );
        assert_eq!(instance.blocked, vec![false, false]);
        assert_eq!(
            pending.barrier(&mut instance, 0, 1, true, 100),
            BarrierOutcome::Stale
        );
        let done = pending.complete(300).unwrap();
        assert_eq!((done.alignment_ms, done.inflight_records), (0, 10));
    }
}
