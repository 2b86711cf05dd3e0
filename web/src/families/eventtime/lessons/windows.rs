//! Event-time lesson 3, "Windows": the four window types side by side on one device's records,
//! so a learner sees each record fall into one tumbling window, several hopping and sliding
//! windows, and one session; and why "sliding" means two different things in Flink and in
//! Kafka Streams.

use crate::families::eventtime::{EventTimeFamily, EventTimeView};
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::eventtime::knobs::section::*;

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "windows",
    title: "Windows",
    theme: Theme::Time,
    question: "Which window does this record belong to, and why is it in several at once?",
    guarantee: "Each kind assigns a record by its event time alone. Tumbling puts it in exactly \
                one window, hopping in every window whose span covers it, sliding in every \
                window built from records within the time difference of it, session in the one \
                run of records without a pause longer than the gap. Every window fires once the \
                watermark passes its end, with the count of the records it holds.",
    knowledge: "Tumbling and hopping windows are known in advance: their edges are fixed by \
                the clock, so a job can tell where a record goes the moment it sees it. \
                Sliding windows and sessions depend on the other records: a job only knows \
                which windows exist once it has seen the records around them, and a late \
                record can create a window, or merge two sessions, after answers went out.",
    failure: "Overlapping windows multiply work and output: with a 1 s hop over 10 s windows \
              every record updates ten windows and every late record re-fires ten answers. \
              Sliding windows can be far more numerous than their time difference suggests. \
              A session gap that is too short splits one visit into many; one that is too \
              long glues separate visits together. And reading Flink's \"sliding\" as Kafka's \
              (or the reverse) gives windows of a different shape with the same name.",
};

pub static LESSON: Lesson<EventTimeFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A stream never ends, so \"how many?\" only has an answer per stretch of time: a \
             window. Which stretches you choose decides what a record counts towards. The \
             picture runs one device's records through four kinds of windows at once; each band \
             of boxes is one kind of window, and every record is drawn again inside each box that \
             holds it.",
            "Tumbling windows cut time into back-to-back pieces of one size, so every record \
             lands in exactly one (Flink's TumblingEventTimeWindows.of(size), Kafka Streams' \
             TimeWindows.ofSizeWithNoGrace(size)). Hopping windows have a size too, but a new one \
             starts every hop, so they overlap and a record lands in size ÷ hop of them; they \
             answer \"the last ten seconds, every five seconds\".",
            "Careful with names: Flink calls hopping windows sliding windows \
             (SlidingEventTimeWindows.of(size, slide)), while Kafka Streams calls them hopping \
             (TimeWindows.ofSizeWithNoGrace(size).advanceBy(advance)) and keeps \"sliding\" for \
             something else: SlidingWindows.ofTimeDifferenceAndGrace builds windows out of the \
             records themselves, one for every different group of records that lie within the \
             time difference of each other. Their edges sit on records (or one millisecond past \
             one), not on a clock grid, and a busy stretch makes many of them.",
            "Session windows have no size at all. A device's records belong to one session as \
             long as each follows the previous within the gap; a pause longer than the gap \
             closes it (Flink's EventTimeSessionWindows.withGap, Kafka Streams' \
             SessionWindows.ofInactivityGapWithNoGrace). A late record that falls into a pause \
             can join two sessions into one.",
            "Every kind still needs the watermark to know when a window is done: each box is \
             dashed while open and solid once it has fired. The four rows run the same window \
             operator as the streamlab window command, on the same records.",
        ],
        simplifications: &[
            "Windows are seconds long and the run lasts 40 seconds, standing in for hours.",
            "The picture shows device 0's windows; every other device has windows of its own \
             (windows are per key).",
            "Kafka Streams' sliding windows never start before time 0 (records in the first time \
             difference share one window [0, time difference]); here their windows may start \
             below 0, as hopping windows do.",
            "All four kinds fire when the watermark passes their end, and again for every late \
             record, as Flink's event-time triggers do. Kafka Streams closes windows by stream \
             time minus the grace period rather than by a watermark, and by default coalesces \
             updates in its record cache (statestore.cache.max.bytes, 10 MiB), forwarding at \
             most one per key and window per commit.interval.ms (30 s) unless the cache is off \
             or suppress() holds results until the window closes.",
            "A pause exactly as long as the session gap ends the session here: sessions that \
             only touch stay apart, as the window contract of `streamlab window` defines. Flink \
             merges them (its TimeWindow.intersects counts windows that only touch), and so does \
             Kafka Streams (a record within the inactivity gap, the gap included, joins the \
             session).",
            "Sliding windows are drawn half-open like the others: Kafka's inclusive window \
             [s, s + D] is drawn from s to s + D + 1 ms.",
            "To keep a run quick, the sliding time difference is capped so that a device expects \
             at most 100 records within it; the sliding band's title shows the value in use.",
        ],
        simpler_than: "Flink and Kafka Streams",
    },
    try_this: &[
        TryThis {
            prompt: "Make the hop 1 s (Flink's slide, Kafka's advanceBy).",
            expect: "The hopping row stacks ten deep and every record now sits in ten \
                     windows; the tumbling row does not change at all.",
            apply: |s| s.compared.hopping_hop_ms = 1_000,
        },
        TryThis {
            prompt: "Stretch the sliding windows' time difference to 10 s, the tumbling size.",
            expect: "The sliding band fills with dozens of overlapping windows and a record \
                     sits in up to twenty: one window for every different group of records \
                     within 10 s of each other, where tumbling needs four.",
            apply: |s| s.compared.sliding_time_difference_ms = 10_000,
        },
        TryThis {
            prompt: "Set the session gap to 500 ms.",
            expect: "The session row shatters into many short sessions, some of one record: \
                     a gap shorter than the usual pause between records splits every visit.",
            apply: |s| s.compared.session_gap_ms = 500,
        },
        TryThis {
            prompt: "Let a fifth of the records straggle by seconds, with 10 s of allowed \
                     lateness.",
            expect: "A late record re-fires one tumbling window, two hopping ones and many \
                     sliding ones (each box that fired again says so), and can bridge two \
                     sessions into one.",
            apply: |s| {
                s.delay.tail_probability = 0.2;
                s.delay.tail_mean_ms = 4_000;
                s.allowed_lateness_ms = 10_000;
            },
        },
        TryThis {
            prompt: "Make the hop equal to the size (10 s).",
            expect: "The hopping row turns into the tumbling row: tumbling windows are \
                     hopping windows whose hop is their size.",
            apply: |s| s.compared.hopping_hop_ms = s.compared.hopping_size_ms,
        },
    ],
    knob_sections: &[COMPARED, WINDOWING, OUTAGE, TRAFFIC, RUN],
    presets: streamlab_sim::eventtime::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: EventTimeView::Windows,
};
