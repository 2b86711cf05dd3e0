//! The compaction comparison: account updates as a compacted CDC topic beside the same
//! accounts' event-sourced log, a cleaner at work, a watched tombstone, and a new consumer
//! that bootstraps from offset 0.
//!
//! Each operation appends one record to each log: the account's row as it now is to the
//! compacted topic ([`CompactedLog`]), the event itself to the event-sourced log (a topic with
//! `cleanup.policy=delete` and no time limit, since every event is part of a balance). The
//! cleaner runs every `log.cleaner.backoff.ms`. The first account to close is watched: its
//! tombstone stays for `delete.retention.ms` after its first cleaning, then goes. At
//! `bootstrap.at_ms` a new consumer reads both logs from the start, and the run counts what
//! each costs and whether each rebuilds the accounts.

use super::accounts::{operations, AccountEvent, Operation};
use super::compacted_log::{CleanerRules, CompactedLog};
use super::events::DatabasesEventKind;
use super::scenario::DatabasesScenario;
use crate::replay::trace::TraceHasher;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// How often the compaction chart is sampled, in ms.
pub const COMPACTION_SAMPLE_MS: u64 = 1_000;

/// The first account closed in the run, followed until its tombstone is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WatchedTombstone {
    pub key: u32,
    pub offset: u64,
    pub written_at_ms: u64,
    /// Whether the account still had a record in the log 1 ms before `delete.retention.ms`
    /// had passed since the tombstone was written (`None` until then).
    pub present_before_retention: Option<bool>,
    pub removed_at_ms: Option<u64>,
}

/// What the new consumer found when it read both logs from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BootstrapReading {
    pub at_ms: u64,
    /// Records of the compacted topic it read, offset 0 to the end.
    pub records_read: u64,
    pub tombstones_read: u64,
    /// Accounts open at that moment.
    pub live_keys: u32,
    /// Writes made to the compacted topic until then.
    pub total_writes: u64,
    /// Accounts its table got wrong (missing, extra, or another balance).
    pub wrong_keys: u32,
    /// Events it must read to rebuild the same accounts from the event-sourced log.
    pub event_records: u64,
    /// Accounts whose balance would be wrong from their last event alone.
    pub wrong_if_compacted: u32,
}

/// One moment of the compaction chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CompactionSample {
    pub at_ms: u64,
    pub total_writes: u64,
    pub log_records: u64,
    pub event_records: u64,
    pub live_keys: u32,
    pub dirty_permille: u64,
}

/// The compaction comparison's state.
#[derive(Clone, Debug)]
pub struct CompactionWorld {
    pub ops: Arc<[Operation]>,
    /// Operations applied so far: also the length of the event-sourced log.
    pub applied: usize,
    pub log: CompactedLog,
    /// Open accounts and their balances: the truth both logs must rebuild.
    pub balances: BTreeMap<u32, i64>,
    /// Each open account's last event.
    pub last_event: BTreeMap<u32, AccountEvent>,
    /// Open accounts whose last event alone gives a wrong balance.
    pub wrong_if_compacted: u32,
    pub tombstones_written: u64,
    pub watched: Option<WatchedTombstone>,
    pub bootstrap: Option<BootstrapReading>,
    next_clean_ms: u64,
    next_sample_ms: u64,
    pub samples: Vec<CompactionSample>,
    /// Whether the latest tick cleaned the log (the invariants recheck the table then).
    pub cleaned_this_tick: bool,
}

impl CompactionWorld {
    pub fn new(scenario: &DatabasesScenario) -> Self {
        Self {
            ops: operations(scenario).into(),
            applied: 0,
            log: CompactedLog::default(),
            balances: BTreeMap::new(),
            last_event: BTreeMap::new(),
            wrong_if_compacted: 0,
            tombstones_written: 0,
            watched: None,
            bootstrap: None,
            next_clean_ms: scenario.topic.cleaner_backoff_ms,
            next_sample_ms: 0,
            samples: Vec::new(),
            cleaned_this_tick: false,
        }
    }

    pub fn rules(scenario: &DatabasesScenario) -> CleanerRules {
        let t = &scenario.topic;
        CleanerRules {
            segment_ms: t.segment_ms,
            min_cleanable_dirty_ratio: t.min_cleanable_dirty_ratio,
            delete_retention_ms: t.delete_retention_ms,
            min_compaction_lag_ms: t.min_compaction_lag_ms,
        }
    }

    pub fn next_due_ms(&self, scenario: &DatabasesScenario) -> Option<u64> {
        let end = scenario.end_ms();
        let op = self.ops.get(self.applied).map(|o| o.at_ms);
        let clean = Some(self.next_clean_ms).filter(|&t| t <= end);
        let check = self
            .watched
            .filter(|w| w.present_before_retention.is_none())
            .map(|w| retention_check_ms(&w, scenario));
        let bootstrap = self
            .bootstrap
            .is_none()
            .then_some(scenario.bootstrap.at_ms)
            .filter(|&t| t <= end);
        let sample = Some(self.next_sample_ms).filter(|&t| t <= end);
        [op, clean, check, bootstrap, sample]
            .into_iter()
            .flatten()
            .min()
    }

