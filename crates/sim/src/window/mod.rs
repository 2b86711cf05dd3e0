//! Event-time windows with watermarks and allowed lateness, the way Apache Flink and Apache
//! Beam count events per key: tumbling, hopping and session windows (and, beyond the `window`
//! contract, Kafka Streams' sliding windows), on-time and late panes, and dropped (or
//! side-output) late events. [`WindowOperator`] is a plain, incremental,
//! deterministic state machine: `streamlab window` feeds it a file, the browser lessons feed it
//! one event at a time and draw what comes out.
//!
//! # Rules
//!
//! Windows are per key and half-open, `[start, end)`; an event exactly at a window's end belongs
//! to the next window. W is the watermark ([`Watermark`]), which starts at minus infinity.
//!
//! 1. Each event is placed using W as it stood before the event; then
//!    `W = max(W, time - max_out_of_orderness)`.
//! 2. When W advances, every window with `end <= W` that has not fired fires an on-time pane
//!    with its count; only then are the windows with `end + allowed_lateness <= W` discarded
//!    (so with zero lateness a window fires and is discarded in the same step).
//! 3. An event for a window that has already fired (and is not gone) is added to it and the
//!    window fires again at once with its accumulated count: a late pane. A window whose first
//!    event arrives when `end <= W` fires a late pane at once.
//! 4. An event whose windows all have `end + allowed_lateness <= W` is dropped: counted in
//!    [`Summary::dropped`] and, with [`LatePolicy::Side`], reported as [`Output::Side`]. A
//!    window in that state is gone: it never fires again and nothing merges into it.
//! 5. Sessions: an event at t opens `[t, t + gap)`; rule 4 judges the event by this session of
//!    its own, before merging. Overlapping sessions of a key merge; sessions that only touch
//!    (one's end equals the other's start) do not. A merge that includes a session that had
//!    already fired counts as fired: it fires a late pane with the merged count at once if its
//!    end is `<= W`, otherwise it waits ([`WindowState::LatePaneDue`]) and fires late when W
//!    reaches its end; it never fires on time again. Events joining a waiting session leave
//!    it waiting.
//! 6. [`WindowOperator::finish`] moves W to plus infinity: windows that never fired fire on
//!    time, waiting sessions fire late, windows whose latest pane is out fire nothing more.
//! 7. Sliding windows (an extension; the contract names only the three types above) follow
//!    Kafka Streams' `SlidingWindows.ofTimeDifferenceAndGrace(D, grace)`: a key's windows are
//!    the left window `[t - D, t]` of each of its records and the right window
//!    `[t + 1, t + D + 1]` of each record that has another record in it, both ends inclusive;
//!    a window counts every accepted record of its key inside it, including records that
//!    arrived before the window existed. Panes report them half-open, `end = start + D + 1`,
//!    so rules 1 to 6 apply unchanged: a window that comes into existence behind W (say the
//!    left window of a late record) fires a late pane at once. An event is dropped when the
//!    latest window that could hold it, `[t, t + D]`, is gone, i.e. `t + D + 1 + lateness <= W`.
//!
//! # Where sliding windows differ from Kafka Streams
//!
//! * **When results come out.** Kafka Streams forwards an updated result for every record
//!   (or, with `suppress(untilWindowCloses)` / `EmitStrategy.onWindowClose()`, once at
//!   `stream time > end + grace`). Here they fire like every other window: one on-time pane
//!   when W passes the end, then a late pane per late record.
//! * **Which clock closes them.** Kafka Streams closes windows by stream time (the largest
//!   timestamp seen) minus the grace period; here by the watermark, so with
//!   `max_out_of_orderness` 0 the two agree and `allowed_lateness` is the grace period.
//! * **Early records.** Kafka Streams never starts a window before time 0: records at
//!   `t < D` share one window `[0, D]`. Here their left windows start below 0, like hopping
//!   windows' negative starts, so every record has its own left window.
//! * **Dropped counts.** Kafka's dropped-records sensor also ticks for each expired window an
//!   accepted record skips; here only events refused by rule 7's drop test count, so an
//!   accepted event whose current windows are all gone is counted nowhere.
//!
//! # Decisions where the contract leaves room
//!
//! * **Output order.** One `push` appends, in this order: the late panes of placing the event,
//!   or its side-output record; then the panes due because W advanced. Within each of these
//!   groups (and within `finish`), panes are sorted by window end, then start, then key (for
//!   string keys: UTF-8 byte order, which is `String`'s `Ord`). Flink fires event-time timers
//!   in timestamp order too; it leaves ties unspecified, and this order makes them
//!   deterministic.
//! * **Hopping events in partly expired windows.** As rule 4 says, an event is dropped only if
//!   every window it belongs to is gone. Otherwise it is not counted as dropped and is added to
//!   the windows that are not gone (Flink's window operator likewise skips only an element's
//!   expired windows and reports the element as late only if it went into none).
//! * **Summary.** `events` counts accepted events (dropped ones included, refused ones not),
//!   `dropped` the events of rule 4 under either late policy, and `panes` every pane emitted,
//!   on-time and late alike, i.e. every pane line the CLI prints.
//! * **Late timing of merged sessions.** A pane fired because a merge pulled in an already
//!   fired session is [`Timing::Late`]: part of its count was reported before, so it is an
//!   update, never a first result.
//! * **Numbers.** Times and durations are `i64` milliseconds. Event times must be in
//!   `0..=MAX_TIME_MS` (2^61, about 73 million years); sizes, hops and gaps in
//!   `1..=MAX_DURATION_MS`, lateness and out-of-orderness in `0..=MAX_DURATION_MS`, and a hop
//!   may not exceed the size nor put one event into more than [`MAX_WINDOWS_PER_EVENT`]
//!   windows. Within those limits no intermediate value (negative hopping starts, `end +
//!   lateness`, `time - out_of_orderness`) can leave `i64`, so the arithmetic is exact; values
//!   outside are refused with a [`ConfigError`] or [`EventError`] naming the field, never
//!   wrapped or saturated silently.
//! * **Strictness.** Deserializing a [`WindowConfig`] accepts only JSON objects (not the arrays
//!   serde's derives would also take), rejects unknown and repeated fields, and requires all of
//!   `window`, `max_out_of_orderness`, `allowed_lateness` and `late`; the window object must
//!   hold exactly the fields of its type. The CLI applies the same strictness to event lines
//!   (an object with exactly `key`, a string, and `time`, an integer).
//!
//! # Using it
//!
//! Create a [`WindowOperator`] from a validated [`WindowConfig`], call
//! [`push`](WindowOperator::push) once per event in arrival order and
//! [`finish`](WindowOperator::finish) at the end; both append [`Output`]s to a `Vec` the
//! caller owns (and may clear between calls). [`watermark`](WindowOperator::watermark),
//! [`summary`](WindowOperator::summary) and [`open_windows`](WindowOperator::open_windows)
//! show the state between steps, for drawing. A caller that computes the watermark itself (per
//! partition, with idle partitions set aside, as [`eventtime`](crate::eventtime) does) uses
//! [`insert`](WindowOperator::insert), which places an event without moving the watermark, and
//! [`advance_watermark`](WindowOperator::advance_watermark) instead of `push`. An event the contract refuses (negative time,
//! time past [`MAX_TIME_MS`], or any event after `finish`) returns an [`EventError`] and
//! changes nothing.
//!
//! # Determinism and cost
//!
//! No floats, no randomness, no iteration over a hash index: the key interner's index (fixed,
//! unseeded hash) is only ever probed, and everything iterated lives in `Vec`s, deques and
//! min-heaps taken in order.
//! Windows are indexed by end, so each watermark step touches only the windows that fire or
//! expire; placing an event touches only its own key's windows, and for tumbling and hopping
//! windows usually only its key's entry in the interner, which holds its two newest windows.
//! Keys are interned to dense `u32` ids inside the operator and turned back into `K` only in
//! the outputs. [`push_all`](WindowOperator::push_all) takes events in batches and touches a
//! few keys' entries before placing them, so their cache misses overlap. A sliding-window event
//! costs time proportional to its key's records within `2 · D` of it (each of them brings
//! about two windows the event may update).

mod assigner;
mod config;
mod config_serde;
mod fixed;
mod keys;
mod operator;
mod output;
mod pane_order;
mod reminders;
mod session;
mod sliding;
mod watermark;
pub mod workload;

pub(crate) use assigner::FixedAssigner;
pub use config::{
    ConfigError, LatePolicy, WindowConfig, WindowSpec, MAX_DURATION_MS, MAX_TIME_MS,
    MAX_WINDOWS_PER_EVENT,
};
pub use operator::{EventError, WindowOperator};
pub use output::{OpenWindow, Output, Pane, Summary, Timing, WindowState};
pub use watermark::Watermark;
