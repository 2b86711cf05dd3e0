//! "Exactly once stops at the edge": the same job's updates sent outside it (an email, an
//! idempotent call, a transactional Kafka topic, a database that keeps the offsets), what a
//! replay repeats, and a paused instance that comes back as a zombie, with and without
//! fencing. Misconception 9 ("microbatching means end-to-end exactly-once") lives here.

use crate::families::exactly_once::EosFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::exactly_once::knobs::section::*;
use streamlab_sim::exactly_once::{Fencing, Mode, SinkKind, SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "effects",
    title: "Exactly once stops at the edge",
    theme: Theme::Failure,
    question: "Spark and Flink promise exactly-once. Then why did my customer get the same \
               email twice after a restart?",
    guarantee: "Inside the job: exactly once. Outside it: once only for a receiver that \
                deduplicates, a transaction committed with the checkpoint, or a store \
                that keeps the offsets; any other effect happens again for every record \
                replayed.",
    knowledge: "The job cannot know whether an email went out before the crash; only the \
                receiver can tell a repeat, and only if the call says which record it is.",
    failure: "A crash repeats every external effect since the last commit; a zombie \
              overwrites newer results unless the store fences it.",
};

pub static LESSON: Lesson<EosFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "The promise covers what the framework can roll back: its own state and its \
             offsets. A replay after a crash counts a record again into a state that was \
             rolled back to before it, so the count ends exact. An email sent the first time \
             was not rolled back: the replay sends it again. Microbatching does not change \
             this; the batch that runs again sends its emails again.",
            "Three things make an outside effect safe. The receiver can deduplicate, if each \
             call carries a key that names the input record (its partition and offset): the \
             second call is refused. The output can be written in a transaction that commits \
             only with the checkpoint, as Flink's Kafka sink does; readers with \
             isolation.level read_committed never see the aborted attempt. Or a database can \
             store the input offsets in the same transaction as the result, and skip an \
             update whose offset it already has.",
            "A paused instance is the other way out of exactly-once. If it stops answering \
             for longer than the heartbeat timeout, a replacement starts from the last \
             checkpoint. When the old one wakes up it does not know it was replaced, and goes \
             on writing older counts over the newer ones, until a write carries an epoch or a \
             transactional.id that the store can check and refuse.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Flink, Spark and Kafka",
    },
    try_this: &[
        TryThis {
            prompt: "Give each call an idempotency key.",
            expect: "The receiver refuses every repeat: no duplicates outside.",
            apply: |s| s.sink.kind = SinkKind::Idempotent,
        },
        TryThis {
            prompt: "Write to a Kafka topic in transactions instead.",
            expect: "Flink's aborted transaction is never seen by read_committed readers; \
                     Spark's Kafka sink writes its rerun batch again.",
            apply: |s| s.sink.kind = SinkKind::Kafka,
        },
        TryThis {
            prompt: "Pause the instance past the heartbeat timeout.",
            expect: "A replacement takes over; when the old instance wakes up its writes land \
                     over newer counts (stale writes).",
            apply: |s| {
                s.mode = Mode::Zombie;
                s.zombie.fencing = Fencing::None;
            },
        },
        TryThis {
            prompt: "The same pause, with epoch fencing.",
            expect: "Every write of the old instance is refused: no stale writes.",
            apply: |s| {
                s.mode = Mode::Zombie;
                s.zombie.fencing = Fencing::Epoch;
            },
        },
    ],
    knob_sections: &[SINK, ZOMBIE, CRASHES, CHECKPOINTS, MICROBATCHES, INPUT, RUN],
    presets: streamlab_sim::exactly_once::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
