//! The starting scenarios of the event-time lessons, one plain function each, named as the links
//! name them. Each turns only the knobs its lesson is about; the rest are the defaults.

use super::scenario::{EventTimeScenario, LateRecordPolicy, TimeDomain};
use crate::window::WindowSpec;

/// Preset names as links spell them, in lesson order.
pub const PRESET_NAMES: &[&str] = &[
    "outage-spike",
    "mobile-stragglers",
    "idle-partition-stalls",
    "drop-vs-restate-vs-side",
    "four-windows",
    "late-record-many-panes",
];

/// The preset a link names, if any.
pub fn preset(name: &str) -> Option<EventTimeScenario> {
    match name {
        "outage-spike" => Some(outage_spike()),
        "mobile-stragglers" => Some(mobile_stragglers()),
        "idle-partition-stalls" => Some(idle_partition_stalls()),
        "drop-vs-restate-vs-side" => Some(drop_vs_restate_vs_side()),
        "four-windows" => Some(four_windows()),
        "late-record-many-panes" => Some(late_record_many_panes()),
        _ => None,
    }
}

/// "My hourly counts are wrong after an outage. Which clock was I counting by?" The processor
/// stops for 40 s; when it comes back it drains the backlog in a few seconds, so the
/// processing-time window of the catch-up counts the outage's records too (a spike, and empty
/// windows before it), while event-time windows, a little later, match the truth. Windows are
/// 30 s, standing in for hours. Delays stay within the out-of-orderness bound, so the only
/// thing wrong is the clock.
pub fn outage_spike() -> EventTimeScenario {
    let mut scenario = EventTimeScenario::default();
    scenario.duration_ms = 180_000;
    scenario.partitions = 2;
    scenario.keys = 4;
    scenario.window = WindowSpec::Tumbling { size_ms: 30_000 };
    scenario.time_domain = TimeDomain::ProcessingTime;
    scenario.delay.tail_probability = 0.0;
    scenario.outage.start_ms = 60_000;
    scenario.outage.duration_ms = 40_000;
    scenario.outage.catch_up_records_per_second = 200;
    scenario.max_out_of_orderness_ms = 1_000;
    scenario
}

/// Phones that lose signal and send a burst when they reconnect, a few with a clock that runs
/// 20 s behind, and a long tail of slow deliveries: out-of-order arrival, late records, and a
/// skew the corrected timestamp removes.
pub fn mobile_stragglers() -> EventTimeScenario {
    let mut scenario = EventTimeScenario::default();
    scenario.offline.devices = 2;
    scenario.offline.duration_ms = 25_000;
    scenario.skew.devices = 1;
    scenario.skew.clock_skew_ms = -20_000;
    scenario.delay.tail_probability = 0.1;
    scenario.delay.tail_mean_ms = 4_000;
    scenario
}

/// "If I can never know a window is complete, what makes it fire?" Four devices, one per
/// partition; device 0 goes offline for 40 s, so partition 0 falls silent and its watermark
/// holds every window of every key open, until after 10 s of silence it is declared idle and
/// the watermark moves on; the buffered records then arrive late.
pub fn idle_partition_stalls() -> EventTimeScenario {
    let mut scenario = EventTimeScenario::default();
    scenario.partitions = 4;
    scenario.keys = 4;
    scenario.offline.devices = 1;
    scenario.offline.duration_ms = 40_000;
    scenario.delay.tail_probability = 0.0;
    scenario.max_out_of_orderness_ms = 500;
    scenario.idleness_ms = 10_000;
    scenario
}

/// "The window already emitted its answer and a record for it just showed up. Now what?" A
/// heavy delay tail with 5 s of allowed lateness: late records within it restate their window
/// (each late pane carries the value it retracts); records later than that are dropped. Switch
/// `late_policy` to compare with plain updates and a side output.
pub fn drop_vs_restate_vs_side() -> EventTimeScenario {
    let mut scenario = EventTimeScenario::default();
    scenario.keys = 4;
    scenario.delay.tail_probability = 0.2;
    scenario.delay.tail_mean_ms = 5_000;
    scenario.max_out_of_orderness_ms = 1_000;
    scenario.allowed_lateness_ms = 5_000;
    scenario.late_policy = LateRecordPolicy::Restate;
    scenario
}

/// "Which window does this record belong to?" One device on one partition, about one event a
/// second for 40 s, no stragglers: the same records under tumbling (10 s), hopping (10 s every
/// 5 s), sliding (3 s time difference) and session (2 s gap) windows, so each record lands
/// in one tumbling window, two hopping ones, several sliding ones and one session.
pub fn four_windows() -> EventTimeScenario {
    let mut scenario = EventTimeScenario::default();
    scenario.duration_ms = 40_000;
    scenario.partitions = 1;
    scenario.keys = 1;
    scenario.events_per_second = 1;
    scenario.delay.tail_probability = 0.0;
    scenario.max_out_of_orderness_ms = 1_000;
    scenario
}

/// The same stream with stragglers and 10 s of allowed lateness: one late record re-fires
/// one tumbling window, two hopping windows, several sliding windows, and can merge two
/// sessions into one.
pub fn late_record_many_panes() -> EventTimeScenario {
    let mut scenario = four_windows();
    scenario.seed = 2;
    scenario.delay.tail_probability = 0.15;
    scenario.delay.tail_mean_ms = 4_000;
    scenario.allowed_lateness_ms = 10_000;
    scenario
}
