//! The simulation behind the event-time lessons: devices produce events, a network delays them,
//! some devices buffer them while offline or stamp them with a wrong clock, a stream processor
//! (which may stop and catch up) counts them in windows, and the watermark decides when a
//! window is complete enough to fire. It answers three questions a learner asks:
//!
//! * "My hourly counts are wrong after an outage. Which clock was I counting by?" Processing-time
//!   windows count what arrived when; event-time windows count what happened when.
//! * "The window already emitted its answer and a record for it just showed up. Now what?" Drop
//!   it, restate the result (a late pane that retracts the old value), or route it aside.
//! * "If I can never know an event-time window is complete, what makes it fire?" The watermark:
//!   a heuristic per partition, combined as the minimum, with idle partitions set aside.
//!
//! # Pieces
//!
//! An [`EventTimeScenario`] (serde, validated) fixes everything; [`EventTimeWorld::new`] draws
//! the [`Record`]s (seeded, one random stream per concern) with their timestamps: true time,
//! the device's `occurred_ms` and `sent_ms`, the topic's `received_ms`, the processor's
//! `processed_ms`. [`EventTimeWorld::advance_to`] replays them in processing time through two
//! instances of the [`window`](crate::window) operator, one on processing time and one on event
//! time driven by the combined watermark, and [`EventTimeWorld::snapshot`] copies out plain data
//! for drawing: records seen, per-partition and combined watermarks, open windows, panes with
//! the processing time they were emitted at, side outputs, drops, and per window the answers
//! next to the ground truth (the count by true time with all data present).
//!
//! What the run does is also told as typed [`EventTimeEvent`]s (the outage, idleness, each
//! window's answer by each clock summed over devices, late panes, retractions, merged
//! sessions, drops and side outputs); [`events::narrate`] gives each its sentence, so every
//! lesson's narration comes from the core, and the trace hash folds the events' fields, the
//! records read and the watermark's moves as they happen. [`WindowTypesRun`] tells the Windows
//! lesson's panes per window type the same way ([`lane_events`]).
//!
//! # Decisions
//!
//! * The run is bounded: when processing time reaches [`EventTimeWorld::input_end_ms`] the
//!   watermark jumps to plus infinity and every window fires, as when a bounded Flink source
//!   finishes; processing-time windows still open fire then too, stamped with that instant,
//!   so every record is counted once in each column.
//! * A watermark is recomputed after every record and at every idleness deadline, not on a
//!   timer (Flink's `autoWatermarkInterval`), so a step of the animation never hides a move.
//! * Every window type of [`WindowSpec`](crate::window::WindowSpec) runs here: tumbling,
//!   hopping, session, and Kafka Streams' sliding windows (records within a time difference).
//! * Determinism: integer ms everywhere except the exponential draws, which go through `libm`;
//!   only `Vec`s and sorted maps are iterated.

mod closing;
pub mod events;
mod fingerprint;
mod invariants;
pub mod knobs;
pub mod lane_events;
mod presets;
mod records;
mod scenario;
mod simulation;
mod snapshot;
mod truth;
mod validate;
pub mod views;
mod watermarks;
mod window_types;
mod world;

pub use events::{EventTimeEvent, EventTimeEventKind, LateRecord, WindowKind};
pub use lane_events::{WindowTypesEvent, WindowTypesEventKind};
pub use presets::{
    drop_vs_restate_vs_side, four_windows, idle_partition_stalls, late_record_many_panes,
    mobile_stragglers, outage_spike, preset, Preset, LESSONS, PRESETS,
};
pub use records::{stream, Record};
pub use scenario::{
    ComparedWindows, DelaySpec, EventTimeScenario, LateRecordPolicy, OfflineSpec, OutageSpec,
    ScenarioError, SkewSpec, TimeDomain, TimestampSource, MAX_DURATION_MS, MAX_KNOB_DURATION_MS,
    MAX_RECORDS, MAX_RECORDS_PER_SLIDING_WINDOW,
};
pub use snapshot::{EmittedPane, EventTimeSnapshot, SideOutputRecord, WindowComparison, WindowId};
pub use watermarks::{IdlenessChange, PartitionWatermark, WatermarkStep};
pub use window_types::{LaneRecord, LaneWindow, WindowLane, WindowTypesPicture, WindowTypesRun};
pub use world::EventTimeWorld;
