//! A topic partition with `cleanup.policy=compact`, and Kafka's log cleaner.
//!
//! Records are appended to the active segment; the active segment rolls (closes, and a new
//! one opens) once its first record is `segment.ms` old. The cleaner only touches closed
//! segments. The log is split at the cleaner's checkpoint: below it the clean tail (compacted
//! before), above it the dirty head. Every `log.cleaner.backoff.ms` the cleaner looks at the
//! dirty share of the cleanable log (clean tail plus dirty head, the active segment and
//! anything younger than `min.compaction.lag.ms` left out), and when it is above
//! `min.cleanable.dirty.ratio` it cleans: it maps each key of the dirty head to its latest
//! offset, then copies the whole cleanable log keeping only records no later record of their
//! key supersedes. Offsets never change; the cleaned segments are merged into one (they are
//! far below `segment.bytes`), as Kafka groups small segments when it cleans.
//!
//! A tombstone (a null value) deletes its key. Like Kafka since KIP-534, the first cleaning
//! that keeps a tombstone stamps it with a delete horizon (that time plus
//! `delete.retention.ms`); the first cleaning after the horizon drops it, and with it the
//! last trace of the key.

use serde::Serialize;
use std::collections::BTreeMap;

/// One record of the partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LogRecord {
    pub offset: u64,
    pub key: u32,
    /// `None` is a tombstone.
    pub value: Option<i64>,
    pub at_ms: u64,
    /// When a kept tombstone may go (set by the first cleaning that kept it).
    pub delete_horizon_ms: Option<u64>,
}

/// A segment: where it starts, and the timestamps that decide rolling and compaction lag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub base_offset: u64,
    pub first_ms: u64,
    pub largest_ms: u64,
}

/// The topic's cleaning settings.
#[derive(Clone, Copy, Debug)]
pub struct CleanerRules {
    pub segment_ms: u64,
    pub min_cleanable_dirty_ratio: f64,
    pub delete_retention_ms: u64,
    pub min_compaction_lag_ms: u64,
}

/// How much of the log the cleaner could clean now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dirt {
    /// Records below the cleaner's checkpoint.
    pub clean: u64,
    /// Records from the checkpoint up to the first uncleanable offset.
    pub dirty: u64,
    pub first_uncleanable: u64,
}

impl Dirt {
    /// The dirty share of the cleanable log, in thousandths (0 for an empty log).
    pub fn permille(&self) -> u64 {
        (self.dirty * 1000)
            .checked_div(self.clean + self.dirty)
            .unwrap_or(0)
    }
}

/// What one cleaning did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cleaning {
    pub records_before: u64,
    pub records_after: u64,
    pub dirty_permille: u64,
    /// The tombstones it dropped, with their keys.
    pub tombstones_removed: Vec<(u32, u64)>,
    pub cleaned_upto: u64,
}

/// The partition's log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompactedLog {
    /// Every record still in the log, in offset order.
    pub records: Vec<LogRecord>,
    /// Segments by base offset; the last is the active one.
    pub segments: Vec<Segment>,
    pub next_offset: u64,
    /// The cleaner's checkpoint: the first dirty offset.
    pub cleaned_upto: u64,
    pub cleanings: u64,
    pub records_removed: u64,
    pub tombstones_removed: u64,
}

impl CompactedLog {
    /// Appends a record at `now`, rolling the active segment first if it is old enough.
    pub fn append(&mut self, key: u32, value: Option<i64>, now: u64, segment_ms: u64) -> u64 {
        let rolls = self
            .segments
            .last()
            .is_none_or(|active| now - active.first_ms >= segment_ms);
        if rolls {
            self.segments.push(Segment {
                base_offset: self.next_offset,
                first_ms: now,
                largest_ms: now,
            });
        }
        let active = self
            .segments
            .last_mut()
            .expect("a segment was just ensured");
        active.largest_ms = active.largest_ms.max(now);
        let offset = self.next_offset;
        self.records.push(LogRecord {
            offset,
            key,
            value,
            at_ms: now,
            delete_horizon_ms: None,
        });
        self.next_offset += 1;
        offset
    }

    /// The active segment's base offset: nothing from there on can be cleaned.
    pub fn active_base(&self) -> u64 {
        self.segments.last().map_or(0, |s| s.base_offset)
    }

