//! "Replication and durability": a partition copied to several brokers, what `acks`,
//! `min.insync.replicas`, retries and idempotence promise the producer, and what a leader
//! crash, clean or unclean, does to the records it had acknowledged.

use crate::families::replication::ReplicationFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::replication::knobs::section::*;
use streamlab_sim::replication::{Acks, Fault, FaultKind, SIMPLIFICATIONS};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "replication",
    title: "Replication and durability: acks, the ISR and failover",
    theme: Theme::Failure,
    question: "Every other lesson says the broker keeps my records. When does a record the \
               broker acknowledged disappear, and what does it cost to make sure it never \
               does?",
    guarantee: "With acks=all, min.insync.replicas of 2 or more and no unclean election, a \
                record the producer was told is written survives as long as fewer than \
                min.insync.replicas brokers fail at once. Consumers only ever read below \
                the high watermark.",
    knowledge: "The producer knows only the answers it got. A leader knows what each \
                 follower last asked for, not what it holds now; a follower knows only its \
                 own log. Only the controller decides who leads, and a broker cut off from \
                 it may go on believing it still does.",
    failure: "A crashed leader takes the records only it had (acks=1); a shrunken ISR \
              refuses acks=all writes, or, with min.insync.replicas=1, accepts them on a \
              single copy; an unclean election discards acknowledged records; a retry without \
              idempotence writes a duplicate; a partition without a leader stops taking \
              writes until one is elected.",
};

pub static LESSON: Lesson<ReplicationFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "A partition lives on several brokers. One replica is the leader: producers write \
             to it and it decides the order. The others are followers that keep asking the \
             leader for what they lack and append it to their own copy. Each replica has a log \
             end offset, the next offset it would write. The leader moves the high watermark \
             up to the smallest log end among the in-sync replicas (the ISR): records below it \
             are on every in-sync copy, and only those are handed to consumers.",
            "A follower stays in the ISR while it keeps catching up with the leader's log end; \
             one that has not caught up for replica.lag.time.max.ms is dropped, so a slow copy \
             cannot hold the partition back for ever. When a leader's broker dies, the \
             controller notices after broker.session.timeout.ms and promotes a replica from \
             the ISR. Such a replica has every record below the high watermark, so nothing a \
             consumer could have read is lost.",
            "The producer chooses what an acknowledgement means. acks=0 does not wait at all. \
             acks=1 waits until the leader has the record, so a leader that dies before its \
             followers fetched it takes acknowledged records with it: the new leader never had \
             them, and the old one cuts them from its log when it returns. acks=all waits until \
             every in-sync replica has it; min.insync.replicas sets how small the ISR may get \
             before such writes are refused with NotEnoughReplicas rather than kept on too few \
             copies. The three rows under the picture run all three settings on the same \
             faults, so the loss and the latency of each can be read side by side.",
            "When no in-sync replica is left, unclean.leader.election.enable decides between \
             waiting offline and electing a replica that is out of sync: available again, but \
             without whatever it had missed, acks=all or not. And when an answer is late, the \
             producer sends the batch again; unless enable.idempotence lets the leader spot \
             the retry by its producer id and sequence number, the log may then hold the same \
             records twice.",
        ],
        simplifications: SIMPLIFICATIONS,
        simpler_than: "Kafka",
    },
    try_this: &[
        TryThis {
            prompt: "Set acks to 1.",
            expect: "The crash at 20 s now costs acknowledged records: the leader had answered \
                     for records its followers had not fetched yet.",
            apply: |s| {
                s.producer.acks = Acks::One;
                s.producer.enable_idempotence = false;
            },
        },
        TryThis {
            prompt: "Require two in-sync replicas and crash a second broker at 25 s.",
            expect: "With one broker left in the ISR, acks=all writes are refused \
                     (NotEnoughReplicas) instead of being kept on a single copy; nothing \
                     acknowledged is lost.",
            apply: |s| {
                s.producer.acks = Acks::All;
                s.topic.min_insync_replicas = 2;
                s.faults.push(Fault::new(25_000, 2, FaultKind::Crash));
                s.faults.push(Fault::new(45_000, 2, FaultKind::Restart));
            },
        },
        TryThis {
            prompt: "Slow both followers down at 2 s, shorten replica.lag.time.max.ms to 10 s \
                     and allow unclean leader election.",
            expect: "The followers drop out of the ISR and the leader acknowledges on its own; \
                     when it crashes, a follower that missed those records is elected and \
                     acks=all loses acknowledged writes.",
            apply: |s| {
                s.topic.unclean_leader_election_enable = true;
                s.cluster.replica_lag_time_max_ms = 10_000;
                s.faults.push(Fault::slow(2_000, 2, 60_000));
                s.faults.push(Fault::slow(2_000, 3, 60_000));
            },
        },
        TryThis {
            prompt: "Turn idempotence off and slow one follower down at 10 s.",
            expect: "acks=all waits for the slow follower until it leaves the ISR; the producer \
                     times out first and retries, and the retry is written twice.",
            apply: |s| {
                s.producer.enable_idempotence = false;
                s.faults.push(Fault::slow(10_000, 3, 60_000));
            },
        },
    ],
    knob_sections: &[PRODUCER, TOPIC, BROKERS, RUN],
    presets: streamlab_sim::replication::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
