//! The output store a group writes to: every effect, with the input record it came from.
//!
//! Processing a record ends with a write to the sink. A plain sink applies every write, so a
//! record processed twice has two effects; an idempotent sink keeps the input's partition and
//! offset with each row and ignores a write it has already applied. A by-key sink is an upsert
//! keyed by the record key with a version check: per key (and input partition) it keeps the
//! highest input offset applied and ignores a write that is not newer, so a replayed older
//! record never puts an old value back. The tallies a learner
//! sees (records lost, records with duplicate effects, records with exactly one effect) are
//! computed from per-partition runs of equal write counts, which stay few (they grow with
//! crashes and rebalances, not with records), so a long run needs little memory and the
//! tallies are still exact. The newest effects are also kept ([`RecentEffects`]) for the table
//! the lesson draws.

pub use super::recent_effects::{RecentEffects, RECENT_EFFECTS_MAX};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the output store does with a write it has seen before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SinkMode {
    /// Every write is a new effect (an email sent, a counter incremented).
    #[default]
    Plain,
    /// Each row carries the input's partition and offset; a write already applied is ignored.
    Idempotent,
    /// An upsert keyed by the record key, versioned by the input offset: a write whose offset
    /// is not above the newest one applied for its key (in its partition) is ignored. A record
    /// with a null key has nothing to upsert by and is appended like a plain write.
    ByKey,
}

/// One write that reached the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Effect {
    pub at_ms: u64,
    pub partition: u32,
    pub offset: u64,
    /// Key index of the input record, or `None` for a null key.
    pub key: Option<u32>,
    /// How many times this record had reached the sink before, this write included (1 = its
    /// first effect).
    pub nth: u32,
    /// The sink ignored it (an idempotent sink that already had this offset, or a by-key sink
    /// whose key already held this offset or a newer one).
    pub ignored: bool,
}

/// A run of consecutive offsets `[from, to)` written the same number of times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    from: u64,
    to: u64,
    writes: u32,
}

/// The writes one partition's records made, as runs of equal write counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteRuns {
    /// Sorted, disjoint, each with `writes >= 1`; neighbours that touch differ in `writes`.
    runs: Vec<Run>,
}

impl WriteRuns {
    /// Counts one more write of `offset`; returns how many writes it had before.
    pub fn add(&mut self, offset: u64) -> u32 {
        if self.extend_last(offset) {
            return 0;
        }
        let i = self.runs.partition_point(|r| r.to <= offset);
        if let Some(before) = self.move_boundary(i, offset) {
            return before;
        }
        let before = match self.runs.get(i) {
            Some(run) if run.from <= offset => run.writes,
            _ => 0,
        };
        let single = Run {
            from: offset,
            to: offset + 1,
            writes: before + 1,
        };
        if before == 0 {
            self.runs.insert(i, single);
        } else {
            // Run `i` splits into what lies before `offset`, `offset` itself and what lies
            // after, each kept only if not empty.
            let run = self.runs[i];
            let mut at = i;
            if run.from < offset {
                self.runs[at] = Run { to: offset, ..run };
                at += 1;
                self.runs.insert(at, single);
            } else {
                self.runs[at] = single;
            }
            if offset + 1 < run.to {
                self.runs.insert(
                    at + 1,
                    Run {
                        from: offset + 1,
                        ..run
                    },
                );
            }
        }
        self.merge_around(i);
        before
    }

    /// The common case, a first write just past every run so far: it extends the last run
    /// when that one counts single writes and ends at `offset` (which is what inserting and
    /// merging would do), or starts a new run after a gap. Returns false otherwise.
    fn extend_last(&mut self, offset: u64) -> bool {
        match self.runs.last_mut() {
            Some(last) if last.to == offset && last.writes == 1 => last.to += 1,
            Some(last) if last.to >= offset => return false,
            _ => self.runs.push(Run {
                from: offset,
                to: offset + 1,
                writes: 1,
            }),
        }
        true
    }

