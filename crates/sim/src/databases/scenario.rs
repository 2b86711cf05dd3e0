//! The databases-and-streams scenario: every knob of the family as one plain serde struct. A
//! `mode` picks which comparison runs on the one seed: four ways of keeping a derived store
//! in step with a database (dual writes, dual writes in a try/catch, change data capture, a
//! transactional outbox), a compacted topic beside an event-sourced log, or a new store
//! bootstrapped from a snapshot and the change log. Each field names its unit and, where one
//! exists, the real system's setting; the knob table (`knobs.rs`) holds the ranges.

use crate::family::knob::Choice;
use serde::{Deserialize, Serialize};

/// Most writes one run may make (`duration_ms · writes.per_second / 1000`), so a run stays
/// cheap enough to rebuild on every knob change in a browser.
pub const MAX_WRITES: u64 = 100_000;

/// Longest run: one hour of simulated time.
pub const MAX_DURATION_MS: u64 = 3_600_000;

/// Most keys (rows, accounts) a run may have, and most application servers.
pub const MAX_KEYS: u32 = 1_000;
pub const MAX_APP_SERVERS: u32 = 16;

/// How often the charts' series are sampled, in ms of simulated time.
pub const SAMPLE_INTERVAL_MS: u64 = 250;

/// Kafka's own `segment.ms` (7 days), `delete.retention.ms` (1 day) and
/// `log.cleaner.backoff.ms` (15 s) defaults; the lessons start with shorter ones.
pub const KAFKA_SEGMENT_MS: f64 = 604_800_000.0;
pub const KAFKA_DELETE_RETENTION_MS: f64 = 86_400_000.0;
pub const KAFKA_CLEANER_BACKOFF_MS: f64 = 15_000.0;

/// A complete, reproducible description of one run of the databases family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabasesScenario {
    /// Seed of every draw: arrivals, keys, delays, failures. Any u64.
    pub seed: u64,
    /// Which comparison runs.
    pub mode: Mode,
    /// How long writes arrive, in ms. A dual-writes or snapshot run goes on a little longer,
    /// until what is in flight has landed ([`DatabasesScenario::end_ms`]).
    pub duration_ms: u64,
    pub writes: WriteSpec,
    pub network: NetworkSpec,
    pub retry: RetrySpec,
    pub connector: ConnectorSpec,
    pub outage: OutageSpec,
    pub topic: CompactedTopicSpec,
    pub accounts: AccountSpec,
    pub bootstrap: BootstrapSpec,
    pub snapshot: SnapshotSpec,
}

impl Default for DatabasesScenario {
    fn default() -> Self {
        Self {
            seed: 1,
            mode: Mode::DualWrites,
            duration_ms: 60_000,
            writes: WriteSpec::default(),
            network: NetworkSpec::default(),
            retry: RetrySpec::default(),
            connector: ConnectorSpec::default(),
            outage: OutageSpec::default(),
            topic: CompactedTopicSpec::default(),
            accounts: AccountSpec::default(),
            bootstrap: BootstrapSpec::default(),
            snapshot: SnapshotSpec::default(),
        }
    }
}

/// Which comparison a run shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The same updates kept in a database and a search index four ways, side by side:
    /// dual write, dual write with try/catch and retry, CDC, transactional outbox.
    #[default]
    DualWrites,
    /// Account updates in a compacted topic (`cleanup.policy=compact`) beside the same
    /// accounts' event-sourced log, and a new consumer bootstrapping from offset 0.
    Compaction,
    /// A new derived store bootstrapped from a database snapshot and then the change log.
    Snapshot,
}

impl Choice for Mode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            Mode::DualWrites,
            "dual_writes",
            "Dual writes, try/catch, CDC, outbox",
        ),
        (Mode::Compaction, "compaction", "A compacted topic"),
        (Mode::Snapshot, "snapshot", "Snapshot, then the log"),
    ];
}

/// The writes: how many, to how many keys, through how many application servers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WriteSpec {
    /// Writes per second on average; they arrive at random (a Poisson process), so two
    /// writes of one key sometimes come close together.
    pub per_second: u32,
    /// Keys written: products (dual writes), accounts open at once (compaction), rows of the
    /// table (snapshot).
    pub keys: u32,
    /// Application servers behind a round-robin load balancer (dual writes): request `i`
    /// goes to server `i mod app_servers`; each handles its requests concurrently.
    pub app_servers: u32,
}

impl Default for WriteSpec {
    fn default() -> Self {
        Self {
            per_second: 20,
            keys: 4,
            app_servers: 2,
        }
    }
}