    /// The clean and dirty record counts, and where cleaning must stop: the active segment,
    /// or an earlier closed segment with a record younger than `min.compaction.lag.ms`.
    pub fn dirt(&self, now: u64, rules: &CleanerRules) -> Dirt {
        let closed = &self.segments[..self.segments.len().saturating_sub(1)];
        let too_young = closed
            .iter()
            .filter(|s| s.base_offset >= self.cleaned_upto)
            .find(|s| s.largest_ms + rules.min_compaction_lag_ms > now)
            .map(|s| s.base_offset);
        let first_uncleanable = too_young
            .unwrap_or(self.active_base())
            .max(self.cleaned_upto);
        let clean = self
            .records
            .partition_point(|r| r.offset < self.cleaned_upto) as u64;
        let below = self
            .records
            .partition_point(|r| r.offset < first_uncleanable) as u64;
        Dirt {
            clean,
            dirty: below - clean,
            first_uncleanable,
        }
    }

    /// Cleans the log if its dirty share is above `min.cleanable.dirty.ratio`.
    pub fn clean(&mut self, now: u64, rules: &CleanerRules) -> Option<Cleaning> {
        let dirt = self.dirt(now, rules);
        let threshold = rules.min_cleanable_dirty_ratio;
        // Kafka cleans a log whose ratio is strictly above the threshold.
        let ratio = dirt.dirty as f64 / (dirt.clean + dirt.dirty).max(1) as f64;
        if dirt.dirty == 0 || ratio <= threshold {
            return None;
        }
        let upto = dirt.first_uncleanable;
        let mut latest: BTreeMap<u32, u64> = BTreeMap::new();
        for r in self
            .records
            .iter()
            .filter(|r| (self.cleaned_upto..upto).contains(&r.offset))
        {
            latest.insert(r.key, r.offset);
        }
        let records_before = self.records.len() as u64;
        let mut tombstones_removed = Vec::new();
        let retention = rules.delete_retention_ms;
        self.records.retain_mut(|r| {
            if r.offset >= upto {
                return true;
            }
            if latest.get(&r.key).is_some_and(|&newest| r.offset < newest) {
                return false;
            }
            if r.value.is_some() {
                return true;
            }
            match r.delete_horizon_ms {
                None => {
                    r.delete_horizon_ms = Some(now + retention);
                    true
                }
                Some(horizon) if now >= horizon => {
                    tombstones_removed.push((r.key, r.offset));
                    false
                }
                Some(_) => true,
            }
        });
        let records_after = self.records.len() as u64;
        self.records_removed += records_before - records_after;
        self.tombstones_removed += tombstones_removed.len() as u64;
        self.cleaned_upto = upto;
        self.cleanings += 1;
        self.merge_cleaned_segments(upto);
        Some(Cleaning {
            records_before,
            records_after,
            dirty_permille: dirt.permille(),
            tombstones_removed,
            cleaned_upto: upto,
        })
    }

    /// The segments below `upto` become one, as the cleaner groups small segments.
    fn merge_cleaned_segments(&mut self, upto: u64) {
        let cleaned = self
            .segments
            .iter()
            .take(self.segments.len() - 1)
            .take_while(|s| s.base_offset < upto)
            .count();
        if cleaned < 2 {
            return;
        }
        let merged = Segment {
            base_offset: self.segments[0].base_offset,
            first_ms: self.segments[..cleaned]
                .iter()
                .map(|s| s.first_ms)
                .min()
                .unwrap_or(0),
            largest_ms: self.segments[..cleaned]
                .iter()
                .map(|s| s.largest_ms)
                .max()
                .unwrap_or(0),
        };
        self.segments.splice(..cleaned, [merged]);
    }

    /// The table a consumer builds by reading the whole log from offset 0.
    pub fn table(&self) -> BTreeMap<u32, i64> {
        let mut table = BTreeMap::new();
        for r in &self.records {
            match r.value {
                Some(v) => table.insert(r.key, v),
                None => table.remove(&r.key),
            };
        }
        table
    }

    /// Records of `key` still in the log.
    pub fn records_of(&self, key: u32) -> usize {
        self.records.iter().filter(|r| r.key == key).count()
    }

