//! The "Windows" lesson's typed events: per window type (a lane of
//! [`WindowTypesRun`](super::WindowTypesRun)), each event-time pane (on time, or late: the
//! window fired again) and each merge of sessions that had already answered, with the
//! window's bounds and count and the device it belongs to. They are read off the four runs'
//! own events, so they say what those runs did; [`narrate`] turns one into the sentence the
//! lesson shows, or into nothing for an on-time hopping or sliding pane: every record lands in
//! several of those, so only their late panes are news.

use super::events::{records, window_span, EventTimeEvent, EventTimeEventKind, WindowKind};
use super::scenario::TimeDomain;
use serde::Serialize;

/// Something one lane's windows did, at a processing time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WindowTypesEvent {
    pub at_ms: u64,
    /// Which window type's run it happened in.
    pub lane: WindowKind,
    #[serde(flatten)]
    pub kind: WindowTypesEventKind,
}

/// What happened in the lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WindowTypesEventKind {
    /// A window of device `key` fired: on time when the watermark passed its end, or late
    /// (again) because a late record landed in it.
    PaneFired {
        key: u32,
        start_ms: i64,
        end_ms: i64,
        count: u64,
        late: bool,
    },
    /// Sessions of device `key` that had already fired became one: a late record bridged
    /// them (or, for one, extended it).
    SessionsMerged {
        key: u32,
        start_ms: i64,
        end_ms: i64,
        merged: u32,
    },
}

impl WindowTypesEvent {
    /// The lane's event for one of its run's events; `None` for what the lesson does not draw
    /// (processing-time windows, the watermark's news, window-level summaries).
    pub(crate) fn of(lane: WindowKind, event: &EventTimeEvent) -> Option<Self> {
        let kind = match event.kind {
            EventTimeEventKind::PaneFired {
                clock: TimeDomain::EventTime,
                key,
                start_ms,
                end_ms,
                count,
                ..
            } => WindowTypesEventKind::PaneFired {
                key,
                start_ms,
                end_ms,
                count,
                late: false,
            },
            EventTimeEventKind::LatePaneFired {
                key,
                start_ms,
                end_ms,
                count,
                ..
            } => WindowTypesEventKind::PaneFired {
                key,
                start_ms,
                end_ms,
                count,
                late: true,
            },
            EventTimeEventKind::SessionsMerged {
                key,
                start_ms,
                end_ms,
                merged,
            } => WindowTypesEventKind::SessionsMerged {
                key,
                start_ms,
                end_ms,
                merged,
            },
            _ => return None,
        };
        Some(Self {
            at_ms: event.at_ms,
            lane,
            kind,
        })
    }
}

/// The sentence for `event`; `None` for an on-time hopping or sliding pane.
pub fn narrate(event: &WindowTypesEvent) -> Option<String> {
    let lane = event.lane.name();
    match event.kind {
        WindowTypesEventKind::PaneFired {
            start_ms,
            end_ms,
            count,
            late: true,
            ..
        } => Some(format!(
            "{lane} window {} fired again with {}: a late record landed in it.",
            window_span(start_ms, end_ms),
            records(count)
        )),
        WindowTypesEventKind::PaneFired { .. }
            if matches!(event.lane, WindowKind::Hopping | WindowKind::Sliding) =>
        {
            None
        }
        WindowTypesEventKind::PaneFired {
            start_ms,
            end_ms,
            count,
            ..
        } => Some(format!(
            "{lane} window {} fired with {} once the watermark passed its end.",
            window_span(start_ms, end_ms),
            records(count)
        )),
        WindowTypesEventKind::SessionsMerged {
            start_ms,
            end_ms,
            merged,
            ..
        } => Some(if merged > 1 {
            format!(
                "A late record bridged {merged} sessions that had already fired: they are one \
                 session now, {}.",
                window_span(start_ms, end_ms)
            )
        } else {
            format!(
                "A late record extended a session that had already fired to {}.",
                window_span(start_ms, end_ms)
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(lane: WindowKind, count: u64, late: bool) -> WindowTypesEvent {
        WindowTypesEvent {
            at_ms: 21_000,
            lane,
            kind: WindowTypesEventKind::PaneFired {
                key: 0,
                start_ms: 10_000,
                end_ms: 20_000,
                count,
                late,
            },
        }
    }

    #[test]
    fn an_on_time_pane_says_the_watermark_passed_its_end() {
        assert_eq!(
            narrate(&pane(WindowKind::Tumbling, 9, false)).as_deref(),
            Some(
                "Tumbling window 0:10–0:20 fired with 9 records once the watermark passed its end."
            )
        );
        assert_eq!(
            narrate(&pane(WindowKind::Session, 1, false)).as_deref(),
            Some("Session window 0:10–0:20 fired with 1 record once the watermark passed its end.")
        );
    }

    #[test]
    fn overlapping_windows_tell_only_their_late_panes() {
        assert_eq!(narrate(&pane(WindowKind::Hopping, 9, false)), None);
        assert_eq!(narrate(&pane(WindowKind::Sliding, 9, false)), None);
        assert_eq!(
            narrate(&pane(WindowKind::Sliding, 10, true)).as_deref(),
            Some(
                "Sliding window 0:10–0:20 fired again with 10 records: a late record landed in it."
            )
        );
    }

    #[test]
    fn merging_sessions_say_how_many_became_one() {
        let merged = |merged| WindowTypesEvent {
            at_ms: 30_000,
            lane: WindowKind::Session,
            kind: WindowTypesEventKind::SessionsMerged {
                key: 0,
                start_ms: 10_000,
                end_ms: 25_000,
                merged,
            },
        };
        assert_eq!(
            narrate(&merged(2)).as_deref(),
            Some(
                "A late record bridged 2 sessions that had already fired: they are one session \
                 now, 0:10–0:25."
            )
        );
        assert_eq!(
            narrate(&merged(1)).as_deref(),
            Some("A late record extended a session that had already fired to 0:10–0:25.")
        );
    }
}
