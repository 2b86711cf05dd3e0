//! The starting scenarios of the event-time lessons, one plain function each, named as the links
//! name them. Each turns only the knobs its lesson is about; the rest are the defaults.

use super::scenario::{EventTimeScenario, LateRecordPolicy, TimeDomain};
use crate::window::WindowSpec;

/// An event-time preset.
pub type Preset = crate::family::preset::Preset<EventTimeScenario>;

/// Every event-time preset, in lesson order, with the lesson that offers it.
pub const PRESETS: &[Preset] = &[
    Preset {
        slug: "outage-spike",
        lesson: "which-clock",
        title: "The outage spike",
        description: "The processor stops for 40 s and drains the backlog in a few seconds: \
                      the processing-time window of the catch-up counts the outage's records \
                      too, while event-time windows match the truth.",
        build: outage_spike,
    },
    Preset {
        slug: "mobile-stragglers",
        lesson: "watermarks",
        title: "Mobile stragglers",
        description: "Phones that lose signal and flush a burst, one with a clock 20 s \
                      behind, and a long tail of slow deliveries; no allowed lateness.",
        build: mobile_stragglers,
    },
    Preset {
        slug: "idle-partition-stalls",
        lesson: "watermarks",
        title: "One idle partition stalls everything",
        description: "One device per partition; one goes offline for 40 s and holds the \
                      watermark until it is declared idle after 10 s.",
        build: idle_partition_stalls,
    },
    Preset {
        slug: "drop-vs-restate-vs-side",
        lesson: "watermarks",
        title: "Drop vs restate vs side output",
        description: "A heavy delay tail with 5 s of allowed lateness; switch the late \
                      policy to compare.",
        build: drop_vs_restate_vs_side,
    },
    Preset {
        slug: "four-windows",
        lesson: "windows",
        title: "Four windows, one stream",
        description: "One device, about a record a second for 40 s, no stragglers: \
                      tumbling 10 s, hopping 10 s every 5 s, sliding 3 s, session gap 2 s.",
        build: four_windows,
    },
    Preset {
        slug: "late-record-many-panes",
        lesson: "windows",
        title: "One late record, many answers",
        description: "The same stream with stragglers and 10 s of allowed lateness: count \
                      the late panes each kind of window emits.",
        build: late_record_many_panes,
    },
    Preset {
        slug: "misconception-7",
        lesson: "which-clock",
        title: "Myth: close windows by the server's clock",
        description: "The outage run counted by processing time: after the outage the \
                      catch-up window counts records from the whole outage. \
                      max_processing_time_overcount is how far its worst window overshoots.",
        build: outage_spike,
    },
    Preset {
        slug: "misconception-8",
        lesson: "watermarks",
        title: "Myth: late records can always be ignored",
        description: "A heavy delay tail, no allowed lateness, late records dropped: fine for \
                      a rate on a dashboard, wrong for a bill. max_event_time_error is how far \
                      the worst final count stays from the truth.",
        build: ignore_laggards,
    },
];

/// The preset a link names, if any.
pub fn preset(name: &str) -> Option<EventTimeScenario> {
    crate::family::preset::find(PRESETS, name).map(|p| (p.build)())
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

/// "Late records can always be ignored." The drop-vs-restate stream with no allowed lateness
/// and the drop policy: every straggler is discarded, and the windows it belonged to keep a
/// final count below the truth for good.
pub fn ignore_laggards() -> EventTimeScenario {
    let mut scenario = drop_vs_restate_vs_side();
    scenario.allowed_lateness_ms = 0;
    scenario.late_policy = LateRecordPolicy::Drop;
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

/// The event-time lessons, each with the scenario its links are patches against (part of the
/// link format: changing one changes what old links mean).
pub const LESSONS: &[crate::family::lesson::LessonDefault<EventTimeScenario>] = &[
    crate::family::lesson::LessonDefault {
        slug: "which-clock",
        default: outage_spike,
    },
    crate::family::lesson::LessonDefault {
        slug: "watermarks",
        default: drop_vs_restate_vs_side,
    },
    crate::family::lesson::LessonDefault {
        slug: "windows",
        default: four_windows,
    },
];
