//! Lesson 3, "Commits, crashes, retention and dead letters": when to commit, what a crash
//! costs under each choice, where exactly-once really lives, what retention does to a reader
//! that falls behind, replay, and a record that never succeeds.

use crate::families::kafka::{panels, KafkaFamily, KafkaOptions};
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::family::preset;
use streamlab_sim::kafka::knobs::section::*;
use streamlab_sim::kafka::presets::DELIVERY_PRESETS;
use streamlab_sim::kafka::scenario::ManualCommit;
use streamlab_sim::kafka::sink::SinkMode;

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "delivery",
    title: "Commits, crashes, retention and dead letters",
    theme: Theme::Failure,
    question: "When should my consumer commit its position, and why can I not have both no \
               loss and no duplicates?",
    guarantee: "A new owner resumes at the committed offset. Kafka promises nothing about work \
                done after that commit, or skipped before it; only a commit that is part of \
                the output's own write makes both impossible.",
    knowledge: "The broker knows the committed offset and nothing else about your progress. \
                Only the output store can tell whether a record's effect already happened, and \
                only if each write carries the record's partition and offset.",
    failure: "Commit early and a crash loses records; commit late and it repeats them; fall \
              behind retention and records vanish unread; a poison record blocks a partition \
              for its whole retry schedule.",
};

pub static LESSON: Lesson<KafkaFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A group keeps one number per partition that outlives its members: the committed \
             offset. It means \"everything before this is done\". After a crash, whoever takes the \
             partition over starts there, not where the dead member had got to. So the only \
             question is whether that number runs ahead of the work or behind it.",
            "Commit before processing, and a crash skips whatever was fetched but not yet \
             handled: those records never have an effect. Commit after, and a crash repeats \
             whatever was handled since the last commit: a plain output store gets the same \
             effect twice. Committing more often shrinks the window; it never closes it, because \
             the offset and the output live in two different systems.",
            "Closing it means making them one write: store the offset in the same transaction as \
             the output, or make the output ignore a write it has already applied. Kafka \
             transactions do the first only when the output is itself a Kafka topic and its \
             readers use isolation.level=read_committed; a database output needs the offset in \
             the database's own transaction, and the consumer must seek() to it whenever it is \
             given the partition. Repeats still happen; they stop mattering. That is what \
             \"effectively once\" means.",
            "The log also forgets. retention.ms deletes records by age whether anyone read them \
             or not, so a reader that stays behind longer than the retention window loses what it \
             had not reached, and auto.offset.reset decides where it lands. Within the window, a \
             new group can read the whole history, and an old one can be reset to read it again.",
            "A record that always fails stops its partition: the consumer must handle records in \
             order, so the error handler retries it, and every partition that consumer reads waits. \
             After the last attempt it is parked in a dead-letter topic and the line moves on.",
        ],
        simplifications: &[
            "Commits and writes take no network time, so commitSync() after each record leaves no \
             gap between the write and the commit; in a real consumer a crash in that gap repeats \
             one record.",
            "Retention deletes record by record; Kafka deletes whole segments (segment.bytes, 1 GiB \
             by default), so its log start jumps in steps, later than here.",
            "A group that exists when the run starts has offset 0 committed everywhere; \
             auto.offset.reset applies to groups started later and to offsets retention deleted.",
            "Kafka's consumer has no dead-letter queue: the retry and dead-letter knobs follow \
             Spring Kafka's DefaultErrorHandler (FixedBackOff) and Kafka Connect's errors.* \
             settings. The record is retried in place, and a member waiting out a back-off still \
             counts as polling.",
            "Transient failures are drawn independently for each attempt; real ones come in \
             bursts (a database down for a minute fails every record until it is back).",
            "An offset reset applies while the group runs, as if every member called seek(); \
             kafka-consumer-groups --reset-offsets requires the group to be stopped.",
            "The idempotent sink keeps every input's partition and offset; a real one needs a \
             unique key or a stored offset per partition.",
            "The upsert-by-key sink versions each key by its input offset within one partition; \
             it is exact while a key always lands in the same partition (the partition count never \
             changes here). A record whose key already holds a newer value counts as done.",
        ],
        simpler_than: "Kafka",
    },
    try_this: &[
        TryThis {
            prompt: "Switch the manual commit to after each batch.",
            expect: "The lost count stays at zero, and the records c1 had written before its \
                     crash are written again: duplicates, marked ×2.",
            apply: |s| s.groups[0].manual_commit = ManualCommit::AfterBatch,
        },
        TryThis {
            prompt: "Now make the sink idempotent.",
            expect: "The repeated writes still reach the sink (the table says ignored), but \
                     no record has two effects.",
            apply: |s| {
                s.groups[0].manual_commit = ManualCommit::AfterBatch;
                s.groups[0].sink = SinkMode::Idempotent;
            },
        },
        TryThis {
            prompt: "Or make it an upsert by record key.",
            expect: "Each replayed record finds its key already at that offset or a newer one, \
                     so the table marks it ignored and never puts an older value back.",
            apply: |s| {
                s.groups[0].manual_commit = ManualCommit::AfterBatch;
                s.groups[0].sink = SinkMode::ByKey;
            },
        },
        TryThis {
            prompt: "Commit in the output's transaction instead.",
            expect: "No loss and no duplicates with a plain sink: the offset and the effect \
                     land together or not at all (with a Kafka topic as the output and \
                     read_committed readers, or a database that stores the offset itself; the \
                     real-config panel shows both).",
            apply: |s| s.groups[0].manual_commit = ManualCommit::Transactional,
        },
        TryThis {
            prompt: "Turn on auto-commit with the default 5 s interval and no manual commit.",
            expect: "No loss, but a crash repeats up to one auto-commit interval of work, plus \
                     the batch in hand.",
            apply: |s| {
                s.groups[0].manual_commit = ManualCommit::None;
                s.groups[0].enable_auto_commit = true;
            },
        },
        TryThis {
            prompt: "Open the retention preset and give analytics a second member.",
            expect: "It keeps up, and retention deletes only records it has already read.",
            apply: |s| {
                *s = (preset::find(&DELIVERY_PRESETS, "analytics-falls-behind-retention")
                    .expect("preset")
                    .build)();
                s.groups[1].members = 2;
            },
        },
    ],
    knob_sections: &[
        TOPIC, PRODUCER, GROUPS, GROUP, COMMITS, DELIVERY, RETENTION, RUN,
    ],
    presets: &DELIVERY_PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: KafkaOptions {
        membership: None,
        delivery: Some(panels::draw_delivery),
    },
};
