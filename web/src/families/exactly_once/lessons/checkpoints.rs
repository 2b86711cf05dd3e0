//! "Checkpoints": a keyed running count crashed at the same instant under three recovery
//! models (Spark's microbatches, Flink's checkpoint barriers, no checkpoints), what each
//! restores and replays, and why an aligned barrier waits for the slowest input.

use crate::families::exactly_once::EosFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::exactly_once::knobs::section::*;
use streamlab_sim::exactly_once::{CrashMode, SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "checkpoints",
    title: "Checkpoints: exactly once inside the job",
    theme: Theme::Failure,
    question: "My stream job keeps a count per key. When it crashes and restarts, is the \
               count still right, and how much work does it redo?",
    guarantee: "With microbatches or checkpoints, the state after every restart equals the \
                count of the records before its positions: exactly once inside the job. \
                Records between the last commit and the crash are processed twice.",
    knowledge: "The job knows only what it committed: the last finished batch or the last \
                complete checkpoint. What it counted since is gone with the crash.",
    failure: "A crash throws away everything since the last commit; a slow input stretches \
              every aligned checkpoint; a job without checkpoints loses its whole state.",
};

pub static LESSON: Lesson<EosFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A stateful job holds two things that must agree: its state (here, a count per \
             key) and its place in the input (an offset per partition). If a restart brings \
             back one without the other, records are counted twice or not at all. Every \
             recovery model is a way to save the two together.",
            "Spark cuts the input into microbatches. Before a batch runs, the offsets it will \
             read are written to a log; when it ends, its state and offsets are committed as \
             one. A crash in the middle throws the batch's work away, and the restarted query \
             runs the same batch again over the same offsets, from the state the previous \
             batch left.",
            "Flink instead sends a barrier down every input partition at each checkpoint \
             interval. When the counter has seen the barrier on all its inputs, it snapshots \
             its state: everything before the barriers is in it, nothing after. To line the \
             inputs up it holds back those whose barrier came early, so one slow input makes \
             every checkpoint wait (unaligned checkpoints skip the wait by storing the records \
             still in flight). After a crash the job reloads the last complete checkpoint and \
             rewinds each source to the checkpoint's offsets.",
            "Both models read some records again after a crash, but their state comes back \
             exactly equal to a count of the records before the restored offsets: the replay \
             counts each record once more into a state that had not yet counted it. A job \
             without checkpoints has nothing to go back to: its state starts empty.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Flink and Spark",
    },
    try_this: &[
        TryThis {
            prompt: "Checkpoint every second instead of every five.",
            expect: "The checkpointing job reads fewer records again after the crash; its \
                     state is still exact.",
            apply: |s| s.checkpoint.interval_ms = 1_000,
        },
        TryThis {
            prompt: "Crash at random, about every ten seconds.",
            expect: "Every restart of the microbatch and checkpointing jobs finds an exact \
                     state; the job without checkpoints loses its count each time.",
            apply: |s| {
                s.crash.mode = CrashMode::Random;
                s.crash.mean_interval_ms = 10_000;
            },
        },
        TryThis {
            prompt: "Make partition 2 slow, then turn on unaligned checkpoints.",
            expect: "Aligned, each checkpoint holds the other inputs back for the extra delay; \
                     unaligned, alignment drops to 0 and the records in flight are stored \
                     with the checkpoint.",
            apply: |s| {
                s.slow_partition.enabled = true;
                s.checkpoint.unaligned = true;
            },
        },
    ],
    knob_sections: &[
        CHECKPOINTS,
        MICROBATCHES,
        NO_CHECKPOINTS,
        CRASHES,
        SLOW,
        INPUT,
        RUN,
    ],
    presets: streamlab_sim::exactly_once::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
