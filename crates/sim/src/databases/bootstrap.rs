//! The snapshot comparison: a new derived store bootstrapped from a copy of the table and
//! then the change log, while writes keep coming.
//!
//! Writes to random rows arrive all along and each one commits at once to the table and its
//! log. At `snapshot.start_ms` the bootstrap begins:
//!
//! * tied to its position, as Debezium does it: the connector notes the log position P and
//!   reads the table as of P (one consistent read: writes after P are not in it), row by row
//!   at `rows_per_second`; then, for `snapshot.mode=initial`, it streams every change after P.
//!   `initial_only` stops after the read; `no_data` reads nothing and streams from P.
//! * hand-rolled: a `SELECT *` reads the live table row by row, each row as it is when read,
//!   and notes no position; afterwards a consumer of the change topic starts at the end
//!   (`auto.offset.reset=latest`) or at the beginning (`earliest`).
//!
//! Each row is read at some log position; a change of that row after the read and before the
//! stream's start is never applied (missed), a change at or before the read that the stream
//! applies again is a duplicate, and an older change applied over a newer value sends the row
//! back in time. Tied to one position, none of the three can happen.

use super::connector::{Connector, SinkRules};
use super::database::{Database, DerivedStore};
use super::draws::{self, poisson_arrivals};
use super::events::{BootstrapMethod, DatabasesEventKind};
use super::scenario::{
    row_read_offset_ms, DatabasesScenario, OffsetReset, SnapshotMode, SAMPLE_INTERVAL_MS,
};
use crate::replay::rng::SimRng;
use crate::replay::trace::TraceHasher;
use serde::Serialize;
use std::sync::Arc;

/// One write to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TableWrite {
    pub at_ms: u64,
    pub key: u32,
}

/// Where the bootstrap stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Waiting,
    /// Reading the table; the next row to read.
    Reading {
        next_row: u32,
    },
    Streaming,
    /// The connector stopped after its snapshot (`initial_only`).
    Stopped,
}

/// One moment of the snapshot chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SnapshotSample {
    pub at_ms: u64,
    pub divergent: u32,
    pub rows_copied: u32,
    pub lag_ms: u64,
    pub missed: u64,
    pub duplicated: u64,
}

/// The snapshot comparison's state.
#[derive(Clone, Debug)]
pub struct SnapshotWorld {
    pub writes: Arc<[TableWrite]>,
    pub arrived: usize,
    pub db: Database,
    pub store: DerivedStore,
    pub method: BootstrapMethod,
    pub phase: Phase,
    /// The log position each row was read at (`None`: not read).
    pub read_at: Vec<Option<u64>>,
    /// The position the snapshot is tied to (P), for a tied snapshot.
    pub snapshot_position: Option<u64>,
    pub read_finished_ms: Option<u64>,
    /// Writes committed while the table was being read.
    pub changes_during: u64,
    pub stream_from: Option<u64>,
    pub connector: Option<Connector>,
    pub missed: u64,
    pub duplicated: u64,
    pub regressions: u64,
    next_sample_ms: u64,
    pub samples: Vec<SnapshotSample>,
    /// Whether the run has reached the end of its writes.
    writes_stopped: bool,
    told: [bool; 4],
}

/// Indexes into `told`.
const TOLD_DUPLICATE: usize = 0;
const TOLD_REGRESSION: usize = 1;
const TOLD_CAUGHT_UP: usize = 2;
const TOLD_SETTLED: usize = 3;

impl SnapshotWorld {
    pub fn new(scenario: &DatabasesScenario) -> Self {
        let rows = scenario.writes.keys;
        let mut keys = SimRng::for_stream(scenario.seed, draws::stream::KEYS);
        let writes: Arc<[TableWrite]> = poisson_arrivals(
            scenario.seed,
            scenario.writes.per_second,
            scenario.duration_ms,
        )
        .into_iter()
        .map(|at_ms| TableWrite {
            at_ms,
            key: keys.below(u64::from(rows.max(1))) as u32,
        })
        .collect();
        Self {
            writes,
            arrived: 0,
            db: Database::with_reads_as_of(rows),
            store: DerivedStore::new(rows, false),
            method: method_of(scenario),
            phase: Phase::Waiting,
            read_at: vec![None; rows as usize],
            snapshot_position: None,
            read_finished_ms: None,
            changes_during: 0,
            stream_from: None,
            connector: None,
            missed: 0,
            duplicated: 0,
            regressions: 0,
            next_sample_ms: 0,
            samples: Vec::new(),
            writes_stopped: false,
            told: [false; 4],
        }
    }

