//! The event-time family's knob table: every knob of an [`EventTimeScenario`], written once,
//! with Flink's (or Kafka Streams') name, unit, range, step and hint. Validation, the
//! browser's controls, the real-config panel and the docs read it.
//!
//! Setters keep a scenario runnable where one knob limits another: fewer devices also lower
//! the offline and skewed device counts, a shorter hopping size shortens the hop, and the
//! event rate stops at what the run's length allows ([`MAX_RECORDS`]).

use super::scenario::{
    EventTimeScenario, LateRecordPolicy, TimeDomain, TimestampSource, MAX_DURATION_MS,
    MAX_KNOB_DURATION_MS, MAX_RECORDS,
};
use crate::family::knob::{
    instant, number, options, set_choice, Bounds, Choice, Control, Knob, NumberControl, RunBudget,
};
use crate::window::WindowSpec;

/// Section headings, in the order a panel shows them.
pub mod section {
    pub const WINDOWING: &str = "Windows and watermark";
    pub const LATE_DATA: &str = "Late data and idleness";
    pub const COMPARED: &str = "The four windows";
    pub const OUTAGE: &str = "Outage";
    pub const TRAFFIC: &str = "Traffic and network";
    pub const DEVICES: &str = "Devices offline or with a wrong clock";
    pub const RUN: &str = "Run";
}

const MS: &str = "ms";
const DAY_MS: f64 = MAX_KNOB_DURATION_MS as f64;
/// The shortest tumbling or hopping window a scenario may have.
const MIN_WINDOW_MS: i64 = 100;
/// Hopping windows may put a record into at most this many windows.
const MAX_HOPPING_WINDOWS_PER_RECORD: i64 = 100;

