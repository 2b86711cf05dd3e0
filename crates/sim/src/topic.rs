//! The topic: partitions as append-only logs of records, addressed by offset.
//!
//! A partition keeps its records in a `Vec` whose index is `offset - base_offset`, so reading
//! by offset is O(1) and appending never moves earlier records. The log start offset exists from
//! the start (it is 0 until retention moves it), so later lessons can trim the head of a log
//! without changing how offsets are read.

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
    /// Records from `log_start_offset` on; `records[i]` has offset `log_start_offset + i`.
    records: Vec<Record>,
}

impl PartitionLog {
    pub fn log_start_offset(&self) -> u64 {
        self.log_start_offset
    }

    /// The offset the next appended record will get.
    pub fn log_end_offset(&self) -> u64 {
        self.log_start_offset + self.records.len() as u64
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
        self.records.get(usize::try_from(index).ok()?)
    }

    /// Records with offsets in `[from, to)` that are still in the log.
    pub fn range(&self, from: u64, to: u64) -> &[Record] {
        let clamp = |offset: u64| {
            (offset.saturating_sub(self.log_start_offset) as usize).min(self.records.len())
        };
        &self.records[clamp(from)..clamp(to).max(clamp(from))]
    }
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
