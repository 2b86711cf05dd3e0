//! Named scenarios that lessons, courses and tests link to.
//!
//! A preset is only a Scenario: every effect it shows comes out of the model's rules. The
//! storm presets share one base and one trigger (a member whose downstream slows down for a
//! while); each fix changes exactly one setting, the way an engineer would fix it in real life.

use crate::assignor::Strategy;
use crate::family::preset::{count_of_lesson, homes, of_lesson};
use crate::kafka::refutations;
use crate::kafka::scenario::{
    AutoOffsetReset, Distribution, GroupConfig, ManualCommit, MemberAction, OffsetTarget, Scenario,
    ScheduledAction,
};
use crate::kafka::sink::SinkMode;

/// A consumer-group preset.
pub type Preset = crate::family::preset::Preset<Scenario>;

// Each lesson's presets, picked out of `PRESETS` at compile time: each lesson has a bundle of
// its own, which carries only its table and `HOMES` (1.6–2.3 KiB gzipped less than the whole
// table in each bundle).
pub const PARTITIONS_PRESETS: [Preset; count_of_lesson(PRESETS, "partitions")] =
    of_lesson(PRESETS, "partitions");
pub const REBALANCES_PRESETS: [Preset; count_of_lesson(PRESETS, "rebalances")] =
    of_lesson(PRESETS, "rebalances");
pub const DELIVERY_PRESETS: [Preset; count_of_lesson(PRESETS, "delivery")] =
    of_lesson(PRESETS, "delivery");
/// Which lesson offers each preset, by slug.
pub const HOMES: [(&str, &str); PRESETS.len()] = homes(PRESETS);

