//! "Stream joins": searches joined with their clicks within an interval (stream–stream),
//! orders enriched from a changing customer table by either clock (stream–table), and two
//! changelog tables joined into a view kept up to date (table–table).

use crate::families::joins::JoinsFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::joins::knobs::section::*;
use streamlab_sim::joins::{Mode, Outer, SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "stream-joins",
    title: "Stream joins: stream–stream, stream–table, table–table",
    theme: Theme::Time,
    question: "A join in SQL looks at two finished tables. What does a join mean when both \
               sides are still arriving, late and out of order?",
    guarantee: "An interval join's matches are the batch join of the events that were not \
                late, in any arrival order. An event-time temporal join answers each order \
                with the version valid at its time, whatever the interleaving. A \
                retracting view always equals the join of the current tables.",
    knowledge: "The join knows only what has arrived and its watermark: it cannot tell a \
                 click that will never come from one still on its way until the watermark \
                 passes the interval.",
    failure: "A late click is dropped and its search reported unclicked; a too-short \
              interval loses the slow clickers; a processing-time lookup enriches with \
              whatever version arrived first; an append-only sink keeps retracted rows.",
};

pub static LESSON: Lesson<JoinsFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A batch join sees every row of both tables at once. A streaming join sees rows one \
             at a time, in the order the network delivers them, and must decide how long to \
             wait for a partner. An interval join (Flink's intervalJoin(...).between(lower, \
             upper), Kafka Streams' JoinWindows) answers with event time: a click may join a \
             search when it happened between lower and upper after it. The watermark says when \
             no partner can still come; only then can a left join say \"this search was never \
             clicked\", and only then can the join forget the search.",
            "So the answer depends on time and on arrival. A click that happens after the \
             interval, or that arrives behind the watermark, never joins: its search is \
             reported unclicked and the click-through rate drops, although the user clicked.",
            "Joining a stream with a table raises another question: which version of the row? \
             By processing time, an order takes whatever the table holds when it arrives, so \
             the answer changes when the same input arrives interleaved differently. By event \
             time (FOR SYSTEM_TIME AS OF the order's time) it takes the version valid when the \
             order was placed, and waits for the watermark to be sure of it: the same answer \
             in every interleaving.",
            "Two tables joined together (a KTable–KTable join, a regular join in Flink SQL) \
             give a view that every change to either side updates: the old joined row is \
             retracted and the new one added. A sink that only appends keeps the old rows too.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Flink and Kafka Streams",
    },
    try_this: &[
        TryThis {
            prompt: "Shorten the interval to between(0 s, 1 s).",
            expect: "Most clicks come later than a second: they leave the state as lost \
                     clicks, and their searches are reported unclicked.",
            apply: |s| {
                s.mode = Mode::StreamStream;
                s.clicks.upper_ms = 1_000;
            },
        },
        TryThis {
            prompt: "Make it an inner join.",
            expect: "Unclicked searches are no longer emitted: the output holds only clicks, \
                     and a click-through rate computed from it is 100 %.",
            apply: |s| {
                s.mode = Mode::StreamStream;
                s.clicks.outer = Outer::Inner;
            },
        },
        TryThis {
            prompt: "Send one click in five 20 s late.",
            expect: "Those clicks arrive behind the watermark and are dropped; the output's \
                     click-through rate falls below the true one.",
            apply: |s| {
                s.mode = Mode::StreamStream;
                s.clicks.late_click_probability = 0.2;
            },
        },
        TryThis {
            prompt: "Enrich orders, then replay them in another interleaving.",
            expect: "Some processing-time answers change between the runs; no event-time \
                     answer does.",
            apply: |s| {
                s.mode = Mode::StreamTable;
                s.enrichment.replay_interleaving += 1;
            },
        },
        TryThis {
            prompt: "Join two changelog tables into a view.",
            expect: "Every customer change retracts and re-adds the rows of its orders; the \
                     view never differs from the batch join.",
            apply: |s| s.mode = Mode::TableTable,
        },
    ],
    knob_sections: &[JOIN, CLICKS, INTERVAL, WATERMARK, ENRICHMENT, TABLES, RUN],
    presets: streamlab_sim::joins::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
