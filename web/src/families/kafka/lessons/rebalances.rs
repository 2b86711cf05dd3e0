//! Lesson 2, "Rebalances and storms": why one member leaving stops everyone, and how a slow
//! member can set off a storm.

use crate::families::kafka::{panels, KafkaFamily, KafkaOptions};
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::assignor::Strategy;
use streamlab_sim::family::preset;
use streamlab_sim::kafka::knobs::section::*;
use streamlab_sim::kafka::presets::REBALANCES_PRESETS;
use streamlab_sim::kafka::scenario::{MemberAction, ScheduledAction};

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "rebalances",
    title: "Rebalances and storms",
    theme: Theme::Failure,
    question: "A consumer restarted and my whole group stopped for 20 seconds. Why does one \
               member leaving affect everyone — and how can a member that is merely slow \
               bring the group down?",
    guarantee: "Each partition has at most one owner per generation, and a new owner starts \
                from the last committed offset. Nothing promises that work done after that \
                commit is kept: it will be done again.",
    knowledge: "The coordinator knows only heartbeats, polls and join requests. It cannot see \
                whether a silent member is crashed, paused by garbage collection, or just busy; \
                a member learns that a rebalance started only from its next heartbeat.",
    failure: "A crash is noticed only after session.timeout.ms; a clean leave stops the whole \
              group (eager) until the slowest member polls; a batch longer than \
              max.poll.interval.ms removes the member, its uncommitted work is redone, and the \
              growing backlog can make the next owner too slow as well: a storm.",
};

pub static LESSON: Lesson<KafkaFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "The group coordinator, a broker, keeps the list of members and hands out the \
             partitions. Whenever that list changes — a member joins, leaves, or goes quiet — the \
             group rebalances: every member must rejoin, and only when all have rejoined (or the \
             rebalance timeout has passed) does the leader's new assignment go out.",
            "A member rejoins only at its next poll(). With an eager assignor (range, roundrobin, \
             sticky) it first gives up all its partitions, so members that rejoined early sit \
             idle while the slowest one finishes its batch. The cooperative protocol (KIP-429) \
             lets members keep what they own and revoke only partitions that move, in two rounds.",
            "The coordinator cannot tell a slow member from a dead one. A heartbeat thread proves \
             the process is alive (session.timeout.ms); polling proves it is making progress \
             (max.poll.interval.ms). A batch that takes longer than max.poll.interval.ms gets the \
             member removed, its partitions move, and whoever takes them starts again from the \
             last committed offset — with a bigger backlog and an even longer batch.",
        ],
        simplifications: &[
            "Requests take no network time: JoinGroup and SyncGroup complete in the millisecond \
             their conditions are met, so CompletingRebalance passes in an instant.",
            "One topic per group; every member subscribes to it.",
            "Kafka's newer consumer protocol (KIP-848, group.protocol=consumer) moves assignment to \
             the broker; the playground shows the classic protocol most deployments still run.",
            "As in Kafka, a clean shutdown (close()) commits only with enable.auto.commit on or \
             a rebalance listener that commits in onPartitionsRevoked; a crash commits nothing.",
            "Static membership has a cost the run shows only when a static member crashes: the \
             coordinator notices it only after session.timeout.ms, and its partitions wait \
             unread until then, since no LeaveGroup announces that it is gone.",
        ],
        simpler_than: "Kafka",
    },
    try_this: &[
        TryThis {
            prompt: "Restart c2 with static membership on.",
            expect: "No rebalance at all: c2 comes back with its group.instance.id within \
                     session.timeout.ms and gets its own partitions back.",
            apply: |s| {
                s.groups[0].static_membership = true;
            },
        },
        TryThis {
            prompt: "Switch the assignor to cooperative-sticky.",
            expect: "Rebalances still happen, but members that keep their partitions keep \
                     processing: the member timelines stay green.",
            apply: |s| {
                s.groups[0].partition_assignment_strategy = Strategy::CooperativeSticky;
            },
        },
        TryThis {
            prompt: "Crash c4 at 40 s instead of restarting it cleanly.",
            expect: "Nothing happens for about 45 s: the coordinator waits out \
                     session.timeout.ms before it declares c4 dead, and c4's partitions build \
                     up lag meanwhile.",
            apply: |s| {
                s.schedule.push(ScheduledAction {
                    at_ms: 40_000,
                    group_id: s.groups[0].group_id.clone(),
                    member_id: "c4".into(),
                    action: MemberAction::Crash,
                });
            },
        },
        TryThis {
            prompt: "Open the storm preset, then lower max.poll.records to 50.",
            expect: "The storm is gone: a batch of 50 always ends well inside \
                     max.poll.interval.ms, so nobody is removed.",
            apply: |s| {
                *s = (preset::find(&REBALANCES_PRESETS, "rebalance-storm").expect("preset").build)();
                s.groups[0].max_poll_records = 50;
            },
        },
    ],
    knob_sections: &[
        TOPIC, PRODUCER, GROUPS, GROUP, PROTOCOL, COMMITS, BROKER, RUN,
    ],
    presets: &REBALANCES_PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: KafkaOptions {
        membership: Some(&panels::MEMBERSHIP),
        delivery: None,
    },
};
