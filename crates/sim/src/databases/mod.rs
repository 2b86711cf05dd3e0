//! Databases and streams: the family behind the "dual-writes" and "bootstrapping" lessons.
//!
//! A database and the stores derived from it (a search index, a cache, a new replica) must
//! agree, and there are several ways to try. This family puts them side by side on one seed
//! and lets the differences come out of each system's rules:
//!
//! * **Dual writes against change data capture** (mode `dual_writes`): application servers
//!   write a database and then an index (plainly, or in a try/catch that retries), against a
//!   Debezium connector reading the database's log into the index, and against a
//!   transactional outbox published the same way. Writes cross on the network and leave the
//!   dual-write indexes wrong with no error raised; the connectors apply the database's own
//!   order and converge once they catch up.
//! * **Compaction** (mode `compaction`): a compacted topic of account balances
//!   (`cleanup.policy=compact`, segments rolled by `segment.ms`, a cleaner driven by
//!   `min.cleanable.dirty.ratio`, tombstones kept for `delete.retention.ms`) beside the same
//!   accounts' event-sourced log, which cannot be compacted; a new consumer bootstraps from
//!   offset 0.
//! * **Snapshots** (mode `snapshot`): a new store bootstrapped from a snapshot and then the
//!   change log, the snapshot tied to its log position (Debezium's `snapshot.mode`) or not.
//!
//! # Pieces
//!
//! [`DatabasesScenario`] (serde, validated against [`knobs::KNOBS`]) fixes everything;
//! `draws.rs` the seeded arrivals and per-message hashes; `database.rs` a table with its
//! change log and a derived store that counts where it differs; `connector.rs` a CDC
//! pipeline (poll, publish, an in-order sink with retries); `sync.rs` the four lanes of the
//! dual-writes comparison; `compacted_log.rs` a compacted partition and Kafka's cleaner;
//! `accounts.rs` the operations written to both logs; `compaction.rs` the compaction
//! comparison; `bootstrap.rs` the snapshot comparison; [`DatabasesWorld`] (`world.rs`) the
//! clock, the events and the trace; [`events`] the typed events and their narration;
//! `invariants.rs` what must hold after every tick; `snapshot.rs` the picture;
//! `simulation.rs` the family contract and the figures; `presets.rs` the presets and lessons.
//!
//! # Determinism
//!
//! Integer milliseconds throughout; arrivals and account operations come from seeded PCG
//! streams, every hop's length and every failure from a hash of (seed, message, attempt);
//! only `Vec`s, `VecDeque`s and `BTree` collections are iterated; the one logarithm (Poisson
//! gaps) goes through `libm`.
//!
//! # Simplifications
//!
//! [`DUAL_WRITE_SIMPLIFICATIONS`] and [`BOOTSTRAPPING_SIMPLIFICATIONS`] list where the model
//! departs from the real systems; the lessons show them.

pub mod accounts;
pub mod bootstrap;
pub mod compacted_log;
pub mod compaction;
pub mod connector;
pub mod database;
pub mod draws;
pub mod events;
mod invariants;
pub mod knobs;
mod presets;
mod scenario;
mod simulation;
mod snapshot;
pub mod sync;
mod validate;
mod world;

pub use events::{BootstrapMethod, DatabasesEvent, DatabasesEventKind, FailureOutcome, Lane};
pub use presets::{
    cdc_converges, compaction_bootstrap, dual_write_race, dual_write_try_catch,
    event_sourcing_is_not_cdc, outbox_converges, preset, snapshot_with_offset,
    snapshot_without_offset, tombstone_deletes_key, Preset, LESSONS, PRESETS,
};
pub use scenario::{
    AccountSpec, BootstrapSpec, CompactedTopicSpec, ConnectorSpec, DatabasesScenario, Mode,
    NetworkSpec, OffsetReset, OutageSpec, RetrySpec, SnapshotMode, SnapshotSpec, WriteSpec,
    MAX_DURATION_MS, MAX_KEYS, MAX_WRITES, SAMPLE_INTERVAL_MS,
};
pub use snapshot::{
    AccountRow, BootstrapPicture, CompactionPicture, ConnectorPicture, DatabasesSnapshot, KeyRow,
    LanePicture, OutboxRow, RowPicture, SyncPicture,
};
pub use world::DatabasesWorld;

