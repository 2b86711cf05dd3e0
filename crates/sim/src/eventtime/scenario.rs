//! The event-time scenario: every knob of the three event-time lessons as one plain serde
//! struct, with the ranges that keep a run small enough for a browser frame and every time
//! computation inside `i64`. Each field names its unit, its range and, where one exists, the
//! Flink or Beam setting it stands for; [`EventTimeScenario::validate`] names the field and its
//! range when a value is outside it.

pub use crate::family::ScenarioError;
use crate::window::WindowSpec;
use serde::{Deserialize, Serialize};

/// Most records one run may generate (`duration_ms · events_per_second / 1000`), so that a run
/// stays cheap enough to rebuild on every knob change in the browser.
pub const MAX_RECORDS: u64 = 200_000;

/// Most records of one device expected within one sliding window's time difference: each
/// record touches about twice that many windows, so this bounds the work per record.
pub const MAX_RECORDS_PER_SLIDING_WINDOW: u64 = 100;

/// Longest run: one hour of simulated time.
pub const MAX_DURATION_MS: i64 = 3_600_000;

/// Longest delay, offline period, outage, lateness or out-of-orderness a knob accepts: one day.
/// Far beyond what a lesson needs, and small enough that sums of times never overflow.
pub const MAX_KNOB_DURATION_MS: i64 = 86_400_000;

/// A complete, reproducible description of one event-time run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EventTimeScenario {
    /// Seed of every random draw (event times, keys, delays, offline periods). Any u64.
    pub seed: u64,
    /// Simulated time during which devices produce events, in ms; 1_000..=3_600_000.
    pub duration_ms: i64,
    /// Partitions of the input topic (Kafka `num.partitions`); each has its own watermark,
    /// like one Flink source split. 1..=16.
    pub partitions: u32,
    /// Devices, which are also the window keys (Flink `keyBy`); device `k` writes to partition
    /// `k % partitions`, so with more partitions than devices some partitions stay silent.
    /// 1..=64.
    pub keys: u32,
    /// Events produced per second over all devices (a Poisson process); 1..=2_000.
    pub events_per_second: u32,
    /// Delays between a device sending an event and the topic receiving it.
    pub delay: DelaySpec,
    /// Devices that lose connectivity, buffer their events and flush them at once.
    pub offline: OfflineSpec,
    /// Devices whose clock is wrong.
    pub skew: SkewSpec,
    /// A stop of the stream processor and its catch-up afterwards.
    pub outage: OutageSpec,
    /// The windows counted per key: tumbling, hopping or session (Flink `WindowAssigner`,
    /// Beam `Window.into`), or sliding in Kafka Streams' sense (records within a time
    /// difference of each other, `SlidingWindows`).
    pub window: WindowSpec,
    /// The four window types the "Windows" lesson draws side by side over this run's records,
    /// each with its own parameters; the run's own `window` is not affected.
    pub compared: ComparedWindows,
    /// Which clock assigns records to the windows the lesson presents as "the result"; both are
    /// always computed so the UI can put them side by side.
    pub time_domain: TimeDomain,
    /// Which timestamp on the record is its event time (Flink `TimestampAssigner`).
    pub timestamp: TimestampSource,
    /// How far the watermark trails the largest event time seen on a partition, in ms; Flink
    /// `WatermarkStrategy.forBoundedOutOfOrderness(Duration)`. 0..=86_400_000.
    pub max_out_of_orderness_ms: i64,
    /// How long after the watermark passes a window's end the window still accepts records
    /// and re-fires, in ms; Flink `WindowedStream.allowedLateness`, Beam
    /// `Window.withAllowedLateness`. 0..=86_400_000.
    pub allowed_lateness_ms: i64,
    /// What a late record does once its window has fired.
    pub late_policy: LateRecordPolicy,
    /// After how many ms without a record a partition is declared idle and stops holding the
    /// combined watermark back; Flink `WatermarkStrategy.withIdleness(Duration)`. 0 turns idle
    /// detection off (Flink's default). 0..=86_400_000.
    pub idleness_ms: i64,
}

