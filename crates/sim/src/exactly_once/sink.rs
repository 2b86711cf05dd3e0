//! Where a job's count updates go, and what the outside world sees of them.
//!
//! Every processed record produces one update (its key's new count). A [`Sink`] counts, per
//! input record, how many times its update reached the outside: a first time is an effect, a
//! second one a duplicate. What reaches the outside, and when, depends on the sink and on
//! how the lane writes to it ([`Delivery`]):
//!
//! * the job's own state: nothing leaves the job;
//! * an email (any external call): it happens when the record is processed and is never taken
//!   back, so a replayed record sends it again;
//! * the same call with an idempotency key (the input record's partition and offset): the
//!   receiver remembers the keys it has served and refuses a repeat;
//! * a Kafka topic: written in a transaction that commits when the checkpoint that covers it
//!   completes ([`Delivery::Transactional`], Flink's two-phase commit) and is aborted if the
//!   job fails first; readers with `read_committed` see only committed records, readers with
//!   `read_uncommitted` see everything at once, aborted records included. Spark's Kafka sink and
//!   a job without checkpoints write plainly ([`Delivery::Plain`]);
//! * a database that stores, in the same transaction as each update, the offset of the input
//!   record it came from: an update whose offset is below the stored one was applied already
//!   and is skipped. Per microbatch ([`Delivery::PerBatch`]) the transaction is the batch's.
//!
//! [`ResultsTable`] is the store of the zombie comparison: one count per key, written by
//! every instance of the job, with or without fencing.

use super::records::Record;
use super::scenario::{Fencing, Isolation, SinkKind};
use serde::Serialize;

/// How a lane writes to its sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Each write goes out as the record is processed.
    Plain,
    /// Kafka writes join a transaction per checkpoint, committed when the checkpoint completes.
    Transactional,
    /// Database writes join the microbatch's transaction, committed with the batch.
    PerBatch,
}

/// A lane's sink and what the outside saw of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sink {
    pub kind: SinkKind,
    isolation: Isolation,
    delivery: Delivery,
    /// Per input record, how many times its update reached the outside (saturating).
    reached: Vec<u8>,
    /// Writes or calls the job made.
    pub sent: u64,
    /// Distinct records whose update reached the outside.
    pub effects: u64,
    /// Updates that reached the outside again.
    pub duplicates: u64,
    /// Repeats the receiver refused (an idempotency key it had served, an offset it had).
    pub deduplicated: u64,
    /// Records written in transactions that were aborted.
    pub aborted: u64,
    /// Writes in the open transaction (or the open batch).
    open: Vec<u32>,
    /// Transactions pre-committed at a checkpoint's snapshot, waiting for it to complete.
    precommitted: Vec<(u32, Vec<u32>)>,
    /// The database's stored offsets: per partition, the next offset it expects.
    stored_offsets: Vec<u32>,
    /// Sum of the delays from a record's production to its first effect, in ms.
    delay_sum_ms: u64,
}

impl Sink {
    pub fn new(
        kind: SinkKind,
        isolation: Isolation,
        delivery: Delivery,
        records: usize,
        partitions: usize,
    ) -> Self {
        Self {
            kind,
            isolation,
            delivery,
            reached: vec![0; records],
            sent: 0,
            effects: 0,
            duplicates: 0,
            deduplicated: 0,
            aborted: 0,
            open: Vec::new(),
            precommitted: Vec::new(),
            stored_offsets: vec![0; partitions],
            delay_sum_ms: 0,
        }
    }

    /// The update of record `seq`, processed at `now_ms`. Returns whether it reached the
    /// outside for a second time (or more).
    pub fn write(&mut self, seq: u32, record: &Record, now_ms: u64) -> bool {
        if self.kind == SinkKind::State {
            return false;
        }
        self.sent += 1;
        match (self.kind, self.delivery) {
            (SinkKind::Kafka, Delivery::Transactional) => {
                self.open.push(seq);
                self.isolation == Isolation::ReadUncommitted && self.reach(seq, record, now_ms)
            }
            (SinkKind::Database, Delivery::PerBatch) => {
                self.open.push(seq);
                false
            }
            (SinkKind::Database, _) => self.apply_with_offset(seq, record, now_ms),
            (SinkKind::Idempotent, _) if self.reached[seq as usize] > 0 => {
                self.deduplicated += 1;
                false
            }
            _ => self.reach(seq, record, now_ms),
        }
    }

    /// A checkpoint's snapshot: the open transaction is flushed and waits for the checkpoint
    /// to complete; later writes go into a new one.
    pub fn precommit(&mut self, checkpoint: u32) {
        if self.delivery == Delivery::Transactional {
            let writes = std::mem::take(&mut self.open);
            self.precommitted.push((checkpoint, writes));
        }
    }