    pub fn next_due_ms(&self, scenario: &DatabasesScenario) -> Option<u64> {
        let write = self.writes.get(self.arrived).map(|w| w.at_ms);
        let phase = match self.phase {
            Phase::Waiting => Some(scenario.snapshot.start_ms),
            Phase::Reading { next_row } => Some(self.row_due_ms(next_row, scenario)),
            Phase::Streaming | Phase::Stopped => None,
        };
        let connector = self.connector.as_ref().and_then(Connector::due_ms);
        let stop = (!self.writes_stopped).then_some(scenario.duration_ms);
        let sample = Some(self.next_sample_ms).filter(|&t| t <= scenario.end_ms());
        [write, phase, connector, stop, sample]
            .into_iter()
            .flatten()
            .min()
    }

    fn row_due_ms(&self, row: u32, scenario: &DatabasesScenario) -> u64 {
        scenario.snapshot.start_ms + row_read_offset_ms(row + 1, scenario.snapshot.rows_per_second)
    }

    /// Everything due at `now`: writes, the bootstrap's next step, the stream, a sample.
    pub fn tick(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        while let Some(write) = self
            .writes
            .get(self.arrived)
            .copied()
            .filter(|w| w.at_ms <= now)
        {
            self.arrived += 1;
            let lsn = self.db.log_end() + 1;
            self.db.commit(write.key, lsn, now);
            self.store.refresh(write.key, &self.db);
            if matches!(self.phase, Phase::Reading { .. }) {
                self.changes_during += 1;
            }
            if self.phase == Phase::Stopped {
                self.missed += 1;
            }
        }
        if self.phase == Phase::Waiting && now >= scenario.snapshot.start_ms {
            self.begin(now, scenario, out);
        }
        while let Phase::Reading { next_row } = self.phase {
            if self.row_due_ms(next_row, scenario) > now {
                break;
            }
            self.read_row(next_row, now, trace);
            if next_row + 1 < scenario.writes.keys {
                self.phase = Phase::Reading {
                    next_row: next_row + 1,
                };
            } else {
                self.finish_reading(now, scenario, out);
            }
        }
        self.stream(now, scenario, out, trace);
        self.settle(now, scenario, out);
        if now >= self.next_sample_ms {
            self.sample(now);
            self.next_sample_ms += SAMPLE_INTERVAL_MS;
        }
    }

    fn begin(&mut self, now: u64, scenario: &DatabasesScenario, out: &mut Vec<DatabasesEventKind>) {
        let position = self.db.log_end();
        out.push(DatabasesEventKind::BootstrapStarted {
            method: self.method,
            position,
            rows: scenario.writes.keys,
        });
        match self.method {
            BootstrapMethod::NoData => self.start_stream(position, now, scenario, out),
            BootstrapMethod::Initial | BootstrapMethod::InitialOnly => {
                self.snapshot_position = Some(position);
                self.phase = Phase::Reading { next_row: 0 };
            }
            BootstrapMethod::ScanThenLatest | BootstrapMethod::ScanThenEarliest => {
                self.phase = Phase::Reading { next_row: 0 };
            }
        }
    }

    /// Reads one row: as of the snapshot's position when it has one, as it is now otherwise.
    fn read_row(&mut self, row: u32, now: u64, trace: &mut TraceHasher) {
        let (position, version) = match self.snapshot_position {
            Some(p) => (p, self.db.version_at(row, p)),
            None => (self.db.log_end(), self.db.rows[row as usize]),
        };
        self.read_at[row as usize] = Some(position);
        self.store.write(row, version, now, &self.db);
        trace.write_u64(u64::from(row));
        trace.write_u64(version);
    }

    fn finish_reading(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
    ) {
        self.read_finished_ms = Some(now);
        out.push(DatabasesEventKind::SnapshotRead {
            rows: scenario.writes.keys,
            took_ms: now - scenario.snapshot.start_ms,
            changes_during: self.changes_during,
        });
        match self.method {
            BootstrapMethod::Initial => {
                let from = self.snapshot_position.unwrap_or(0);
                self.start_stream(from, now, scenario, out);
            }
            BootstrapMethod::InitialOnly => {
                let position = self.snapshot_position.unwrap_or(0);
                self.missed += self.db.log_end() - position;
                self.phase = Phase::Stopped;
                out.push(DatabasesEventKind::StreamNeverStarts { position });
            }
            BootstrapMethod::ScanThenLatest => {
                self.start_stream(self.db.log_end(), now, scenario, out)
            }
            BootstrapMethod::ScanThenEarliest => self.start_stream(0, now, scenario, out),
            BootstrapMethod::NoData => {}
        }
    }

