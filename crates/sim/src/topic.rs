//! The topic: partitions as append-only logs of records, addressed by offset.
//!
//! A partition keeps its records in a `Vec` whose index is `offset - base_offset`, so reading
//! by offset is O(1) and appending never moves earlier records. Retention (`retention.ms`,
//! `retention.bytes`) moves the log start offset forward. Kafka deletes whole segments
//! (`segment.bytes`, 1 GiB by default), so its log start jumps; here every record is its own
//! segment and the log start moves record by record (said in the lesson).

use serde::Serialize;

/// Key index meaning "no key" (Kafka's null key).
pub const NULL_KEY: u32 = u32::MAX;

/// One record as stored in a partition. Its offset is its place in the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// Index of the key in the producer's key space, or [`NULL_KEY`].
    pub key: u32,
    /// When the producer's application called `send()`.
    pub send_ms: u64,
    /// When the broker appended it (send + `linger.ms`); consumers cannot see it before.
    pub append_ms: u64,
}

/// One partition: an append-only log with its own offsets.
#[derive(Clone, Debug, Default)]
pub struct PartitionLog {
    /// Offset of the first record still in the log.
    log_start_offset: u64,
    /// Records from `log_start_offset` on are `records[head..]`; `records[head + i]` has
    /// offset `log_start_offset + i`. Deleted records before `head` are dropped in bulk now and
    /// then, so deleting one record costs O(1).
    records: Vec<Record>,
    head: usize,
}

impl PartitionLog {
    pub fn log_start_offset(&self) -> u64 {
        self.log_start_offset
    }

    /// The offset the next appended record will get.
    pub fn log_end_offset(&self) -> u64 {
        self.log_start_offset + self.len() as u64
    }

    /// Records still in the log.
    pub fn len(&self) -> usize {
        self.records.len() - self.head
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The records still in the log, oldest first.
    fn live(&self) -> &[Record] {
        &self.records[self.head..]
    }

    /// Deletes the oldest `count` records (at most all of them): the log start moves forward.
    pub fn delete_oldest(&mut self, count: usize) {
        let count = count.min(self.len());
        self.head += count;
        self.log_start_offset += count as u64;
        if self.head > 1024 && self.head * 2 > self.records.len() {
            self.records.drain(..self.head);
            self.head = 0;
        }
    }

    /// How many of the oldest records retention deletes at `now_ms`: those appended more than
    /// `retention_ms` ago (-1 = never), then as many more as it takes to bring the partition to
    /// `retention_bytes` (-1 = no limit).
    pub fn expired(&self, now_ms: u64, retention: &Retention) -> usize {
        let live = self.live();
        let by_time = match u64::try_from(retention.ms) {
            Ok(ms) => live.partition_point(|r| r.append_ms + ms < now_ms),
            Err(_) => 0,
        };
        let by_size = match u64::try_from(retention.bytes) {
            Ok(bytes) => {
                let keep = (bytes / u64::from(retention.record_bytes.max(1))) as usize;
                live.len().saturating_sub(keep)
            }
            Err(_) => 0,
        };
        by_time.max(by_size)
    }

    /// When the oldest record passes `retention.ms`, if there is one and a limit.
    pub fn next_expiry_ms(&self, retention: &Retention) -> u64 {
        match (self.live().first(), u64::try_from(retention.ms)) {
            (Some(oldest), Ok(ms)) => oldest.append_ms + ms + 1,
            _ => u64::MAX,
        }
    }

    /// Appends a record and returns its offset.
    pub fn append(&mut self, record: Record) -> u64 {
        debug_assert!(self
            .records
            .last()
            .is_none_or(|last| last.append_ms <= record.append_ms));
        self.records.push(record);
        self.log_end_offset() - 1
    }

    /// The record at `offset`, if it is still in the log.
    pub fn get(&self, offset: u64) -> Option<&Record> {
        let index = offset.checked_sub(self.log_start_offset)?;
        self.live().get(usize::try_from(index).ok()?)
    }

    /// Records with offsets in `[from, to)` that are still in the log.
    pub fn range(&self, from: u64, to: u64) -> &[Record] {
        let live = self.live();
        let clamp =
            |offset: u64| (offset.saturating_sub(self.log_start_offset) as usize).min(live.len());
        &live[clamp(from)..clamp(to).max(clamp(from))]
    }
}

/// A topic's retention settings (`retention.ms`, `retention.bytes`; -1 = no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retention {
    pub ms: i64,
    pub bytes: i64,
    /// Size of one record, for `retention.bytes`.
    pub record_bytes: u32,
}

/// A topic: a name and its partitions.
#[derive(Clone, Debug)]
pub struct Topic {
    pub name: String,
    pub partitions: Vec<PartitionLog>,
}

impl Topic {
    pub fn new(name: &str, partition_count: u32) -> Self {
        Self {
            name: name.to_string(),
            partitions: vec![PartitionLog::default(); partition_count as usize],
        }
    }

    /// Records appended to all partitions so far.
    pub fn total_records(&self) -> u64 {
        self.partitions.iter().map(|p| p.log_end_offset()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(append_ms: u64) -> Record {
        Record {
            key: 0,
            send_ms: append_ms,
            append_ms,
        }
    }

    #[test]
    fn offsets_count_up_from_zero() {
        let mut log = PartitionLog::default();
        assert_eq!(log.append(record(1)), 0);
        assert_eq!(log.append(record(2)), 1);
        assert_eq!(log.log_end_offset(), 2);
        assert_eq!(log.get(1).unwrap().append_ms, 2);
        assert!(log.get(2).is_none());
    }

    #[test]
    fn retention_moves_the_log_start_and_keeps_offsets() {
        let mut log = PartitionLog::default();
        for t in 0..3000 {
            log.append(record(t));
        }
        let by_time = Retention {
            ms: 1000,
            bytes: -1,
            record_bytes: 10,
        };
        assert_eq!(log.expired(2500, &by_time), 1500, "appended before 1500");
        assert_eq!(log.next_expiry_ms(&by_time), 1001);
        log.delete_oldest(1500);
        assert_eq!(log.log_start_offset(), 1500);
        assert_eq!(log.log_end_offset(), 3000);
        assert_eq!(log.get(1500).unwrap().append_ms, 1500);
        assert!(log.get(1499).is_none());
        assert_eq!(log.range(0, 1502).len(), 2);
        let by_size = Retention {
            ms: -1,
            bytes: 1000,
            record_bytes: 10,
        };
        assert_eq!(log.expired(0, &by_size), 1400, "keeps the newest 100");
        assert_eq!(log.next_expiry_ms(&by_size), u64::MAX);
    }

    #[test]
    fn a_range_is_clamped_to_the_log() {
        let mut log = PartitionLog::default();
        for t in [1, 2, 5, 9] {
            log.append(record(t));
        }
        assert_eq!(log.range(1, 3).len(), 2);
        assert_eq!(log.range(3, 10).len(), 1);
        assert!(log.range(7, 10).is_empty());
    }
}
