//! Typed events of the databases family and [`narrate`], the sentence for each.
//!
//! Events hold ids, counts, times and typed tags, never prose: the trace hash folds their
//! fields ([`TraceHasher::write_json`](crate::replay::trace::TraceHasher::write_json)) and every word a learner reads is chosen
//! here. Per-write work is not an event (a run makes thousands of writes); the first few
//! writes that land out of order in each lane are, and so are the first failure of each kind,
//! the connectors stopping and catching up, each lane settling, each cleaning of the compacted
//! log, the watched tombstone, the new consumer's bootstrap, and the snapshot's milestones.

use serde::Serialize;

/// Something that happened at a simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DatabasesEvent {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: DatabasesEventKind,
}

/// One of the four ways of keeping the derived store in step with the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lane {
    /// The application writes the database, then the index.
    DualWrite,
    /// The same, with the index write in a try/catch that retries.
    TryCatch,
    /// The application writes only the database; a connector reads its log into the index.
    Cdc,
    /// The application writes the row and an outbox row in one transaction; a connector
    /// publishes the outbox rows from the log.
    Outbox,
}

impl Lane {
    pub const ALL: [Lane; 4] = [Lane::DualWrite, Lane::TryCatch, Lane::Cdc, Lane::Outbox];

    /// Its name in the figures.
    pub fn name(self) -> &'static str {
        match self {
            Lane::DualWrite => "dual_write",
            Lane::TryCatch => "try_catch",
            Lane::Cdc => "cdc",
            Lane::Outbox => "outbox",
        }
    }

    /// Whether a connector feeds its store (rather than the application).
    pub fn is_connector(self) -> bool {
        matches!(self, Lane::Cdc | Lane::Outbox)
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name as a learner reads it.
    pub fn words(self) -> &'static str {
        match self {
            Lane::DualWrite => "Dual write",
            Lane::TryCatch => "Try/catch",
            Lane::Cdc => "CDC",
            Lane::Outbox => "Outbox",
        }
    }
}

/// What became of a write the derived store refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureOutcome {
    /// The exception went up to the caller; nothing writes the value again.
    Raised,
    /// Caught; it is sent again after the back-off.
    Retrying,
    /// Caught on the last attempt and swallowed: the write is lost.
    GaveUp,
}

