//! "Queues, logs and share groups": one topic read three ways on one seed (a consumer group,
//! a Kafka 4 share group, a classic queue), what each buys in parallelism and what it costs in
//! order and in history.

use crate::families::queues::QueuesFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::queues::knobs::section::*;
use streamlab_sim::queues::{Mode, SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "queues",
    title: "Queues, logs and share groups",
    theme: Theme::Log,
    question: "A queue lets me add consumers until the work keeps up. Why does my consumer \
               group stop scaling at the partition count, and what would a queue cost me?",
    guarantee: "The consumer group: every key's records are processed in offset order, at \
                least once. The share group and the queue: every record is delivered until \
                it is acknowledged or given up, with no order between deliveries.",
    knowledge: "A consumer knows only what it was handed. The share-partition knows each \
                 in-flight record's state and delivery count; the queue knows what it has \
                 not yet had acknowledged, and nothing of what it deleted.",
    failure: "A crashed consumer's records come back: after its session times out \
              (consumer group), when their locks run out (share group), or when the broker \
              sees the connection drop (queue). Redelivered, they finish after later \
              records of the same key.",
};

pub static LESSON: Lesson<QueuesFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "The same records arrive in one topic and three readers take them. A consumer group \
             gives each partition to one member, which works through it in offset order: a key \
             stays in order, and a partition goes exactly as fast as one member. Members beyond \
             the partition count wait.",
            "A share group (Kafka 4, KIP-932) lets several members take records from the same \
             partition. The broker locks each record it hands out, counts its deliveries, and \
             makes it available again if the member releases it or the lock runs out; after a \
             delivery limit the record is archived. A classic queue broker does the same with \
             messages: it pushes them to consumers up to a prefetch limit, deletes what is \
             acknowledged and puts back what is not.",
            "Both scale past the partition count, because a record no longer waits for the one \
             before it. That is also what they give up: when a record is redelivered, a later \
             record of its key may already be done. And a queue forgets what it delivered, so a \
             reader that arrives later finds nothing of the past, while the log still holds it.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Kafka and RabbitMQ",
    },
    try_this: &[
        TryThis {
            prompt: "Twelve consumers on three partitions.",
            expect: "The consumer group keeps nine members idle and stays at three records at a \
                     time; the share group and the queue use them all and go faster.",
            apply: |s| {
                s.mode = Mode::Readers;
                s.topic.partitions = 3;
                s.consumers = 12;
            },
        },
        TryThis {
            prompt: "Let one attempt in ten fail.",
            expect: "The consumer group retries in place and keeps every key in order; the share \
                     group and the queue hand the record back and its key is inverted.",
            apply: |s| s.processing.failure_rate = 0.1,
        },
        TryThis {
            prompt: "Crash a consumer at 20 s.",
            expect: "What it held comes back on each reader's own schedule: the queue at once, \
                     the share group when the locks run out, the consumer group after the \
                     session timeout, from the committed offset.",
            apply: |s| {
                s.crash.enabled = true;
                s.crash.at_ms = 20_000;
            },
        },
        TryThis {
            prompt: "A reader that joins at 30 s.",
            expect: "A new group on the log can still read everything retained; a new consumer \
                     of the queue gets only what was not yet acknowledged.",
            apply: |s| {
                s.late_reader.enabled = true;
                s.late_reader.start_ms = 30_000;
            },
        },
        TryThis {
            prompt: "Add partitions while the group is behind.",
            expect: "About half the keys move to a new partition; their new records are read \
                     before the old ones still waiting, and the key's order breaks.",
            apply: |s| s.mode = Mode::Repartition,
        },
    ],
    knob_sections: &[
        READERS,
        PROCESSING,
        CRASH,
        SHARE_GROUP,
        QUEUE,
        LATE_READER,
        PARTITIONS,
        PRODUCER,
        RUN,
    ],
    presets: streamlab_sim::queues::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
