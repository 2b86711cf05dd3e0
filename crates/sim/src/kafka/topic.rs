//! The topic: partitions as append-only logs of records, addressed by offset.
//!
//! A partition keeps its records in sealed chunks of [`CHUNK_RECORDS`] records, shared and
//! never changed once full, plus one open chunk that appends go to. Cloning a log (every
//! checkpoint of the timeline clones the world) copies a pointer per sealed chunk and the open
//! chunk's few records, not the whole history. Offsets are absolute: chunk `k` holds offsets
//! `k * CHUNK_RECORDS ..`, so reading by offset is O(1). Retention (`retention.ms`,
//! `retention.bytes`) moves the log start offset forward and drops every chunk wholly below
//! it. Kafka deletes whole segments (`segment.bytes`, 1 GiB by default), so its log start
//! jumps; here every record is its own segment and the log start moves record by record (said
//! in the lesson); the chunks are only how memory is held, never seen.

use crate::replay::chunked::chunk_items;
use std::collections::VecDeque;
use std::sync::Arc;

/// Key index meaning "no key" (Kafka's null key).
pub const NULL_KEY: u32 = u32::MAX;

/// Records per sealed chunk, sized by the rule every shared chunk follows
/// ([`chunk_items`]: at most 8 KiB, so 256 records): the open chunk a clone copies stays
/// cheap (at 1 024 records the storm's 64 open chunks made a third of its checkpoints'
/// cost), and a long log is still a few hundred pointers.
pub const CHUNK_RECORDS: usize = chunk_items(std::mem::size_of::<Record>());

/// One record as stored in a partition. Its offset is its place in the log. It keeps its
/// linger rather than its append time, which follows from it: 16 bytes instead of 24. A busy
/// run appends records by the million, and in a browser the memory they fill costs most where
/// it is first written (the storm's ten minutes 4-6 % sooner in Chromium).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Index of the key in the producer's key space, or [`NULL_KEY`].
    pub key: u32,
    /// How long it waited in the producer's buffer (`linger.ms`).
    pub linger_ms: u32,
    /// When the producer's application called `send()`.
    pub send_ms: u64,
}

impl Record {
    /// When the broker appended it (send + `linger.ms`); consumers cannot see it before.
    #[inline(always)]
    pub fn append_ms(&self) -> u64 {
        self.send_ms + u64::from(self.linger_ms)
    }
}

/// One partition: an append-only log with its own offsets.
#[derive(Clone, Debug, Default)]
pub struct PartitionLog {
    /// Offset of the first record still in the log.
    log_start_offset: u64,
    /// Offset of the first record of `sealed[0]` (or of `open`, if nothing is sealed): always
    /// a multiple of [`CHUNK_RECORDS`]. Records below `log_start_offset` in the first chunk
    /// are deleted but kept until the whole chunk is.
    base_offset: u64,
    /// Full chunks, oldest first, each exactly [`CHUNK_RECORDS`] long. A `Vec` behind the
    /// pointer, not a slice: sealing then moves the open chunk's buffer instead of copying it
    /// into a new allocation (`Arc<[Record]>` needs room for its counts before the records).
    sealed: VecDeque<Arc<Vec<Record>>>,
    /// The chunk appends go to; shorter than [`CHUNK_RECORDS`].
    open: Vec<Record>,
}

impl PartitionLog {
    pub fn log_start_offset(&self) -> u64 {
        self.log_start_offset
    }

    /// The offset the next appended record will get.
    #[inline(always)]
    pub fn log_end_offset(&self) -> u64 {
        self.open_base_offset() + self.open.len() as u64
    }

    /// Records still in the log.
    pub fn len(&self) -> usize {
        (self.log_end_offset() - self.log_start_offset) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Numbers of the sealed chunks held (chunk `k` holds offsets `k * CHUNK_RECORDS ..`):
    /// clones of one run share the chunks with the same number.
    pub fn sealed_chunks(&self) -> std::ops::Range<u64> {
        let first = self.base_offset / CHUNK_RECORDS as u64;
        first..first + self.sealed.len() as u64
    }

    /// Records in the open chunk, which a clone copies.
    pub fn open_records(&self) -> usize {
        self.open.len()
    }

    #[inline(always)]
    fn open_base_offset(&self) -> u64 {
        self.base_offset + (self.sealed.len() * CHUNK_RECORDS) as u64
    }

    /// The records still in the log, oldest first.
    fn live(&self) -> Records<'_> {
        self.range(self.log_start_offset, self.log_end_offset())
    }