/// Where the dual-writes model is simpler than the systems it shows, in a learner's words.
pub const DUAL_WRITE_SIMPLIFICATIONS: &[&str] = &[
    "The database commits a write the moment it arrives and serializes writes of one row in \
     arrival order, as a row lock does; isolation levels, transactions spanning several rows \
     and replication inside the database are not modelled.",
    "Every message between a server, the database and the index takes its latency plus a \
     random share of the jitter, decided per message; real delays come in bursts (a GC pause \
     slows every message of one server at once).",
    "A failed index write fails before the index applies it: the server learns of it one \
     round trip later. A real timeout can also hide a write that did land, which a retry then \
     writes twice.",
    "The index is a plain upsert by product. Elasticsearch can refuse a write older than the \
     one it holds (version_type=external), which closes the race if the version comes from \
     the database's own order, which is what CDC hands over anyway.",
    "Each connector reads the whole log in one partition's order and the sink writes one \
     change at a time; a real topic has several partitions, ordered per key, which keeps the \
     per-product order shown here.",
    "The sink retries a failed write until it succeeds, doubling its back-off. The Elasticsearch \
     sink gives up after max.retries (5) and its task fails; restarted, it resumes from its \
     committed offset, so the outcome is the same lag, not a loss.",
    "The connectors stop cleanly and resume from the last change they published. A crashed \
     Debezium connector resumes from its last flushed offset and publishes some changes again; \
     an upsert by key absorbs them.",
    "The outbox relay publishes every outbox row; Debezium's outbox router also routes by \
     aggregatetype to outbox.event.<type> and keys each record by aggregateid. Deleting the \
     outbox rows right after inserting them, as Debezium suggests, changes nothing here: the \
     log keeps the insert.",
];

/// Where the bootstrapping lesson's models (the compacted topic and its cleaner, the
/// snapshot and its stream) are simpler than Kafka and Debezium, in a learner's words.
pub const BOOTSTRAPPING_SIMPLIFICATIONS: &[&str] = &[
    "One partition, and every record the same size: the dirty ratio counts records, where \
     Kafka counts bytes, and segments roll only by segment.ms (segment.bytes is never \
     reached).",
    "One cleaner thread cleans in one pass the moment it decides to, and merges all cleaned \
     segments into one; Kafka's cleaner threads (log.cleaner.threads) take time, are \
     throttled, and group segments up to segment.bytes.",
    "Tombstones follow KIP-534: the first cleaning that keeps one stamps it with now plus \
     delete.retention.ms, and the first cleaning after that drops it. max.compaction.lag.ms, \
     which forces a cleaning of an old enough record, is left at its default (never).",
    "The new consumer reads the whole log at one instant. A real one takes time, and a \
     tombstone it has not reached yet may be removed meanwhile if reading takes longer than \
     delete.retention.ms: it would then keep a deleted key.",
    "The event-sourced log is a topic with cleanup.policy=delete and no time limit; the \
     balance is the sum of an account's events, and a closed account takes no more events.",
    "A write commits the instant it arrives, and the snapshot reads a fixed number of rows per \
     second; real snapshots read in chunks (snapshot.fetch.size) at the database's pace.",
    "The consistent snapshot is one read as of a log position (Debezium's PostgreSQL \
     connector reads in a SERIALIZABLE, READ ONLY, DEFERRABLE transaction after noting the \
     WAL position; the MySQL one takes a brief lock while it reads the binlog position). \
     Locks and their cost are not modelled.",
    "The hand-rolled copy reads each row as it is at that moment (a plain SELECT under READ \
     COMMITTED), and its consumer starts right after the copy ends.",
    "Incremental snapshots (Debezium's signal-driven, watermark-based snapshots, after \
     Netflix's DBLog) interleave chunks with the stream instead; they are not shown.",
    "The new store is a plain upsert by key: a replayed older change overwrites a newer value \
     until the newer one is replayed too.",
];
