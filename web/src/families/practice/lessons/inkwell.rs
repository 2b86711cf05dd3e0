//! "Practice: the Inkwell challenge": three services reading one topic, each broken, fixed
//! with knobs only and graded on the run.

use crate::families::practice::{PracticeFamily, PracticeOptions};
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::practice::knobs::section::{CONSUMERS, TOPIC};
use streamlab_sim::practice::SIMPLIFICATIONS;

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "inkwell",
    title: "Practice: the Inkwell challenge",
    theme: Theme::Practice,
    question: "Inkwell's search is stale, its analytics has holes and its recommender \
               never catches up after a deploy. Can you fix all three with settings alone, \
               without blowing the budget?",
    guarantee: "Each group reads every retained event of every partition in order, at \
                least once, at its own pace. Nothing guarantees it reads an event before \
                retention deletes it.",
    knowledge: "A consumer knows only its own partitions and how far it got in them. The \
                 broker knows every group's committed offsets but deletes by age or size \
                 without asking any group. Only a lag metric tells a team how far behind \
                 it is.",
    failure: "A group slower than the producer falls further behind every second. When \
              retention deletes events a group has not read yet, its position is out of \
              range and auto.offset.reset decides where it goes: with Kafka's default, \
              latest, it jumps to the end of the log and skips everything in between. \
              Consumers beyond the partition count sit idle however many you add.",
};

pub static LESSON: Lesson<PracticeFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "Inkwell writes 300 events a second to one topic. Three services read all of it, \
             each as its own consumer group at its own pace: search indexes an event in 5 ms, \
             analytics loads it into a warehouse in 4 ms (five times slower while the \
             warehouse struggles, from 30 s to 90 s), and the recommender scores it in 12 ms. \
             At 60 s the recommender is redeployed: every one of its consumers stops for 20 s.",
            "Each service has one goal, judged on the run and shown beside it: search is never \
             more than 2 s behind; analytics loses nothing to retention; the recommender is \
             caught up (less than a second behind) within 60 s of its deploy starting. No \
             service may lose an event. Press play, watch the goals, then change the knobs \
             and try again.",
            "Everything costs. A consumer costs 10 credits whether it has a partition or \
             not, a partition 2, and every megabyte retention keeps 1. An attempt over 135 \
             credits fails, so the answer is not to add everything: give each service what \
             its own deadline needs.",
            "When every goal passes, the address bar (and the link under the chart) is your \
             solution: send it, and streamlab grade gives the same verdict from the \
             scenario you export.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Kafka",
    },
    try_this: &[
        TryThis {
            prompt: "Add everything: 12 partitions, a week of retention, 12 consumers each.",
            expect: "Every service meets its deadline and the attempt still fails: it costs \
                     several times the budget.",
            apply: |s| {
                s.partitions = 12;
                s.retention_ms = 604_800_000;
                s.consumers.search = 12;
                s.consumers.analytics = 12;
                s.consumers.recommender = 12;
            },
        },
        TryThis {
            prompt: "Give search a second consumer, and change nothing else.",
            expect: "Search passes; the other services fail exactly as before, because each \
                     group reads the topic at its own pace.",
            apply: |s| s.consumers.search = 2,
        },
    ],
    knob_sections: &[TOPIC, CONSUMERS],
    presets: streamlab_sim::practice::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: PracticeOptions { hints: HINTS },
};

/// One at a time, from a nudge to nearly the answer.
const HINTS: &[&str] = &[
    "Work out what one consumer of each service can do: 1000 ms divided by its time per \
     event. Inkwell sends 300 events a second.",
    "Search: one consumer handles 200 events a second. How many does it need, and does the \
     topic have enough partitions for them?",
    "Analytics: while the warehouse is slow, each consumer handles 50 events a second. Watch \
     how far behind it gets, and compare that with retention.ms. Keeping more costs a little; \
     so does another consumer.",
    "Recommender: twelve consumers, four partitions. Look at the diagram: how many of them \
     are reading anything? What it needs is more busy consumers, not more consumers.",
    "After the deploy the recommender has 20 s of events waiting. With four busy consumers it \
     drains them at about 33 events a second beyond the 300 arriving; to catch up within \
     the deadline it needs more partitions, and a consumer for each.",
];