    /// The common case while a partition is read again: `offset` starts run `i`, which keeps
    /// going after it, and the run before ends at `offset` with exactly one write more. The
    /// write moves the boundary between the two by one offset, which is what splitting and
    /// merging would do, without shifting every later run twice. Returns how many writes
    /// `offset` had before, or `None` when the general case applies.
    fn move_boundary(&mut self, i: usize, offset: u64) -> Option<u32> {
        let run = *self.runs.get(i)?;
        let previous = self.runs.get(i.checked_sub(1)?)?;
        let moves = run.from == offset
            && offset + 1 < run.to
            && previous.to == offset
            && previous.writes == run.writes + 1;
        if !moves {
            return None;
        }
        self.runs[i - 1].to += 1;
        self.runs[i].from += 1;
        Some(run.writes)
    }

    /// Merges touching runs with equal counts near index `i`.
    fn merge_around(&mut self, i: usize) {
        let mut j = i.saturating_sub(1);
        let end = (i + 3).min(self.runs.len());
        let mut end = end;
        while j + 1 < end {
            let (a, b) = (self.runs[j], self.runs[j + 1]);
            if a.to == b.from && a.writes == b.writes {
                self.runs[j].to = b.to;
                self.runs.remove(j + 1);
                end -= 1;
            } else {
                j += 1;
            }
        }
    }

    /// How many times `offset` was written.
    pub fn writes_of(&self, offset: u64) -> u32 {
        let i = self.runs.partition_point(|r| r.to <= offset);
        self.runs
            .get(i)
            .filter(|r| r.from <= offset)
            .map_or(0, |r| r.writes)
    }

    /// Records written at least once.
    pub fn covered(&self) -> u64 {
        self.runs.iter().map(|r| r.to - r.from).sum()
    }

    /// Records written at least once below `end`.
    pub fn covered_below(&self, end: u64) -> u64 {
        self.runs
            .iter()
            .map(|r| r.to.min(end).saturating_sub(r.from))
            .sum()
    }

    /// The first offset no record at or above has been written, i.e. the highest written + 1.
    pub fn high_water(&self) -> u64 {
        self.runs.last().map_or(0, |r| r.to)
    }

    /// Number of runs kept (the memory the tallies cost).
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// (records written exactly once, records written more than once, writes beyond the first).
    fn counts(&self, cap: u32) -> (u64, u64, u64) {
        let mut once = 0;
        let mut more = 0;
        let mut extra = 0;
        for run in &self.runs {
            let len = run.to - run.from;
            let writes = run.writes.min(cap);
            if writes == 1 {
                once += len;
            } else {
                more += len;
                extra += len * u64::from(writes - 1);
            }
        }
        (once, more, extra)
    }
}

/// What the learner reads off the sink.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tallies {
    /// Records the group has moved past (below its committed offset or its furthest write)
    /// that never had an effect.
    pub lost: u64,
    /// Records with more than one effect.
    pub duplicated: u64,
    /// Effects beyond each record's first.
    pub duplicate_effects: u64,
    /// Records with exactly one effect.
    pub exactly_once: u64,
    /// Records published to the dead-letter topic (each counted once).
    pub dead_lettered: u64,
    /// Records below the frontier a live member has fetched and not yet written: neither
    /// lost nor done.
    pub in_hand: u64,
}

/// A group's output store.
#[derive(Clone, Debug)]
pub struct Sink {
    pub mode: SinkMode,
    /// Writes per partition, indexed by partition.
    pub partitions: Vec<WriteRuns>,
    /// The newest effects, oldest first.
    pub recent: RecentEffects,
    /// Every write that reached the sink, ignored ones included.
    pub writes_total: u64,
    /// Records published to the dead-letter topic, per partition (a record published twice,
    /// after a crash, counts twice).
    pub dead_letters: Vec<WriteRuns>,
    /// The dead-letter topic's newest records, oldest first.
    pub recent_dead_letters: RecentEffects,
    /// By-key mode: the newest input offset applied per (key, input partition). Bounded by the
    /// number of keys times partitions.
    versions: BTreeMap<(u32, u32), u64>,
    /// By-key mode: the writes that were applied (not ignored), per partition.
    applied: Vec<WriteRuns>,
}

