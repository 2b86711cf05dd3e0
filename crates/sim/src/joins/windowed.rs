//! Tumbling and hopping windows holding any aggregate, closed by the watermark: the part of
//! the window operator that top-K needs when it keeps more than one count per window (a
//! count per item, a sketch). Windows come from the window operator's own assigner and
//! spec, and its rules with no allowed lateness:
//!
//! * an event is added to each of its windows whose end is past W (W before the event); if
//!   none is, it is late: counted and dropped;
//! * when W reaches a window's end (`end <= W`) the window closes, once, handing its
//!   aggregate out; windows closing together come out by end, then start;
//! * a window no event was added to never exists, so it never closes.
//!
//! A test runs it beside [`WindowOperator`](crate::window::WindowOperator) with zero lateness
//! and finds the same counts in the same windows.

use super::config::JoinConfigError;
use crate::replay::sorted_map::SortedMap;
use crate::window::{EventError, FixedAssigner, Watermark, WindowSpec, MAX_TIME_MS};

/// A window that closed, with what it gathered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosedWindow<A> {
    pub start_ms: i64,
    pub end_ms: i64,
    pub state: A,
}

/// Fixed windows of aggregates of type `A`.
#[derive(Clone, Debug)]
pub struct WindowedState<A> {
    assigner: FixedAssigner,
    watermark: Watermark,
    /// Open windows by (end, start): the order they close in.
    open: SortedMap<(i64, i64), A>,
    events: u64,
    late: u64,
}

impl<A: Default> WindowedState<A> {
    /// Tumbling or hopping windows of `spec` (validated here), W at minus infinity.
    pub fn new(spec: WindowSpec) -> Result<Self, JoinConfigError> {
        let (size_ms, hop_ms) = match spec {
            WindowSpec::Tumbling { size_ms } => (size_ms, size_ms),
            WindowSpec::Hopping { size_ms, hop_ms } => (size_ms, hop_ms),
            WindowSpec::Session { .. } => {
                return Err(JoinConfigError::NotFixedWindow { kind: "session" })
            }
            WindowSpec::Sliding { .. } => {
                return Err(JoinConfigError::NotFixedWindow { kind: "sliding" })
            }
        };
        spec.validate()?;
        Ok(Self {
            assigner: FixedAssigner { size_ms, hop_ms },
            watermark: Watermark::MinusInfinity,
            open: SortedMap::new(),
            events: 0,
            late: 0,
        })
    }

    /// Adds an event at `time_ms` to each of its windows still open, through `add`; returns
    /// whether any was (false: the event is late). W does not move.
    pub fn insert(
        &mut self,
        time_ms: i64,
        mut add: impl FnMut(&mut A),
    ) -> Result<bool, EventError> {
        if self.watermark == Watermark::PlusInfinity {
            return Err(EventError::Finished);
        }
        if time_ms < 0 {
            return Err(EventError::NegativeTime { time_ms });
        }
        if time_ms > MAX_TIME_MS {
            return Err(EventError::TimeTooLarge { time_ms });
        }
        self.events += 1;
        let mut counted = false;
        for start_ms in self.assigner.starts(time_ms) {
            let end_ms = start_ms + self.assigner.size_ms;
            if self.watermark.has_reached(end_ms) {
                continue;
            }
            counted = true;
            add(self.open.entry((end_ms, start_ms)).or_default());
        }
        if !counted {
            self.late += 1;
        }
        Ok(counted)
    }

    /// Moves W to `candidate` if that is later and appends the windows it closes, by end,
    /// then start.
    pub fn advance(&mut self, candidate: Watermark, closed: &mut Vec<ClosedWindow<A>>) {
        if candidate <= self.watermark {
            return;
        }
        self.watermark = candidate;
        while let Some((&(end_ms, start_ms), _)) = self.open.first_key_value() {
            if !candidate.has_reached(end_ms) {
                break;
            }
            let (_, state) = self.open.pop_first().expect("it has a first entry");
            closed.push(ClosedWindow {
                start_ms,
                end_ms,
                state,
            });
        }
    }

    pub fn watermark(&self) -> Watermark {
        self.watermark
    }

    /// Events taken (late ones included) and late events.
    pub fn counts(&self) -> (u64, u64) {
        (self.events, self.late)
    }

    /// The open windows as (start, end, aggregate), by end then start.
    pub fn open(&self) -> impl Iterator<Item = (i64, i64, &A)> + '_ {
        self.open
            .iter()
            .map(|(&(end_ms, start_ms), state)| (start_ms, end_ms, state))
    }
}
