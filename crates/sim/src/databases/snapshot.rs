//! The plain-data picture of one moment of a databases run, what a lesson draws: for the
//! dual-writes comparison each product's value in the database and in each lane's index, each
//! lane's counters and connector, the first races and the outbox's latest rows; for the
//! compaction comparison the compacted log's records and segments, the cleaner's checkpoint
//! and dirty share, the event-sourced log's tail, a few accounts both ways and the new
//! consumer's reading; for the snapshot comparison every row's value in the table and in the
//! new store with the position it was read at.
//!
//! The sampled series the charts plot are not part of it: the browser takes a snapshot on
//! every frame, and copying every sample since the start (14 400 of them at the end of an
//! hour) made each frame's cost grow with the run. The charts read them off the world
//! ([`DatabasesWorld::sync`] and its siblings) when they are redrawn.

use super::accounts::{AccountEvent, Operation};
use super::bootstrap::Phase;
use super::compacted_log::{LogRecord, Segment};
use super::compaction::{BootstrapReading, CompactionWorld, WatchedTombstone};
use super::events::{BootstrapMethod, Lane};
use super::scenario::Mode;
use super::sync::RaceTrace;
use super::world::DatabasesWorld;
use serde::Serialize;

/// Most products, log records, events and rows a snapshot copies for drawing.
pub const DRAWN_KEYS: usize = 12;
pub const DRAWN_RECORDS: usize = 400;
pub const DRAWN_EVENTS: usize = 16;
pub const DRAWN_ACCOUNTS: usize = 6;
pub const DRAWN_ROWS: usize = 200;
pub const DRAWN_OUTBOX_ROWS: usize = 4;

/// One moment of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DatabasesSnapshot {
    pub now_ms: u64,
    pub mode: Mode,
    pub sync: Option<SyncPicture>,
    pub compaction: Option<CompactionPicture>,
    pub bootstrap: Option<BootstrapPicture>,
}

/// The dual-writes comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SyncPicture {
    /// Requests arrived, and committed by the database.
    pub writes: u64,
    pub committed: u64,
    pub keys: Vec<KeyRow>,
    pub lanes: Vec<LanePicture>,
    /// The first write each dual-write lane applied out of order.
    pub races: Vec<RaceTrace>,
    /// The outbox table's latest rows, as the relay reads them from the log.
    pub outbox_rows: Vec<OutboxRow>,
    /// When the connectors are down, from and to, if the run stops them.
    pub outage_ms: Option<(u64, u64)>,
}

/// One product: its version in the database and in each lane's index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyRow {
    pub key: u32,
    pub db_version: u64,
    pub lanes: [Option<u64>; 4],
}

/// One lane's figures at this moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LanePicture {
    pub lane: Lane,
    pub divergent: u32,
    pub max_divergent: u32,
    pub out_of_order: u64,
    pub lost_writes: u64,
    pub exceptions: u64,
    pub retries: u64,
    /// Index writes on their way (dual-write lanes) or changes published and not yet written
    /// (connector lanes).
    pub in_flight: u64,
    pub connector: Option<ConnectorPicture>,
}

/// A connector lane's pipeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConnectorPicture {
    pub running: bool,
    pub read_upto: u64,
    pub applied_upto: u64,
    pub log_end: u64,
    pub lag_ms: u64,
    pub max_lag_ms: u64,
}

/// One row of the outbox table, in the columns Debezium's outbox event router reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutboxRow {
    /// `id`: the event's id (here its LSN).
    pub id: u64,
    /// `aggregateid`: the product, the Kafka record's key.
    pub aggregateid: u32,
    /// `payload`: the product's new version.
    pub version: u64,
    pub commit_ms: u64,
}

/// The compaction comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompactionPicture {
    /// The log's newest records (all of them when there are few).
    pub records: Vec<LogRecord>,
    pub segments: Vec<Segment>,
    pub log_records: u64,
    pub next_offset: u64,
    pub cleaned_upto: u64,
    pub first_uncleanable: u64,
    pub dirty_permille: u64,
    pub threshold_permille: u64,
    pub cleanings: u64,
    pub records_removed: u64,
    pub tombstones_in_log: u64,
    pub tombstones_removed: u64,
    pub total_writes: u64,
    pub live_keys: u32,
    pub wrong_if_compacted: u32,
    pub watched: Option<WatchedTombstone>,
    pub reading: Option<BootstrapReading>,
    /// The event-sourced log's newest events.
    pub recent_events: Vec<Operation>,
    pub accounts: Vec<AccountRow>,
}

/// One open account, both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AccountRow {
    pub key: u32,
    pub balance: i64,
    pub last_event: AccountEvent,
    /// The balance its last event alone would give.
    pub alone: Option<i64>,
}

/// The snapshot comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BootstrapPicture {
    pub method: BootstrapMethod,
    pub phase: Phase,
    pub rows: Vec<RowPicture>,
    pub row_count: u32,
    pub rows_copied: u32,
    pub log_end: u64,
    pub snapshot_position: Option<u64>,
    pub stream_from: Option<u64>,
    pub applied_upto: Option<u64>,
    pub read_finished_ms: Option<u64>,
    pub changes_during: u64,
    pub missed: u64,
    pub duplicated: u64,
    pub regressions: u64,
    pub divergent: u32,
    pub lag_ms: u64,
}

/// One row: its version in the table, in the new store, and where it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RowPicture {
    pub key: u32,
    pub db_version: u64,
    pub store_version: Option<u64>,
    pub read_at: Option<u64>,
}

