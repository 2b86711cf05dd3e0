//! "Top-K per window": the most viewed posts of each window, counted exactly, merged from
//! per-partition lists (right or wrong by how the stream is keyed), and estimated by a
//! count-min sketch with a heap when the counts do not fit.

use crate::families::joins::JoinsFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::joins::knobs::section::*;
use streamlab_sim::joins::{Mode, TopKWindow, SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "top-k",
    title: "Top-K per window, and the count-min sketch",
    theme: Theme::Time,
    question: "I want the five most viewed posts of every ten seconds. Can each partition \
               rank its own share and a merge add them up, and what if the counts do not \
               fit in memory?",
    guarantee: "Exact and post-keyed merges give the true top K of every window. The sketch \
                never underestimates, and overcounts by more than e/width × N with \
                probability at most e^−depth.",
    knowledge: "A partition knows only its share of each count. The sketch knows no post's \
                 count exactly, only an upper bound, and forgets posts its heap let go.",
    failure: "A merge over a stream keyed by something else misses posts whose views are \
              spread; a sketch too narrow for the window overcounts and may rank a \
              rarely viewed post into the top K.",
};

pub static LESSON: Lesson<JoinsFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "Exact top-K per window (Flink SQL's window Top-N: ROW_NUMBER() OVER (PARTITION BY \
             window_start, window_end ORDER BY views DESC), kept where rownum <= K) counts \
             every post in the window and ranks them when the watermark closes it.",
            "Spread over partitions, each partition can rank its own posts and a final step can \
             merge the lists. That is exact when the stream is keyed by the post: each post's \
             whole count is in one partition. Keyed by anything else (the user), a post's views \
             are split: a partition's list holds only its share, a post just below the cut in \
             every partition appears in none, and the merge misses it or ranks it too low.",
            "When there are too many posts to count each, a count-min sketch keeps a few rows of \
             counters; a post adds one to a counter in every row, and its estimate is the \
             smallest of its counters. Collisions only add, so the estimate is never below the \
             truth, and with width w and depth d it is at most e/w × N too high with \
             probability 1 − e^−d (N: the views in the window). A small heap keeps the posts \
             with the largest estimates.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Flink",
    },
    try_this: &[
        TryThis {
            prompt: "One partition.",
            expect: "Both merges see every count whole: partitioned by user is as right as by \
                     post.",
            apply: |s| {
                s.mode = Mode::TopK;
                s.topk.partitions = 1;
            },
        },
        TryThis {
            prompt: "A sketch only 16 counters wide.",
            expect: "Estimates overcount by much more (still within the bound), and the \
                     sketch's ranking misses posts.",
            apply: |s| {
                s.mode = Mode::TopK;
                s.topk.sketch_width = 16;
            },
        },
        TryThis {
            prompt: "Even popularity (no skew).",
            expect: "With no clear leaders the true top K is a near tie; every approximation \
                     gets harder.",
            apply: |s| {
                s.mode = Mode::TopK;
                s.topk.zipf_exponent = 0.0;
            },
        },
        TryThis {
            prompt: "Hopping windows of 10 s every 5 s.",
            expect: "Each view counts in two windows; twice as many windows close, and as much \
                     state is held.",
            apply: |s| {
                s.mode = Mode::TopK;
                s.topk.window = TopKWindow::Hopping;
            },
        },
    ],
    knob_sections: &[VIEWS, TOP_N, SKETCH, WATERMARK, RUN],
    presets: streamlab_sim::joins::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