/// Every event-time knob.
pub const KNOBS: &[Knob<EventTimeScenario>] = &[
    Knob {
        field: "window.size",
        label: "Window size",
        config_name: Some("TumblingEventTimeWindows.of(size)"),
        hint: "Length of each tumbling window (at least 100 ms); both clocks use the same \
               windows.",
        section: section::WINDOWING,
        // The scenario's window may be of any type (a session's gap, a sliding window's time
        // difference read as its length), so the range covers them all; the window's own
        // rules are checked by `EventTimeScenario::validate`, and this knob only ever sets a
        // tumbling window of at least 100 ms.
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            100.0,
            Some(120_000.0),
            |s| window_length_ms(s.window) as f64,
            |s, v| {
                s.window = WindowSpec::Tumbling {
                    size_ms: (v as i64).max(MIN_WINDOW_MS),
                }
            },
        ),
    },
    Knob {
        field: "time_domain",
        label: "Result by",
        config_name: Some("TumblingEventTimeWindows / TumblingProcessingTimeWindows"),
        hint: "Which clock's windows count as the job's answer; both are drawn.",
        section: section::WINDOWING,
        control: Control::Choice {
            options: options::<TimeDomain>,
            get: |s| s.time_domain.value(),
            set: |s, v| set_choice(&mut s.time_domain, v),
        },
    },
    Knob {
        field: "max_out_of_orderness_ms",
        label: "Max out of orderness",
        config_name: Some("forBoundedOutOfOrderness"),
        hint: "How far the watermark trails the latest event time seen: the wait for stragglers.",
        section: section::WINDOWING,
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            100.0,
            Some(30_000.0),
            |s| s.max_out_of_orderness_ms as f64,
            |s, v| s.max_out_of_orderness_ms = v as i64,
        ),
    },
    Knob {
        field: "allowed_lateness_ms",
        label: "Allowed lateness",
        config_name: Some("allowedLateness"),
        hint: "How far the watermark may pass a window's end, in event time, while the window \
               still takes late records and fires again.",
        section: section::WINDOWING,
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            100.0,
            Some(60_000.0),
            |s| s.allowed_lateness_ms as f64,
            |s, v| s.allowed_lateness_ms = v as i64,
        ),
    },
    Knob {
        field: "late_policy",
        label: "Late policy",
        config_name: Some("sideOutputLateData"),
        hint: "What a late record does once its window has answered.",
        section: section::LATE_DATA,
        control: Control::Choice {
            options: options::<LateRecordPolicy>,
            get: |s| s.late_policy.value(),
            set: |s, v| set_choice(&mut s.late_policy, v),
        },
    },
    Knob {
        field: "timestamp",
        label: "Event timestamp",
        config_name: Some("TimestampAssigner"),
        hint: "Which time a record counts by; the correction cancels a device clock that is off.",
        section: section::LATE_DATA,
        control: Control::Choice {
            options: options::<TimestampSource>,
            get: |s| s.timestamp.value(),
            set: |s, v| set_choice(&mut s.timestamp, v),
        },
    },
    Knob {
        field: "idleness_ms",
        label: "Idleness",
        config_name: Some("withIdleness"),
        hint: "After this long without a record a partition stops holding the watermark; 0 never.",
        section: section::LATE_DATA,
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            1000.0,
            Some(60_000.0),
            |s| s.idleness_ms as f64,
            |s, v| s.idleness_ms = v as i64,
        ),
    },
    Knob {
        field: "partitions",
        label: "Partitions",
        config_name: Some("num.partitions"),
        hint: "Each has its own watermark; the job's watermark is their minimum.",
        section: section::LATE_DATA,
        control: number(
            Bounds::new(1.0, 16.0, "partitions"),
            1.0,
            None,
            |s| f64::from(s.partitions),
            |s, v| s.partitions = v as u32,
        ),
    },
    Knob {
        field: "compared.tumbling_size_ms",
        label: "Tumbling size",
        config_name: Some("TumblingEventTimeWindows.of(size)"),
        hint: "Length of each back-to-back window (Kafka Streams: TimeWindows.ofSizeWithNoGrace).",
        section: section::COMPARED,
        control: number(
            Bounds::new(100.0, DAY_MS, MS),
            100.0,
            Some(40_000.0),
            |s| s.compared.tumbling_size_ms as f64,
            |s, v| s.compared.tumbling_size_ms = v as i64,
        ),
    },
    Knob {
        field: "compared.hopping_size_ms",
        label: "Hopping size",
        config_name: Some("SlidingEventTimeWindows.of(size, slide)"),
        hint: "Length of each hopping window (Flink names them sliding; Kafka Streams: \
               TimeWindows.ofSizeWithNoGrace).",
        section: section::COMPARED,
        control: number(
            Bounds::new(100.0, DAY_MS, MS),
            100.0,
            Some(40_000.0),
            |s| s.compared.hopping_size_ms as f64,
            |s, v| {
                s.compared.hopping_size_ms = v as i64;
                s.compared.hopping_hop_ms =
                    clamp_hop_ms(s.compared.hopping_hop_ms, s.compared.hopping_size_ms);
            },
        ),
    },
    Knob {
        field: "compared.hopping_hop_ms",
        label: "Hop",
        config_name: Some("slide · advanceBy(advance)"),
        hint: "A new hopping window starts this often; at most the size, and at most 100 windows \
               per record.",
        section: section::COMPARED,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(100.0, DAY_MS, MS),
            step: 100.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| s.compared.hopping_size_ms as f64),
            get: |s| s.compared.hopping_hop_ms as f64,
            set: |s, v| {
                s.compared.hopping_hop_ms = clamp_hop_ms(v as i64, s.compared.hopping_size_ms)
            },
        }),
    },
    Knob {
        field: "compared.sliding_time_difference_ms",
        label: "Time difference",
        config_name: Some("SlidingWindows.ofTimeDifferenceAndGrace"),
        hint: "Kafka Streams' sliding windows: records at most this far apart share a window.",
        section: section::COMPARED,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, DAY_MS, MS),
            step: 100.0,
            slider_max: Some(40_000.0),
            config_default: None,
            // Not checked against the rate: the comparison runs with the capped difference
            // (`capped_for_work`), so only the control stops there.
            max_for: None,
            get: |s| s.compared.sliding_time_difference_ms as f64,
            set: |s, v| {
                s.compared.sliding_time_difference_ms =
                    (v as i64).min(longest_time_difference_ms(s))
            },
        }),
    },
    Knob {
        field: "compared.session_gap_ms",
        label: "Session gap",
        config_name: Some("EventTimeSessionWindows.withGap(gap)"),
        hint: "A pause longer than this ends a device's session (Kafka Streams: \
               SessionWindows.ofInactivityGapWithNoGrace).",
        section: section::COMPARED,
        control: number(
            Bounds::new(1.0, DAY_MS, MS),
            100.0,
            Some(20_000.0),
            |s| s.compared.session_gap_ms as f64,
            |s, v| s.compared.session_gap_ms = v as i64,
        ),
    },
    Knob {
        field: "outage.start_ms",
        label: "Outage start",
        config_name: None,
        hint: "When the processor stops, on its own clock; records keep arriving in the topic.",
        section: section::OUTAGE,
        control: instant(
            MAX_DURATION_MS as f64,
            120_000.0,
            |s| s.outage.start_ms as f64,
            |s, v| s.outage.start_ms = v as i64,
        ),
    },
    Knob {
        field: "outage.duration_ms",
        label: "Outage duration",
        config_name: None,
        hint: "How long the processor is stopped; 0 means no outage.",
        section: section::OUTAGE,
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            1000.0,
            Some(120_000.0),
            |s| s.outage.duration_ms as f64,
            |s, v| s.outage.duration_ms = v as i64,
        ),
    },
    Knob {
        field: "outage.catch_up_records_per_second",
        label: "Catch-up rate",
        config_name: None,
        hint: "How fast the processor reads the backlog after the outage.",
        section: section::OUTAGE,
        control: number(
            Bounds::new(1.0, 1_000_000.0, "records/s"),
            1.0,
            Some(2_000.0),
            |s| f64::from(s.outage.catch_up_records_per_second),
            |s, v| s.outage.catch_up_records_per_second = v as u32,
        ),
    },
    Knob {
        field: "events_per_second",
        label: "Event rate",
        config_name: None,
        hint: "Events per second over all devices (a run holds at most 200 000 records).",
        section: section::TRAFFIC,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1.0, 2_000.0, "events/s"),
            step: 1.0,
            slider_max: Some(200.0),
            config_default: None,
            max_for: Some(|s| f64::from(max_rate_per_s(s.duration_ms))),
            get: |s| f64::from(s.events_per_second),
            set: |s, v| s.events_per_second = (v as u32).min(max_rate_per_s(s.duration_ms)),
        }),
    },
    Knob {
        field: "duration_ms",
        label: "Input length",
        config_name: None,
        hint: "How long the devices produce events, in processing time.",
        section: section::TRAFFIC,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(1_000.0, MAX_DURATION_MS as f64, MS),
            step: 1000.0,
            slider_max: Some(600_000.0),
            config_default: None,
            max_for: Some(|s| max_duration_ms(s.events_per_second) as f64),
            get: |s| s.duration_ms as f64,
            set: |s, v| s.duration_ms = (v as i64).min(max_duration_ms(s.events_per_second)),
        }),
    },
    Knob {
        field: "keys",
        label: "Devices",
        config_name: Some("keyBy"),
        hint: "Devices producing events, one window key each.",
        section: section::TRAFFIC,
        control: number(
            Bounds::new(1.0, 64.0, "keys"),
            1.0,
            None,
            |s| f64::from(s.keys),
            |s, v| {
                s.keys = v as u32;
                // Offline and skewed devices are counted among the keys.
                s.offline.devices = s.offline.devices.min(s.keys);
                s.skew.devices = s.skew.devices.min(s.keys);
            },
        ),
    },
    Knob {
        field: "delay.network_ms",
        label: "Network delay",
        config_name: None,
        hint: "Delay every record has between the device and the topic.",
        section: section::TRAFFIC,
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            10.0,
            Some(5_000.0),
            |s| s.delay.network_ms as f64,
            |s, v| s.delay.network_ms = v as i64,
        ),
    },
    Knob {
        field: "delay.jitter_ms",
        label: "Jitter",
        config_name: None,
        hint: "Extra delay drawn evenly up to this; it reorders records that occur close together.",
        section: section::TRAFFIC,
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            10.0,
            Some(5_000.0),
            |s| s.delay.jitter_ms as f64,
            |s, v| s.delay.jitter_ms = v as i64,
        ),
    },
    Knob {
        field: "delay.tail_probability",
        label: "Delay tail share",
        config_name: None,
        hint:
            "Share of records that are stragglers with an extra, exponentially distributed delay.",
        section: section::TRAFFIC,
        control: number(
            Bounds::new(0.0, 1.0, "fraction"),
            0.01,
            None,
            |s| s.delay.tail_probability,
            |s, v| s.delay.tail_probability = v,
        ),
    },
    Knob {
        field: "delay.tail_mean_ms",
        label: "Delay tail mean",
        config_name: None,
        hint: "Mean extra delay of a straggler (capped at ten times this).",
        section: section::TRAFFIC,
        control: number(
            Bounds::new(0.0, DAY_MS, MS),
            100.0,
            Some(30_000.0),
            |s| s.delay.tail_mean_ms as f64,
            |s, v| s.delay.tail_mean_ms = v as i64,
        ),
    },
    Knob {
        field: "offline.devices",
        label: "Devices offline",
        config_name: None,
        hint: "How many devices lose their connection once, buffer their events and send them \
               in a burst when they are back.",
        section: section::DEVICES,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, 64.0, "devices"),
            step: 1.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| f64::from(s.keys)),
            get: |s| f64::from(s.offline.devices),
            set: |s, v| s.offline.devices = (v as u32).min(s.keys),
        }),
    },
    Knob {
        field: "offline.duration_ms",
        label: "Offline for",
        config_name: None,
        hint: "How long each of them stays offline.",
        section: section::DEVICES,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, MAX_DURATION_MS as f64, MS),
            step: 1000.0,
            slider_max: Some(120_000.0),
            config_default: None,
            max_for: Some(|s| s.duration_ms as f64),
            get: |s| s.offline.duration_ms as f64,
            set: |s, v| s.offline.duration_ms = (v as i64).min(s.duration_ms),
        }),
    },
    Knob {
        field: "skew.devices",
        label: "Devices with a wrong clock",
        config_name: None,
        hint: "How many devices stamp their events with a clock that is off.",
        section: section::DEVICES,
        control: Control::Number(NumberControl {
            bounds: Bounds::new(0.0, 64.0, "devices"),
            step: 1.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| f64::from(s.keys)),
            get: |s| f64::from(s.skew.devices),
            set: |s, v| s.skew.devices = (v as u32).min(s.keys),
        }),
    },
    Knob {
        field: "skew.clock_skew_ms",
        label: "Clock skew",
        config_name: None,
        hint: "How far ahead (positive) or behind (negative) their clock reads.",
        section: section::DEVICES,
        control: number(
            Bounds::new(-DAY_MS, DAY_MS, MS),
            1000.0,
            None,
            |s| s.skew.clock_skew_ms as f64,
            |s, v| s.skew.clock_skew_ms = v as i64,
        ),
    },
    Knob {
        field: "seed",
        label: "Seed",
        config_name: None,
        hint: "Seed of every random draw; same seed, same run.",
        section: section::RUN,
        control: Control::Whole {
            get: |s| s.seed,
            set: |s, v| s.seed = v,
        },
    },
];

