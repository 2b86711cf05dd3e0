//! The event-time world's typed events: numbers and ids of what happened at an instant of
//! processing time (a window answered, a record came too late), from which narration, the
//! counters and the trace hash are all derived. [`narrate`] turns one into the sentence a
//! learner reads.

use super::scenario::TimeDomain;
use super::snapshot::WindowId;
use crate::window::Timing;
use serde::Serialize;

/// Something that happened at a processing time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EventTimeEvent {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: EventTimeEventKind,
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventTimeEventKind {
    /// A window of one key fired a pane, on time or late.
    PaneFired {
        /// Which clock's windows: event time (by the watermark) or processing time.
        clock: TimeDomain,
        key: u32,
        start_ms: i64,
        end_ms: i64,
        /// Records in the window so far (panes accumulate).
        count: u64,
        late: bool,
        /// The value a restating late pane retracts.
        retracted: Option<u64>,
        /// What really happened in the window, by true time with all data present: what no
        /// node of the pipeline can know, and the simulator can (`None` for a window the
        /// truth does not have, such as a session that only the delayed data formed).
        truth: Option<u64>,
    },
    /// A record came after the watermark had passed every window it belongs to plus the
    /// allowed lateness: dropped, or routed to the side output.
    RecordTooLate {
        /// The record's index in the run.
        record: u32,
        key: u32,
        event_ms: i64,
        routed_aside: bool,
    },
}

impl EventTimeEventKind {
    pub(crate) fn pane(
        clock: TimeDomain,
        window: WindowId,
        count: u64,
        timing: Timing,
        retracted: Option<u64>,
        truth: Option<u64>,
    ) -> Self {
        Self::PaneFired {
            clock,
            key: window.key,
            start_ms: window.start_ms,
            end_ms: window.end_ms,
            count,
            late: timing == Timing::Late,
            retracted,
            truth,
        }
    }
}

/// "1:30" for 90 000 ms.
pub fn clock_time(ms: i64) -> String {
    let total_s = ms.div_euclid(1000);
    format!("{}:{:02}", total_s / 60, total_s % 60)
}

/// The sentence a learner reads for `event`.
pub fn narrate(event: &EventTimeEvent) -> String {
    match event.kind {
        EventTimeEventKind::PaneFired {
            clock,
            key,
            start_ms,
            end_ms,
            count,
            late,
            retracted,
            truth,
        } => {
            let window = format!("{}–{}", clock_time(start_ms), clock_time(end_ms));
            let by = match clock {
                TimeDomain::EventTime => "event time",
                TimeDomain::ProcessingTime => "processing time",
            };
            let answer = match (late, retracted) {
                (true, Some(old)) => format!("fired again late with {count}, retracting {old}"),
                (true, None) => format!("fired again late with {count}"),
                (false, _) => format!("answered {count}"),
            };
            let truth = match truth {
                Some(truth) if truth == count => format!("; the truth is {truth}"),
                Some(truth) => format!("; but {truth} really happened in it"),
                None => String::new(),
            };
            format!("Device {key}'s window {window} by {by} {answer}{truth}.")
        }
        EventTimeEventKind::RecordTooLate {
            record,
            key,
            event_ms,
            routed_aside,
        } => {
            let fate = if routed_aside {
                "goes to the side output"
            } else {
                "is dropped"
            };
            format!(
                "Record #{record} of device {key}, from {}, came after its windows had closed \
                 for good and {fate}.",
                clock_time(event_ms)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(late: bool, retracted: Option<u64>, count: u64, truth: Option<u64>) -> EventTimeEvent {
        EventTimeEvent {
            at_ms: 31_000,
            kind: EventTimeEventKind::PaneFired {
                clock: TimeDomain::EventTime,
                key: 2,
                start_ms: 20_000,
                end_ms: 30_000,
                count,
                late,
                retracted,
                truth,
            },
        }
    }

    #[test]
    fn an_on_time_pane_says_its_answer_against_the_truth() {
        assert_eq!(
            narrate(&pane(false, None, 9, Some(9))),
            "Device 2's window 0:20–0:30 by event time answered 9; the truth is 9."
        );
        assert_eq!(
            narrate(&pane(false, None, 7, Some(9))),
            "Device 2's window 0:20–0:30 by event time answered 7; but 9 really happened in it."
        );
    }

    #[test]
    fn a_restating_late_pane_names_what_it_retracts() {
        assert_eq!(
            narrate(&pane(true, Some(7), 8, Some(9))),
            "Device 2's window 0:20–0:30 by event time fired again late with 8, retracting 7; \
             but 9 really happened in it."
        );
        assert_eq!(
            narrate(&pane(true, None, 8, None)),
            "Device 2's window 0:20–0:30 by event time fired again late with 8."
        );
    }

    #[test]
    fn a_too_late_record_says_where_it_went() {
        let event = EventTimeEvent {
            at_ms: 50_000,
            kind: EventTimeEventKind::RecordTooLate {
                record: 41,
                key: 3,
                event_ms: 12_500,
                routed_aside: true,
            },
        };
        assert_eq!(
            narrate(&event),
            "Record #41 of device 3, from 0:12, came after its windows had closed for good and \
             goes to the side output."
        );
    }

    #[test]
    fn clock_times_read_as_minutes_and_seconds() {
        assert_eq!(clock_time(90_000), "1:30");
        assert_eq!(clock_time(0), "0:00");
    }
}
