//! A change-data-capture pipeline: a source connector that reads the database's change log
//! (Debezium) and a sink that writes each change into the derived store, in log order.
//!
//! The source wakes every `poll.interval.ms`, takes every change committed since its last
//! position and publishes them; they reach the sink `pipeline_ms` later, plus the hop to the
//! store. The sink writes changes one after another in LSN order; a write that fails is
//! retried after `retry.backoff.ms`, each further retry waiting twice as long, and the changes
//! behind it wait (order is the point). Nothing is ever lost or reordered, so once the
//! pipeline has caught up the store equals the database; until then it lags, and the lag is
//! how long the oldest change not yet in the store has been committed.

use super::database::Database;
use super::draws::index_write_fails;
use crate::replay::due::earliest;
use std::collections::VecDeque;

/// What the sink needs to know to write.
#[derive(Clone, Copy, Debug)]
pub struct SinkRules {
    pub seed: u64,
    pub failure_rate: f64,
    pub retry_backoff_ms: u64,
}

/// A failed sink write, as the narration tells the first one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SinkRetry {
    pub lsn: u64,
    pub attempt: u32,
    pub wait_ms: u64,
}

/// One pipeline from the database's log to one derived store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connector {
    /// The last LSN the source has published (its committed offset).
    pub read_upto: u64,
    /// The last LSN the sink has written to the store.
    pub applied_upto: u64,
    /// Published changes on their way to the store: (LSN, when they reach the sink).
    queue: VecDeque<(u64, u64)>,
    /// The attempt the sink is on for the change at the head of the queue.
    head_attempt: u32,
    /// When the sink may try the head again after a failure.
    retry_at_ms: u64,
    /// The source's next poll; `None` while it is stopped.
    pub next_poll_ms: Option<u64>,
    pub poll_interval_ms: u64,
    /// From publication to the sink's write reaching the store.
    pub delivery_ms: u64,
    /// Failed sink writes retried so far.
    pub retries: u64,
    /// The longest any change waited from its commit to the store.
    pub max_applied_lag_ms: u64,
}

impl Connector {
    /// A pipeline whose first poll is at `first_poll_ms`, starting after LSN `from_lsn`.
    pub fn new(first_poll_ms: u64, from_lsn: u64, poll_interval_ms: u64, delivery_ms: u64) -> Self {
        Self {
            read_upto: from_lsn,
            applied_upto: from_lsn,
            queue: VecDeque::new(),
            head_attempt: 1,
            retry_at_ms: 0,
            next_poll_ms: Some(first_poll_ms),
            poll_interval_ms,
            delivery_ms,
            retries: 0,
            max_applied_lag_ms: 0,
        }
    }

    /// The next instant it has work: a poll, or the sink's next write.
    pub fn due_ms(&self) -> Option<u64> {
        let sink = self.queue.front().map(|&(_, at)| at.max(self.retry_at_ms));
        earliest([self.next_poll_ms, sink])
    }

    /// Changes published and not yet written to the store.
    pub fn in_flight(&self) -> u64 {
        self.queue.len() as u64
    }

    /// Polls if a poll is due: publishes every change committed since the last position.
    pub fn poll(&mut self, now: u64, db: &Database) {
        if self.next_poll_ms.is_none_or(|due| due > now) {
            return;
        }
        let arrive = now + self.delivery_ms;
        for lsn in self.read_upto + 1..=db.log_end() {
            self.queue.push_back((lsn, arrive));
        }
        self.read_upto = db.log_end();
        self.next_poll_ms = Some(now + self.poll_interval_ms);
    }

    /// Writes what has reached the sink, in order, calling `write(lsn)` for each change that
    /// lands; stops at a failure (the change behind waits for the retry). Returns the failure.
    pub fn sink(
        &mut self,
        now: u64,
        db: &Database,
        rules: SinkRules,
        message_of: impl Fn(u64) -> u64,
        mut write: impl FnMut(u64),
    ) -> Option<SinkRetry> {
        while let Some(&(lsn, arrive)) = self.queue.front() {
            if arrive > now || self.retry_at_ms > now {
                return None;
            }
            let attempt = self.head_attempt;
            if index_write_fails(rules.seed, message_of(lsn), attempt, rules.failure_rate) {
                let wait_ms = rules.retry_backoff_ms << (attempt - 1).min(20);
                self.retries += 1;
                self.head_attempt += 1;
                self.retry_at_ms = now + wait_ms.max(1);
                return Some(SinkRetry {
                    lsn,
                    attempt,
                    wait_ms,
                });
            }
            self.queue.pop_front();
            self.head_attempt = 1;
            self.applied_upto = lsn;
            let lag = now - db.change(lsn).commit_ms;
            self.max_applied_lag_ms = self.max_applied_lag_ms.max(lag);
            write(lsn);
        }
        None
    }