impl Sink {
    pub fn new(mode: SinkMode, partition_count: u32) -> Self {
        Self {
            mode,
            partitions: vec![WriteRuns::default(); partition_count as usize],
            recent: RecentEffects::default(),
            writes_total: 0,
            dead_letters: vec![WriteRuns::default(); partition_count as usize],
            recent_dead_letters: RecentEffects::default(),
            versions: BTreeMap::new(),
            applied: vec![WriteRuns::default(); partition_count as usize],
        }
    }

    /// Whether a write of `partition`/`offset` with `key` changes the store, given it had
    /// `before` earlier writes; updates the by-key versions.
    fn applies(&mut self, partition: u32, offset: u64, key: Option<u32>, before: u32) -> bool {
        match (self.mode, key) {
            (SinkMode::Plain, _) | (SinkMode::ByKey, None) => true,
            (SinkMode::Idempotent, _) => before == 0,
            (SinkMode::ByKey, Some(key)) => {
                let newest = self.versions.entry((key, partition)).or_insert(offset);
                let newer = *newest < offset || (*newest == offset && before == 0);
                *newest = (*newest).max(offset);
                newer
            }
        }
    }

    /// The error handler published record `partition`/`offset` to the dead-letter topic.
    pub fn dead_letter(&mut self, at_ms: u64, partition: u32, offset: u64, key: Option<u32>) {
        let before = self.dead_letters[partition as usize].add(offset);
        self.recent_dead_letters.push(Effect {
            at_ms,
            partition,
            offset,
            key,
            nth: before + 1,
            ignored: false,
        });
    }

    /// A write of record `partition`/`offset`; returns how many writes the record had before.
    pub fn write(&mut self, at_ms: u64, partition: u32, offset: u64, key: Option<u32>) -> u32 {
        let before = self.partitions[partition as usize].add(offset);
        self.writes_total += 1;
        let applied = self.applies(partition, offset, key, before);
        if applied && self.mode == SinkMode::ByKey {
            self.applied[partition as usize].add(offset);
        }
        self.recent.push(Effect {
            at_ms,
            partition,
            offset,
            key,
            nth: before + 1,
            ignored: !applied,
        });
        before
    }

    /// How many effects record `partition`/`offset` had, counted the way [`Sink::tallies`]
    /// counts them: every write in a plain store, at most one in an idempotent one, the
    /// applied writes in an upsert by key (at least one once the record reached the store).
    pub fn effects_of(&self, partition: u32, offset: u64) -> u32 {
        let p = partition as usize;
        let writes = self.partitions[p].writes_of(offset);
        match self.mode {
            SinkMode::Plain => writes,
            SinkMode::Idempotent => writes.min(1),
            SinkMode::ByKey => self.applied[p].writes_of(offset).max(writes.min(1)),
        }
    }

    /// The tallies, given each partition's span: `first`, where the group began reading;
    /// `frontier`, below which it has moved on (a record there with no effect will never get
    /// one from this group); and `in_hand`, records a live member holds and will still write,
    /// which are not lost even below the frontier.
    ///
    /// In by-key mode the duplicates are counted from the applied writes alone, and a record
    /// that reached the sink only as ignored writes (its key already held a newer offset)
    /// counts as exactly once: the table holds what applying every record in order would.
    pub fn tallies(&self, spans: &[Span]) -> Tallies {
        let mut tallies = Tallies::default();
        let partitions = self.partitions.iter().zip(&self.applied);
        for (((runs, applied), dead), span) in partitions.zip(&self.dead_letters).zip(spans) {
            let (once, more, extra) = match self.mode {
                SinkMode::Plain => runs.counts(u32::MAX),
                SinkMode::Idempotent => runs.counts(1),
                SinkMode::ByKey => {
                    let (_, more, extra) = applied.counts(u32::MAX);
                    (runs.covered() - more, more, extra)
                }
            };
            tallies.exactly_once += once;
            tallies.duplicated += more;
            tallies.duplicate_effects += extra;
            // Records in [from, to) with neither a write nor a dead letter.
            let unwritten = |from: u64, to: u64| {
                let to = to.max(from);
                let between = |r: &WriteRuns| r.covered_below(to) - r.covered_below(from);
                (to - from) - between(runs) - between(dead)
            };
            let frontier = span.frontier.max(span.first);
            let (held_from, held_to) = span.in_hand;
            let held_from = held_from.clamp(span.first, frontier);
            let held_to = held_to.clamp(held_from, frontier);
            let in_hand = unwritten(held_from, held_to);
            tallies.lost += unwritten(span.first, frontier) - in_hand;
            tallies.in_hand += in_hand;
            tallies.dead_lettered +=
                dead.covered_below(frontier) - dead.covered_below(span.first.min(frontier));
        }
        tallies
    }
}