/// Every preset, grouped by lesson.
pub const PRESETS: &[Preset] = &[
    Preset {
        slug: "one-restart-stops-everyone",
        lesson: "rebalances",
        title: "One restart stops everyone",
        description: "c2 restarts at 20 s. With an eager assignor every member gives up its \
                      partitions and waits until the slowest one finishes its batch: the whole \
                      group stops, twice (when c2 leaves and when it comes back).",
        build: one_restart,
    },
    Preset {
        slug: "rebalance-storm",
        lesson: "rebalances",
        title: "The storm",
        description: "c3's downstream slows down for a while. Its batch outlasts \
                      max.poll.interval.ms, it is removed, everyone stops for the rebalance, \
                      the backlog grows, the next full batches are too slow as well, and the \
                      rebalances feed each other.",
        build: storm,
    },
    Preset {
        slug: "storm-fix-smaller-batches",
        lesson: "rebalances",
        title: "Fix: smaller max.poll.records",
        description: "The same slowdown, with max.poll.records = 50: a batch always ends well \
                      inside max.poll.interval.ms, so nobody is removed.",
        build: storm_fix_smaller_batches,
    },
    Preset {
        slug: "storm-fix-longer-poll-interval",
        lesson: "rebalances",
        title: "Fix: a longer max.poll.interval.ms",
        description: "The same slowdown, with Kafka's default max.poll.interval.ms of 5 \
                      minutes: slow batches are allowed to be slow.",
        build: storm_fix_longer_poll_interval,
    },
    Preset {
        slug: "storm-cooperative-is-not-enough",
        lesson: "rebalances",
        title: "Cooperative-sticky is not enough here",
        description: "The same slowdown with the cooperative protocol. Nobody stops for the \
                      rebalances any more, but the backlogged partition still needs one batch \
                      longer than max.poll.interval.ms: each new owner is removed before it can \
                      commit, and the partition never gets past its committed offset.",
        build: storm_with_cooperative,
    },
    Preset {
        slug: "rolling-restart",
        lesson: "rebalances",
        title: "A rolling restart",
        description: "A deploy restarts c1 to c6 one after another. Each restart is two \
                      rebalances (leave, then join), and with an eager assignor every one of \
                      them makes every member give up its partitions.",
        build: rolling_restart,
    },
    Preset {
        slug: "rolling-restart-fix-static-membership",
        lesson: "rebalances",
        title: "Fix: static membership",
        description: "The same deploy with group.instance.id set and restarts shorter than \
                      session.timeout.ms: each member comes back to its own partitions, and the \
                      group never rebalances.",
        build: rolling_restart_fix_static_membership,
    },
    Preset {
        slug: "rolling-restart-fix-cooperative",
        lesson: "rebalances",
        title: "Fix: cooperative-sticky",
        description: "The same deploy with the cooperative protocol: rebalances still happen, \
                      but only the restarted member's partitions move; everyone else keeps \
                      processing.",
        build: rolling_restart_fix_cooperative,
    },
    Preset {
        slug: "storm-fix-faster-processing",
        lesson: "rebalances",
        title: "Fix: faster processing",
        description: "The same slowdown with 5 ms per record instead of 20: even a full batch \
                      of 500 takes a few seconds, and the members keep up, so no backlog builds \
                      to make the next batches full and slow.",
        build: storm_fix_faster_processing,
    },
    Preset {
        slug: "commit-before-loss",
        lesson: "delivery",
        title: "Commit before processing: loss",
        description: "search commits each poll's positions before it processes them. c1 crashes \
                      at 12 s, comes back to a backlog and crashes again at 19.5 s in the middle \
                      of a full batch: the next owner starts at the committed offset, and the \
                      records the dead member never finished are never processed by anyone.",
        build: commit_before_loss,
    },
    Preset {
        slug: "commit-after-duplicates",
        lesson: "delivery",
        title: "Commit after processing: duplicates",
        description: "The same crashes, with commitSync() after each batch. Nothing is lost, \
                      but the part of the batch the dead member had already written is written \
                      again by the new owner: duplicate effects in a plain sink.",
        build: commit_after_duplicates,
    },
    Preset {
        slug: "idempotent-sink-effectively-once",
        lesson: "delivery",
        title: "Idempotent sink: effectively once",
        description: "The same crashes and the same commit after each batch, into a sink that \
                      keeps each input's partition and offset with its row: the repeated writes \
                      still happen, and change nothing.",
        build: idempotent_sink,
    },
    Preset {
        slug: "analytics-falls-behind-retention",
        lesson: "delivery",
        title: "Analytics falls behind retention",
        description: "The topic keeps 20 s of records (retention.ms). search keeps up; \
                      analytics takes 20 ms a record on one member and falls further behind \
                      each second, until retention deletes records it has not read: they are \
                      lost to it, counted per partition.",
        build: analytics_falls_behind,
    },
    Preset {
        slug: "replay-after-bug-fix",
        lesson: "delivery",
        title: "Replay after a bug fix",
        description: "At 30 s the search team ships a fix and resets the group's offsets to \
                      earliest: every retained record is processed again (the sink counts the \
                      second writes). At 40 s a new recommender group starts at earliest and \
                      fills itself with the 25 s of history retention still holds.",
        build: replay_after_bug_fix,
    },
    Preset {
        slug: "poison-message-holds-the-line",
        lesson: "delivery",
        title: "A poison message holds the line",
        description: "Every 1 000th record of each partition (offset 999, 1 999, ...) cannot be \
                      processed. The error handler tries it 4 times, 2 s apart; meanwhile its \
                      partition, and the other partition the same member reads, stand still and \
                      their lag climbs. Then it goes to events.DLT and the member catches up.",
        build: poison_message,
    },
    Preset {
        slug: "misconception-1",
        lesson: "partitions",
        title: "Myth: Kafka keeps one global order",
        description: "Three partitions read side by side: each in offset order, the group as a \
                      whole not. out_of_produced_order counts records handled after one the \
                      producer sent later.",
        build: refutations::global_order,
    },
    Preset {
        slug: "misconception-2",
        lesson: "delivery",
        title: "Myth: an ack means exactly once",
        description: "Offsets are committed after each batch and a member crashes mid-batch \
                      twice: duplicated counts the records processed again.",
        build: refutations::ack_is_not_exactly_once,
    },
    Preset {
        slug: "misconception-3",
        lesson: "partitions",
        title: "Myth: more consumers always go faster",
        description: "Eight members for four partitions: idle_members counts those left with \
                      nothing to read while the lag grows.",
        build: refutations::more_consumers_than_partitions,
    },
    Preset {
        slug: "misconception-4",
        lesson: "delivery",
        title: "Myth: delete what you consumed, like a queue",
        description: "billing deletes the records it has committed every 10 s; audit, slower, \
                      loses what it had not read yet: lost_to_deletion.",
        build: refutations::delete_like_a_queue,
    },
];