    /// Records from `from` (held, at or after `base_offset`) up to `to` or the end of the
    /// chunk holding `from`, whichever comes first.
    #[inline(always)]
    fn contiguous(&self, from: u64, to: u64) -> &[Record] {
        let index = (from - self.base_offset) as usize;
        let (chunk, within) = (index / CHUNK_RECORDS, index % CHUNK_RECORDS);
        let records = match self.sealed.get(chunk) {
            Some(sealed) => &sealed[..],
            None => &self.open[..],
        };
        let end = records.len().min(within + (to - from) as usize);
        &records[within..end]
    }

    /// Deletes the oldest `count` records (at most all of them): the log start moves forward,
    /// and chunks wholly below it are let go.
    pub fn delete_oldest(&mut self, count: usize) {
        let count = count.min(self.len());
        self.log_start_offset += count as u64;
        while !self.sealed.is_empty()
            && self.base_offset + CHUNK_RECORDS as u64 <= self.log_start_offset
        {
            self.sealed.pop_front();
            self.base_offset += CHUNK_RECORDS as u64;
        }
    }

    /// How many of the oldest records retention deletes at `now_ms`: those appended more than
    /// `retention_ms` ago (-1 = never), then as many more as it takes to bring the partition to
    /// `retention_bytes` (-1 = no limit).
    pub fn expired(&self, now_ms: u64, retention: &Retention) -> usize {
        let live = self.live();
        let by_time = match u64::try_from(retention.ms) {
            Ok(ms) => live.partition_point(|r| r.append_ms() + ms < now_ms),
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
        match (self.get(self.log_start_offset), u64::try_from(retention.ms)) {
            (Some(oldest), Ok(ms)) => oldest.append_ms() + ms + 1,
            _ => u64::MAX,
        }
    }

    /// Appends a record and returns its offset. A chunk that fills is sealed.
    pub fn append(&mut self, record: Record) -> u64 {
        debug_assert!(self
            .open
            .last()
            .or_else(|| self.sealed.back().and_then(|chunk| chunk.last()))
            .is_none_or(|last| last.append_ms() <= record.append_ms()));
        let offset = self.log_end_offset();
        self.open.push(record);
        if self.open.len() == CHUNK_RECORDS {
            let full = std::mem::replace(&mut self.open, Vec::with_capacity(CHUNK_RECORDS));
            self.sealed.push_back(Arc::new(full));
        }
        offset
    }

    /// The record at `offset`, if it is still in the log. Inlined by hand, like the offsets
    /// and the chunk lookup under it: the size build calls small functions instead, and these
    /// run several times per record.
    #[inline(always)]
    pub fn get(&self, offset: u64) -> Option<&Record> {
        if offset < self.log_start_offset || offset >= self.log_end_offset() {
            return None;
        }
        self.contiguous(offset, offset + 1).first()
    }

    /// Records with offsets in `[from, to)` that are still in the log.
    pub fn range(&self, from: u64, to: u64) -> Records<'_> {
        let clamp = |offset: u64| offset.clamp(self.log_start_offset, self.log_end_offset());
        Records {
            log: self,
            from: clamp(from),
            to: clamp(to).max(clamp(from)),
        }
    }
}

/// Records with consecutive offsets in one log, read in place across its chunks.
#[derive(Clone, Copy, Debug)]
pub struct Records<'a> {
    log: &'a PartitionLog,
    from: u64,
    to: u64,
}

impl<'a> Records<'a> {
    pub fn len(&self) -> usize {
        (self.to - self.from) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many records, from the first, satisfy `pred`, which must hold for a prefix of them
    /// and fail for the rest (as `slice::partition_point`).
    pub fn partition_point(&self, mut pred: impl FnMut(&Record) -> bool) -> usize {
        let (mut low, mut high) = (self.from, self.to);
        while low < high {
            let mid = low + (high - low) / 2;
            if pred(&self.log.contiguous(mid, mid + 1)[0]) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        (low - self.from) as usize
    }

    pub fn iter(&self) -> RecordIter<'a> {
        RecordIter {
            log: self.log,
            chunk: [].iter(),
            next_offset: self.from,
            to: self.to,
        }
    }
}

impl<'a> IntoIterator for Records<'a> {
    type Item = &'a Record;
    type IntoIter = RecordIter<'a>;

    fn into_iter(self) -> RecordIter<'a> {
        self.iter()
    }
}