/// The network between the application servers, the database and the derived store.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NetworkSpec {
    /// One way between an application server and the database, at least, in ms.
    pub db_latency_ms: u64,
    /// One way between an application server (or the sink connector) and the derived store,
    /// at least, in ms.
    pub index_latency_ms: u64,
    /// Each message takes up to this much longer, uniformly (queues, retransmits, a GC
    /// pause), independently of every other message, in ms.
    pub jitter_ms: u64,
    /// Probability that one write to the derived store fails (a 503, a timeout): the dual
    /// write raises an exception, the sink connector retries.
    pub index_failure_rate: f64,
}

impl Default for NetworkSpec {
    fn default() -> Self {
        Self {
            db_latency_ms: 2,
            index_latency_ms: 5,
            jitter_ms: 60,
            index_failure_rate: 0.0,
        }
    }
}

/// The try/catch lane's retry, as Spring Retry's `@Retryable` spells it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetrySpec {
    /// `maxAttempts`: attempts in all, the first one included (Spring Retry: 3).
    pub max_attempts: u32,
    /// `@Backoff(delay)`: the wait before each retry, in ms (Spring Retry waits 1000, its
    /// `value` default, when neither is set).
    pub backoff_ms: u64,
}

impl Default for RetrySpec {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            backoff_ms: 1_000,
        }
    }
}

/// The change-data-capture pipeline: a Debezium source connector reading the database's
/// log into Kafka, and a sink connector writing the topic into the derived store.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConnectorSpec {
    /// Debezium `poll.interval.ms`: how long the connector waits for new change events
    /// before it hands a batch on (Debezium: 500).
    pub poll_interval_ms: u64,
    /// From the connector's batch to the sink's write: Kafka, the sink's fetch, in ms.
    pub pipeline_ms: u64,
    /// The Elasticsearch sink's `retry.backoff.ms`: the wait before the first retry of a
    /// failed write; each further retry waits twice as long (Confluent: 100).
    pub retry_backoff_ms: u64,
}

impl Default for ConnectorSpec {
    fn default() -> Self {
        Self {
            poll_interval_ms: 500,
            pipeline_ms: 40,
            retry_backoff_ms: 100,
        }
    }
}

/// A stretch of time the source connectors (CDC and the outbox relay) are down: a restart,
/// a rebalance of Kafka Connect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutageSpec {
    pub enabled: bool,
    /// When they stop, in ms.
    pub at_ms: u64,
    /// How long they stay down, in ms.
    pub for_ms: u64,
}

impl Default for OutageSpec {
    fn default() -> Self {
        Self {
            enabled: false,
            at_ms: 20_000,
            for_ms: 10_000,
        }
    }
}

/// The compacted topic (`cleanup.policy=compact`) and its log cleaner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompactedTopicSpec {
    /// `segment.ms`: the active segment is closed (rolled) once its first record is this old;
    /// only closed segments can be cleaned (Kafka: 7 days).
    pub segment_ms: u64,
    /// `min.cleanable.dirty.ratio`: the cleaner cleans the log once the dirty head is more
    /// than this share of the cleanable log (Kafka: 0.5).
    pub min_cleanable_dirty_ratio: f64,
    /// `delete.retention.ms`: how long a tombstone stays after the cleaner first kept it
    /// (Kafka: 1 day).
    pub delete_retention_ms: u64,
    /// `min.compaction.lag.ms`: a record stays uncleaned at least this long (Kafka: 0).
    pub min_compaction_lag_ms: u64,
    /// `log.cleaner.backoff.ms`: how long the cleaner sleeps when it finds nothing to clean
    /// (Kafka: 15 s).
    pub cleaner_backoff_ms: u64,
}

impl Default for CompactedTopicSpec {
    fn default() -> Self {
        Self {
            segment_ms: 5_000,
            min_cleanable_dirty_ratio: 0.5,
            delete_retention_ms: 20_000,
            min_compaction_lag_ms: 0,
            cleaner_backoff_ms: 2_000,
        }
    }
}

/// The accounts behind the compacted topic and the event-sourced log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AccountSpec {
    /// Share of writes that close an account (a tombstone in the compacted topic, an
    /// `AccountClosed` event); a new account opens in its place, so `writes.keys` stay open.
    pub close_rate: f64,
}

impl Default for AccountSpec {
    fn default() -> Self {
        Self { close_rate: 0.02 }
    }
}

/// The new consumer of the compaction comparison, which reads both logs from offset 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BootstrapSpec {
    /// When it arrives, in ms.
    pub at_ms: u64,
}

impl Default for BootstrapSpec {
    fn default() -> Self {
        Self { at_ms: 100_000 }
    }
}