/// How the snapshot comparison bootstraps its new store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BootstrapMethod {
    /// Debezium `snapshot.mode=initial`: a consistent read at a position, then the stream
    /// from that position.
    Initial,
    /// Debezium `snapshot.mode=initial_only`: the consistent read, no stream.
    InitialOnly,
    /// Debezium `snapshot.mode=no_data`: the stream from where it starts, no read.
    NoData,
    /// A `SELECT *` of the live table, then a consumer from the topic's end.
    ScanThenLatest,
    /// A `SELECT *` of the live table, then a consumer from the topic's beginning.
    ScanThenEarliest,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DatabasesEventKind {
    /// A lane's store received an older version of a key after a newer one.
    OutOfOrder {
        lane: Lane,
        key: u32,
        applied_version: u64,
        over_version: u64,
        applied_server: u32,
        over_server: u32,
        /// The late write was a retry of an attempt that had failed.
        retry: bool,
    },
    /// A write to the derived store failed in a dual-write lane.
    IndexWriteFailed {
        lane: Lane,
        key: u32,
        version: u64,
        attempt: u32,
        max_attempts: u32,
        backoff_ms: u64,
        outcome: FailureOutcome,
    },
    /// A sink connector's write failed; it retries and the changes behind it wait.
    SinkRetried {
        lane: Lane,
        key: u32,
        version: u64,
        attempt: u32,
        wait_ms: u64,
    },
    /// The source connectors stop.
    ConnectorStopped { lane: Lane, behind: u64 },
    /// The source connectors are back, resuming from their position.
    ConnectorRestarted {
        lane: Lane,
        behind: u64,
        down_ms: u64,
    },
    /// A connector lane has written every committed change again after falling behind.
    ConnectorCaughtUp { lane: Lane, max_lag_ms: u64 },
    /// No more writes arrive.
    WritesStopped { writes: u64, keys: u32 },
    /// Everything a lane had in flight has landed.
    LaneSettled {
        lane: Lane,
        divergent_keys: u32,
        keys: u32,
        lost_writes: u64,
        exceptions: u64,
        out_of_order: u64,
    },
    /// The log cleaner compacted the topic.
    LogCleaned {
        cleaning: u64,
        records_before: u64,
        records_after: u64,
        /// The dirty share of the cleanable log, in thousandths.
        dirty_permille: u64,
        /// `min.cleanable.dirty.ratio`, in thousandths.
        threshold_permille: u64,
        tombstones_removed: u64,
        cleaned_upto: u64,
    },
    /// The first account closed: its tombstone, and the account opened in its place.
    TombstoneWritten {
        key: u32,
        offset: u64,
        opened_key: u32,
    },
    /// The cleaner dropped the watched tombstone.
    TombstoneRemoved {
        key: u32,
        written_at_ms: u64,
        delete_retention_ms: u64,
    },
    /// A new consumer read the compacted topic (and, beside it, the event log) from offset 0.
    Bootstrapped {
        records_read: u64,
        live_keys: u32,
        total_writes: u64,
        tombstones_read: u64,
        wrong_keys: u32,
        event_records: u64,
        wrong_if_compacted: u32,
    },
    /// The snapshot comparison's bootstrap begins.
    BootstrapStarted {
        method: BootstrapMethod,
        position: u64,
        rows: u32,
    },
    /// The snapshot has read every row.
    SnapshotRead {
        rows: u32,
        took_ms: u64,
        changes_during: u64,
    },
    /// The stream into the new store starts.
    StreamStarted {
        method: BootstrapMethod,
        from_position: u64,
        log_end: u64,
        missed: u64,
    },
    /// The connector stops after its snapshot (`initial_only`).
    StreamNeverStarts { position: u64 },
    /// A change the snapshot had already copied was applied again.
    FirstDuplicate { key: u32, lsn: u64, read_at: u64 },
    /// A replayed change overwrote a newer value.
    FirstRegression { key: u32, lsn: u64, over_lsn: u64 },
    /// The new store has every committed change for the first time.
    StreamCaughtUp { max_lag_ms: u64 },
    /// Writes have stopped and the new store's pipeline is idle.
    BootstrapSettled {
        divergent_keys: u32,
        rows: u32,
        missed: u64,
        duplicated: u64,
        regressions: u64,
    },
}

/// `1.5 s`, `40 ms`, `2 min`, `1 day`.
pub fn duration(ms: u64) -> String {
    const DAY: u64 = 86_400_000;
    const HOUR: u64 = 3_600_000;
    const MINUTE: u64 = 60_000;
    match ms {
        0 => "0 s".into(),
        ms if ms % DAY == 0 => plural(ms / DAY, "day"),
        ms if ms % HOUR == 0 => format!("{} h", ms / HOUR),
        ms if ms % MINUTE == 0 => format!("{} min", ms / MINUTE),
        ms if ms < 1000 => format!("{ms} ms"),
        ms if ms % 1000 == 0 => format!("{} s", ms / 1000),
        ms => format!("{:.1} s", ms as f64 / 1000.0),
    }
}

fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `product-3`.
pub fn product(key: u32) -> String {
    format!("product-{key}")
}

/// `account-3`.
pub fn account(key: u32) -> String {
    format!("account-{key}")
}

/// `row-3`.
pub fn row(key: u32) -> String {
    format!("row-{key}")
}

/// `app-2` for server 1.
pub fn server(id: u32) -> String {
    format!("app-{}", id + 1)
}