/// Where the tallies of one partition are taken (see [`Sink::tallies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub first: u64,
    pub frontier: u64,
    pub in_hand: (u64, u64),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_count_each_offset_and_stay_merged() {
        let mut runs = WriteRuns::default();
        for offset in 0..10 {
            assert_eq!(runs.add(offset), 0);
        }
        assert_eq!(runs.run_count(), 1);
        assert_eq!(runs.add(4), 1);
        assert_eq!(runs.add(5), 1);
        assert_eq!(runs.run_count(), 3);
        assert_eq!(runs.writes_of(4), 2);
        assert_eq!(runs.writes_of(6), 1);
        assert_eq!(runs.add(20), 0);
        assert_eq!(runs.covered(), 11);
        assert_eq!(runs.covered_below(15), 10);
        assert_eq!(runs.high_water(), 21);
        for offset in 0..4 {
            runs.add(offset);
        }
        // 0..6 written twice, 6..10 once, 20 once.
        assert_eq!(runs.run_count(), 3);
        assert_eq!(runs.counts(u32::MAX), (5, 6, 6));
        assert_eq!(runs.counts(1), (11, 0, 0));
    }

    /// The runs a per-offset count gives: one per stretch of equal, non-zero counts.
    fn canonical_runs(counts: &[u32]) -> Vec<Run> {
        let mut runs: Vec<Run> = Vec::new();
        for (offset, &writes) in (0u64..).zip(counts) {
            match runs.last_mut() {
                _ if writes == 0 => {}
                Some(last) if last.to == offset && last.writes == writes => last.to += 1,
                _ => runs.push(Run {
                    from: offset,
                    to: offset + 1,
                    writes,
                }),
            }
        }
        runs
    }

    #[test]
    fn rereads_from_anywhere_keep_the_runs_exact_and_merged() {
        // Consumers read a partition forwards, and a new owner reads again from the last
        // commit: runs of consecutive offsets starting anywhere, overlapping earlier ones.
        let mut rng = crate::replay::rng::SimRng::for_stream(7, 0);
        for round in 0..200 {
            let mut runs = WriteRuns::default();
            let mut counts = [0u32; 64];
            for _ in 0..1 + round % 12 {
                let from = rng.below(64);
                let len = 1 + rng.below(24);
                for offset in from..(from + len).min(64) {
                    let before = runs.add(offset);
                    assert_eq!(before, counts[offset as usize], "offset {offset}");
                    counts[offset as usize] += 1;
                }
                assert_eq!(runs.runs, canonical_runs(&counts), "round {round}");
            }
        }
    }

    #[test]
    fn a_reread_after_a_gap_leaves_the_gap_unwritten() {
        // 0..2 written twice, 2..4 never (lost), 4..8 once; then 4 is written again.
        let mut runs = WriteRuns::default();
        for offset in [0, 1, 0, 1, 4, 5, 6, 7] {
            runs.add(offset);
        }
        assert_eq!(runs.add(4), 1);
        assert_eq!(runs.writes_of(2), 0);
        assert_eq!(runs.writes_of(4), 2);
        assert_eq!(runs.runs, canonical_runs(&[2, 2, 0, 0, 2, 1, 1, 1]));
    }

    #[test]
    fn tallies_count_gaps_below_the_frontier_as_lost() {
        let mut sink = Sink::new(SinkMode::Plain, 2);
        for offset in [0, 1, 2, 5, 6, 6] {
            sink.write(0, 0, offset, None);
        }
        let span = |first, frontier| Span {
            first,
            frontier,
            in_hand: (0, 0),
        };
        let tallies = sink.tallies(&[span(0, 8), span(0, 0)]);
        assert_eq!(tallies.lost, 3, "3, 4 and 7");
        assert_eq!(tallies.duplicated, 1);
        assert_eq!(tallies.duplicate_effects, 1);
        assert_eq!(tallies.exactly_once, 4);
        let mut idempotent = Sink::new(SinkMode::Idempotent, 1);
        idempotent.write(0, 0, 0, None);
        idempotent.write(0, 0, 0, None);
        assert!(
            idempotent
                .recent
                .iter()
                .nth(1)
                .expect("a second effect")
                .ignored
        );
        assert_eq!(idempotent.tallies(&[span(0, 1)]).duplicated, 0);
        let held = Span {
            in_hand: (6, 8),
            ..span(0, 8)
        };
        assert_eq!(sink.tallies(&[held, span(0, 0)]).lost, 2, "7 is in hand");
    }

    #[test]
    fn effects_per_record_agree_with_the_tallies_in_every_mode() {
        // Offsets 0..4 written once, then 1 and 2 again (a replay), keys 7, 8, 7, 8.
        let keys = [Some(7), Some(8), Some(7), Some(8)];
        for mode in [SinkMode::Plain, SinkMode::Idempotent, SinkMode::ByKey] {
            let mut sink = Sink::new(mode, 1);
            for offset in [0, 1, 2, 3, 1, 2] {
                sink.write(0, 0, offset, keys[offset as usize]);
            }
            let effects: Vec<u32> = (0..5).map(|o| sink.effects_of(0, o)).collect();
            let tallies = sink.tallies(&[Span {
                first: 0,
                frontier: 5,
                in_hand: (0, 0),
            }]);
            let count = |f: fn(u32) -> bool| effects.iter().filter(|&&e| f(e)).count() as u64;
            assert_eq!(count(|e| e == 1), tallies.exactly_once, "{mode:?}");
            assert_eq!(count(|e| e >= 2), tallies.duplicated, "{mode:?}");
            assert_eq!(count(|e| e == 0), tallies.lost, "{mode:?}");
            let repeated = if mode == SinkMode::Plain { 2 } else { 0 };
            assert_eq!(tallies.duplicated, repeated, "{mode:?}");
        }
    }

    #[test]
    fn a_by_key_sink_never_writes_an_older_value_back() {
        let mut sink = Sink::new(SinkMode::ByKey, 1);
        // Key 7 at offsets 0 and 2, key 8 at 1; then a replay from offset 0.
        let first = [(0, Some(7)), (1, Some(8)), (2, Some(7))];
        for (offset, key) in first {
            sink.write(0, 0, offset, key);
        }
        for (offset, key) in first {
            sink.write(1, 0, offset, key);
        }
        let applied: Vec<bool> = sink.recent.iter().map(|e| !e.ignored).collect();
        assert_eq!(applied, [true, true, true, false, false, false]);
        // A null key has nothing to upsert by: every write lands.
        sink.write(2, 0, 3, None);
        sink.write(2, 0, 3, None);
        assert!(!sink.recent.iter().nth(7).expect("an eighth effect").ignored);
        let tallies = sink.tallies(&[Span {
            first: 0,
            frontier: 4,
            in_hand: (0, 0),
        }]);
        assert_eq!(tallies.exactly_once, 3);
        assert_eq!(tallies.duplicated, 1, "the null-keyed record");
        assert_eq!(tallies.lost, 0);
    }
}