/// The window's length, whatever its kind (a session's gap, a sliding window's time
/// difference).
pub fn window_length_ms(window: WindowSpec) -> i64 {
    match window {
        WindowSpec::Tumbling { size_ms } | WindowSpec::Hopping { size_ms, .. } => size_ms,
        WindowSpec::Session { gap_ms } => gap_ms,
        WindowSpec::Sliding { time_difference_ms } => time_difference_ms,
    }
}

/// A run holds at most [`MAX_RECORDS`], at up to 2000 events a second.
const BUDGET: RunBudget = RunBudget {
    records: MAX_RECORDS,
    max_per_s: 2_000,
    min_ms: 1_000,
    max_ms: MAX_DURATION_MS as u64,
};

/// The most events per second a run of `duration_ms` may have under [`MAX_RECORDS`].
pub fn max_rate_per_s(duration_ms: i64) -> u32 {
    BUDGET.max_rate_per_s(duration_ms.max(1) as u64)
}

/// The longest run at `events_per_second` under [`MAX_RECORDS`].
fn max_duration_ms(events_per_second: u32) -> i64 {
    BUDGET.max_duration_ms(events_per_second) as i64
}

/// The hop kept within `[size / 100, size]`, so no record lands in more than 100 windows.
fn clamp_hop_ms(hop_ms: i64, size_ms: i64) -> i64 {
    let least_ms = (size_ms + MAX_HOPPING_WINDOWS_PER_RECORD - 1) / MAX_HOPPING_WINDOWS_PER_RECORD;
    hop_ms.clamp(least_ms.max(100), size_ms.max(100))
}

