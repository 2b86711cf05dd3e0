//! The event-time world's typed events: numbers and ids of what happened at an instant of
//! processing time (the processor stopped or came back, a partition went idle or woke up, a
//! window answered, fired again or merged, a record came too late), from which narration, the
//! counters and the trace hash are all derived. [`narrate`] turns one into the sentence a
//! learner reads, or into nothing for an event a window-level summary already tells;
//! [`EventTimeEvent::fold_into`] folds its typed fields, never its sentence, into the trace
//! hash, so rewording a sentence changes no run's fingerprint.

use super::scenario::TimeDomain;
use crate::replay::trace::TraceHasher;
use crate::window::WindowSpec;
use serde::Serialize;

/// Something that happened at a processing time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EventTimeEvent {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: EventTimeEventKind,
}

/// The shape of a run's windows, as events name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowKind {
    Tumbling,
    Hopping,
    Sliding,
    Session,
}

impl WindowKind {
    pub fn of(spec: WindowSpec) -> Self {
        match spec {
            WindowSpec::Tumbling { .. } => Self::Tumbling,
            WindowSpec::Hopping { .. } => Self::Hopping,
            WindowSpec::Sliding { .. } => Self::Sliding,
            WindowSpec::Session { .. } => Self::Session,
        }
    }

    /// Whether every device has the same windows (tumbling, hopping), so that one window's
    /// answer over all devices is a [`EventTimeEventKind::WindowClosed`] and the per-device
    /// panes need no sentence of their own. Sessions and sliding windows are made by each
    /// device's own records.
    pub fn is_shared(self) -> bool {
        matches!(self, Self::Tumbling | Self::Hopping)
    }

    /// "Tumbling", as a sentence starts with it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Tumbling => "Tumbling",
            Self::Hopping => "Hopping",
            Self::Sliding => "Sliding",
            Self::Session => "Session",
        }
    }

    fn tag(self) -> u64 {
        match self {
            Self::Tumbling => 0,
            Self::Hopping => 1,
            Self::Sliding => 2,
            Self::Session => 3,
        }
    }
}

/// The record whose arrival made a window fire again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LateRecord {
    /// Its [`Record::index`](super::Record::index).
    pub record: u32,
    /// The event time it carried.
    pub event_ms: i64,
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventTimeEventKind {
    /// The stream processor stopped (the scenario's outage); devices keep sending and the
    /// topic keeps storing.
    OutageStarted { duration_ms: u64 },
    /// The processor is running again and works through what piled up.
    ProcessorBack {
        /// Records in the topic it has not read yet.
        waiting: u64,
        catch_up_records_per_second: u32,
    },
    /// A partition had no record for the idleness timeout (Flink `withIdleness`) and stops
    /// holding the combined watermark back.
    PartitionIdle { partition: u32, idleness_ms: u64 },
    /// An idle partition delivered a record and counts for the combined watermark again.
    PartitionActive { partition: u32 },
    /// A window of one device gave its first answer: when the watermark (or, by processing
    /// time, the clock) reached its end.
    PaneFired {
        /// Which clock's windows: event time (by the watermark) or processing time.
        clock: TimeDomain,
        window: WindowKind,
        key: u32,
        start_ms: i64,
        end_ms: i64,
        /// Records in the window.
        count: u64,
        /// What really happened in the window, by true time with all data present: what no
        /// node of the pipeline can know, and the simulator can (`None` for a window the
        /// truth does not have, such as a session that only the delayed data formed).
        truth: Option<u64>,
        /// Whether the run presents this clock's windows as its result (see
        /// [`EventTimeEventKind::WindowClosed`]'s `result`).
        result: bool,
    },
    /// An event-time window of one device fired again: a late record within the allowed
    /// lateness joined it (or merged it with a session that had already answered).
    LatePaneFired {
        key: u32,
        start_ms: i64,
        end_ms: i64,
        /// Records in the window now (panes accumulate).
        count: u64,
        /// With the restate policy, the value this pane replaces, which a consumer retracts.
        retracted: Option<u64>,
        /// The record that arrived late, if one did at this instant; a session merged earlier
        /// fires when the watermark reaches its end, with no record of its own.
        cause: Option<LateRecord>,
        /// When the watermark passed the window's end, the instant its on-time answer came.
        closed_at_ms: Option<u64>,
        allowed_lateness_ms: u64,
    },
    /// Sessions of one device that had already answered became one session: a late record
    /// bridged them (or, for one session, extended it). The merged session fires late.
    SessionsMerged {
        key: u32,
        start_ms: i64,
        end_ms: i64,
        /// Sessions that had answered and are now part of this one.
        merged: u32,
    },
    /// A window shared by every device closed by one clock: the watermark passed its end (or
    /// the input ended), or for processing time the clock did. Summed over devices, next to
    /// the truth summed the same way.
    WindowClosed {
        clock: TimeDomain,
        start_ms: i64,
        end_ms: i64,
        /// The devices' first answers added up.
        count: u64,
        truth: u64,
        /// Whether the input's end closed it (the watermark jumped to plus infinity, or the
        /// processing-time window was cut short).
        end_of_input: bool,
        /// Whether the run presents this clock's windows as its result (the scenario's
        /// `time_domain`). Event-time windows are always told, they are what the family is
        /// about; processing-time windows only when a lesson counts by them ("which clock
        /// was I counting by?"), not as a running aside to a lesson on watermarks.
        result: bool,
        /// Processing time only: records it counted that had waited in the topic while the
        /// processor was stopped or catching up. 0 for event time.
        from_backlog: u64,
        /// Processing time only: how long the processor was stopped during the window.
        processor_stopped_ms: u64,
    },
    /// A record came after the watermark had passed every window it belongs to plus the
    /// allowed lateness: dropped, or routed to the side output.
    RecordTooLate {
        /// The record's index in the run.
        record: u32,
        key: u32,
        event_ms: i64,
        routed_aside: bool,
        allowed_lateness_ms: u64,
    },
}

