//! What the event-time lessons draw: plain data with public fields, copied out of an
//! [`EventTimeWorld`](super::EventTimeWorld) at one instant of processing time. Nothing here
//! refers back into the world, so the UI can keep a snapshot as long as it likes.

use super::records::Record;
use super::watermarks::{IdlenessChange, PartitionWatermark, WatermarkStep};
use crate::window::{OpenWindow, Pane, Timing, Watermark};

/// One window of one key. Fields are declared end first so the derived order is the window
/// operator's output order: by end, then start, then key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WindowId {
    pub end_ms: i64,
    pub start_ms: i64,
    /// The device id.
    pub key: u32,
}

impl WindowId {
    pub(crate) fn of(pane: &Pane<u32>) -> Self {
        Self {
            end_ms: pane.end_ms,
            start_ms: pane.start_ms,
            key: pane.key,
        }
    }
}

/// A window firing, stamped with the processing time it came out at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmittedPane {
    pub emitted_at_ms: i64,
    pub window: WindowId,
    /// Records in the window so far (panes accumulate: a late pane counts everything).
    pub count: u64,
    /// The first firing when the watermark (or, for processing time, the clock) reached the
    /// window's end, or a re-firing caused by a late record.
    pub timing: Timing,
    /// With [`LateRecordPolicy::Restate`](super::LateRecordPolicy::Restate): the value this
    /// late pane replaces, which a downstream consumer must retract: the window's previous
    /// count or, for a session that a late record merged with others, the sum of the merged
    /// sessions' latest counts. `None` for on-time panes and for the other policies.
    pub retracted: Option<u64>,
}

/// A record too late for every window it belongs to, routed to the side output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideOutputRecord {
    pub emitted_at_ms: i64,
    /// [`Record::index`] of the record.
    pub record_index: u32,
    pub key: u32,
    /// The event time it carried.
    pub event_ms: i64,
}

/// One window's answers side by side with the truth, so a lesson can show accuracy against
/// latency. The window's bounds are the same in all columns; the event-time column counts by
/// the pipeline's event timestamps, the processing-time column by `processed_ms`, the truth by
/// `true_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowComparison {
    pub window: WindowId,
    /// The count with complete data by true event time (0 if no event truly falls in it).
    pub truth: u64,
    /// The latest event-time pane so far, if it fired.
    pub event_time: Option<u64>,
    /// The first event-time pane's count and processing time: the answer and its latency.
    pub event_time_first: Option<u64>,
    pub event_time_first_emitted_at_ms: Option<i64>,
    /// Event-time panes emitted for it so far (more than one means late updates).
    pub event_time_panes: u32,
    /// Records dropped (or side-output) as too late that belong to this window by their event
    /// timestamp; counted for tumbling and hopping windows only, since a too-late record never
    /// forms a session to attribute it to. A hopping record too late for only some of its
    /// windows is added to the others and counted nowhere (it is not dropped), so for hopping
    /// windows `event_time + dropped` can fall short of the truth; for tumbling windows with
    /// right clocks it equals it.
    pub dropped: u64,
    /// The processing-time window with the same bounds, if it fired.
    pub processing_time: Option<u64>,
    /// `event_time` or `processing_time`, whichever the scenario's time domain selects.
    pub result: Option<u64>,
    /// An event-time session that fired and was then merged into a larger one by a late
    /// record: its answer was replaced by the larger session's, so it is no longer a result.
    pub merged_away: bool,
}

/// Everything drawable at one instant of processing time.
#[derive(Clone, Debug, PartialEq)]
pub struct EventTimeSnapshot {
    pub now_ms: i64,
    /// When the input ends and the watermark jumps to plus infinity.
    pub input_end_ms: i64,
    pub input_ended: bool,
    /// Records the processor has seen, in the order it saw them.
    pub records_seen: Vec<Record>,
    /// Records in the topic that the processor has not seen yet (the outage backlog).
    pub backlog: u64,
    pub partitions: Vec<PartitionWatermark>,
    pub combined_watermark: Watermark,
    /// The active partition with the lowest watermark, which holds every window back; `None`
    /// when all partitions are idle or the input has ended.
    pub holding_partition: Option<u32>,
    /// Every move of the combined watermark so far.
    pub watermark_steps: Vec<WatermarkStep>,
    pub idleness_changes: Vec<IdlenessChange>,
    /// The event-time operator's windows that still hold state.
    pub open_windows: Vec<OpenWindow<u32>>,
    pub event_time_panes: Vec<EmittedPane>,
    pub processing_time_panes: Vec<EmittedPane>,
    pub side_outputs: Vec<SideOutputRecord>,
    /// Records too late for every window, under any policy.
    pub dropped: u64,
    pub windows: Vec<WindowComparison>,
}