    /// The checkpoint completed: its transaction (and any older one) commits.
    pub fn commit(&mut self, checkpoint: u32, records: &[Record], now_ms: u64) {
        let (done, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.precommitted)
            .into_iter()
            .partition(|(id, _)| *id <= checkpoint);
        self.precommitted = waiting;
        if self.isolation == Isolation::ReadCommitted {
            for seq in done.into_iter().flat_map(|(_, writes)| writes) {
                self.reach(seq, &records[seq as usize], now_ms);
            }
        }
    }

    /// The microbatch committed: its database transaction applies every write in it.
    pub fn commit_batch(&mut self, records: &[Record], now_ms: u64) {
        if self.delivery == Delivery::PerBatch {
            for seq in std::mem::take(&mut self.open) {
                self.apply_with_offset(seq, &records[seq as usize], now_ms);
            }
        }
    }

    /// The job failed: every transaction not yet committed is aborted (a batch's database
    /// transaction rolls back). Returns the records aborted.
    pub fn abort(&mut self) -> u64 {
        let open = std::mem::take(&mut self.open).len() as u64;
        let precommitted: u64 = std::mem::take(&mut self.precommitted)
            .iter()
            .map(|(_, writes)| writes.len() as u64)
            .sum();
        if self.delivery == Delivery::Transactional {
            self.aborted += open + precommitted;
        }
        open + precommitted
    }

    /// Writes waiting in the open transaction or batch, and in pre-committed transactions.
    pub fn pending(&self) -> (u64, u64) {
        let precommitted = self.precommitted.iter().map(|(_, w)| w.len() as u64).sum();
        (self.open.len() as u64, precommitted)
    }

    /// Mean delay from a record's production to its first effect, in ms.
    pub fn mean_delay_ms(&self) -> u64 {
        self.delay_sum_ms / self.effects.max(1)
    }

    pub fn isolation(&self) -> Isolation {
        self.isolation
    }

    /// The database's stored offsets.
    pub fn stored_offsets(&self) -> &[u32] {
        &self.stored_offsets
    }

    /// How many times record `seq`'s update reached the outside.
    pub fn reached(&self, seq: u32) -> u8 {
        self.reached[seq as usize]
    }

    fn apply_with_offset(&mut self, seq: u32, record: &Record, now_ms: u64) -> bool {
        let stored = &mut self.stored_offsets[record.partition as usize];
        if record.offset < *stored {
            self.deduplicated += 1;
            return false;
        }
        *stored = record.offset + 1;
        self.reach(seq, record, now_ms)
    }

    fn reach(&mut self, seq: u32, record: &Record, now_ms: u64) -> bool {
        let times = &mut self.reached[seq as usize];
        *times = times.saturating_add(1);
        if *times == 1 {
            self.effects += 1;
            self.delay_sum_ms += now_ms.saturating_sub(record.at_ms);
            false
        } else {
            self.duplicates += 1;
            true
        }
    }
}

/// What the results store did with one write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteOutcome {
    /// From the newest instance (or before any newer one started).
    Accepted,
    /// From an instance older than one that has started since: it lands, over newer values.
    Stale,
    /// From an older instance, refused by fencing.
    Refused,
}

/// The store of the zombie comparison: each key's count, and the epoch of the instance that
/// wrote it last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsTable {
    fencing: Fencing,
    pub values: Vec<u64>,
    pub written_by: Vec<u32>,
    /// The newest instance that has started (for fencing: registered its epoch, or called
    /// `initTransactions()`).
    pub newest_epoch: u32,
    pub writes: u64,
    pub stale_writes: u64,
    pub refused_writes: u64,
}

impl ResultsTable {
    pub fn new(fencing: Fencing, keys: usize) -> Self {
        Self {
            fencing,
            values: vec![0; keys],
            written_by: vec![0; keys],
            newest_epoch: 0,
            writes: 0,
            stale_writes: 0,
            refused_writes: 0,
        }
    }

    /// An instance starts with `epoch`.
    pub fn register(&mut self, epoch: u32) {
        self.newest_epoch = self.newest_epoch.max(epoch);
    }