    /// Everything due at `now`: operations, the cleaner, the watched tombstone's check, the
    /// new consumer, a sample.
    pub fn tick(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        let rules = Self::rules(scenario);
        self.cleaned_this_tick = false;
        while let Some(op) = self
            .ops
            .get(self.applied)
            .copied()
            .filter(|o| o.at_ms <= now)
        {
            self.apply(op, now, rules.segment_ms, out, trace);
        }
        if self.next_clean_ms <= now {
            self.next_clean_ms = now + scenario.topic.cleaner_backoff_ms;
            if let Some(cleaning) = self.log.clean(now, &rules) {
                self.cleaned_this_tick = true;
                trace.write_u64(cleaning.records_after);
                trace.write_u64(cleaning.cleaned_upto);
                out.push(DatabasesEventKind::LogCleaned {
                    cleaning: self.log.cleanings,
                    records_before: cleaning.records_before,
                    records_after: cleaning.records_after,
                    dirty_permille: cleaning.dirty_permille,
                    threshold_permille: libm::round(rules.min_cleanable_dirty_ratio * 1000.0)
                        as u64,
                    tombstones_removed: cleaning.tombstones_removed.len() as u64,
                    cleaned_upto: cleaning.cleaned_upto,
                });
                self.watch_removal(&cleaning.tombstones_removed, now, scenario, out);
            }
        }
        if let Some(mut watched) = self
            .watched
            .filter(|w| w.present_before_retention.is_none())
        {
            if now >= retention_check_ms(&watched, scenario) {
                watched.present_before_retention = Some(self.log.records_of(watched.key) > 0);
                self.watched = Some(watched);
            }
        }
        if self.bootstrap.is_none() && now >= scenario.bootstrap.at_ms {
            self.read_from_the_start(now, out);
        }
        if now >= self.next_sample_ms {
            self.sample(now, &rules);
            self.next_sample_ms += COMPACTION_SAMPLE_MS;
        }
    }

    fn apply(
        &mut self,
        op: Operation,
        now: u64,
        segment_ms: u64,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        self.applied += 1;
        let offset = self.log.append(op.key, op.balance_after, now, segment_ms);
        trace.write_u64(u64::from(op.key));
        trace.write_u64(offset);
        let was_wrong = self.wrong_alone(op.key);
        match op.balance_after {
            Some(balance) => {
                self.balances.insert(op.key, balance);
                self.last_event.insert(op.key, op.event);
            }
            None => {
                self.balances.remove(&op.key);
                self.last_event.remove(&op.key);
                self.tombstones_written += 1;
            }
        }
        let is_wrong = self.wrong_alone(op.key);
        self.wrong_if_compacted =
            self.wrong_if_compacted + u32::from(is_wrong) - u32::from(was_wrong);
        if op.event == AccountEvent::Closed && self.watched.is_none() {
            self.watched = Some(WatchedTombstone {
                key: op.key,
                offset,
                written_at_ms: now,
                present_before_retention: None,
                removed_at_ms: None,
            });
            // The account opened in its place is the next operation.
            let opened_key = self.ops.get(self.applied).map_or(op.key, |next| next.key);
            out.push(DatabasesEventKind::TombstoneWritten {
                key: op.key,
                offset,
                opened_key,
            });
        }
    }

    /// Whether `key`'s balance, rebuilt from its last event alone, would be wrong.
    fn wrong_alone(&self, key: u32) -> bool {
        match (self.balances.get(&key), self.last_event.get(&key)) {
            (Some(&balance), Some(event)) => event.balance_alone() != Some(balance),
            _ => false,
        }
    }

    fn watch_removal(
        &mut self,
        removed: &[(u32, u64)],
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
    ) {
        let Some(mut watched) = self.watched else {
            return;
        };
        if watched.removed_at_ms.is_none() && removed.contains(&(watched.key, watched.offset)) {
            watched.removed_at_ms = Some(now);
            self.watched = Some(watched);
            out.push(DatabasesEventKind::TombstoneRemoved {
                key: watched.key,
                written_at_ms: watched.written_at_ms,
                delete_retention_ms: scenario.topic.delete_retention_ms,
            });
        }
    }

    /// The new consumer reads the compacted topic from offset 0, and counts what rebuilding
    /// the same accounts from the event-sourced log would take.
    fn read_from_the_start(&mut self, now: u64, out: &mut Vec<DatabasesEventKind>) {
        let table = self.log.table();
        let mut wrong_keys = table
            .iter()
            .filter(|(key, value)| self.balances.get(key) != Some(value))
            .count() as u32;
        wrong_keys += self
            .balances
            .keys()
            .filter(|k| !table.contains_key(k))
            .count() as u32;
        let reading = BootstrapReading {
            at_ms: now,
            records_read: self.log.records.len() as u64,
            tombstones_read: self.log.tombstones(),
            live_keys: self.balances.len() as u32,
            total_writes: self.applied as u64,
            wrong_keys,
            event_records: self.applied as u64,
            wrong_if_compacted: self.wrong_if_compacted,
        };
        self.bootstrap = Some(reading);
        out.push(DatabasesEventKind::Bootstrapped {
            records_read: reading.records_read,
            live_keys: reading.live_keys,
            total_writes: reading.total_writes,
            tombstones_read: reading.tombstones_read,
            wrong_keys: reading.wrong_keys,
            event_records: reading.event_records,
            wrong_if_compacted: reading.wrong_if_compacted,
        });
    }

    fn sample(&mut self, now: u64, rules: &CleanerRules) {
        self.samples.push(CompactionSample {
            at_ms: now,
            total_writes: self.applied as u64,
            log_records: self.log.records.len() as u64,
            event_records: self.applied as u64,
            live_keys: self.balances.len() as u32,
            dirty_permille: self.log.dirt(now, rules).permille(),
        });
    }
}

/// 1 ms before `delete.retention.ms` has passed since the watched tombstone was written: the
/// cleaner cannot have dropped it yet, whatever it did.
pub fn retention_check_ms(watched: &WatchedTombstone, scenario: &DatabasesScenario) -> u64 {
    watched.written_at_ms + scenario.topic.delete_retention_ms.max(1) - 1
}