    /// Starts the stream after LSN `from`; every change up to `from` its row was not read
    /// past is missed.
    fn start_stream(
        &mut self,
        from: u64,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
    ) {
        let missed = (1..=from)
            .filter(|&lsn| lsn > self.read_at[self.db.change(lsn).key as usize].unwrap_or(0))
            .count() as u64;
        self.missed += missed;
        self.stream_from = Some(from);
        self.phase = Phase::Streaming;
        let c = &scenario.connector;
        self.connector = Some(Connector::new(
            now,
            from,
            c.poll_interval_ms,
            c.pipeline_ms + scenario.network.index_latency_ms,
        ));
        out.push(DatabasesEventKind::StreamStarted {
            method: self.method,
            from_position: from,
            log_end: self.db.log_end(),
            missed,
        });
    }

    fn stream(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        let Some(connector) = self.connector.as_mut() else {
            return;
        };
        connector.poll(now, &self.db);
        let rules = SinkRules {
            seed: scenario.seed,
            failure_rate: scenario.network.index_failure_rate,
            retry_backoff_ms: scenario.connector.retry_backoff_ms,
        };
        let mut landed = Vec::new();
        connector.sink(now, &self.db, rules, |lsn| lsn, |lsn| landed.push(lsn));
        let caught_up = connector.caught_up(&self.db);
        let max_lag_ms = connector.max_applied_lag_ms;
        for lsn in landed {
            self.apply(lsn, now, out, trace);
        }
        if caught_up
            && !self.told[TOLD_CAUGHT_UP]
            && self.db.log_end() > self.stream_from.unwrap_or(0)
        {
            self.told[TOLD_CAUGHT_UP] = true;
            out.push(DatabasesEventKind::StreamCaughtUp { max_lag_ms });
        }
    }

    /// Applies the change at `lsn` to the new store (an upsert: it does not compare versions).
    fn apply(
        &mut self,
        lsn: u64,
        now: u64,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        let change = self.db.change(lsn);
        let key = change.key;
        trace.write_u64(lsn);
        trace.write_u64(now);
        if let Some(read_at) = self.read_at[key as usize].filter(|&r| lsn <= r) {
            self.duplicated += 1;
            if !self.told[TOLD_DUPLICATE] {
                self.told[TOLD_DUPLICATE] = true;
                out.push(DatabasesEventKind::FirstDuplicate { key, lsn, read_at });
            }
        }
        if let Some(held) = self.store.rows[key as usize].filter(|&held| change.version < held) {
            self.regressions += 1;
            if !self.told[TOLD_REGRESSION] {
                self.told[TOLD_REGRESSION] = true;
                out.push(DatabasesEventKind::FirstRegression {
                    key,
                    lsn,
                    over_lsn: held,
                });
            }
        }
        self.store.write(key, change.version, now, &self.db);
    }

    /// Once writes have stopped and nothing is on its way, tells where the store ended.
    fn settle(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
    ) {
        if now < scenario.duration_ms {
            return;
        }
        self.writes_stopped = true;
        if self.told[TOLD_SETTLED] || self.arrived < self.writes.len() {
            return;
        }
        let idle = match self.phase {
            Phase::Streaming => self
                .connector
                .as_ref()
                .is_some_and(|c| c.caught_up(&self.db)),
            Phase::Stopped => true,
            Phase::Waiting | Phase::Reading { .. } => false,
        };
        if idle {
            self.told[TOLD_SETTLED] = true;
            out.push(DatabasesEventKind::BootstrapSettled {
                divergent_keys: self.store.divergent,
                rows: scenario.writes.keys,
                missed: self.missed,
                duplicated: self.duplicated,
                regressions: self.regressions,
            });
        }
    }

    /// Rows the new store holds a value for.
    pub fn rows_copied(&self) -> u32 {
        self.store.rows.iter().filter(|r| r.is_some()).count() as u32
    }

    /// The stream's lag now (0 before it starts).
    pub fn lag_ms(&self, now: u64) -> u64 {
        self.connector
            .as_ref()
            .map_or(0, |c| c.lag_ms(now, &self.db))
    }

    fn sample(&mut self, now: u64) {
        self.samples.push(SnapshotSample {
            at_ms: now,
            divergent: self.store.divergent,
            rows_copied: self.rows_copied(),
            lag_ms: self.lag_ms(now),
            missed: self.missed,
            duplicated: self.duplicated,
        });
    }
}

/// How the scenario bootstraps its new store.
pub fn method_of(scenario: &DatabasesScenario) -> BootstrapMethod {
    let s = &scenario.snapshot;
    match (s.tied_to_offset, s.mode, s.offset_reset) {
        (true, SnapshotMode::Initial, _) => BootstrapMethod::Initial,
        (true, SnapshotMode::InitialOnly, _) => BootstrapMethod::InitialOnly,
        (true, SnapshotMode::NoData, _) => BootstrapMethod::NoData,
        (false, _, OffsetReset::Latest) => BootstrapMethod::ScanThenLatest,
        (false, _, OffsetReset::Earliest) => BootstrapMethod::ScanThenEarliest,
    }
}