impl EventTimeEvent {
    /// Folds this event's typed fields into `trace`: a tag for its kind, then every field as
    /// a fixed-width integer (an option as a presence flag and its value), so the fold is the
    /// same on every platform and holds no word of narration. Each kind is destructured
    /// without `..`, so a field added later does not compile until it is folded too.
    pub fn fold_into(&self, trace: &mut TraceHasher) {
        let mut fold = Fold(trace);
        fold.u(self.at_ms);
        match self.kind {
            EventTimeEventKind::OutageStarted { duration_ms } => {
                fold.u(0);
                fold.u(duration_ms);
            }
            EventTimeEventKind::ProcessorBack {
                waiting,
                catch_up_records_per_second,
            } => {
                fold.u(1);
                fold.u(waiting);
                fold.u(u64::from(catch_up_records_per_second));
            }
            EventTimeEventKind::PartitionIdle {
                partition,
                idleness_ms,
            } => {
                fold.u(2);
                fold.u(u64::from(partition));
                fold.u(idleness_ms);
            }
            EventTimeEventKind::PartitionActive { partition } => {
                fold.u(3);
                fold.u(u64::from(partition));
            }
            EventTimeEventKind::PaneFired {
                clock,
                window,
                key,
                start_ms,
                end_ms,
                count,
                truth,
                result,
            } => {
                fold.u(4);
                fold.clock(clock);
                fold.u(window.tag());
                fold.window(key, start_ms, end_ms);
                fold.u(count);
                fold.option(truth);
                fold.u(u64::from(result));
            }
            EventTimeEventKind::LatePaneFired {
                key,
                start_ms,
                end_ms,
                count,
                retracted,
                cause,
                closed_at_ms,
                allowed_lateness_ms,
            } => {
                fold.u(5);
                fold.window(key, start_ms, end_ms);
                fold.u(count);
                fold.option(retracted);
                fold.option(cause.map(|c| u64::from(c.record)));
                fold.option(cause.map(|c| c.event_ms as u64));
                fold.option(closed_at_ms);
                fold.u(allowed_lateness_ms);
            }
            EventTimeEventKind::SessionsMerged {
                key,
                start_ms,
                end_ms,
                merged,
            } => {
                fold.u(6);
                fold.window(key, start_ms, end_ms);
                fold.u(u64::from(merged));
            }
            EventTimeEventKind::WindowClosed {
                clock,
                start_ms,
                end_ms,
                count,
                truth,
                end_of_input,
                result,
                from_backlog,
                processor_stopped_ms,
            } => {
                fold.u(7);
                fold.clock(clock);
                fold.i(start_ms);
                fold.i(end_ms);
                fold.u(count);
                fold.u(truth);
                fold.u(u64::from(end_of_input));
                fold.u(u64::from(result));
                fold.u(from_backlog);
                fold.u(processor_stopped_ms);
            }
            EventTimeEventKind::RecordTooLate {
                record,
                key,
                event_ms,
                routed_aside,
                allowed_lateness_ms,
            } => {
                fold.u(8);
                fold.u(u64::from(record));
                fold.u(u64::from(key));
                fold.i(event_ms);
                fold.u(u64::from(routed_aside));
                fold.u(allowed_lateness_ms);
            }
        }
    }
}