/// The preset called `slug`.
pub fn find(slug: &str) -> Option<&'static Preset> {
    crate::family::preset::find(PRESETS, slug)
}

fn action(at_ms: u64, member_id: &str, action: MemberAction) -> ScheduledAction {
    ScheduledAction {
        at_ms,
        group_id: "search".into(),
        member_id: member_id.into(),
        action,
    }
}

/// Six partitions, six members, about 80% busy: fine until something disturbs it.
fn rebalance_base() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 180_000;
    scenario.topic.partitions = 6;
    scenario.producer.rate_per_s = 240;
    scenario.producer.key_count = 600;
    let mut group = GroupConfig::named("search");
    group.members = 6;
    group.processing.time_ms = 20;
    group.processing.distribution = Distribution::Exponential;
    scenario.groups = vec![group];
    scenario
}

fn one_restart() -> Scenario {
    let mut scenario = rebalance_base();
    scenario.duration_ms = 90_000;
    scenario.schedule = vec![action(
        20_000,
        "c2",
        MemberAction::Restart { down_ms: 10_000 },
    )];
    scenario
}

fn storm() -> Scenario {
    let mut scenario = rebalance_base();
    // Lowered from Kafka's 300 000 so the storm fits in three minutes; the fixes show what
    // the default buys.
    scenario.groups[0].max_poll_interval_ms = 8_000;
    scenario.schedule = vec![action(
        20_000,
        "c3",
        MemberAction::SlowDown {
            duration_ms: 15_000,
            factor: 4,
        },
    )];
    scenario
}

fn storm_fix_smaller_batches() -> Scenario {
    let mut scenario = storm();
    scenario.groups[0].max_poll_records = 50;
    scenario
}

fn storm_fix_longer_poll_interval() -> Scenario {
    let mut scenario = storm();
    scenario.groups[0].max_poll_interval_ms = 300_000;
    scenario
}

fn storm_with_cooperative() -> Scenario {
    let mut scenario = storm();
    scenario.groups[0].partition_assignment_strategy = Strategy::CooperativeSticky;
    scenario
}

fn rolling_restart() -> Scenario {
    let mut scenario = rebalance_base();
    scenario.duration_ms = 150_000;
    scenario.schedule = (1..=6)
        .map(|i| {
            let at_ms = 20_000 + (i - 1) * 15_000;
            action(
                at_ms,
                &format!("c{i}"),
                MemberAction::Restart { down_ms: 8_000 },
            )
        })
        .collect();
    scenario
}

fn rolling_restart_fix_static_membership() -> Scenario {
    let mut scenario = rolling_restart();
    scenario.groups[0].static_membership = true;
    scenario
}

fn rolling_restart_fix_cooperative() -> Scenario {
    let mut scenario = rolling_restart();
    scenario.groups[0].partition_assignment_strategy = Strategy::CooperativeSticky;
    scenario
}

fn storm_fix_faster_processing() -> Scenario {
    let mut scenario = storm();
    scenario.groups[0].processing.time_ms = 5;
    scenario
}

/// Three partitions, three members busy about 80% of the time, batches of up to 200. c1
/// crashes at 12 s and is back at 15 s; it returns to a backlog, so it polls full batches, and
/// crashes again at 19.5 s in the middle of one (a crash loop, as after a bad deploy).
/// `session.timeout.ms` is lowered to 6 s so the recovery fits the picture.
pub(crate) fn commit_base(manual: ManualCommit) -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 45_000;
    scenario.topic.partitions = 3;
    scenario.producer.rate_per_s = 300;
    scenario.producer.key_count = 40;
    let mut group = GroupConfig::named("search");
    group.members = 3;
    group.max_poll_records = 200;
    group.processing.time_ms = 8;
    group.processing.distribution = Distribution::Exponential;
    group.session_timeout_ms = 6_000;
    group.heartbeat_interval_ms = 1_000;
    group.enable_auto_commit = false;
    group.manual_commit = manual;
    scenario.groups = vec![group];
    scenario.schedule = vec![
        action(12_000, "c1", MemberAction::Crash),
        action(15_000, "c1", MemberAction::Start),
        action(19_500, "c1", MemberAction::Crash),
        action(22_000, "c1", MemberAction::Start),
    ];
    scenario
}

