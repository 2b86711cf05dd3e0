//! The system of record and a store derived from it.
//!
//! [`Database`] is a table of keys, each holding a version, and the change log the database
//! writes as it commits (a WAL or binlog): one entry per commit, numbered by its log
//! sequence number (LSN, from 1) in commit order. Concurrent writes of one key are serialized
//! by the database (a row lock), so the commit order is the order the writes reached it, and
//! the log records exactly that order. [`DerivedStore`] is what a search index or a cache
//! holds for each key, with the number of keys on which it disagrees with the database kept
//! as it changes, so it can be read at every moment.

use crate::replay::chunked::ChunkedVec;
use serde::Serialize;

/// One committed write, as the change log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub key: u32,
    /// The version the write set: what identifies the value it wrote.
    pub version: u64,
    pub commit_ms: u64,
}

/// A table and its change log. The log and the per-key LSNs only grow, and every checkpoint
/// of a run clones the database, so they are held in shared chunks: a clone copies the last
/// chunk's few entries, not every commit so far (which had made cloning cost more than
/// simulating in a ten-minute run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Database {
    /// Each key's current version; every key starts at version 0, before the log begins.
    pub rows: Vec<u64>,
    /// Every commit, in commit order: entry `i` has LSN `i + 1`.
    pub log: ChunkedVec<Change>,
    /// Per key, the LSNs of its commits, in order, for a read as of a log position; none for
    /// a database nobody reads that way (the dual-writes comparison), whose checkpoints would
    /// copy a chunk per key for nothing.
    row_lsns: Vec<ChunkedVec<u64>>,
}

impl Database {
    /// A table of `keys` keys, read only as it is now.
    pub fn new(keys: u32) -> Self {
        Self {
            rows: vec![0; keys as usize],
            log: ChunkedVec::default(),
            row_lsns: Vec::new(),
        }
    }

    /// A table of `keys` keys that can also be read as of any log position
    /// ([`Database::version_at`]), as a snapshot with a position reads it.
    pub fn with_reads_as_of(keys: u32) -> Self {
        Self {
            row_lsns: vec![ChunkedVec::default(); keys as usize],
            ..Self::new(keys)
        }
    }

    /// Commits `version` to `key` at `now`; returns its LSN.
    pub fn commit(&mut self, key: u32, version: u64, now: u64) -> u64 {
        self.rows[key as usize] = version;
        self.log.push(Change {
            key,
            version,
            commit_ms: now,
        });
        let lsn = self.log.len() as u64;
        if let Some(lsns) = self.row_lsns.get_mut(key as usize) {
            lsns.push(lsn);
        }
        lsn
    }

    /// The LSN of the latest commit, 0 before the first.
    pub fn log_end(&self) -> u64 {
        self.log.len() as u64
    }

    /// The change at `lsn` (from 1).
    pub fn change(&self, lsn: u64) -> Change {
        self.log[(lsn - 1) as usize]
    }

    /// `key`'s version as of log position `lsn`: what a consistent read at that position
    /// sees (version 0 if the key had no commit by then). Only a database made
    /// [`Database::with_reads_as_of`] can answer; any other panics.
    pub fn version_at(&self, key: u32, lsn: u64) -> u64 {
        let lsns = &self.row_lsns[key as usize];
        match lsns.partition_point(|&l| l <= lsn) {
            0 => 0,
            n => self.change(lsns[n - 1]).version,
        }
    }
}

/// A store kept from the database: each key's version, or nothing yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedStore {
    pub rows: Vec<Option<u64>>,
    /// When each key's current version was written into the store.
    pub written_ms: Vec<u64>,
    diverges: Vec<bool>,
    /// Keys whose version differs from the database's now.
    pub divergent: u32,
    /// The most keys that ever differed at once.
    pub max_divergent: u32,
    /// The most keys that differed at once since the last sample.
    pub interval_peak: u32,
}

impl DerivedStore {
    /// A store that starts as a copy of the database (`filled`) or empty.
    pub fn new(keys: u32, filled: bool) -> Self {
        let n = keys as usize;
        Self {
            rows: vec![filled.then_some(0); n],
            written_ms: vec![0; n],
            diverges: vec![!filled; n],
            divergent: if filled { 0 } else { keys },
            max_divergent: if filled { 0 } else { keys },
            interval_peak: if filled { 0 } else { keys },
        }
    }

    /// Writes `version` to `key` at `now`; returns the version it replaced.
    pub fn write(&mut self, key: u32, version: u64, now: u64, db: &Database) -> Option<u64> {
        let before = self.rows[key as usize].replace(version);
        self.written_ms[key as usize] = now;
        self.refresh(key, db);
        before
    }

    /// Re-judges `key` against the database (after either side changed).
    pub fn refresh(&mut self, key: u32, db: &Database) {
        let k = key as usize;
        let diverges = self.rows[k] != Some(db.rows[k]);
        if diverges != self.diverges[k] {
            self.diverges[k] = diverges;
            if diverges {
                self.divergent += 1;
                self.max_divergent = self.max_divergent.max(self.divergent);
                self.interval_peak = self.interval_peak.max(self.divergent);
            } else {
                self.divergent -= 1;
            }
        }
    }

    /// Whether `key` differs from the database now.
    pub fn diverges(&self, key: u32) -> bool {
        self.diverges[key as usize]
    }

    /// Counts the differing keys again from scratch (for the invariants).
    pub fn recount(&self, db: &Database) -> u32 {
        self.rows
            .iter()
            .zip(&db.rows)
            .filter(|(held, truth)| **held != Some(**truth))
            .count() as u32
    }

    /// Starts a new sampling interval.
    pub fn take_peak(&mut self) -> u32 {
        let peak = self.interval_peak.max(self.divergent);
        self.interval_peak = self.divergent;
        peak
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_as_of_a_position_sees_the_commits_up_to_it() {
        let mut db = Database::with_reads_as_of(2);
        assert_eq!(db.commit(0, 5, 10), 1);
        assert_eq!(db.commit(1, 6, 11), 2);
        assert_eq!(db.commit(0, 7, 12), 3);
        assert_eq!(db.version_at(0, 0), 0);
        assert_eq!(db.version_at(0, 2), 5);
        assert_eq!(db.version_at(0, 3), 7);
        assert_eq!(db.version_at(1, 1), 0);
        assert_eq!(db.version_at(1, 3), 6);
        assert_eq!(db.rows, vec![7, 6]);
    }

    #[test]
    fn a_database_read_only_as_it_is_keeps_the_same_table_and_log() {
        let (mut plain, mut readable) = (Database::new(3), Database::with_reads_as_of(3));
        for (key, version, now) in [(2, 1, 5), (0, 2, 6), (2, 3, 9)] {
            assert_eq!(
                plain.commit(key, version, now),
                readable.commit(key, version, now)
            );
        }
        assert_eq!((&plain.rows, &plain.log), (&readable.rows, &readable.log));
        assert_eq!(plain.change(3).version, 3);
    }

    #[test]
    fn the_store_counts_its_differences_as_they_change() {
        let mut db = Database::new(3);
        let mut store = DerivedStore::new(3, true);
        db.commit(1, 4, 5);
        store.refresh(1, &db);
        assert_eq!(store.divergent, 1);
        assert_eq!(store.write(1, 4, 9, &db), Some(0));
        assert_eq!(store.divergent, 0);
        assert_eq!(store.max_divergent, 1);
        let empty = DerivedStore::new(3, false);
        assert_eq!(empty.divergent, 3);
        assert_eq!(empty.recount(&db), 3);
    }
}