/// Writes typed values into a trace hash as 64-bit integers.
struct Fold<'a>(&'a mut TraceHasher);

impl Fold<'_> {
    fn u(&mut self, value: u64) {
        self.0.write_u64(value);
    }

    /// Two's complement, so a negative time is as distinct as a positive one.
    fn i(&mut self, value: i64) {
        self.0.write_u64(value as u64);
    }

    fn option(&mut self, value: Option<u64>) {
        match value {
            Some(value) => {
                self.u(1);
                self.u(value);
            }
            None => self.u(0),
        }
    }

    fn clock(&mut self, clock: TimeDomain) {
        self.u(match clock {
            TimeDomain::EventTime => 0,
            TimeDomain::ProcessingTime => 1,
        });
    }

    fn window(&mut self, key: u32, start_ms: i64, end_ms: i64) {
        self.u(u64::from(key));
        self.i(start_ms);
        self.i(end_ms);
    }
}

/// "1:30" for 90 000 ms: the second the instant falls in, so "-0:05" for -5 000 ms and
/// "-0:01" for -500 ms (hopping and sliding windows may start before zero).
pub fn clock_time(ms: i64) -> String {
    let total_s = ms.div_euclid(1000);
    let sign = if total_s < 0 { "-" } else { "" };
    let total_s = total_s.unsigned_abs();
    format!("{sign}{}:{:02}", total_s / 60, total_s % 60)
}

/// "0:20–0:30"; with tenths of a second when both ends fall in the same second, as a short
/// session does: "0:39.2–0:39.7".
pub fn window_span(start_ms: i64, end_ms: i64) -> String {
    let (from, to) = (clock_time(start_ms), clock_time(end_ms));
    if from == to {
        let tenths = |ms: i64| ms.rem_euclid(1000) / 100;
        format!("{from}.{}–{to}.{}", tenths(start_ms), tenths(end_ms))
    } else {
        format!("{from}–{to}")
    }
}