/// A new derived store bootstrapped from a snapshot of the table and then the change log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SnapshotSpec {
    /// When the bootstrap starts, in ms.
    pub start_ms: u64,
    /// How fast the snapshot reads the table, in rows per second.
    pub rows_per_second: u32,
    /// Whether the snapshot is tied to a log position, as Debezium does it (one consistent
    /// read as of a position, then the stream from that position); otherwise a hand-rolled
    /// copy reads the live table row by row and a consumer starts from `offset_reset`.
    pub tied_to_offset: bool,
    /// Debezium `snapshot.mode`, for a snapshot tied to its position.
    pub mode: SnapshotMode,
    /// `auto.offset.reset` of the hand-rolled copy's consumer of the change topic.
    pub offset_reset: OffsetReset,
}

impl Default for SnapshotSpec {
    fn default() -> Self {
        Self {
            start_ms: 10_000,
            rows_per_second: 20,
            tied_to_offset: true,
            mode: SnapshotMode::Initial,
            offset_reset: OffsetReset::Latest,
        }
    }
}

/// Debezium's `snapshot.mode` values the lesson compares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SnapshotMode {
    /// A consistent snapshot, then the change stream from the snapshot's position.
    #[default]
    Initial,
    /// The snapshot only; the connector stops after it.
    InitialOnly,
    /// No data snapshot; the stream from the position the connector starts at.
    NoData,
}

impl Choice for SnapshotMode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            SnapshotMode::Initial,
            "initial",
            "initial: snapshot, then stream",
        ),
        (
            SnapshotMode::InitialOnly,
            "initial_only",
            "initial_only: snapshot, then stop",
        ),
        (
            SnapshotMode::NoData,
            "no_data",
            "no_data: stream from now, no snapshot",
        ),
    ];
}

/// Where a consumer without a committed offset starts reading the change topic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OffsetReset {
    /// The end of the topic when it starts: what happened before is not read.
    #[default]
    Latest,
    /// The beginning of the topic: every change it still holds is read again.
    Earliest,
}

impl Choice for OffsetReset {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (OffsetReset::Latest, "latest", "latest"),
        (OffsetReset::Earliest, "earliest", "earliest"),
    ];
}

impl DatabasesScenario {
    /// How many writes arrive over the run, on average.
    pub fn expected_writes(&self) -> u64 {
        self.duration_ms * u64::from(self.writes.per_second) / 1000
    }

    /// When the run ends: when writes stop, plus (dual writes, snapshot) long enough for what
    /// is in flight to land, so the end shows the settled state. Rounded up to a second.
    pub fn end_ms(&self) -> u64 {
        let end = match self.mode {
            Mode::Compaction => self.duration_ms,
            Mode::DualWrites => {
                let outage_end = if self.outage.enabled {
                    self.outage.at_ms + self.outage.for_ms
                } else {
                    0
                };
                self.duration_ms.max(outage_end)
                    + self.dual_write_tail_ms().max(self.sink_tail_ms())
            }
            Mode::Snapshot => self.duration_ms + self.sink_tail_ms(),
        };
        end.div_ceil(1000) * 1000
    }

    /// The longest a dual write can take from its request to its last attempt landing: the
    /// database's round trip, then every attempt's round trip and back-off.
    fn dual_write_tail_ms(&self) -> u64 {
        let n = &self.network;
        let db = 2 * (n.db_latency_ms + n.jitter_ms);
        let attempt = 2 * (n.index_latency_ms + n.jitter_ms) + self.retry.backoff_ms;
        db + u64::from(self.retry.max_attempts) * attempt + 1_000
    }

    /// Time for a change committed at the end to reach the derived store through the
    /// connectors, with room for three sink retries.
    fn sink_tail_ms(&self) -> u64 {
        let c = &self.connector;
        let n = &self.network;
        c.poll_interval_ms
            + c.pipeline_ms
            + n.index_latency_ms
            + n.jitter_ms
            + 7 * c.retry_backoff_ms
            + 1_000
    }

    /// When the snapshot of the snapshot comparison ends, if it reads the table at all.
    pub fn snapshot_end_ms(&self) -> Option<u64> {
        let s = &self.snapshot;
        let scans = !(s.tied_to_offset && s.mode == SnapshotMode::NoData);
        scans.then(|| s.start_ms + row_read_offset_ms(self.writes.keys, s.rows_per_second))
    }
}

/// When row `rows` (1-based count) of a scan at `rows_per_second` has been read, counted from
/// the scan's start, in ms: the last row of a table of `rows` rows at that rate.
pub fn row_read_offset_ms(rows: u32, rows_per_second: u32) -> u64 {
    (u64::from(rows) * 1000).div_ceil(u64::from(rows_per_second.max(1)))
}
