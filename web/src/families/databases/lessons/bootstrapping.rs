//! "Compaction, snapshots and bootstrapping": a compacted CDC topic beside an event-sourced
//! log of the same accounts, a tombstone that removes its key, a new consumer rebuilding the
//! table from offset 0, and a new store bootstrapped from a snapshot tied to its log position
//! or not.

use crate::families::databases::DatabasesFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::databases::knobs::section::*;
use streamlab_sim::databases::{Mode, BOOTSTRAPPING_SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "bootstrapping",
    title: "Compaction, snapshots and bootstrapping",
    theme: Theme::Log,
    question: "A new service needs the whole accounts table. Can it read it from Kafka \
               without replaying every change ever made, and why can't I compact my \
               event-sourced log the same way?",
    guarantee: "Compaction keeps at least the newest record of every key, and a \
                tombstone for delete.retention.ms. A snapshot tied to its log position \
                gives every change exactly once; an untied copy promises nothing.",
    knowledge: "The cleaner knows keys and offsets, not meaning: it cannot tell a state \
                from an event. Only the snapshot's position tells the stream where to \
                begin.",
    failure: "Compacting an event log loses the history the state is built from. A reader \
              slower than delete.retention.ms misses a delete. An untied snapshot misses \
              or repeats the writes made while it read.",
};

pub static LESSON: Lesson<DatabasesFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A CDC topic holds each row as it is after a change, keyed by the row. With \
             cleanup.policy=compact, Kafka's log cleaner keeps the newest record of each key \
             and drops the ones it replaces. It works on closed segments only (rolled by \
             segment.ms) and runs when the dirty part of the log passes \
             min.cleanable.dirty.ratio. A new consumer reading from offset 0 then reads about \
             one record per live account, not every write.",
            "Closing an account writes a tombstone: its key with no value. The cleaner drops \
             the account's older records at once and keeps the tombstone for \
             delete.retention.ms, so readers that already saw the account learn that it is \
             gone. After that the tombstone goes too, and the key leaves no trace.",
            "An event-sourced log is different: it stores what happened (deposits, \
             withdrawals), and a balance is the sum of all of them. Keeping only each \
             account's last event would give wrong balances, so such a log cannot be \
             compacted. CDC records state; event sourcing records history.",
            "A new store can also start from a snapshot of the database and continue from \
             the change log. That only works if the snapshot is tied to a log position (as \
             Debezium's snapshot.mode=initial does it): the stream then starts exactly after \
             what the snapshot saw. A plain copy of the live table followed by a consumer \
             from the topic's end misses the writes made while it copied.",
        ],
        simplifications: BOOTSTRAPPING_SIMPLIFICATIONS,
        simpler_than: "Kafka's log cleaner and Debezium",
    },
    try_this: &[
        TryThis {
            prompt: "Make the cleaner lazier: min.cleanable.dirty.ratio 0.9.",
            expect: "Fewer cleanings, and the topic grows longer between them: the new \
                     consumer may read more records, still far fewer than every write.",
            apply: |s| {
                s.mode = Mode::Compaction;
                s.topic.min_cleanable_dirty_ratio = 0.9;
            },
        },
        TryThis {
            prompt: "Roll segments only every two minutes (segment.ms).",
            expect: "The active segment is never cleaned, so up to two minutes of writes wait \
                     there uncompacted and the new consumer reads hundreds of records.",
            apply: |s| {
                s.mode = Mode::Compaction;
                s.topic.segment_ms = 120_000;
            },
        },
        TryThis {
            prompt: "Bootstrap from a plain copy of the live table, then read from the end.",
            expect: "Writes made while the copy ran are missed (missed_or_duplicated > 0) and \
                     some rows stay wrong.",
            apply: |s| {
                *s = streamlab_sim::databases::snapshot_without_offset();
            },
        },
        TryThis {
            prompt: "The same copy, but its consumer reads from the earliest offset.",
            expect: "Nothing is missed, but changes the copy already had are applied again \
                     (duplicated > 0), and rows go back to older values for a while.",
            apply: |s| {
                *s = streamlab_sim::databases::snapshot_without_offset();
                s.snapshot.offset_reset = streamlab_sim::databases::OffsetReset::Earliest;
            },
        },
    ],
    knob_sections: &[TOPIC, ACCOUNTS, SNAPSHOT, WRITES, RUN],
    presets: streamlab_sim::databases::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