/// Walks [`Records`] a chunk at a time.
#[derive(Clone, Debug)]
pub struct RecordIter<'a> {
    log: &'a PartitionLog,
    /// What is left of the chunk being read.
    chunk: std::slice::Iter<'a, Record>,
    /// The offset of the first record after `chunk`.
    next_offset: u64,
    to: u64,
}

impl<'a> Iterator for RecordIter<'a> {
    type Item = &'a Record;

    fn next(&mut self) -> Option<&'a Record> {
        if let Some(record) = self.chunk.next() {
            return Some(record);
        }
        if self.next_offset >= self.to {
            return None;
        }
        let chunk = self.log.contiguous(self.next_offset, self.to);
        self.next_offset += chunk.len() as u64;
        self.chunk = chunk.iter();
        self.chunk.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.chunk.len() + (self.to - self.next_offset) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for RecordIter<'_> {}

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
    /// A boxed slice, not a `Vec`: the site builds the core for size (opt-level "z"), where
    /// indexing a `Vec` is a call, and every record is looked up here by partition; a slice's
    /// indexing is built into the language.
    pub partitions: Box<[PartitionLog]>,
}

impl Topic {
    pub fn new(name: &str, partition_count: u32) -> Self {
        Self {
            name: name.to_string(),
            partitions: vec![PartitionLog::default(); partition_count as usize].into_boxed_slice(),
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
            linger_ms: 0,
        }
    }

    #[test]
    fn offsets_count_up_from_zero() {
        let mut log = PartitionLog::default();
        assert_eq!(log.append(record(1)), 0);
        assert_eq!(log.append(record(2)), 1);
        assert_eq!(log.log_end_offset(), 2);
        assert_eq!(log.get(1).unwrap().append_ms(), 2);
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
        assert_eq!(log.get(1500).unwrap().append_ms(), 1500);
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

    /// The log against a plain `Vec` of every record ever appended, across many chunk
    /// boundaries, with retention deleting in uneven steps.
    #[test]
    fn chunked_logs_read_like_one_long_log() {
        let mut log = PartitionLog::default();
        let mut all = Vec::new();
        let mut start = 0;
        for step in 0..40u64 {
            for _ in 0..(step * 337) % 1500 {
                let r = record(all.len() as u64 / 3);
                assert_eq!(log.append(r), all.len() as u64);
                all.push(r);
            }
            let delete = ((step * 701) % 2100) as usize;
            log.delete_oldest(delete);
            start = (start + delete).min(all.len());
            assert_eq!(log.log_start_offset(), start as u64);
            assert_eq!(log.log_end_offset(), all.len() as u64);
            assert!(log.sealed_chunks().start * CHUNK_RECORDS as u64 <= start as u64);
            for offset in [0, start, start + 1, start + 1023, start + 1024, all.len()] {
                let offset = offset.saturating_sub(1);
                let expected = all.get(offset).filter(|_| offset >= start);
                assert_eq!(log.get(offset as u64), expected, "{offset}");
            }
            let (from, to) = (start.saturating_sub(5), (start + 2500).min(all.len()));
            let read: Vec<Record> = log
                .range(from as u64, to as u64)
                .into_iter()
                .copied()
                .collect();
            assert_eq!(read, all[start..to]);
            let at_ms = (start as u64 + 1800) / 3;
            let expected = all[start..].partition_point(|r| r.append_ms() < at_ms);
            assert_eq!(
                log.live().partition_point(|r| r.append_ms() < at_ms),
                expected
            );
        }
        assert!(all.len() > 10 * CHUNK_RECORDS, "{}", all.len());
    }

    #[test]
    fn clones_share_sealed_chunks_and_diverge_after() {
        let mut log = PartitionLog::default();
        for t in 0..(3 * CHUNK_RECORDS as u64 + 5) {
            log.append(record(t));
        }
        let mut copy = log.clone();
        assert!(Arc::ptr_eq(&log.sealed[2], &copy.sealed[2]));
        assert_eq!(log.open_records(), 5);
        copy.append(record(1 << 40));
        copy.delete_oldest(2 * CHUNK_RECORDS);
        assert_eq!(copy.sealed_chunks(), 2..3);
        assert_eq!(log.sealed_chunks(), 0..3);
        assert_eq!(log.log_end_offset() + 1, copy.log_end_offset());
        assert!(log.get(log.log_end_offset()).is_none());
        assert_eq!(log.get(5).unwrap().append_ms(), 5);
        assert!(copy.get(5).is_none());
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
