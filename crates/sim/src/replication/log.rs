//! One replica's log: its records by offset, each stamped with the leader epoch that wrote
//! it, and the leader-epoch cache (each epoch's start offset) that Kafka keeps beside the log.
//!
//! The cache is what lets a replica that comes back find where its log parted from the
//! leader's (KIP-101, refined by KIP-279 and carried in the fetch itself since KIP-320): the
//! follower names the epoch of its last record, the leader answers with where that epoch ends
//! in its own log, and the follower cuts its log there. The functions below follow Kafka's
//! `LeaderEpochFileCache.endOffsetFor` and the fetcher's truncation rule, so a divergent tail
//! is found by epochs, never by the high watermark (which is what lost data before KIP-101).

use crate::replay::chunked::ChunkedVec;

/// One record in a replica's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The producer's record, by its index in the run.
    pub record: u32,
    /// The leader epoch in which the leader appended it.
    pub epoch: u32,
}

/// A replica's log and its leader-epoch cache.
#[derive(Clone, Debug, Default)]
pub struct ReplicaLog {
    /// In shared chunks: every checkpoint of a run clones every replica's log.
    entries: ChunkedVec<Entry>,
    /// One past the largest record this log ever held (truncation does not lower it): a
    /// record at or above it is not in the log, which settles most searches for a record at
    /// once, since the producer sends each partition's records in increasing order.
    records_below: u32,
    /// (epoch, start offset), epochs increasing; an epoch may start at the log end with no
    /// record yet (a leader writes its epoch when elected).
    epochs: Vec<(u32, u64)>,
}

/// The index of `offset` in the entries (an offset past any index clamps to the end).
fn index(offset: u64) -> usize {
    usize::try_from(offset).unwrap_or(usize::MAX)
}

/// Where an epoch ends: `(epoch, end offset)`, or `None` when the log cannot say (Kafka's
/// `UNDEFINED_EPOCH`).
pub type EpochEnd = Option<(u32, u64)>;

/// What a follower does with a leader's answer about a diverging epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truncation {
    /// The offset to cut the log back to.
    pub to: u64,
    /// Whether the logs now agree; if not, the follower asks again with its new last epoch.
    pub complete: bool,
}

