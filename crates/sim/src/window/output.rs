//! What the operator reports: panes, side-output records, the running summary and a view of
//! the windows still open. Plain data with public fields, for the CLI to print and the UI to
//! draw.

/// One record the operator emits, in the order it must be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output<K> {
    /// A window fired.
    Pane(Pane<K>),
    /// An event too late for every window it belongs to, reported because the late policy is
    /// [`LatePolicy::Side`](super::LatePolicy::Side).
    Side { key: K, time_ms: i64 },
}

/// A window firing: the number of events in `[start_ms, end_ms)` for `key` so far.
///
/// Counts accumulate: a late pane carries everything the window holds, not just the late
/// events, so the last pane of a window is its final count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pane<K> {
    pub key: K,
    pub start_ms: i64,
    pub end_ms: i64,
    pub count: u64,
    pub timing: Timing,
}

/// Whether a pane is the window's first firing, when the watermark reached its end, or a later
/// one caused by late events (or by merging with a session that had already fired).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Timing {
    OnTime,
    Late,
}

/// Running totals since the operator was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Summary {
    /// Events accepted by `push` (an event refused with an error is not counted).
    pub events: u64,
    /// Events too late for every window they belong to.
    pub dropped: u64,
    /// Panes emitted, on-time and late together: one per pane line the CLI prints.
    pub panes: u64,
}

/// A window that still holds state, for drawing the operator's insides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenWindow<K> {
    pub key: K,
    pub start_ms: i64,
    pub end_ms: i64,
    pub count: u64,
    pub state: WindowState,
}

/// Where a window stands in its firing life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WindowState {
    /// No pane yet; it fires on time when the watermark reaches its end.
    Open,
    /// Its latest pane is out; it fires again only if a late event joins it.
    Fired,
    /// A session merged from one that had already fired: it fires a late pane when the
    /// watermark reaches its end (or at the end of the input), and never an on-time one.
    LatePaneDue,
}

/// A pane before its key id is turned back into the caller's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FiredPane {
    pub(crate) key: super::keys::KeyId,
    pub(crate) start_ms: i64,
    pub(crate) end_ms: i64,
    pub(crate) count: u64,
    pub(crate) timing: Timing,
}