impl Default for EventTimeScenario {
    fn default() -> Self {
        Self {
            seed: 1,
            duration_ms: 120_000,
            partitions: 4,
            keys: 8,
            events_per_second: 20,
            delay: DelaySpec::default(),
            offline: OfflineSpec::default(),
            skew: SkewSpec::default(),
            outage: OutageSpec::default(),
            window: WindowSpec::Tumbling { size_ms: 10_000 },
            compared: ComparedWindows::default(),
            time_domain: TimeDomain::EventTime,
            timestamp: TimestampSource::Device,
            max_out_of_orderness_ms: 2_000,
            allowed_lateness_ms: 0,
            late_policy: LateRecordPolicy::Drop,
            idleness_ms: 0,
        }
    }
}

/// One of each window type, with the real systems' names for their parameters, for drawing
/// them side by side on one stream of records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ComparedWindows {
    /// Flink `TumblingEventTimeWindows.of(size)`, Kafka Streams
    /// `TimeWindows.ofSizeWithNoGrace(size)`; in ms, 100..=86_400_000.
    pub tumbling_size_ms: i64,
    /// Flink `SlidingEventTimeWindows.of(size, slide)`, Kafka Streams
    /// `TimeWindows.ofSizeWithNoGrace(size).advanceBy(advance)`: windows of this length...
    pub hopping_size_ms: i64,
    /// ...starting every this many ms (Flink's `slide`, Kafka's `advance`); 100..=size, and
    /// at most 100 windows per record.
    pub hopping_hop_ms: i64,
    /// Kafka Streams `SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, grace)`: records
    /// at most this far apart share a window; in ms, 0..=86_400_000. When a device expects
    /// more than 100 records within it, the comparison runs with the longest time difference
    /// that does not (see [`ComparedWindows::capped_for_work`]).
    pub sliding_time_difference_ms: i64,
    /// Flink `EventTimeSessionWindows.withGap(gap)`, Kafka Streams
    /// `SessionWindows.ofInactivityGapWithNoGrace(gap)`; in ms, 1..=86_400_000.
    pub session_gap_ms: i64,
}

impl Default for ComparedWindows {
    fn default() -> Self {
        Self {
            tumbling_size_ms: 10_000,
            hopping_size_ms: 10_000,
            hopping_hop_ms: 5_000,
            sliding_time_difference_ms: 3_000,
            session_gap_ms: 2_000,
        }
    }
}

impl ComparedWindows {
    /// These windows with the sliding time difference shortened, if need be, to the longest
    /// the scenario's rate and device count allow
    /// ([`EventTimeScenario::longest_sliding_time_difference_ms`]).
    pub fn capped_for_work(&self, scenario: &EventTimeScenario) -> Self {
        let longest_ms = scenario.longest_sliding_time_difference_ms();
        Self {
            sliding_time_difference_ms: self.sliding_time_difference_ms.min(longest_ms),
            ..self.clone()
        }
    }

    /// Tumbling, hopping, sliding and session, in the order the lesson draws them.
    pub fn specs(&self) -> [WindowSpec; 4] {
        [
            WindowSpec::Tumbling {
                size_ms: self.tumbling_size_ms,
            },
            WindowSpec::Hopping {
                size_ms: self.hopping_size_ms,
                hop_ms: self.hopping_hop_ms,
            },
            WindowSpec::Sliding {
                time_difference_ms: self.sliding_time_difference_ms,
            },
            WindowSpec::Session {
                gap_ms: self.session_gap_ms,
            },
        ]
    }
}

/// Network delay: every record takes a constant delay plus a uniform jitter; a fraction of
/// records additionally waits an exponentially distributed extra time (the long tail).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DelaySpec {
    /// Delay every record has, in ms; 0..=86_400_000.
    pub network_ms: i64,
    /// Extra delay drawn uniformly from `0..=jitter_ms`, in ms; it reorders records that occur
    /// close together. 0..=86_400_000.
    pub jitter_ms: i64,
    /// Probability that a record is a straggler with an extra exponential delay; 0.0..=1.0.
    pub tail_probability: f64,
    /// Mean of the stragglers' extra delay, in ms; 0..=86_400_000. Draws are capped at ten
    /// times the mean so one unlucky draw cannot stretch a run without bound.
    pub tail_mean_ms: i64,
}

