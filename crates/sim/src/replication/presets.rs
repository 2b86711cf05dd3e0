//! The replication family's presets, one plain function each, named as links name them, and
//! its lesson's default scenario. Each preset turns only the knobs its point needs and
//! schedules its faults; every number it exists to show comes out of the model's rules.

use super::scenario::{Acks, Fault, FaultKind, ReplicationScenario};
use crate::family::lesson::LessonDefault;

/// A replication preset.
pub type Preset = crate::family::preset::Preset<ReplicationScenario>;

/// The one lesson of the family.
const LESSON: &str = "replication";

/// Every preset of the family, with the lesson that offers it.
pub const PRESETS: &[Preset] = &[
    Preset {
        slug: "acks-1-leader-crash",
        lesson: LESSON,
        title: "acks=1 and a leader crash",
        description: "The leader of p0 crashes at 20 s with records its followers have not \
                      fetched yet. It had acknowledged them (acks=1); the follower elected in \
                      its place never had them: acknowledged_then_lost > 0. When the old leader \
                      comes back at 40 s it cuts them from its log.",
        build: acks_1_leader_crash,
    },
    Preset {
        slug: "acks-all-min-isr-2",
        lesson: LESSON,
        title: "acks=all with min.insync.replicas=2",
        description: "The same crash with acks=all: nothing is acknowledged before every in-sync \
                      replica has it, so the new leader has every acknowledged write \
                      (acknowledged_then_lost = 0). The price is latency: produce_latency_p99_ms \
                      is above by_acks.acks_1's.",
        build: acks_all_min_isr_2,
    },
    Preset {
        slug: "unclean-election-loses-writes",
        lesson: LESSON,
        title: "Unclean leader election loses acknowledged writes",
        description: "Both followers fall behind and leave the ISR; the leader, alone in it, \
                      keeps acknowledging acks=all writes (min.insync.replicas=1). Then it \
                      crashes. With unclean.leader.election.enable=true a follower that missed \
                      those writes becomes leader: acknowledged_then_lost > 0 even with acks=all.",
        build: unclean_election_loses_writes,
    },
    Preset {
        slug: "isr-shrinks-not-enough-replicas",
        lesson: LESSON,
        title: "The ISR shrinks below min.insync.replicas",
        description: "Two of three brokers fail; with min.insync.replicas=2 the partitions refuse \
                      acks=all writes (NotEnoughReplicas) until the brokers return and catch up: \
                      rejected_writes > 0, and acknowledged_then_lost = 0.",
        build: isr_shrinks_not_enough_replicas,
    },
    Preset {
        slug: "retries-without-idempotence-duplicate",
        lesson: LESSON,
        title: "Retries without idempotence write duplicates",
        description:
            "A follower stalls; acks=all writes wait for it until replica.lag.time.max.ms \
                      drops it from the ISR. request.timeout.ms is no longer, so the producer \
                      retries first, and without enable.idempotence the retry is written again: \
                      duplicates > 0.",
        build: retries_without_idempotence_duplicate,
    },
    Preset {
        slug: "idempotent-producer",
        lesson: LESSON,
        title: "The idempotent producer",
        description: "The same stall with enable.idempotence=true: the leader recognises the \
                      retried batch by its producer id and sequence number: duplicates = 0.",
        build: idempotent_producer,
    },
];

/// The preset a link names, if any.
pub fn preset(name: &str) -> Option<ReplicationScenario> {
    crate::family::preset::find(PRESETS, name).map(|p| (p.build)())
}

/// Three brokers, two partitions of three replicas, 500 records/s, followers that take 20 ms
/// to write what they fetched; broker 1 (leader of p0) crashes at 20 s and is back at 40 s.
pub fn lesson_default() -> ReplicationScenario {
    let mut s = ReplicationScenario::default();
    s.producer.records_per_second = 500;
    s.cluster.follower_delay_ms = 20;
    s.faults = vec![
        Fault::new(20_000, 1, FaultKind::Crash),
        Fault::new(40_000, 1, FaultKind::Restart),
    ];
    s
}

/// The lesson's crash with `acks=1` (idempotence off, as Kafka requires).
pub fn acks_1_leader_crash() -> ReplicationScenario {
    let mut s = lesson_default();
    s.producer.acks = Acks::One;
    s.producer.enable_idempotence = false;
    s
}

/// The lesson's crash with `acks=all` and `min.insync.replicas=2`.
pub fn acks_all_min_isr_2() -> ReplicationScenario {
    let mut s = lesson_default();
    s.topic.min_insync_replicas = 2;
    s
}

/// One partition. Brokers 2 and 3 become slow followers at 5 s (each fetch 60 s late) and
/// leave the ISR after `replica.lag.time.max.ms` (10 s here, so the story fits in a minute);
/// broker 1, alone in the ISR, keeps acknowledging until it crashes at 30 s; the controller
/// fences it 9 s later and elects broker 2 uncleanly. Broker 1 is back at 45 s.
pub fn unclean_election_loses_writes() -> ReplicationScenario {
    let mut s = ReplicationScenario::default();
    s.topic.partitions = 1;
    s.topic.unclean_leader_election_enable = true;
    s.cluster.replica_lag_time_max_ms = 10_000;
    s.faults = vec![
        Fault::slow(5_000, 2, 60_000),
        Fault::slow(5_000, 3, 60_000),
        Fault::new(30_000, 1, FaultKind::Crash),
        Fault::new(45_000, 1, FaultKind::Restart),
    ];
    s
}

/// `min.insync.replicas=2`; broker 2 crashes at 10 s and broker 3 at 20 s, both back at 45 s.
pub fn isr_shrinks_not_enough_replicas() -> ReplicationScenario {
    let mut s = ReplicationScenario::default();
    s.topic.min_insync_replicas = 2;
    s.faults = vec![
        Fault::new(10_000, 2, FaultKind::Crash),
        Fault::new(20_000, 3, FaultKind::Crash),
        Fault::new(45_000, 2, FaultKind::Restart),
        Fault::new(45_000, 3, FaultKind::Restart),
    ];
    s
}

/// Broker 3 stalls at 10 s (each fetch 60 s late); Kafka's defaults for
/// `request.timeout.ms` and `replica.lag.time.max.ms` (both 30 s); no idempotence.
pub fn retries_without_idempotence_duplicate() -> ReplicationScenario {
    let mut s = ReplicationScenario::default();
    s.producer.enable_idempotence = false;
    s.faults = vec![Fault::slow(10_000, 3, 60_000)];
    s
}

/// The same stall with `enable.idempotence=true`.
pub fn idempotent_producer() -> ReplicationScenario {
    let mut s = retries_without_idempotence_duplicate();
    s.producer.enable_idempotence = true;
    s
}

/// The family's lesson, with the scenario its links are patches against (part of the link
/// format: changing it changes what old links mean).
pub const LESSONS: &[LessonDefault<ReplicationScenario>] = &[LessonDefault {
    slug: LESSON,
    default: lesson_default,
}];