impl ReplicaLog {
    /// The log end offset: the offset the next record will take.
    pub fn end_offset(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Entries this log holds alone: those in sealed chunks are shared with its clones (a
    /// run's checkpoints), so a size estimate counts them once per run.
    pub fn unshared_entries(&self) -> usize {
        self.entries.len() - self.entries.sealed_len()
    }

    /// Entries held in chunks shared with the log's clones.
    pub fn shared_entries(&self) -> usize {
        self.entries.sealed_len()
    }

    /// The entries from offset `from` up to `to` (both clamped to the log end), in order.
    pub fn range(&self, from: u64, to: u64) -> impl DoubleEndedIterator<Item = &Entry> {
        self.entries.range(index(from), index(to))
    }

    /// Where the newest entry of `record` in `[from, to)` sits, if there is one (both clamped
    /// to the log end). A scan over the chunks' slices, run for every produce request, unless
    /// the record is newer than any this log ever held.
    pub fn newest_offset_of(&self, record: u32, from: u64, to: u64) -> Option<u64> {
        if record >= self.records_below {
            return None;
        }
        let mut slice_end = index(to).min(self.entries.len());
        for slice in self.entries.slices(index(from), index(to)).rev() {
            let slice_start = slice_end - slice.len();
            if let Some(index) = slice.iter().rposition(|e| e.record == record) {
                return Some((slice_start + index) as u64);
            }
            slice_end = slice_start;
        }
        None
    }

    /// Every entry, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Entry> {
        self.entries.iter()
    }

    pub fn entry(&self, offset: u64) -> Option<Entry> {
        self.entries.get(usize::try_from(offset).ok()?).copied()
    }

    /// The epoch of the last record, what a follower sends as its last fetched epoch.
    pub fn last_epoch(&self) -> Option<u32> {
        self.entries.last().map(|e| e.epoch)
    }

    /// The newest epoch in the cache (a new leader's epoch, before its first record).
    pub fn latest_epoch(&self) -> Option<u32> {
        self.epochs.last().map(|&(epoch, _)| epoch)
    }

    /// Where `epoch` starts in this log, if the cache holds it.
    pub fn epoch_start(&self, epoch: u32) -> Option<u64> {
        self.epochs
            .iter()
            .find(|&&(e, _)| e == epoch)
            .map(|&(_, start)| start)
    }

    /// Appends `entry` at the end, opening its epoch in the cache if it is new.
    pub fn append(&mut self, entry: Entry) {
        if self
            .latest_epoch()
            .is_none_or(|latest| entry.epoch > latest)
        {
            self.epochs.push((entry.epoch, self.end_offset()));
        }
        self.records_below = self.records_below.max(entry.record + 1);
        self.entries.push(entry);
    }

    /// Starts `epoch` at the log end: what a replica does when it becomes leader.
    pub fn begin_epoch(&mut self, epoch: u32) {
        if self.latest_epoch().is_none_or(|latest| epoch > latest) {
            self.epochs.push((epoch, self.end_offset()));
        }
    }

    /// Cuts the log back to `offset` (a no-op past the end); the cache forgets epochs that
    /// started at or after it. Returns the entries removed, oldest first.
    pub fn truncate(&mut self, offset: u64) -> Vec<Entry> {
        let cut = (offset as usize).min(self.entries.len());
        let removed = self.entries.truncate(cut);
        self.epochs.retain(|&(_, start)| start < offset);
        removed
    }

    /// Kafka's `endOffsetFor(requestedEpoch)`: the requested epoch's end in this log (the
    /// start of the next epoch, or the log end for the newest); for an epoch this log never
    /// had, the nearest older one it did have and where that one ends.
    pub fn end_offset_for(&self, requested: u32) -> EpochEnd {
        let latest = self.latest_epoch()?;
        if requested == latest {
            return Some((latest, self.end_offset()));
        }
        let higher = self.epochs.iter().find(|&&(e, _)| e > requested)?;
        let floor = self.epochs.iter().rev().find(|&&(e, _)| e <= requested);
        Some(match floor {
            Some(&(epoch, _)) => (epoch, higher.1),
            None => (requested, higher.1),
        })
    }

    /// The leader's side of a fetch (KIP-320): whether a follower whose log ends at
    /// `fetch_offset`, its last record from `last_epoch`, has parted from this log; if so,
    /// the epoch and end offset the follower must truncate by.
    pub fn diverging(&self, fetch_offset: u64, last_epoch: Option<u32>) -> EpochEnd {
        let last_epoch = last_epoch?;
        match self.end_offset_for(last_epoch) {
            Some((epoch, end)) if end < fetch_offset || epoch < last_epoch => Some((epoch, end)),
            Some(_) => None,
            // The leader knows no such epoch: the follower starts over from the beginning.
            None => Some((0, 0)),
        }
    }

    /// The follower's side (Kafka's fetcher, `getOffsetTruncationState`): given the leader's
    /// diverging `(epoch, end)`, where to cut this log and whether that settles it.
    pub fn truncation_for(&self, (leader_epoch, leader_end): (u32, u64)) -> Truncation {
        let log_end = self.end_offset();
        match self.end_offset_for(leader_epoch) {
            Some((epoch, end)) if epoch == leader_epoch => Truncation {
                to: leader_end.min(end).min(log_end),
                complete: true,
            },
            // This log never had the leader's epoch: cut to the end of its newest older
            // epoch and ask again.
            Some((_, end)) => Truncation {
                to: end.min(log_end),
                complete: false,
            },
            None => Truncation {
                to: leader_end.min(log_end),
                complete: true,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_of(epochs: &[u32]) -> ReplicaLog {
        let mut log = ReplicaLog::default();
        for (i, &epoch) in epochs.iter().enumerate() {
            log.append(Entry {
                record: i as u32,
                epoch,
            });
        }
        log
    }

    #[test]
    fn a_log_tells_its_shared_entries_from_its_own() {
        // 2500 entries: two full chunks of 1024, shared with clones, and 452 of its own.
        let log = log_of(&[0; 2_500]);
        assert_eq!(log.shared_entries(), 2_048);
        assert_eq!(log.unshared_entries(), 452);
        let short = log_of(&[0; 7]);
        assert_eq!((short.shared_entries(), short.unshared_entries()), (0, 7));
    }

    #[test]
    fn the_newest_match_is_found_across_chunks_as_a_plain_scan_finds_it() {
        // Records repeat every 700 entries, so most appear more than once, some in two chunks.
        let mut log = ReplicaLog::default();
        for i in 0..2_500_u32 {
            log.append(Entry {
                record: i % 700,
                epoch: 0,
            });
        }
        let plain = |from: u64, to: u64, record: u32| {
            let entries: Vec<Entry> = log.iter().copied().collect();
            (from.min(2_500)..to.min(2_500))
                .rev()
                .find(|&o| entries[o as usize].record == record)
        };
        for (from, to) in [
            (0, 2_500),
            (1_700, 2_500),
            (1_000, 1_030),
            (2_000, 9_000),
            (5, 5),
        ] {
            for record in [0, 1, 323, 324, 699, 700] {
                assert_eq!(
                    log.newest_offset_of(record, from, to),
                    plain(from, to, record),
                    "record {record} in [{from}, {to})"
                );
            }
        }
        assert_eq!(log.newest_offset_of(323, 0, 2_500), Some(2_423));
    }

    #[test]
    fn the_cache_records_where_each_epoch_starts() {
        let mut log = log_of(&[0, 0, 1, 1, 1, 3]);
        assert_eq!(log.epochs, vec![(0, 0), (1, 2), (3, 5)]);
        assert_eq!(log.end_offset_for(1), Some((1, 5)));
        assert_eq!(
            log.end_offset_for(2),
            Some((1, 5)),
            "the nearest older epoch"
        );
        assert_eq!(log.end_offset_for(3), Some((3, 6)));
        assert_eq!(log.end_offset_for(4), None, "newer than anything here");
        log.begin_epoch(5);
        assert_eq!(log.end_offset_for(3), Some((3, 6)));
        assert_eq!(log.end_offset_for(5), Some((5, 6)));
    }

    #[test]
    fn an_old_leader_coming_back_cuts_its_unreplicated_tail() {
        // Epoch 1's leader wrote offsets 0..6; a follower had only 0..4 when it was elected
        // in epoch 2, then wrote two records of its own.
        let old_leader = log_of(&[1, 1, 1, 1, 1, 1]);
        let mut new_leader = log_of(&[1, 1, 1, 1]);
        new_leader.begin_epoch(2);
        new_leader.append(Entry {
            record: 90,
            epoch: 2,
        });
        new_leader.append(Entry {
            record: 91,
            epoch: 2,
        });
        let diverging = new_leader.diverging(old_leader.end_offset(), old_leader.last_epoch());
        assert_eq!(diverging, Some((1, 4)));
        let cut = old_leader.truncation_for(diverging.unwrap());
        assert_eq!(
            cut,
            Truncation {
                to: 4,
                complete: true
            }
        );
        // After the cut the follower's log is a prefix of the leader's and no longer diverges.
        let mut follower = old_leader;
        let removed = follower.truncate(cut.to);
        assert_eq!(removed.len(), 2);
        assert!(follower.iter().eq(new_leader.range(0, 4)));
        assert_eq!(
            new_leader.diverging(follower.end_offset(), follower.last_epoch()),
            None
        );
    }

    #[test]
    fn a_follower_with_an_epoch_the_leader_never_saw_cuts_all_of_it() {
        // The follower wrote epoch 2 records the leader never saw (it led briefly, unreplicated);
        // the leader went from epoch 1 straight to epoch 3.
        let follower = log_of(&[1, 1, 2, 2]);
        let mut leader = log_of(&[1, 1, 1]);
        leader.begin_epoch(3);
        let first = leader
            .diverging(follower.end_offset(), follower.last_epoch())
            .unwrap();
        assert_eq!(
            first,
            (1, 3),
            "epoch 2 is unknown: the nearest older one, 1"
        );
        let cut = follower.truncation_for(first);
        assert_eq!(
            cut,
            Truncation {
                to: 2,
                complete: true
            }
        );
        let mut follower = follower;
        follower.truncate(cut.to);
        assert_eq!(
            leader.diverging(follower.end_offset(), follower.last_epoch()),
            None
        );
    }

    #[test]
    fn truncation_for_an_epoch_the_follower_lacks_is_incomplete() {
        let follower = log_of(&[0, 0, 2, 2]);
        assert_eq!(
            follower.truncation_for((1, 3)),
            Truncation {
                to: 2,
                complete: false
            }
        );
    }

    #[test]
    fn a_caught_up_follower_does_not_diverge() {
        let leader = log_of(&[0, 0, 1, 1]);
        let follower = log_of(&[0, 0, 1]);
        assert_eq!(leader.diverging(3, follower.last_epoch()), None);
        assert_eq!(leader.diverging(0, None), None);
    }

    #[test]
    fn truncating_forgets_later_epochs() {
        let mut log = log_of(&[0, 1, 1, 2]);
        assert_eq!(log.truncate(2).len(), 2);
        assert_eq!(log.epochs, vec![(0, 0), (1, 1)]);
        assert_eq!(log.truncate(9).len(), 0);
    }
}