    /// Tombstones still in the log.
    pub fn tombstones(&self) -> u64 {
        self.records.iter().filter(|r| r.value.is_none()).count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: CleanerRules = CleanerRules {
        segment_ms: 10,
        min_cleanable_dirty_ratio: 0.5,
        delete_retention_ms: 100,
        min_compaction_lag_ms: 0,
    };

    #[test]
    fn the_cleaner_keeps_the_latest_record_per_key_and_never_touches_the_active_segment() {
        let mut log = CompactedLog::default();
        for t in 0..30_u32 {
            log.append(t % 3, Some(i64::from(t)), u64::from(t), RULES.segment_ms);
        }
        // Segments at 0, 10, 20; the one at 20 is active.
        assert_eq!(log.segments.len(), 3);
        let cleaning = log.clean(30, &RULES).unwrap();
        assert_eq!(cleaning.records_before, 30);
        assert_eq!(cleaning.cleaned_upto, 20);
        // Three keys survive below 20, plus the active segment's ten records.
        assert_eq!(cleaning.records_after, 13);
        assert_eq!(log.table().get(&2), Some(&29));
        assert_eq!(log.segments.len(), 2, "the cleaned segments are merged");
        // Nothing dirty below the active segment now: nothing more to clean.
        assert!(log.clean(31, &RULES).is_none());
    }

    #[test]
    fn a_clean_log_is_left_alone_until_its_dirty_share_passes_the_ratio() {
        let mut log = CompactedLog::default();
        for t in 0..20_u32 {
            log.append(t, Some(1), u64::from(t), RULES.segment_ms);
        }
        log.append(100, Some(1), 20, RULES.segment_ms);
        log.clean(21, &RULES).unwrap();
        assert_eq!(log.cleaned_upto, 20);
        for t in 21..=40_u32 {
            log.append(200 + t, Some(1), u64::from(t), RULES.segment_ms);
        }
        let dirt = log.dirt(40, &RULES);
        assert_eq!((dirt.clean, dirt.dirty), (20, 20));
        assert_eq!(dirt.permille(), 500);
        assert!(
            log.clean(40, &RULES).is_none(),
            "exactly the ratio is not above it"
        );
        log.append(999, Some(1), 50, RULES.segment_ms);
        assert!(log.clean(50, &RULES).is_some());
    }

    #[test]
    fn a_tombstone_stays_until_a_cleaning_after_its_horizon() {
        let mut log = CompactedLog::default();
        log.append(1, Some(5), 0, RULES.segment_ms);
        log.append(1, None, 1, RULES.segment_ms);
        log.append(2, Some(7), 10, RULES.segment_ms);
        let first = log.clean(20, &RULES).unwrap();
        assert!(first.tombstones_removed.is_empty());
        assert_eq!(
            log.records_of(1),
            1,
            "the old value went, the tombstone stays"
        );
        assert_eq!(log.records[0].delete_horizon_ms, Some(120));
        assert!(!log.table().contains_key(&1));
        // More dirt, then a cleaning before and one after the horizon.
        for t in 20..40_u32 {
            log.append(3, Some(i64::from(t)), u64::from(t), RULES.segment_ms);
        }
        log.clean(40, &RULES).unwrap();
        assert_eq!(log.records_of(1), 1);
        for t in 120..140_u32 {
            log.append(4, Some(i64::from(t)), u64::from(t), RULES.segment_ms);
        }
        let late = log.clean(140, &RULES).unwrap();
        assert_eq!(late.tombstones_removed, vec![(1, 1)]);
        assert_eq!(log.records_of(1), 0);
    }

    #[test]
    fn young_segments_wait_for_the_minimum_compaction_lag() {
        let rules = CleanerRules {
            min_compaction_lag_ms: 50,
            ..RULES
        };
        let mut log = CompactedLog::default();
        for t in 0..30_u32 {
            log.append(1, Some(i64::from(t)), u64::from(t), rules.segment_ms);
        }
        assert_eq!(
            log.dirt(30, &rules).dirty,
            0,
            "every closed segment is under 50 ms old"
        );
        assert_eq!(log.dirt(60, &rules).first_uncleanable, 10);
    }
}
