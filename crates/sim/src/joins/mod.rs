//! Stateful operators over two inputs and over a window's many items, and (later in this
//! module) the family behind the "stream joins" and "top-K" lessons.
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

mod config;
mod config_serde;
pub mod interval;
pub mod sketch;
pub mod temporal;
pub mod topk;
mod two_input;
pub mod view;
pub mod windowed;

pub use config::{
    IntervalConfig, JoinConfig, JoinConfigError, Outer, TemporalConfig, TemporalTime, TopKConfig,
    MAX_K,
};
pub use interval::{Held, IntervalJoin, JoinOutput, JoinSummary};
pub use sketch::{CountMinSketch, SketchTopK};
pub use temporal::{TemporalJoin, TemporalOutput, Version, Waiting};
pub use topk::{top_k, TopK, TopKSummary, TopWindow};
pub use two_input::{Side, TwoInputWatermark};
pub use view::{JoinedView, LeftRow, RowKind, TableChange, ViewChange, ViewRow};
pub use windowed::{ClosedWindow, WindowedState};
