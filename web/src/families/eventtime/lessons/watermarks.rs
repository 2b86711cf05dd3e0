//! Event-time lesson 2, "Watermarks and late events": what makes an event-time window fire when
//! completeness can never be known (the watermark, a guess), and what happens to a record that
//! arrives after its window has answered (drop it, restate the answer, or route it aside).

use crate::families::eventtime::{EventTimeFamily, EventTimeView};
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::eventtime::knobs::section::*;
use streamlab_sim::eventtime::{LateRecordPolicy, TimestampSource};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "watermarks",
    title: "Watermarks and late events",
    theme: Theme::Time,
    question:
        "The window already emitted its answer and a record for it just showed up. Now what? \
         And if I can never know an event-time window is complete, what makes it fire at all?",
    guarantee: "A window fires once the watermark passes its end, so its first answer \
                includes every record that arrived before then. Records that arrive later \
                but within the allowed lateness update the answer with a late pane; records \
                later than that are dropped or, with a side output, handed over unchanged. \
                Nothing guarantees that the first answer is the true one.",
    knowledge: "The job knows the event times it has already read and its own clock. It does \
                not know what is still buffered on a device, stuck in the network or sitting \
                in a silent partition. The watermark turns that ignorance into a rule (\"wait \
                this long behind the newest event\"), so it is exactly as right as the rule's \
                guess about delays.",
    failure: "Set the bound too tight and the windows fire early and wrong: many late \
              records, and with no allowed lateness they silently disappear (watch the \
              dropped counter). Set it too loose and every answer waits for the worst \
              straggler. One idle partition without idleness detection stalls every window \
              until it speaks again; with idleness, its buffered records arrive late. \
              Restating moves the problem to consumers that must retract; a side output \
              moves it to whoever reads the side output.",
};

pub static LESSON: Lesson<EventTimeFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A window over event time collects the records that happened between its start and \
             its end. But records travel: a phone in a tunnel holds its events for half a minute, \
             a slow link delays one record in twenty by seconds. However long the job waits, one \
             more record for that window could still be on its way. So the job never knows a \
             window is complete, and yet it has to answer some time.",
            "What makes it answer is the watermark: the job's running estimate that it has now \
             seen everything up to event time T. Here each partition's watermark is the largest \
             event time it has delivered minus a bound on disorder (Flink's \
             forBoundedOutOfOrderness), and the job's watermark is the smallest of them. When the \
             watermark passes a window's end, the window fires. In the chart the watermark is the \
             blue staircase climbing as processing time goes up; a window fires where the \
             staircase crosses its right edge.",
            "The watermark is a heuristic, not a fact. Records that arrive after it passed their \
             window are late, and somebody has to deal with them. Drop them, and the answer \
             stays wrong for ever, quietly. Restate, and the window fires again with a \
             correction (\"31 → 32\"), which every consumer downstream must know how to apply. \
             Route them to a side output, and the answer stays as it was while somebody else \
             gets a pile of stragglers to reconcile. Allowed lateness decides how far past a \
             window's end, in event time (as the watermark measures it), the window keeps \
             listening; past that every late record is too late. Within it, a late record is \
             always added and the window fires again, whatever the policy: the policy decides \
             only what a late pane says (an update, or a retraction and a correction) and where \
             a too-late record goes. A drop that changes nothing is an allowed lateness of 0.",
            "The minimum has a cost of its own: a partition that falls silent holds the \
             watermark, and so every window of every key, where it is. Declaring a partition \
             idle after a while without records (Flink's withIdleness) lets the watermark move \
             on, at the price of making that partition's records late when it wakes up.",
            "Event time itself can be wrong: a phone stamps its events with its own clock, and \
             that clock may be minutes off. A mobile event therefore carries three timestamps: \
             when it occurred and when it was sent, both by the device's clock, and when the \
             server received it, by the server's. The device's error is in both of its own \
             readings, so it cancels in received − sent: occurred + (received − sent) places the \
             event on the server's clock, wrong only by the network delay. Click a dot to see a \
             record's three timestamps and where the correction moves it.",
        ],
        simplifications: &[
            "Windows are seconds long and the run lasts two minutes, standing in for hours.",
            "The watermark is recomputed after every record, not on Flink's periodic \
             autoWatermarkInterval timer, so the staircase has more, smaller steps.",
            "Late panes accumulate (each carries the window's whole count so far), as Flink's \
             default trigger does; restating adds the value to retract, as Beam's accumulating \
             and retracting panes do.",
            "The chart classifies a record as late by the watermark just before the instant it \
             was processed; the core decides per record, so at one instant with several records \
             the two can differ.",
            "The chart draws tumbling windows; hopping, sliding and session windows (reachable \
             through a link) are counted but drawn without columns or late marks.",
            "A device's clock error is one constant offset; real clocks also drift, and the \
             correction assumes the device's clock ran at the right speed between occurred and \
             sent.",
        ],
        simpler_than: "Flink",
    },
    try_this: &[
        TryThis {
            prompt: "Wait longer: set the out-of-orderness bound to 20 s.",
            expect: "Almost nothing is late any more and the first answers match the truth, \
                     but every window fires about 20 s after its end: accuracy bought with \
                     latency.",
            apply: |s| s.max_out_of_orderness_ms = 20_000,
        },
        TryThis {
            prompt: "Switch the late policy to side output.",
            expect: "The late panes still come (they are within allowed lateness); the records \
                     that used to be dropped now appear in the side output, one by one.",
            apply: |s| s.late_policy = LateRecordPolicy::SideOutput,
        },
        TryThis {
            prompt: "Allow no lateness at all.",
            expect: "No window ever fires twice; every late record is too late, and the \
                     dropped counter climbs.",
            apply: |s| s.allowed_lateness_ms = 0,
        },
        TryThis {
            prompt: "Load the mobile stragglers, click a dot of device 7 (its clock is 20 s \
                     behind), then switch the event timestamp to corrected.",
            expect: "Device 7's dots sit 20 s left of where they belong, behind the watermark, \
                     so they are too late; corrected, they jump 20 s right onto the others and \
                     count again. The panel shows the error left over: a few hundred ms of \
                     network delay.",
            apply: |s| {
                *s = streamlab_sim::eventtime::mobile_stragglers();
                s.timestamp = TimestampSource::Corrected;
            },
        },
        TryThis {
            prompt: "Let one device go offline for 40 s on a partition of its own, with no \
                     idleness detection.",
            expect: "The watermark staircase goes flat while the device is silent: no window \
                     of any device fires until it comes back.",
            apply: |s| {
                s.partitions = s.keys;
                s.offline.devices = 1;
                s.offline.duration_ms = 40_000;
                s.idleness_ms = 0;
            },
        },
        TryThis {
            prompt: "Now declare a partition idle after 5 s without records.",
            expect: "The staircase stalls for only 5 s, then climbs on; when the device comes \
                     back its buffered records land far behind the watermark (left of it, in \
                     event time), late.",
            apply: |s| {
                s.partitions = s.keys;
                s.offline.devices = 1;
                s.offline.duration_ms = 40_000;
                s.idleness_ms = 5_000;
            },
        },
    ],
    knob_sections: &[LATE_DATA, WINDOWING, OUTAGE, TRAFFIC, DEVICES, RUN],
    presets: streamlab_sim::eventtime::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: EventTimeView::Watermarks,
};