    pub fn write(&mut self, epoch: u32, key: u32, count: u64) -> WriteOutcome {
        self.writes += 1;
        let outcome = if epoch >= self.newest_epoch {
            WriteOutcome::Accepted
        } else if self.fencing == Fencing::None {
            WriteOutcome::Stale
        } else {
            WriteOutcome::Refused
        };
        match outcome {
            WriteOutcome::Refused => self.refused_writes += 1,
            WriteOutcome::Stale => self.stale_writes += 1,
            WriteOutcome::Accepted => {}
        }
        if outcome != WriteOutcome::Refused {
            self.values[key as usize] = count;
            self.written_by[key as usize] = epoch;
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(seq: u32) -> Record {
        Record {
            at_ms: u64::from(seq) * 10,
            key: seq % 2,
            partition: 0,
            offset: seq,
        }
    }

    fn records(n: u32) -> Vec<Record> {
        (0..n).map(record).collect()
    }

    #[test]
    fn an_email_is_sent_again_for_a_replayed_record_an_idempotent_call_is_refused() {
        let rs = records(3);
        let mut email = Sink::new(
            SinkKind::Email,
            Isolation::ReadCommitted,
            Delivery::Plain,
            3,
            1,
        );
        let mut hook = Sink::new(
            SinkKind::Idempotent,
            Isolation::ReadCommitted,
            Delivery::Plain,
            3,
            1,
        );
        for seq in [0, 1, 1, 2] {
            email.write(seq, &rs[seq as usize], 100);
            hook.write(seq, &rs[seq as usize], 100);
        }
        assert_eq!((email.effects, email.duplicates), (3, 1));
        assert_eq!(
            (hook.effects, hook.duplicates, hook.deduplicated),
            (3, 0, 1)
        );
    }

    #[test]
    fn a_transaction_is_seen_by_read_committed_readers_only_once_its_checkpoint_completes() {
        let rs = records(4);
        let mut sink = Sink::new(
            SinkKind::Kafka,
            Isolation::ReadCommitted,
            Delivery::Transactional,
            4,
            1,
        );
        sink.write(0, &rs[0], 5);
        sink.precommit(1);
        sink.write(1, &rs[1], 15);
        assert_eq!(sink.effects, 0);
        sink.commit(1, &rs, 40);
        assert_eq!(sink.effects, 1);
        assert_eq!(sink.mean_delay_ms(), 40);
        assert_eq!(sink.abort(), 1);
        assert_eq!(sink.aborted, 1);
        // The replay writes record 1 again, in a new transaction.
        sink.write(1, &rs[1], 50);
        sink.precommit(2);
        sink.commit(2, &rs, 60);
        assert_eq!((sink.effects, sink.duplicates), (2, 0));
    }

    #[test]
    fn read_uncommitted_readers_see_aborted_records_and_their_replay() {
        let rs = records(2);
        let mut sink = Sink::new(
            SinkKind::Kafka,
            Isolation::ReadUncommitted,
            Delivery::Transactional,
            2,
            1,
        );
        sink.write(0, &rs[0], 5);
        sink.abort();
        assert!(sink.write(0, &rs[0], 9), "the replay is a second copy");
        assert_eq!((sink.effects, sink.duplicates, sink.aborted), (1, 1, 1));
    }

    #[test]
    fn the_database_skips_an_offset_it_already_stored_and_a_batch_applies_at_commit() {
        let rs = records(3);
        let mut db = Sink::new(
            SinkKind::Database,
            Isolation::ReadCommitted,
            Delivery::Plain,
            3,
            1,
        );
        for seq in [0, 1, 0, 1, 2] {
            db.write(seq, &rs[seq as usize], 50);
        }
        assert_eq!((db.effects, db.duplicates, db.deduplicated), (3, 0, 2));
        assert_eq!(db.stored_offsets(), &[3]);
        let mut batch = Sink::new(
            SinkKind::Database,
            Isolation::ReadCommitted,
            Delivery::PerBatch,
            3,
            1,
        );
        batch.write(0, &rs[0], 5);
        assert_eq!(batch.abort(), 1, "a failed batch's transaction rolls back");
        assert_eq!(
            batch.aborted, 0,
            "a rollback is not an aborted Kafka transaction"
        );
        batch.write(0, &rs[0], 8);
        batch.commit_batch(&rs, 20);
        assert_eq!((batch.effects, batch.duplicates), (1, 0));
    }

    #[test]
    fn an_old_instance_overwrites_newer_values_unless_the_store_is_fenced() {
        for (fencing, outcome) in [
            (Fencing::None, WriteOutcome::Stale),
            (Fencing::Epoch, WriteOutcome::Refused),
            (Fencing::TransactionalId, WriteOutcome::Refused),
        ] {
            let mut table = ResultsTable::new(fencing, 2);
            table.register(1);
            assert_eq!(table.write(1, 0, 10), WriteOutcome::Accepted);
            table.register(2);
            assert_eq!(table.write(2, 0, 12), WriteOutcome::Accepted);
            assert_eq!(table.write(1, 0, 11), outcome);
            let kept = if outcome == WriteOutcome::Stale {
                11
            } else {
                12
            };
            assert_eq!(table.values[0], kept);
        }
    }
}
