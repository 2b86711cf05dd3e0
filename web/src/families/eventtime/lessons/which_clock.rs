//! Event-time lesson 1, "Which clock?": counting by processing time against counting by event
//! time, after the processor has been down and catches up.

use crate::families::eventtime::{EventTimeFamily, EventTimeView};
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::eventtime::knobs::section::*;
use streamlab_sim::window::WindowSpec;

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "which-clock",
    title: "Which clock?",
    theme: Theme::Time,
    question: "My hourly counts are wrong after an outage. Which clock was I counting by?",
    guarantee: "With event-time windows, a record is counted in the window its timestamp falls \
                in, however late it is processed, as long as it arrives before the watermark \
                passes the window's end plus the allowed lateness. Processing-time windows \
                promise only that a record is counted in the window during which it was read.",
    knowledge: "The job sees each record's event timestamp and its own clock. It cannot see the \
                 records still on their way, so it never knows that an event-time window is \
                 complete; the watermark is its guess. Processing-time windows need no guess, \
                 because they measure the job itself, not the world.",
    failure: "Processing-time counts follow the job's health, not the traffic: an outage shows \
              as an empty dip followed by a spike, and a slow consumer smears counts forward. \
              Event-time counts go wrong in a different way: records that arrive after the \
              watermark has passed (a delay longer than the bound) are late and, without \
              allowed lateness, dropped.",
};

pub static LESSON: Lesson<EventTimeFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "Every record carries two times that matter here. Its event time is when the thing \
             happened, stamped by the device. Its processing time is when your job got round to \
             it. While everything runs smoothly the two are a few hundred milliseconds apart and \
             it hardly matters which one a window uses.",
            "Then the processor stops. Devices keep producing and the topic keeps storing, so a \
             backlog builds up. When the processor comes back it reads that backlog as fast as it \
             can: minutes of events in a few seconds. A window defined by processing time puts \
             all of them into the window in which they were read. That window reports a huge \
             spike, and the windows of the outage report nothing, although traffic never changed.",
            "A window defined by event time asks the record when it happened, so the backlog lands \
             back in the windows it belongs to. The price is waiting: such a window can only be \
             closed when the job believes no more of its records are coming. That belief is the \
             watermark, here the largest event time seen minus a bound on how out of order \
             records arrive. During the outage the watermark stands still and the windows wait; \
             once the backlog is read they fire, late but right.",
        ],
        simplifications: &[
            "Windows are 30 s long and the run lasts 3 minutes, standing in for hours and days.",
            "The watermark is recomputed after every record, not on Flink's periodic \
             autoWatermarkInterval timer.",
            "The input is bounded: at its end the watermark jumps to the end of time and every \
             window fires, as when a bounded Flink source finishes.",
            "The processor reads the backlog at one fixed catch-up rate, in arrival order; a real \
             job's speed depends on its state, its sinks and back pressure.",
        ],
        simpler_than: "Flink",
    },
    try_this: &[
        TryThis {
            prompt: "Make the outage twice as long (80 s).",
            expect: "The processing-time spike roughly doubles and more windows read zero; the \
                     event-time line still lies on the truth, it just fires later.",
            apply: |s| s.outage.duration_ms = 80_000,
        },
        TryThis {
            prompt: "Let the processor catch up slowly: 30 records/s.",
            expect: "The backlog drains over several windows, so the spike becomes a wide hump; \
                     the backlog counter stays above zero much longer.",
            apply: |s| s.outage.catch_up_records_per_second = 30,
        },
        TryThis {
            prompt: "Add a long delay tail: 20% of records arrive up to tens of seconds late.",
            expect: "Now event time misses too: stragglers arrive after the watermark passed \
                     their window and are dropped, so the event-time line dips under the truth.",
            apply: |s| {
                s.delay.tail_probability = 0.2;
                s.delay.tail_mean_ms = 5_000;
            },
        },
        TryThis {
            prompt: "With that tail, allow 30 s of lateness.",
            expect: "Late records re-fire their windows with corrected counts, and the \
                     event-time line climbs back onto the truth.",
            apply: |s| {
                s.delay.tail_probability = 0.2;
                s.delay.tail_mean_ms = 5_000;
                s.allowed_lateness_ms = 30_000;
            },
        },
        TryThis {
            prompt: "Shrink the windows to 10 s.",
            expect: "The spike gets taller relative to the truth: the same backlog now lands in \
                     one short window.",
            apply: |s| s.window = WindowSpec::Tumbling { size_ms: 10_000 },
        },
    ],
    knob_sections: &[WINDOWING, OUTAGE, TRAFFIC, RUN],
    presets: streamlab_sim::eventtime::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: EventTimeView::Clocks,
};
