//! Stateful processing: joins of two inputs and the top items of a window, as operators and
//! as the lesson family behind the "stream joins" and "top-K" lessons.
//!
//! # The operators
//!
//! The operators are plain, incremental and deterministic, so `streamlab join` and
//! `streamlab topk` feed them a file and the lessons feed them one event at a time:
//!
//! * [`IntervalJoin`] (`interval.rs`): Flink's interval join with the `join` contract's
//!   watermark, late events, expiry and outer variants (a search and the click it led to).
//! * [`TemporalJoin`] (`temporal.rs`): a stream enriched from a versioned table, by event
//!   time (`FOR SYSTEM_TIME AS OF` the event's time) or by processing time (the latest
//!   version that happened to arrive first).
//! * [`JoinedView`] (`view.rs`): a table–table join kept up to date from two changelogs,
//!   retracting what each change replaces.
//! * [`TopK`] (`topk.rs`): the exact top-K items per tumbling or hopping window, over
//!   [`WindowedState`] (`windowed.rs`, the window operator's assigner and rules with no
//!   allowed lateness); [`SketchTopK`] (`sketch.rs`), a count-min sketch with a heap of
//!   candidates, for when the counts do not fit.
//!
//! [`TwoInputWatermark`] (`two_input.rs`) is the watermark of a two-input operator: the
//! smaller of the two sides'. `config.rs` and `config_serde.rs` hold the CLI configs, read
//! as strictly as the window operator's.
//!
//! # The family
//!
//! [`JoinsScenario`] (serde, validated against [`knobs::KNOBS`]) picks a mode and fixes
//! everything; `inputs.rs` draws the events (event time and arrival apart); each mode's lane
//! feeds them to the operators in arrival order and follows every input to its fate:
//! `search_click.rs` (searches and clicks, an interval join), `enrichment.rs` (orders and a
//! customer table, by both clocks, in two interleavings), `tables.rs` (two changelog tables
//! into a view, checked against the batch join after every change), `ranking.rs` (exact,
//! partitioned by post or by user and merged, and a count-min sketch). [`JoinsWorld`]
//! (`world.rs`) runs one lane tick by tick; [`events`] holds the typed events and their
//! narration, `invariants.rs` what must hold after every tick, `snapshot.rs` the picture,
//! `simulation.rs` the family contract and the figures, `presets.rs` the presets and
//! lessons. [`SIMPLIFICATIONS`] lists where the model is simpler than Flink and Kafka
//! Streams.

mod config;
mod config_serde;
pub mod enrichment;
pub mod events;
pub mod inputs;
pub mod interval;
mod invariants;
pub mod knobs;
mod presets;
pub mod ranking;
mod scenario;
pub mod search_click;
mod simulation;
pub mod sketch;
mod snapshot;
pub mod tables;
pub mod temporal;
pub mod topk;
mod two_input;
mod validate;
pub mod view;
pub mod windowed;
mod world;

pub use config::{
    IntervalConfig, JoinConfig, JoinConfigError, Outer, TemporalConfig, TemporalTime, TopKConfig,
    MAX_K,
};
pub use events::{JoinsEvent, JoinsEventKind, LostCause, Run};
pub use interval::{Held, IntervalJoin, JoinOutput, JoinSummary};
pub use presets::{
    count_min_sketch, enrichment_processing_vs_event_time, late_click_lost, materialized_view_join,
    preset, search_click_join, topk_wrong_merge, Preset, LESSONS, PRESETS,
};
pub use scenario::{
    ClickDelay, ClickSpec, EnrichmentSpec, JoinsScenario, Mode, TablesSpec, TopKSpec, TopKWindow,
    MAX_DURATION_MS, MAX_INPUTS, SAMPLE_INTERVAL_MS,
};
pub use sketch::{CountMinSketch, SketchTopK};
pub use snapshot::{
    tier_name, ClickMark, ClicksPicture, CustomerRow, EnrichmentPicture, JoinsSnapshot, OrderRow,
    RankingPicture, TablesPicture, CLICK_SPAN_MS,
};
pub use temporal::{TemporalJoin, TemporalOutput, Version, Waiting};
pub use topk::{top_k, TopK, TopKSummary, TopWindow};
pub use two_input::{Side, TwoInputWatermark};
pub use view::{JoinedView, LeftRow, RowKind, TableChange, ViewChange, ViewRow};
pub use windowed::{ClosedWindow, WindowedState};
pub use world::{JoinsWorld, Lane};

/// Where the model is simpler than the systems it shows, in a learner's words.
pub const SIMPLIFICATIONS: &[&str] = &[
    "Watermarks: each input's watermark follows every event at once (Flink emits bounded \
     out-of-orderness watermarks periodically, every 200 ms by default), and a join's \
     watermark is the smaller of its two inputs', as in any two-input Flink operator.",
    "Interval join: Flink's DataStream intervalJoin is an inner join; the left and full \
     variants here are what Flink SQL's interval joins and Kafka Streams' leftJoin and \
     outerJoin with JoinWindows.ofTimeDifferenceAndGrace emit. Kafka Streams closes its join \
     windows by stream time (the largest timestamp seen) plus the grace period, not by a \
     watermark.",
    "Interval join: an event leaves the state the moment the watermark passes the last time \
     a partner could have; Flink cleans its state with timers that fire a little later, which \
     changes when unmatched rows appear, not which.",
    "Searches and clicks: every search is its own session, so a click can only join the \
     search it came from; with several searches per session an interval join pairs a click \
     with every search of the session within the bounds.",
    "Temporal join: the event-time join keeps, per key, every version newer than the \
     watermark plus the latest one before it, as Flink's event-time temporal join does; the \
     processing-time join keeps only the latest version that arrived (Flink SQL calls a \
     processing-time lookup of a changing table a lookup join; Kafka Streams' stream–table \
     join does the same unless the table is a versioned store).",
    "Stream–table runs: both runs see exactly the same orders and tier changes; only the \
     arrival delays differ, drawn from the interleaving number. The customers' first \
     versions arrive before any order in both runs.",
    "Table–table join: each change is applied the moment it happens, one at a time, and the \
     view is compared with the batch join after each; Kafka Streams' foreign-key join \
     travels through subscription topics and may emit intermediate results, and Flink's \
     join state and mini-batching change how many changelog records come out, not the view.",
    "Top-K: every partition shares one watermark and the merge waits for every partition's \
     list of a window; a real job merges lists as they arrive, per window.",
    "Top-K state: an exact count takes 16 bytes (a 64-bit id and a 64-bit count), the least \
     any map of counts needs; a real one (a Java HashMap of strings to longs, RocksDB) takes \
     several times more. A sketch counter takes 8 bytes.",
    "Count-min sketch: the hash functions are drawn once per run and shared by every window; \
     each window starts an empty sketch and heap. Recall@K counts a post tied at the K-th \
     count as a hit whichever of the tied posts is named.",
];