    /// How long the oldest change not yet in the store has been committed, 0 when none waits.
    pub fn lag_ms(&self, now: u64, db: &Database) -> u64 {
        if self.applied_upto < db.log_end() {
            now.saturating_sub(db.change(self.applied_upto + 1).commit_ms)
        } else {
            0
        }
    }

    /// The longest lag so far, the one still growing included.
    pub fn max_lag_ms(&self, now: u64, db: &Database) -> u64 {
        self.max_applied_lag_ms.max(self.lag_ms(now, db))
    }

    /// Changes committed and not yet in the store.
    pub fn behind(&self, db: &Database) -> u64 {
        db.log_end() - self.applied_upto
    }

    /// Whether every committed change is in the store.
    pub fn caught_up(&self, db: &Database) -> bool {
        self.applied_upto == db.log_end()
    }

    /// The source stops polling (what it published still reaches the store).
    pub fn stop(&mut self) {
        self.next_poll_ms = None;
    }

    /// The source is back and polls at once, from its committed position.
    pub fn restart(&mut self, now: u64) {
        self.next_poll_ms = Some(now);
    }

    pub fn is_running(&self) -> bool {
        self.next_poll_ms.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: SinkRules = SinkRules {
        seed: 1,
        failure_rate: 0.0,
        retry_backoff_ms: 100,
    };

    #[test]
    fn changes_reach_the_store_in_log_order_after_a_poll() {
        let mut db = Database::new(2);
        db.commit(0, 1, 10);
        db.commit(1, 2, 20);
        let mut connector = Connector::new(500, 0, 500, 40);
        assert_eq!(connector.due_ms(), Some(500));
        connector.poll(500, &db);
        assert_eq!(connector.in_flight(), 2);
        assert_eq!(connector.due_ms(), Some(540));
        let mut written = Vec::new();
        connector.sink(540, &db, RULES, |l| l, |lsn| written.push(lsn));
        assert_eq!(written, vec![1, 2]);
        assert!(connector.caught_up(&db));
        assert_eq!(connector.max_applied_lag_ms, 530);
        assert_eq!(connector.lag_ms(600, &db), 0);
    }

    #[test]
    fn a_failed_write_holds_the_changes_behind_it_and_retries_with_a_doubling_wait() {
        let mut db = Database::new(1);
        for v in 1..=40 {
            db.commit(0, v, v);
        }
        let rules = SinkRules {
            failure_rate: 0.5,
            ..RULES
        };
        let mut connector = Connector::new(100, 0, 500, 0);
        connector.poll(100, &db);
        // Only the sink is under test: a stopped source leaves its retries as the only due
        // instants, so the loop below steps from one to the next.
        connector.stop();
        let mut written = Vec::new();
        let mut now = 100;
        let mut waits = Vec::new();
        while !connector.caught_up(&db) {
            if let Some(retry) = connector.sink(now, &db, rules, |l| l, |lsn| written.push(lsn)) {
                waits.push((retry.attempt, retry.wait_ms));
            }
            if let Some(next) = connector.due_ms() {
                now = next;
            }
        }
        assert_eq!(written, (1..=40).collect::<Vec<_>>());
        assert!(connector.retries > 0);
        assert!(waits.iter().all(|&(a, w)| w == 100 << (a - 1)), "{waits:?}");
    }

    #[test]
    fn a_stopped_source_publishes_nothing_and_resumes_from_its_position() {
        let mut db = Database::new(1);
        let mut connector = Connector::new(500, 0, 500, 10);
        connector.stop();
        db.commit(0, 1, 600);
        assert_eq!(connector.due_ms(), None);
        assert_eq!(connector.lag_ms(2_600, &db), 2_000);
        connector.restart(2_600);
        connector.poll(2_600, &db);
        connector.sink(2_610, &db, RULES, |l| l, |_| {});
        assert!(connector.caught_up(&db));
        assert_eq!(connector.max_lag_ms(2_610, &db), 2_010);
    }
}