impl Default for DelaySpec {
    fn default() -> Self {
        Self {
            network_ms: 50,
            jitter_ms: 200,
            tail_probability: 0.05,
            tail_mean_ms: 5_000,
        }
    }
}

/// Devices that go offline: each of the first `devices` devices is offline once, for
/// `duration_ms`, starting at a seeded time; events it produces meanwhile are buffered and
/// sent together when it comes back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OfflineSpec {
    /// How many devices (the lowest ids) go offline; 0..=keys.
    pub devices: u32,
    /// How long each is offline, in ms; 0..=duration_ms.
    pub duration_ms: i64,
}

impl Default for OfflineSpec {
    fn default() -> Self {
        Self {
            devices: 0,
            duration_ms: 30_000,
        }
    }
}

/// Device clocks that are off: the last `devices` devices stamp their events with a clock that
/// reads `clock_skew_ms` more than the true time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkewSpec {
    /// How many devices (the highest ids) have a skewed clock; 0..=keys.
    pub devices: u32,
    /// How far ahead (positive) or behind (negative) their clock is, in ms;
    /// -86_400_000..=86_400_000. A device whose clock is behind produces events only once its
    /// clock reads 0, since event times are never negative.
    pub clock_skew_ms: i64,
}

impl Default for SkewSpec {
    fn default() -> Self {
        Self {
            devices: 0,
            clock_skew_ms: -30_000,
        }
    }
}

/// The stream processor stops at `start_ms` for `duration_ms` (records keep arriving in the
/// topic), then works through the backlog at `catch_up_records_per_second` until it is
/// caught up; otherwise it processes every record the moment it arrives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutageSpec {
    /// When the processor stops, in ms of processing time; 0..=3_600_000.
    pub start_ms: i64,
    /// How long it is stopped, in ms; 0 means no outage. 0..=86_400_000.
    pub duration_ms: i64,
    /// Records per second it processes while catching up; 1..=1_000_000.
    pub catch_up_records_per_second: u32,
}

impl Default for OutageSpec {
    fn default() -> Self {
        Self {
            start_ms: 30_000,
            duration_ms: 0,
            catch_up_records_per_second: 200,
        }
    }
}

/// Which clock assigns a record to a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeDomain {
    /// When the event happened, by its timestamp (Flink `TumblingEventTimeWindows`).
    EventTime,
    /// When the processor saw it (Flink `TumblingProcessingTimeWindows`).
    ProcessingTime,
}

/// Which of the record's timestamps is its event time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimestampSource {
    /// `occurred_ms` as the device stamped it, skew included.
    #[default]
    Device,
    /// `occurred_ms + (received_ms - sent_ms)`: the device's clock error cancels out because
    /// two of the three timestamps come from that same clock; what is left over is the network
    /// delay of this one record.
    Corrected,
}

/// What happens to a record whose window has already fired.
///
/// Within `allowed_lateness_ms` a late record is always added and its window fires again
/// (an accumulating late pane, Flink's default); past it the window is gone and the record is
/// too late. The policies differ in how a late pane is presented and where a too-late record
/// goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LateRecordPolicy {
    /// Late panes are plain updates; too-late records are counted and forgotten.
    Drop,
    /// Late panes restate the result: each carries the value it replaces in `retracted`
    /// (the Dataflow model's accumulating-and-retracting mode, which Flink SQL's changelogs
    /// express as UPDATE_BEFORE / UPDATE_AFTER; Beam itself offers only discarding and
    /// accumulating panes); too-late records are counted and forgotten.
    Restate,
    /// Late panes are plain updates; too-late records go to a side output (Flink
    /// `sideOutputLateData`) where the UI can show them. Also read as `"side"`, the CLI's
    /// spelling.
    #[serde(alias = "side")]
    SideOutput,
}

impl EventTimeScenario {
    /// The longest sliding-window time difference within which a device expects at most
    /// [`MAX_RECORDS_PER_SLIDING_WINDOW`] records at this rate and device count.
    pub fn longest_sliding_time_difference_ms(&self) -> i64 {
        let per_device_ms =
            MAX_RECORDS_PER_SLIDING_WINDOW as i64 * 1000 * i64::from(self.keys.max(1));
        per_device_ms / i64::from(self.events_per_second.max(1))
    }
}