impl DatabasesWorld {
    /// The picture of this moment.
    pub fn snapshot(&self) -> DatabasesSnapshot {
        DatabasesSnapshot {
            now_ms: self.now_ms(),
            mode: self.scenario().mode,
            sync: self.sync_picture(),
            compaction: self.compaction().map(|c| compaction_picture(c, self)),
            bootstrap: self.bootstrap_picture(),
        }
    }

    fn sync_picture(&self) -> Option<SyncPicture> {
        let sync = self.sync()?;
        let now = self.now_ms();
        let db = &sync.db;
        let keys = (0..db.rows.len().min(DRAWN_KEYS) as u32)
            .map(|key| KeyRow {
                key,
                db_version: db.rows[key as usize],
                lanes: std::array::from_fn(|i| sync.stores[i].rows[key as usize]),
            })
            .collect();
        let lanes = Lane::ALL
            .iter()
            .map(|&lane| {
                let store = &sync.stores[lane.index()];
                let (lost_writes, exceptions, retries, in_flight, connector) =
                    if lane.is_connector() {
                        let c = sync.connector(lane);
                        let picture = ConnectorPicture {
                            running: c.is_running(),
                            read_upto: c.read_upto,
                            applied_upto: c.applied_upto,
                            log_end: db.log_end(),
                            lag_ms: c.lag_ms(now, db),
                            max_lag_ms: c.max_lag_ms(now, db),
                        };
                        (0, 0, c.retries, c.in_flight(), Some(picture))
                    } else {
                        let d = &sync.dual[lane.index()];
                        (d.lost_writes, d.exceptions, d.retries, d.in_flight, None)
                    };
                LanePicture {
                    lane,
                    divergent: store.divergent,
                    max_divergent: store.max_divergent,
                    out_of_order: sync.out_of_order[lane.index()],
                    lost_writes,
                    exceptions,
                    retries,
                    in_flight,
                    connector,
                }
            })
            .collect();
        let outbox = sync.connector(Lane::Outbox);
        let outbox_rows = (1..=outbox.read_upto)
            .rev()
            .take(DRAWN_OUTBOX_ROWS)
            .map(|lsn| {
                let change = db.change(lsn);
                OutboxRow {
                    id: lsn,
                    aggregateid: change.key,
                    version: change.version,
                    commit_ms: change.commit_ms,
                }
            })
            .collect();
        Some(SyncPicture {
            writes: sync.arrived as u64,
            committed: db.log_end(),
            keys,
            lanes,
            races: sync.races.iter().flatten().copied().collect(),
            outbox_rows,
            outage_ms: self.scenario().outage.enabled.then(|| {
                let o = &self.scenario().outage;
                (o.at_ms, o.at_ms + o.for_ms)
            }),
        })
    }

    fn bootstrap_picture(&self) -> Option<BootstrapPicture> {
        let b = self.bootstrap()?;
        let rows = (0..b.db.rows.len().min(DRAWN_ROWS))
            .map(|k| RowPicture {
                key: k as u32,
                db_version: b.db.rows[k],
                store_version: b.store.rows[k],
                read_at: b.read_at[k],
            })
            .collect();
        Some(BootstrapPicture {
            method: b.method,
            phase: b.phase,
            rows,
            row_count: b.db.rows.len() as u32,
            rows_copied: b.rows_copied(),
            log_end: b.db.log_end(),
            snapshot_position: b.snapshot_position,
            stream_from: b.stream_from,
            applied_upto: b.connector.as_ref().map(|c| c.applied_upto),
            read_finished_ms: b.read_finished_ms,
            changes_during: b.changes_during,
            missed: b.missed,
            duplicated: b.duplicated,
            regressions: b.regressions,
            divergent: b.store.divergent,
            lag_ms: b.lag_ms(self.now_ms()),
        })
    }
}

fn compaction_picture(c: &CompactionWorld, world: &DatabasesWorld) -> CompactionPicture {
    let rules = CompactionWorld::rules(world.scenario());
    let dirt = c.log.dirt(world.now_ms(), &rules);
    let skip = c.log.records.len().saturating_sub(DRAWN_RECORDS);
    let accounts = c
        .balances
        .iter()
        .take(DRAWN_ACCOUNTS)
        .filter_map(|(&key, &balance)| {
            let last_event = *c.last_event.get(&key)?;
            Some(AccountRow {
                key,
                balance,
                last_event,
                alone: last_event.balance_alone(),
            })
        })
        .collect();
    CompactionPicture {
        records: c.log.records[skip..].to_vec(),
        segments: c.log.segments.clone(),
        log_records: c.log.records.len() as u64,
        next_offset: c.log.next_offset,
        cleaned_upto: c.log.cleaned_upto,
        first_uncleanable: dirt.first_uncleanable,
        dirty_permille: dirt.permille(),
        threshold_permille: libm::round(rules.min_cleanable_dirty_ratio * 1000.0) as u64,
        cleanings: c.log.cleanings,
        records_removed: c.log.records_removed,
        tombstones_in_log: c.log.tombstones(),
        tombstones_removed: c.log.tombstones_removed,
        total_writes: c.applied as u64,
        live_keys: c.balances.len() as u32,
        wrong_if_compacted: c.wrong_if_compacted,
        watched: c.watched,
        reading: c.bootstrap,
        recent_events: c.ops[c.applied.saturating_sub(DRAWN_EVENTS)..c.applied].to_vec(),
        accounts,
    }
}