/// `0.5` for 500 thousandths.
fn ratio(permille: u64) -> String {
    crate::family::knob::format_number(permille as f64 / 1000.0)
}

/// The sentence for `event`.
pub fn narrate(event: &DatabasesEvent) -> String {
    use DatabasesEventKind as K;
    let at = duration(event.at_ms);
    match &event.kind {
        K::OutOfOrder {
            lane,
            key,
            applied_version,
            over_version,
            applied_server,
            over_server,
            retry,
        } => {
            let why = if *retry {
                format!(
                    "v{applied_version} was a retry of a write that had failed; by the time the \
                     back-off let it go, v{over_version} was already in the index"
                )
            } else {
                "No error anywhere: both writes succeeded, they just crossed on the network"
                    .to_string()
            };
            format!(
                "{} at {at}: {}'s index received v{applied_version} (from {}) after \
                 v{over_version} (from {}), although the database committed v{applied_version} \
                 first. The index now holds the older value. {why}.",
                lane.words(),
                product(*key),
                server(*applied_server),
                server(*over_server)
            )
        }
        K::IndexWriteFailed {
            lane,
            key,
            version,
            attempt,
            max_attempts,
            backoff_ms,
            outcome,
        } => {
            let p = product(*key);
            match outcome {
                FailureOutcome::Raised => format!(
                    "{} at {at}: the index refused {p}'s v{version}. The exception reaches the \
                     caller after the database has committed v{version}; nothing writes it to \
                     the index again, so the index keeps an older value of {p} until its next \
                     update.",
                    lane.words()
                ),
                FailureOutcome::Retrying => format!(
                    "{} at {at}: {p}'s v{version} failed on attempt {attempt} of \
                     {max_attempts}; the catch block waits {} (@Backoff) and sends it again. \
                     Newer writes of {p} do not wait for it.",
                    lane.words(),
                    duration(*backoff_ms)
                ),
                FailureOutcome::GaveUp => format!(
                    "{} at {at}: {p}'s v{version} failed all {max_attempts} attempts \
                     (maxAttempts); the catch block logs it and goes on, and the write is lost.",
                    lane.words()
                ),
            }
        }
        K::SinkRetried {
            lane,
            key,
            version,
            attempt,
            wait_ms,
        } => format!(
            "{} at {at}: the sink's write of {}'s v{version} failed (attempt {attempt}). It \
             tries again in {} (retry.backoff.ms, doubling), and the changes behind it wait: \
             order holds, only the lag grows.",
            lane.words(),
            product(*key),
            duration(*wait_ms)
        ),
        K::ConnectorStopped { lane, behind } => format!(
            "{} at {at}: the Debezium connector stops (a restart). The database goes on \
             committing and its log keeps every change; {behind} are not yet in the index.",
            lane.words()
        ),
        K::ConnectorRestarted {
            lane,
            behind,
            down_ms,
        } => format!(
            "{} at {at}: the connector is back after {} and resumes from the last position it \
             published: {behind} changes are waiting in the log.",
            lane.words(),
            duration(*down_ms)
        ),
        K::ConnectorCaughtUp { lane, max_lag_ms } => format!(
            "{} at {at}: the index has every committed change again; the longest any change \
             waited between its commit and the index was {}.",
            lane.words(),
            duration(*max_lag_ms)
        ),
        K::WritesStopped { writes, keys } => format!(
            "At {at} the updates stop: {writes} writes to {keys} products. What is still on its \
             way lands, then each lane settles where its rules leave it."
        ),
        K::LaneSettled {
            lane,
            divergent_keys,
            keys,
            lost_writes,
            exceptions,
            out_of_order,
        } => {
            if *divergent_keys == 0 {
                format!(
                    "{} has settled: the index equals the database on all {keys} products \
                     ({lost_writes} writes lost, {out_of_order} out of order, {exceptions} \
                     exceptions).",
                    lane.words()
                )
            } else {
                format!(
                    "{} has settled with {divergent_keys} of {keys} products differing from the \
                     database, for good: {out_of_order} writes landed out of order, \
                     {lost_writes} were lost, {exceptions} exceptions were raised.",
                    lane.words()
                )
            }
        }
        K::LogCleaned {
            cleaning,
            records_before,
            records_after,
            dirty_permille,
            threshold_permille,
            tombstones_removed,
            cleaned_upto,
        } => {
            let tombstones = match tombstones_removed {
                0 => String::new(),
                n => format!(
                    " {} past delete.retention.ms went with them.",
                    plural(*n, "tombstone")
                ),
            };
            format!(
                "At {at} the log cleaner runs (cleaning {cleaning}): the dirty head was {} of \
                 the cleanable log, above min.cleanable.dirty.ratio ({}). Keeping only the \
                 latest record of each key, {records_before} records became \
                 {records_after}.{tombstones} The log is clean up to offset {cleaned_upto}.",
                ratio(*dirty_permille),
                ratio(*threshold_permille)
            )
        }
        K::TombstoneWritten {
            key,
            offset,
            opened_key,
        } => format!(
            "At {at} {} is closed: a tombstone (its key, a null value) goes to offset {offset}, \
             and {} opens in its place. A reader from offset 0 learns of the delete as long as \
             the tombstone is in the log.",
            account(*key),
            account(*opened_key)
        ),
        K::TombstoneRemoved {
            key,
            written_at_ms,
            delete_retention_ms,
        } => format!(
            "At {at} the cleaner drops {}'s tombstone (written at {}): it had kept it for \
             delete.retention.ms ({}) after first cleaning it. No record of {} is left; a \
             consumer that read its old balance and had not reached the tombstone by now would \
             never learn it was deleted.",
            account(*key),
            duration(*written_at_ms),
            duration(*delete_retention_ms),
            account(*key)
        ),
        K::Bootstrapped {
            records_read,
            live_keys,
            total_writes,
            tombstones_read,
            wrong_keys,
            event_records,
            wrong_if_compacted,
        } => {
            let table = if *wrong_keys == 0 {
                "its table matches the accounts exactly".to_string()
            } else {
                format!("its table is wrong on {wrong_keys} accounts")
            };
            format!(
                "At {at} a new consumer reads the compacted topic from offset 0: \
                 {records_read} records ({tombstones_read} of them tombstones) for {live_keys} \
                 open accounts, after {total_writes} writes; {table}. The event-sourced log of \
                 the same accounts must be read whole, {event_records} events; kept to each \
                 account's last event, {wrong_if_compacted} of {live_keys} balances would be \
                 wrong."
            )
        }
        K::BootstrapStarted {
            method,
            position,
            rows,
        } => match method {
            BootstrapMethod::Initial => format!(
                "At {at} the new store's bootstrap starts (snapshot.mode=initial): one \
                 consistent read of the {rows} rows as of log position {position}, then the \
                 change stream from exactly {position}."
            ),
            BootstrapMethod::InitialOnly => format!(
                "At {at} the bootstrap starts (snapshot.mode=initial_only): a consistent read \
                 of the {rows} rows as of log position {position}, and no stream after it."
            ),
            BootstrapMethod::NoData => format!(
                "At {at} the bootstrap starts (snapshot.mode=no_data): no copy of the table; \
                 the stream starts at position {position}, so earlier values of the {rows} \
                 rows never arrive unless the row changes again."
            ),
            BootstrapMethod::ScanThenLatest | BootstrapMethod::ScanThenEarliest => {
                let reset = if *method == BootstrapMethod::ScanThenLatest {
                    "latest"
                } else {
                    "earliest"
                };
                format!(
                    "At {at} a hand-rolled bootstrap starts: SELECT * reads the live table, \
                     {rows} rows one after another, and records no log position (the log is \
                     at {position}). Afterwards a consumer of the change topic starts with \
                     auto.offset.reset={reset}."
                )
            }
        },
        K::SnapshotRead {
            rows,
            took_ms,
            changes_during,
        } => format!(
            "At {at} the snapshot has read all {rows} rows, in {}; {changes_during} writes were \
             committed while it read.",
            duration(*took_ms)
        ),
        K::StreamStarted {
            method,
            from_position,
            log_end,
            missed,
        } => match method {
            BootstrapMethod::ScanThenEarliest => format!(
                "At {at} the consumer starts at position {from_position}: it replays all \
                 {log_end} changes in the topic, the ones the copy had already read among them."
            ),
            _ if *missed > 0 => format!(
                "At {at} the stream starts at position {from_position} (the log is at \
                 {log_end}). {missed} changes committed to rows the copy had already read are \
                 never applied: missed."
            ),
            _ => format!(
                "At {at} the stream starts at position {from_position}, where the snapshot was \
                 read: every later change arrives exactly once."
            ),
        },
        K::StreamNeverStarts { position } => format!(
            "At {at} the connector stops after its snapshot (snapshot.mode=initial_only): the \
             store holds the table as of position {position}, and every change from here on \
             is missed."
        ),
        K::FirstDuplicate { key, lsn, read_at } => format!(
            "At {at} change {lsn} is applied to {} although the copy, which read the row at \
             position {read_at}, already held it. An upsert by key comes out right in the end; \
             anything that counts or reacts to changes counts it twice.",
            row(*key)
        ),
        K::FirstRegression { key, lsn, over_lsn } => format!(
            "At {at} {} goes back in time: the replayed change {lsn} overwrites the newer value \
             of change {over_lsn} that the copy had read.",
            row(*key)
        ),
        K::StreamCaughtUp { max_lag_ms } => format!(
            "At {at} the new store has every committed change for the first time; the longest \
             a change waited was {}.",
            duration(*max_lag_ms)
        ),
        K::BootstrapSettled {
            divergent_keys,
            rows,
            missed,
            duplicated,
            regressions,
        } => format!(
            "At {at} writes have stopped and the pipeline is idle: the new store differs from \
             the table on {divergent_keys} of {rows} rows; {missed} changes were missed, \
             {duplicated} applied twice, {regressions} overwrote a newer value."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(at_ms: u64, kind: DatabasesEventKind) -> String {
        narrate(&DatabasesEvent { at_ms, kind })
    }

    #[test]
    fn a_race_says_that_nothing_failed_and_a_retry_says_it_came_late() {
        let race = said(
            1_500,
            DatabasesEventKind::OutOfOrder {
                lane: Lane::DualWrite,
                key: 2,
                applied_version: 31,
                over_version: 33,
                applied_server: 0,
                over_server: 1,
                retry: false,
            },
        );
        assert!(
            race.contains("product-2's index received v31 (from app-1)"),
            "{race}"
        );
        assert!(race.contains("No error anywhere"), "{race}");
        let retry = said(
            1_500,
            DatabasesEventKind::OutOfOrder {
                lane: Lane::TryCatch,
                key: 2,
                applied_version: 31,
                over_version: 33,
                applied_server: 0,
                over_server: 1,
                retry: true,
            },
        );
        assert!(retry.starts_with("Try/catch at 1.5 s"), "{retry}");
        assert!(retry.contains("was a retry"), "{retry}");
    }

    #[test]
    fn failures_say_what_becomes_of_the_write() {
        let failed = |outcome| {
            said(
                2_000,
                DatabasesEventKind::IndexWriteFailed {
                    lane: Lane::TryCatch,
                    key: 1,
                    version: 57,
                    attempt: 1,
                    max_attempts: 3,
                    backoff_ms: 1_000,
                    outcome,
                },
            )
        };
        assert!(failed(FailureOutcome::Raised).contains("reaches the caller"));
        assert!(failed(FailureOutcome::Retrying).contains("waits 1 s (@Backoff)"));
        assert!(failed(FailureOutcome::GaveUp).contains("the write is lost"));
        let sink = said(
            3_000,
            DatabasesEventKind::SinkRetried {
                lane: Lane::Cdc,
                key: 1,
                version: 57,
                attempt: 2,
                wait_ms: 200,
            },
        );
        assert!(sink.contains("tries again in 200 ms"), "{sink}");
        assert!(sink.contains("order holds"), "{sink}");
    }

    #[test]
    fn settled_lanes_say_whether_the_index_is_right_for_good() {
        let settled = |divergent_keys| {
            said(
                60_000,
                DatabasesEventKind::LaneSettled {
                    lane: Lane::DualWrite,
                    divergent_keys,
                    keys: 4,
                    lost_writes: 0,
                    exceptions: 0,
                    out_of_order: 3,
                },
            )
        };
        assert!(settled(2).contains("2 of 4 products differing"));
        assert!(settled(0).contains("equals the database on all 4"));
    }

    #[test]
    fn compaction_names_the_ratio_the_retention_and_the_bootstrap() {
        let cleaned = said(
            30_000,
            DatabasesEventKind::LogCleaned {
                cleaning: 3,
                records_before: 312,
                records_after: 58,
                dirty_permille: 620,
                threshold_permille: 500,
                tombstones_removed: 1,
                cleaned_upto: 540,
            },
        );
        assert!(cleaned.contains("0.62 of the cleanable log"), "{cleaned}");
        assert!(
            cleaned.contains("min.cleanable.dirty.ratio (0.5)"),
            "{cleaned}"
        );
        assert!(
            cleaned.contains("1 tombstone past delete.retention.ms"),
            "{cleaned}"
        );
        let removed = said(
            70_000,
            DatabasesEventKind::TombstoneRemoved {
                key: 7,
                written_at_ms: 41_000,
                delete_retention_ms: 20_000,
            },
        );
        assert!(removed.contains("account-7's tombstone"), "{removed}");
        assert!(removed.contains("delete.retention.ms (20 s)"), "{removed}");
        let boot = said(
            100_000,
            DatabasesEventKind::Bootstrapped {
                records_read: 61,
                live_keys: 50,
                total_writes: 4_210,
                tombstones_read: 2,
                wrong_keys: 0,
                event_records: 4_210,
                wrong_if_compacted: 48,
            },
        );
        assert!(
            boot.contains("61 records (2 of them tombstones) for 50"),
            "{boot}"
        );
        assert!(boot.contains("48 of 50 balances would be wrong"), "{boot}");
    }

    #[test]
    fn the_snapshot_story_names_positions_and_modes() {
        let start = said(
            10_000,
            DatabasesEventKind::BootstrapStarted {
                method: BootstrapMethod::Initial,
                position: 204,
                rows: 100,
            },
        );
        assert!(start.contains("snapshot.mode=initial"), "{start}");
        assert!(start.contains("from exactly 204"), "{start}");
        let missed = said(
            15_000,
            DatabasesEventKind::StreamStarted {
                method: BootstrapMethod::ScanThenLatest,
                from_position: 455,
                log_end: 455,
                missed: 37,
            },
        );
        assert!(missed.contains("37 changes committed to rows"), "{missed}");
        let replay = said(
            15_000,
            DatabasesEventKind::StreamStarted {
                method: BootstrapMethod::ScanThenEarliest,
                from_position: 0,
                log_end: 455,
                missed: 0,
            },
        );
        assert!(replay.contains("replays all 455 changes"), "{replay}");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(45_000), "45 s");
        assert_eq!(duration(40), "40 ms");
        assert_eq!(duration(1_500), "1.5 s");
        assert_eq!(duration(120_000), "2 min");
        assert_eq!(duration(86_400_000), "1 day");
    }
}