/// "5 s", "1.2 s" (to the nearest tenth).
pub fn seconds(ms: u64) -> String {
    let tenths = (ms + 50) / 100;
    if tenths % 10 == 0 {
        format!("{} s", tenths / 10)
    } else {
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

/// "1 record", "7 records".
pub fn records(count: u64) -> String {
    if count == 1 {
        "1 record".to_string()
    } else {
        format!("{count} records")
    }
}

/// The sentence a learner reads for `event`, or `None` for a device's first answer in a
/// window every device shares (the window's [`EventTimeEventKind::WindowClosed`], at the
/// same instant, tells it for all devices at once) and for a processing-time window of a run
/// whose result is counted by event time.
pub fn narrate(event: &EventTimeEvent) -> Option<String> {
    let at = clock_time(event.at_ms as i64);
    match event.kind {
        EventTimeEventKind::OutageStarted { .. } => Some(format!(
            "The processor stopped at {at}. Devices keep sending and the topic keeps storing: \
             the backlog grows."
        )),
        EventTimeEventKind::ProcessorBack {
            waiting,
            catch_up_records_per_second,
        } => Some(format!(
            "The processor is back at {at} with {} waiting; it reads them at up to \
             {catch_up_records_per_second} records/s.",
            records(waiting)
        )),
        EventTimeEventKind::PartitionIdle {
            partition,
            idleness_ms,
        } => Some(format!(
            "Partition {partition} had no record for {} and was declared idle at {at} \
             (withIdleness): the watermark stops waiting for it and moves on with the others.",
            seconds(idleness_ms)
        )),
        EventTimeEventKind::PartitionActive { partition } => Some(format!(
            "Partition {partition} delivered a record again at {at} and counts for the \
             watermark again; the watermark never goes back, so what the partition held back \
             while silent now arrives late."
        )),
        EventTimeEventKind::PaneFired {
            clock,
            window,
            key,
            start_ms,
            end_ms,
            count,
            truth,
            result,
        } => (!window.is_shared() && told(clock, result)).then(|| {
            let truth = match truth {
                Some(truth) if truth == count => format!("; the truth is {truth}"),
                Some(truth) => format!("; but {truth} really happened in it"),
                None => String::new(),
            };
            format!(
                "Device {key}'s window {} by {} answered {count}{truth}.",
                window_span(start_ms, end_ms),
                clock_name(clock)
            )
        }),
        EventTimeEventKind::LatePaneFired {
            key,
            start_ms,
            end_ms,
            count,
            retracted,
            cause,
            closed_at_ms,
            allowed_lateness_ms,
        } => Some(narrate_late_pane(LatePane {
            at_ms: event.at_ms,
            key,
            span: window_span(start_ms, end_ms),
            count,
            retracted,
            cause,
            closed_at_ms,
            allowed_lateness_ms,
        })),
        EventTimeEventKind::SessionsMerged {
            key,
            start_ms,
            end_ms,
            merged,
        } => Some(if merged > 1 {
            format!(
                "A late record bridged {merged} sessions of device {key} that had already \
                 answered: they are one session now, {}.",
                window_span(start_ms, end_ms)
            )
        } else {
            format!(
                "A late record extended a session of device {key} that had already answered \
                 to {}.",
                window_span(start_ms, end_ms)
            )
        }),
        EventTimeEventKind::WindowClosed {
            clock: TimeDomain::EventTime,
            start_ms,
            end_ms,
            count,
            truth,
            end_of_input,
            ..
        } => Some(narrate_event_time_window(
            &at,
            window_span(start_ms, end_ms),
            end_ms,
            count,
            truth,
            end_of_input,
        )),
        EventTimeEventKind::WindowClosed { clock, result, .. } if !told(clock, result) => None,
        EventTimeEventKind::WindowClosed {
            clock: TimeDomain::ProcessingTime,
            start_ms,
            end_ms,
            count,
            truth,
            from_backlog,
            processor_stopped_ms,
            ..
        } => Some(narrate_processing_time_window(
            window_span(start_ms, end_ms),
            count,
            truth,
            from_backlog,
            processor_stopped_ms,
        )),
        EventTimeEventKind::RecordTooLate {
            key,
            event_ms,
            routed_aside,
            allowed_lateness_ms,
            ..
        } => Some(narrate_too_late(
            &at,
            key,
            event_ms,
            routed_aside,
            allowed_lateness_ms,
        )),
    }
}

/// Whether answers by `clock` are told: event time always, it is what the family is about;
/// processing time only in a run that counts by it.
fn told(clock: TimeDomain, result: bool) -> bool {
    clock == TimeDomain::EventTime || result
}

fn clock_name(clock: TimeDomain) -> &'static str {
    match clock {
        TimeDomain::EventTime => "event time",
        TimeDomain::ProcessingTime => "processing time",
    }
}

/// A late pane's fields, with its window's span already written out.
struct LatePane {
    at_ms: u64,
    key: u32,
    span: String,
    count: u64,
    retracted: Option<u64>,
    cause: Option<LateRecord>,
    closed_at_ms: Option<u64>,
    allowed_lateness_ms: u64,
}

/// Which record came, how long after the window had answered, and what the new pane says:
/// a restatement that retracts the old answer, or a plain update.
fn narrate_late_pane(pane: LatePane) -> String {
    let lateness = seconds(pane.allowed_lateness_ms);
    let change = match pane.retracted {
        Some(old) => format!(
            "{old} → {} (restate: retract {old}, emit {})",
            pane.count, pane.count
        ),
        None => format!(
            "now {} (an update; the old answer stands unless consumers overwrite it)",
            pane.count
        ),
    };
    let Some(record) = pane.cause else {
        return format!(
            "Window {} of device {}: a late record had merged it with a session that had \
             already answered, so it fired again when the watermark passed its end: {change}.",
            pane.span, pane.key
        );
    };
    let after = match pane
        .closed_at_ms
        .map(|closed| pane.at_ms.saturating_sub(closed))
    {
        Some(0) => ", in the same instant the window fired".to_string(),
        Some(after_ms) => format!(", {} after the window fired", seconds(after_ms)),
        None => String::new(),
    };
    format!(
        "Window {} of device {}: a record from {} arrived at {}{after}: within the allowed \
         lateness of {lateness}, so the window fired again: {change}.",
        pane.span,
        pane.key,
        clock_time(record.event_ms),
        clock_time(pane.at_ms as i64)
    )
}

/// The first answer of a window over all devices, against the truth; when it differs, why
/// it can.
fn narrate_event_time_window(
    at: &str,
    span: String,
    end_ms: i64,
    count: u64,
    truth: u64,
    end_of_input: bool,
) -> String {
    let when = if end_of_input {
        "when the input ended".to_string()
    } else {
        format!("when the watermark passed {}", clock_time(end_ms))
    };
    let verdict = if count == truth {
        format!("{}, the same as the truth", records(count))
    } else if count > truth {
        format!(
            "{}, but only {truth} happened in it: some carry a timestamp from outside it",
            records(count)
        )
    } else if end_of_input {
        format!(
            "{count} of the {truth} records that happened in it; the rest carry a timestamp \
             outside it"
        )
    } else {
        format!(
            "{count} of the {truth} records that happened in it; the rest had not arrived \
             yet, or carry a timestamp outside it"
        )
    };
    format!("Window {span} by event time fired at {at}, {when}: {verdict}.")
}

/// A processing-time window's count against what really happened in it: more when a
/// backlog (or delayed records) drained into it, fewer when the processor was stopped (or
/// its records arrived after it closed).
fn narrate_processing_time_window(
    span: String,
    count: u64,
    truth: u64,
    from_backlog: u64,
    processor_stopped_ms: u64,
) -> String {
    let counted = format!(
        "Window {span} by processing time counted {}",
        records(count)
    );
    if count > truth + truth / 5 && count >= truth + 5 {
        let why = if from_backlog > 0 {
            "the backlog from the outage drained into it"
        } else {
            "records that happened earlier arrived in it"
        };
        format!("{counted}, but only {truth} happened in it: {why}.")
    } else if count + truth / 5 < truth {
        let why = if processor_stopped_ms > 0 {
            "the processor was not reading them then"
        } else {
            "the others arrived after it closed"
        };
        format!("{counted}, but {truth} happened in it: {why}.")
    } else {
        format!("{counted}; {truth} happened in it.")
    }
}

fn narrate_too_late(
    at: &str,
    key: u32,
    event_ms: i64,
    routed_aside: bool,
    allowed_lateness_ms: u64,
) -> String {
    let ran_out = if allowed_lateness_ms == 0 {
        "after its window had fired, with no allowed lateness".to_string()
    } else {
        format!(
            "after its window's allowed lateness of {} ran out",
            seconds(allowed_lateness_ms)
        )
    };
    let fate = if routed_aside {
        "the window's answer stays as it was and the record goes to the side output \
         (sideOutputLateData), for somebody else to reconcile"
    } else {
        "dropped. Its window's answer stays one short, and nobody is told"
    };
    format!(
        "A record from {} (device {key}) arrived at {at}, {ran_out}: {fate}.",
        clock_time(event_ms)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(at_ms: u64, kind: EventTimeEventKind) -> EventTimeEvent {
        EventTimeEvent { at_ms, kind }
    }

    fn said(at_ms: u64, kind: EventTimeEventKind) -> String {
        narrate(&at(at_ms, kind)).expect("narrated")
    }

    #[test]
    fn the_outage_says_when_the_processor_stopped() {
        assert_eq!(
            said(
                60_000,
                EventTimeEventKind::OutageStarted {
                    duration_ms: 40_000
                }
            ),
            "The processor stopped at 1:00. Devices keep sending and the topic keeps storing: \
             the backlog grows."
        );
    }

    #[test]
    fn the_processor_comes_back_with_its_backlog_and_catch_up_rate() {
        assert_eq!(
            said(
                100_000,
                EventTimeEventKind::ProcessorBack {
                    waiting: 812,
                    catch_up_records_per_second: 200
                }
            ),
            "The processor is back at 1:40 with 812 records waiting; it reads them at up to \
             200 records/s."
        );
    }

    #[test]
    fn an_idle_partition_names_itself_and_the_timeout() {
        assert_eq!(
            said(
                42_000,
                EventTimeEventKind::PartitionIdle {
                    partition: 0,
                    idleness_ms: 10_000
                }
            ),
            "Partition 0 had no record for 10 s and was declared idle at 0:42 (withIdleness): \
             the watermark stops waiting for it and moves on with the others."
        );
    }

    #[test]
    fn a_partition_waking_up_says_its_records_are_late() {
        assert_eq!(
            said(55_500, EventTimeEventKind::PartitionActive { partition: 2 }),
            "Partition 2 delivered a record again at 0:55 and counts for the watermark again; \
             the watermark never goes back, so what the partition held back while silent now \
             arrives late."
        );
    }

    fn pane(window: WindowKind, count: u64, truth: Option<u64>) -> EventTimeEventKind {
        EventTimeEventKind::PaneFired {
            clock: TimeDomain::EventTime,
            window,
            key: 2,
            start_ms: 20_000,
            end_ms: 30_000,
            count,
            truth,
            result: true,
        }
    }

    #[test]
    fn a_device_pane_of_a_shared_window_is_left_to_the_window_summary() {
        assert_eq!(
            narrate(&at(31_000, pane(WindowKind::Tumbling, 9, Some(9)))),
            None
        );
        assert_eq!(
            narrate(&at(31_000, pane(WindowKind::Hopping, 9, Some(9)))),
            None
        );
    }

    #[test]
    fn a_session_pane_says_its_answer_against_the_truth() {
        assert_eq!(
            said(31_000, pane(WindowKind::Session, 9, Some(9))),
            "Device 2's window 0:20–0:30 by event time answered 9; the truth is 9."
        );
        assert_eq!(
            said(31_000, pane(WindowKind::Sliding, 7, Some(9))),
            "Device 2's window 0:20–0:30 by event time answered 7; but 9 really happened in it."
        );
        assert_eq!(
            said(31_000, pane(WindowKind::Session, 7, None)),
            "Device 2's window 0:20–0:30 by event time answered 7."
        );
    }

    fn late(retracted: Option<u64>, cause: Option<LateRecord>) -> EventTimeEventKind {
        EventTimeEventKind::LatePaneFired {
            key: 3,
            start_ms: 30_000,
            end_ms: 40_000,
            count: 13,
            retracted,
            cause,
            closed_at_ms: Some(42_800),
            allowed_lateness_ms: 5_000,
        }
    }

    const CAUSE: Option<LateRecord> = Some(LateRecord {
        record: 77,
        event_ms: 36_400,
    });

    #[test]
    fn a_late_pane_says_which_record_came_and_that_the_window_fired_again() {
        assert_eq!(
            said(44_000, late(None, CAUSE)),
            "Window 0:30–0:40 of device 3: a record from 0:36 arrived at 0:44, 1.2 s after the \
             window fired: within the allowed lateness of 5 s, so the window fired again: now \
             13 (an update; the old answer stands unless consumers overwrite it)."
        );
    }

    #[test]
    fn a_retraction_names_the_value_it_retracts() {
        assert_eq!(
            said(42_800, late(Some(12), CAUSE)),
            "Window 0:30–0:40 of device 3: a record from 0:36 arrived at 0:42, in the same \
             instant the window fired: within the allowed lateness of 5 s, so the window fired \
             again: 12 → 13 (restate: retract 12, emit 13)."
        );
    }

    #[test]
    fn a_merged_session_firing_at_the_watermark_says_why_it_is_late() {
        assert_eq!(
            said(50_000, late(Some(12), None)),
            "Window 0:30–0:40 of device 3: a late record had merged it with a session that had \
             already answered, so it fired again when the watermark passed its end: 12 → 13 \
             (restate: retract 12, emit 13)."
        );
    }

    #[test]
    fn merged_sessions_say_how_many_became_one() {
        let merged = |merged| EventTimeEventKind::SessionsMerged {
            key: 0,
            start_ms: 10_000,
            end_ms: 25_000,
            merged,
        };
        assert_eq!(
            said(30_000, merged(2)),
            "A late record bridged 2 sessions of device 0 that had already answered: they are \
             one session now, 0:10–0:25."
        );
        assert_eq!(
            said(30_000, merged(1)),
            "A late record extended a session of device 0 that had already answered to \
             0:10–0:25."
        );
    }

    fn closed(clock: TimeDomain, count: u64, truth: u64) -> EventTimeEventKind {
        EventTimeEventKind::WindowClosed {
            clock,
            start_ms: 30_000,
            end_ms: 40_000,
            count,
            truth,
            end_of_input: false,
            result: true,
            from_backlog: 0,
            processor_stopped_ms: 0,
        }
    }

    #[test]
    fn an_event_time_window_says_when_it_fired_and_how_it_compares_with_the_truth() {
        let event_time = |count, truth| closed(TimeDomain::EventTime, count, truth);
        assert_eq!(
            said(43_000, event_time(163, 163)),
            "Window 0:30–0:40 by event time fired at 0:43, when the watermark passed 0:40: 163 \
             records, the same as the truth."
        );
        assert_eq!(
            said(43_000, event_time(160, 163)),
            "Window 0:30–0:40 by event time fired at 0:43, when the watermark passed 0:40: 160 \
             of the 163 records that happened in it; the rest had not arrived yet, or carry a \
             timestamp outside it."
        );
        assert_eq!(
            said(43_000, event_time(165, 163)),
            "Window 0:30–0:40 by event time fired at 0:43, when the watermark passed 0:40: 165 \
             records, but only 163 happened in it: some carry a timestamp from outside it."
        );
        let mut at_the_end = event_time(1, 1);
        if let EventTimeEventKind::WindowClosed { end_of_input, .. } = &mut at_the_end {
            *end_of_input = true;
        }
        assert_eq!(
            said(125_000, at_the_end),
            "Window 0:30–0:40 by event time fired at 2:05, when the input ended: 1 record, the \
             same as the truth."
        );
    }

    #[test]
    fn a_processing_time_window_blames_the_backlog_or_the_stopped_processor() {
        let mut spike = closed(TimeDomain::ProcessingTime, 160, 40);
        let mut gap = closed(TimeDomain::ProcessingTime, 0, 40);
        if let EventTimeEventKind::WindowClosed { from_backlog, .. } = &mut spike {
            *from_backlog = 120;
        }
        if let EventTimeEventKind::WindowClosed {
            processor_stopped_ms,
            ..
        } = &mut gap
        {
            *processor_stopped_ms = 10_000;
        }
        assert_eq!(
            said(40_000, spike),
            "Window 0:30–0:40 by processing time counted 160 records, but only 40 happened in \
             it: the backlog from the outage drained into it."
        );
        assert_eq!(
            said(40_000, gap),
            "Window 0:30–0:40 by processing time counted 0 records, but 40 happened in it: the \
             processor was not reading them then."
        );
        assert_eq!(
            said(40_000, closed(TimeDomain::ProcessingTime, 38, 40)),
            "Window 0:30–0:40 by processing time counted 38 records; 40 happened in it."
        );
        assert_eq!(
            said(40_000, closed(TimeDomain::ProcessingTime, 60, 40)),
            "Window 0:30–0:40 by processing time counted 60 records, but only 40 happened in \
             it: records that happened earlier arrived in it."
        );
        assert_eq!(
            said(40_000, closed(TimeDomain::ProcessingTime, 20, 40)),
            "Window 0:30–0:40 by processing time counted 20 records, but 40 happened in it: \
             the others arrived after it closed."
        );
    }

    #[test]
    fn processing_time_windows_are_told_only_when_they_are_the_result() {
        let mut aside = closed(TimeDomain::ProcessingTime, 38, 40);
        if let EventTimeEventKind::WindowClosed { result, .. } = &mut aside {
            *result = false;
        }
        assert_eq!(narrate(&at(40_000, aside)), None);
        let mut compared = closed(TimeDomain::EventTime, 40, 40);
        if let EventTimeEventKind::WindowClosed { result, .. } = &mut compared {
            *result = false;
        }
        assert!(narrate(&at(41_000, compared)).is_some());
    }

    fn too_late(routed_aside: bool, allowed_lateness_ms: u64) -> EventTimeEventKind {
        EventTimeEventKind::RecordTooLate {
            record: 41,
            key: 3,
            event_ms: 12_500,
            routed_aside,
            allowed_lateness_ms,
        }
    }

    #[test]
    fn a_side_output_says_where_the_record_went() {
        assert_eq!(
            said(50_000, too_late(true, 5_000)),
            "A record from 0:12 (device 3) arrived at 0:50, after its window's allowed lateness \
             of 5 s ran out: the window's answer stays as it was and the record goes to the \
             side output (sideOutputLateData), for somebody else to reconcile."
        );
    }

    #[test]
    fn a_drop_says_that_nobody_is_told() {
        assert_eq!(
            said(50_000, too_late(false, 0)),
            "A record from 0:12 (device 3) arrived at 0:50, after its window had fired, with \
             no allowed lateness: dropped. Its window's answer stays one short, and nobody is \
             told."
        );
    }

    #[test]
    fn clock_times_read_as_minutes_and_seconds() {
        assert_eq!(clock_time(90_000), "1:30");
        assert_eq!(clock_time(0), "0:00");
        assert_eq!(clock_time(-5_000), "-0:05");
        assert_eq!(clock_time(-500), "-0:01");
        assert_eq!(clock_time(59_999), "0:59");
        assert_eq!(window_span(39_200, 39_700), "0:39.2–0:39.7");
        assert_eq!(window_span(-5_000, 5_000), "-0:05–0:05");
        assert_eq!(seconds(12_340), "12.3 s");
        assert_eq!(seconds(5_000), "5 s");
    }

    #[test]
    fn the_fold_is_the_typed_fields_as_integers() {
        let event = at(50_000, too_late(true, 5_000));
        let mut folded = TraceHasher::default();
        event.fold_into(&mut folded);
        let mut by_hand = TraceHasher::default();
        for value in [50_000, 8, 41, 3, 12_500, 1, 5_000] {
            by_hand.write_u64(value);
        }
        assert_eq!(folded, by_hand);
    }

    #[test]
    fn events_that_differ_in_one_field_fold_differently() {
        let fold = |kind| {
            let mut h = TraceHasher::default();
            at(1, kind).fold_into(&mut h);
            h.finish()
        };
        assert_ne!(fold(late(None, CAUSE)), fold(late(Some(13), CAUSE)));
        assert_ne!(fold(late(None, CAUSE)), fold(late(None, None)));
        assert_ne!(
            fold(pane(WindowKind::Tumbling, 9, None)),
            fold(pane(WindowKind::Tumbling, 9, Some(9)))
        );
    }
}