/// The longest sliding time difference the comparison runs at this rate and device count.
pub fn longest_time_difference_ms(scenario: &EventTimeScenario) -> i64 {
    scenario
        .longest_sliding_time_difference_ms()
        .min(MAX_KNOB_DURATION_MS)
}

impl Choice for LateRecordPolicy {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            LateRecordPolicy::Drop,
            "drop",
            "drop (late panes update; too-late records vanish)",
        ),
        (
            LateRecordPolicy::Restate,
            "restate",
            "restate (late panes retract the old value)",
        ),
        (
            LateRecordPolicy::SideOutput,
            "side_output",
            "side output (too-late records routed aside)",
        ),
    ];
}

impl Choice for TimestampSource {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (TimestampSource::Device, "device", "device clock (occurred)"),
        (
            TimestampSource::Corrected,
            "corrected",
            "corrected (occurred + received − sent)",
        ),
    ];
}

impl Choice for TimeDomain {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (TimeDomain::EventTime, "event_time", "event time"),
        (
            TimeDomain::ProcessingTime,
            "processing_time",
            "processing time",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::{check_table, number_knob};

    #[test]
    fn the_table_passes_the_checks_every_table_must() {
        // The run's window has one knob, `window.size`, which sets a tumbling window: its
        // type is the lesson's, not a knob's.
        check_table(KNOBS, super::super::PRESETS, &["window.type"]);
    }

    #[test]
    fn a_hop_never_outgrows_its_window_nor_puts_a_record_in_over_100() {
        let hop = number_knob(KNOBS, "compared.hopping_hop_ms");
        let size = number_knob(KNOBS, "compared.hopping_size_ms");
        let mut scenario = EventTimeScenario::default();
        (hop.set)(&mut scenario, 50_000.0);
        assert_eq!(
            scenario.compared.hopping_hop_ms,
            scenario.compared.hopping_size_ms
        );
        (size.set)(&mut scenario, 1_000_000.0);
        (hop.set)(&mut scenario, 100.0);
        assert_eq!(scenario.compared.hopping_hop_ms, 10_000);
        assert!(scenario.validate().is_ok());
        (size.set)(&mut scenario, 2_000.0);
        assert_eq!(scenario.compared.hopping_hop_ms, 2_000);
    }

    #[test]
    fn fewer_devices_take_the_offline_and_skewed_ones_with_them() {
        let keys = number_knob(KNOBS, "keys");
        let mut scenario = EventTimeScenario::default();
        scenario.offline.devices = 6;
        scenario.skew.devices = 5;
        (keys.set)(&mut scenario, 3.0);
        assert_eq!((scenario.offline.devices, scenario.skew.devices), (3, 3));
        assert!(scenario.validate().is_ok());
    }

    #[test]
    fn the_rate_and_the_length_stop_at_what_a_run_may_hold() {
        let rate = number_knob(KNOBS, "events_per_second");
        let length = number_knob(KNOBS, "duration_ms");
        let mut scenario = EventTimeScenario::default();
        (length.set)(&mut scenario, 3_600_000.0);
        (rate.set)(&mut scenario, 2_000.0);
        assert!(scenario.validate().is_ok(), "{:?}", scenario.validate());
        assert_eq!(
            rate.bounds_in(&scenario).max,
            f64::from(scenario.events_per_second)
        );
        (length.set)(&mut scenario, 3_600_000.0);
        assert!(scenario.validate().is_ok());
    }
}
