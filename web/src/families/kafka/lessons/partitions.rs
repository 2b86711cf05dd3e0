//! Lesson 1, "Partitions and consumer groups": ordering, sharing work, and the ceiling.

use crate::families::kafka::{KafkaFamily, KafkaOptions};
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::kafka::knobs::section::*;
use streamlab_sim::kafka::presets::PARTITIONS_PRESETS;
use streamlab_sim::kafka::scenario::{GroupConfig, DEFAULT_GROUP_IDS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "partitions",
    title: "Partitions and consumer groups",
    theme: Theme::Log,
    question: "My topic promises ordering — ordering of what, exactly? How do several processes \
               share a topic without doing the same work twice, and how does another team read \
               it without slowing mine down?",
    guarantee: "Records with the same key are read in the order they were written, by one \
                member of each group at a time, as long as the partition count stays put \
                (adding partitions moves keys: the queues lesson shows it). Nothing is \
                promised across partitions.",
    knowledge: "A member knows only the partitions it was given and how far it has got in \
                 each. The broker knows where each log ends. No process can see an order \
                 between records of different partitions, because none exists.",
    failure: "A hot key overloads one partition while the others idle; extra members sit idle \
              once they outnumber partitions; and slow processing caps each partition at one \
              member's speed, so lag grows no matter how many machines you add.",
};

pub static LESSON: Lesson<KafkaFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A topic is not one queue but several logs side by side: its partitions. Every record \
             lands in exactly one of them and gets the next offset there, so inside a partition \
             the order is fixed, and between partitions there is none. The producer picks the \
             partition by hashing the record's key, which keeps every record of one key in one \
             partition and in the order it was sent.",
            "A consumer group divides the partitions among its members: each partition belongs to \
             one member at a time, and that member works through it in offset order (a member \
             just removed from the group may still be finishing the batch it held, a zombie, \
             while the new owner starts: the rebalances lesson shows it). Inside a group the \
             topic behaves like a work queue. A second group keeps its own positions and reads \
             everything again, at its own pace, without touching the first group's.",
            "Because one member handles a partition's records one after another, a partition can \
             never go faster than that member's processing. Members beyond the partition count \
             get nothing to do, and a key that gets most of the traffic overloads its partition \
             however many members you add.",
        ],
        simplifications: &[
            "Membership is fixed for the whole run: no rebalances yet, so members never join, \
             leave or crash mid-run.",
            "Null-key records stick to one partition for 16 records at a time; Kafka's sticky \
             partitioner switches after batch.size bytes.",
            "A poll starts at the next owned partition in turn; Kafka's fetcher drains one \
             fetched partition first. Both even out over a few polls.",
            "Network and broker delays are left out except linger.ms; processing times are whole \
             milliseconds.",
        ],
        simpler_than: "Kafka",
    },
    try_this: &[
        TryThis {
            prompt: "Give the group 8 members on 6 partitions.",
            expect: "Two members sit idle: there is no seventh partition to hand them.",
            apply: |s| {
                s.topic.partitions = 6;
                s.groups[0].members = 8;
            },
        },
        TryThis {
            prompt: "Raise the key skew to 2 and the rate to 300 records/s.",
            expect: "One partition's lag climbs while the others stay near zero; adding \
                     members does not help, because one key cannot be split.",
            apply: |s| {
                s.producer.key_skew = 2.0;
                s.producer.rate_per_s = 300;
            },
        },
        TryThis {
            prompt: "One partition, 20 ms per record, 500 records/s, 8 members.",
            expect: "Throughput flattens near 50 records/s: one partition goes as fast as one \
                     member, whatever the group's size.",
            apply: |s| {
                s.topic.partitions = 1;
                s.producer.rate_per_s = 500;
                s.groups[0].members = 8;
                s.groups[0].processing.time_ms = 20;
            },
        },
        TryThis {
            prompt: "Add a second, slow group (one member, 20 ms per record).",
            expect: "The new group falls behind on its own; the first group's lag does not \
                     change. Both read the same stored records.",
            apply: |s| {
                if s.groups.len() < 2 {
                    let mut slow = GroupConfig::named(DEFAULT_GROUP_IDS[1]);
                    slow.members = 1;
                    slow.processing.time_ms = 20;
                    s.groups.push(slow);
                }
            },
        },
        TryThis {
            prompt: "Seven partitions, three members: compare range with roundrobin.",
            expect: "Range gives c1 partitions 0–2; roundrobin deals them out one by one. \
                     With several topics, range piles the extras on the same member.",
            apply: |s| {
                s.topic.partitions = 7;
                s.groups[0].members = 3;
            },
        },
    ],
    knob_sections: &[TOPIC, PRODUCER, GROUPS, GROUP, RUN],
    presets: &PARTITIONS_PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: KafkaOptions {
        membership: None,
        delivery: None,
    },
};