fn commit_before_loss() -> Scenario {
    commit_base(ManualCommit::BeforeProcessing)
}

fn commit_after_duplicates() -> Scenario {
    commit_base(ManualCommit::AfterBatch)
}

fn idempotent_sink() -> Scenario {
    let mut scenario = commit_base(ManualCommit::AfterBatch);
    scenario.groups[0].sink = SinkMode::Idempotent;
    scenario
}

/// search keeps up; analytics, one member at 20 ms a record (50 records/s) for 100 records/s,
/// cannot: its oldest unread record ages half a second every second.
fn analytics_falls_behind() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 90_000;
    scenario.topic.partitions = 3;
    // Lowered from seven days so the loss happens within a minute and a half, and checked
    // every 5 s instead of every 5 minutes so the log start moves while you watch.
    scenario.topic.retention_ms = 20_000;
    scenario.broker.log_retention_check_interval_ms = 5_000;
    scenario.producer.rate_per_s = 100;
    let mut analytics = GroupConfig::named("analytics");
    analytics.members = 1;
    analytics.processing.time_ms = 20;
    analytics.auto_offset_reset = AutoOffsetReset::Earliest;
    scenario.groups = vec![GroupConfig::named("search"), analytics];
    scenario
}

fn replay_after_bug_fix() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 60_000;
    scenario.topic.partitions = 3;
    scenario.topic.retention_ms = 25_000;
    scenario.broker.log_retention_check_interval_ms = 5_000;
    scenario.producer.rate_per_s = 100;
    let mut recommender = GroupConfig::named("recommender");
    recommender.start_ms = 40_000;
    recommender.auto_offset_reset = AutoOffsetReset::Earliest;
    scenario.groups = vec![GroupConfig::named("search"), recommender];
    scenario.schedule = vec![action(
        30_000,
        "c1",
        MemberAction::ResetOffsets {
            to: OffsetTarget::Earliest,
        },
    )];
    scenario
}

fn poison_message() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 60_000;
    scenario.topic.partitions = 4;
    scenario.producer.rate_per_s = 200;
    let mut group = GroupConfig::named("search");
    group.members = 2;
    // Half the time each member has: the backlog a poison record builds drains afterwards.
    group.processing.time_ms = 5;
    group.errors.poison_every_nth = 1_000;
    group.errors.max_attempts = 4;
    group.errors.backoff_ms = 2_000;
    group.errors.dead_letter_topic = "events.DLT".into();
    scenario.groups = vec![group];
    scenario
}

/// The storm scaled up: 32 members on 64 partitions for ten simulated minutes, the rebalance
/// lesson's worst case (the benchmarks run it natively and in the browser).
pub fn storm_32_members() -> Scenario {
    let mut scenario = storm();
    scenario.topic.partitions = 64;
    scenario.producer.rate_per_s = 2_560;
    scenario.groups[0].members = 32;
    scenario.duration_ms = 600_000;
    scenario
}

/// The consumer-group lessons, each with the scenario its links are patches against (part of
/// the link format: changing one changes what old links mean).
pub const LESSONS: &[crate::family::lesson::LessonDefault<Scenario>] = &[
    crate::family::lesson::LessonDefault {
        slug: "partitions",
        default: Scenario::default,
    },
    crate::family::lesson::LessonDefault {
        slug: "rebalances",
        default: one_restart,
    },
    crate::family::lesson::LessonDefault {
        slug: "delivery",
        default: commit_before_loss,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_tables_share_out_every_preset() {
        let tables = [
            ("partitions", &PARTITIONS_PRESETS[..]),
            ("rebalances", &REBALANCES_PRESETS[..]),
            ("delivery", &DELIVERY_PRESETS[..]),
        ];
        for preset in PRESETS {
            let (_, table) = tables
                .iter()
                .find(|(lesson, _)| *lesson == preset.lesson)
                .unwrap_or_else(|| panic!("{} offers {}", preset.lesson, preset.slug));
            assert!(
                table.iter().any(|p| p.slug == preset.slug),
                "{}",
                preset.slug
            );
        }
        let shared_out: usize = tables.iter().map(|(_, table)| table.len()).sum();
        assert_eq!(shared_out, PRESETS.len());
        assert!(PARTITIONS_PRESETS.iter().all(|p| p.lesson == "partitions"));
    }
}
