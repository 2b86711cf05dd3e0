//! "Backpressure": a producer faster than its consumer and the answers to it (drop, buffer,
//! block, and the log as a durable buffer), direct delivery against a broker, and a Kinesis
//! shard's write limit.

use crate::families::queues::QueuesFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::queues::knobs::section::*;
use streamlab_sim::queues::{Mode, SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "backpressure",
    title: "Backpressure: drop, buffer, block or log",
    theme: Theme::Failure,
    question: "My producer sends faster than my consumer can process. Where do the extra \
               records go, and what happens to them when something dies?",
    guarantee: "Drop promises nothing. A memory buffer promises order and no loss while the \
                process lives. Block promises no loss by slowing the sender. A log keeps \
                every record until retention deletes it.",
    knowledge: "The producer knows only whether its send was taken. The consumer knows only \
                 what reached it. Only the buffer knows what waits, and a buffer in memory \
                 forgets it when its process dies.",
    failure: "A full small buffer drops; a crashed process takes its memory buffer with it; \
              a blocked producer stalls its own callers; a log reader that falls behind \
              retention loses the oldest records; a throttled shard refuses writes.",
};

pub static LESSON: Lesson<QueuesFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "When records arrive faster than they are processed, they must go somewhere. A \
             small buffer that drops what does not fit loses records at once, and says so. A \
             large buffer in the consumer's memory loses nothing until the process dies, and \
             then loses everything it held. Blocking the producer loses nothing here, but moves \
             the problem upstream: the producer's own rate falls, and its sender now waits.",
            "A log is a fourth answer: a buffer on the broker's disk, as large as retention \
             allows, that outlives the consumer. The backlog is still there, but it is a number \
             you can watch and catch up on, not a loss.",
            "Delivery without a broker (a webhook, UDP) assumes the consumer is always there: \
             what arrives while it is down is gone. And a log has limits of its own: a Kinesis \
             shard takes a fixed number of writes a second and refuses the rest.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Kafka, RabbitMQ and Kinesis",
    },
    try_this: &[
        TryThis {
            prompt: "Let the memory buffer spill to disk.",
            expect: "The buffer's crash loses only what was in memory; what spilled survives.",
            apply: |s| {
                s.mode = Mode::Backpressure;
                s.backpressure.spill_to_disk = true;
            },
        },
        TryThis {
            prompt: "Send only as fast as the consumer processes.",
            expect: "Every lane keeps up: nothing waits long, nothing is dropped, nobody blocks.",
            apply: |s| {
                s.mode = Mode::Backpressure;
                s.producer.records_per_second = 100;
            },
        },
        TryThis {
            prompt: "Direct delivery against a broker, with the consumer down for a while.",
            expect: "Direct delivery loses what is sent while the consumer is down; the broker \
                     keeps it and the consumer catches up.",
            apply: |s| {
                s.mode = Mode::Direct;
                s.crash.enabled = true;
            },
        },
        TryThis {
            prompt: "A Kinesis stream with one shard, written at 1,500 records/s.",
            expect: "A third of the writes are throttled: a shard takes 1,000 records a second.",
            apply: |s| {
                s.mode = Mode::Kinesis;
                s.kinesis.shards = 1;
                s.producer.records_per_second = 1_500;
            },
        },
    ],
    knob_sections: &[BUFFERS, CRASH, KINESIS, PRODUCER, PROCESSING, RUN],
    presets: streamlab_sim::queues::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
