//! Properties of the replication family over random seeds, settings and fault schedules: what
//! the lesson claims must hold for every run a learner can make, not only for the presets.
//! Each run also checks the family's invariants after every tick (debug builds).
//!
//! * With `acks=all`, `min.insync.replicas` ≥ 2 and no unclean election, an acknowledged write
//!   is never lost while at most `min.insync.replicas` − 1 brokers are down or cut off at once
//!   (crash and partition times drawn at random; slow followers any time).
//! * Without unclean elections, no lane's consumer ever reads a record that is later lost, and
//!   its position never passes every replica's high watermark: it reads below the high
//!   watermark only.
//! * A follower the current leader has answered is a prefix of the leader's log, at every
//!   instant looked at (after any truncation).
//! * The idempotent producer never writes a duplicate, whatever fails.
//! * The ledger's running counts equal a recount from every record's fate.

use proptest::prelude::*;
use streamlab_sim::replication::{
    Acks, Fault, FaultKind, Lane, ReplicationScenario, ReplicationWorld,
};

/// A failure episode: (broker index, kind 0 crash / 1 cut off / 2 slow, start, length).
type Episode = (u32, u8, u64, u64);

/// Turns episodes into faults, keeping at most `max_failed` brokers down or cut off at once
/// (slow followers are not failures) and one episode per broker at a time.
fn faults_from(episodes: &[Episode], brokers: u32, max_failed: u32, extra_ms: u64) -> Vec<Fault> {
    let mut kept: Vec<(u32, u8, u64, u64)> = Vec::new();
    for &(b, kind, start, len) in episodes {
        let (b, end) = (b % brokers, start + len);
        if kept.iter().any(|k| k.0 == b && k.2 < end && start < k.3) {
            continue;
        }
        if kind < 2 {
            // The most failures at once during this span, counting this one: it is reached
            // where this span or a kept failure inside it begins.
            let failing_at = |t: u64| {
                kept.iter()
                    .filter(|k| k.1 < 2 && k.2 <= t && t < k.3)
                    .count() as u32
                    + 1
            };
            let worst = kept
                .iter()
                .filter(|k| k.1 < 2)
                .map(|k| k.2.max(start))
                .chain([start])
                .filter(|&t| t < end)
                .map(failing_at)
                .max()
                .unwrap_or(1);
            if worst > max_failed {
                continue;
            }
        }
        kept.push((b, kind, start, end));
    }
    kept.into_iter()
        .flat_map(|(b, kind, start, end)| {
            let broker = b + 1;
            match kind {
                0 => [
                    Fault::new(start, broker, FaultKind::Crash),
                    Fault::new(end, broker, FaultKind::Restart),
                ],
                1 => [
                    Fault::new(start, broker, FaultKind::Isolate),
                    Fault::new(end, broker, FaultKind::Heal),
                ],
                _ => [
                    Fault::slow(start, broker, extra_ms),
                    Fault::new(end, broker, FaultKind::Normal),
                ],
            }
        })
        .collect()
}

/// (brokers, partitions, records per second).
type Shape = (u32, u32, u32);
/// (follower delay, network delay, replica.lag.time.max.ms, broker.session.timeout.ms).
type Timing = (u64, u64, u64, u64);

/// Settings shared by the strategies: cluster, topic (without min ISR) and producer knobs.
fn base(
    seed: u64,
    (brokers, partitions, rate): Shape,
    (follower_delay, network, lag, session): Timing,
) -> ReplicationScenario {
    let mut s = ReplicationScenario::default();
    s.seed = seed;
    s.duration_ms = 20_000;
    s.cluster.brokers = brokers;
    s.cluster.follower_delay_ms = follower_delay;
    s.cluster.network_delay_ms = network;
    s.cluster.replica_lag_time_max_ms = lag;
    s.cluster.broker_session_timeout_ms = session;
    s.topic.partitions = partitions;
    s.topic.replication_factor = brokers;
    s.producer.records_per_second = rate;
    s.producer.request_timeout_ms = 5_000;
    s.producer.delivery_timeout_ms = 30_000;
    s
}

fn settings() -> impl Strategy<Value = (Shape, Timing)> {
    (
        (3u32..=5, 1u32..=3, 20u32..=400),
        (0u64..=40, 0u64..=4, 2_000u64..=30_000, 1_000u64..=10_000),
    )
}

fn episodes() -> impl Strategy<Value = Vec<Episode>> {
    prop::collection::vec((0u32..5, 0u8..3, 0u64..18_000, 300u64..12_000), 0..7)
}

/// `acks=all`, min ISR ≥ 2, clean elections, at most min ISR − 1 brokers failed at once.
fn durable_scenario() -> impl Strategy<Value = ReplicationScenario> {
    (
        any::<u64>(),
        settings(),
        2u32..=4,
        any::<bool>(),
        episodes(),
        1u64..=20_000,
    )
        .prop_map(
            |(seed, (shape, timing), min_isr, idempotent, episodes, extra)| {
                let mut s = base(seed, shape, timing);
                s.topic.min_insync_replicas = min_isr.min(s.topic.replication_factor);
                s.producer.enable_idempotence = idempotent;
                let max_failed = s.topic.min_insync_replicas - 1;
                s.faults = faults_from(&episodes, s.cluster.brokers, max_failed, extra);
                s
            },
        )
}

/// Any acks, any min ISR, unclean elections on or off, any number of failures.
fn any_scenario() -> impl Strategy<Value = ReplicationScenario> {
    (
        any::<u64>(),
        settings(),
        (1u32..=3, any::<bool>(), 0u8..3, any::<bool>()),
        episodes(),
        1u64..=20_000,
    )
        .prop_map(
            |(seed, (shape, timing), (min_isr, unclean, acks, idempotent), episodes, extra)| {
                let mut s = base(seed, shape, timing);
                s.topic.min_insync_replicas = min_isr;
                s.topic.unclean_leader_election_enable = unclean;
                s.producer.acks = Acks::ALL_SETTINGS[acks as usize];
                s.producer.enable_idempotence = idempotent && s.producer.acks == Acks::All;
                s.faults = faults_from(&episodes, s.cluster.brokers, u32::MAX, extra);
                s
            },
        )
}

/// The whole-log checks, at one instant: every aligned follower is a prefix of its leader, and
/// (without unclean elections) the consumer is never past every replica's high watermark.
fn check_instant(lane: &Lane, clean: bool) -> Result<(), TestCaseError> {
    for part in &lane.partitions {
        let Some(l) = part.leader else {
            continue;
        };
        let leader = &part.reps[l];
        let leading = leader.lead.as_ref().is_some_and(|x| x.epoch == part.epoch);
        for (r, rep) in part.reps.iter().enumerate() {
            if r == l || !leading || rep.aligned_epoch != Some(part.epoch) {
                continue;
            }
            let prefix = leader.log.range(0, rep.log.end_offset());
            prop_assert!(
                rep.log.end_offset() <= leader.log.end_offset() && rep.log.iter().eq(prefix),
                "p{}: broker {}'s log is not a prefix of the leader's",
                part.id,
                rep.broker + 1
            );
        }
        if clean {
            let highest = part.reps.iter().map(|r| r.hw).max().unwrap_or(0);
            prop_assert!(
                lane.consumer_positions[part.id as usize] <= highest,
                "p{}: the consumer read past every high watermark",
                part.id
            );
        }
    }
    Ok(())
}

/// Runs `scenario` to its end, checking every lane at each of many instants.
fn run_checked(scenario: ReplicationScenario) -> Result<ReplicationWorld, TestCaseError> {
    let clean = !scenario.topic.unclean_leader_election_enable;
    let end = scenario.duration_ms;
    let mut world = ReplicationWorld::new(scenario).expect("the strategy builds valid scenarios");
    let mut t = 0;
    while t < end {
        t = (t + 250).min(end);
        world.advance_to(t);
        for lane in world.lanes() {
            check_instant(lane, clean)?;
        }
    }
    Ok(world)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn acks_all_with_min_isr_2_never_loses_an_acknowledged_write(scenario in durable_scenario()) {
        let world = run_checked(scenario)?;
        let lane = world.lane(Acks::All);
        prop_assert_eq!(lane.ledger.acknowledged_then_lost, 0);
        prop_assert_eq!(lane.ledger.consumed_then_lost, 0);
        if lane.idempotent {
            prop_assert_eq!(lane.ledger.duplicates, 0);
        }
    }

    #[test]
    fn consumers_read_below_the_high_watermark_and_followers_stay_prefixes(scenario in any_scenario()) {
        let clean = !scenario.topic.unclean_leader_election_enable;
        let world = run_checked(scenario)?;
        for lane in world.lanes() {
            if clean {
                prop_assert_eq!(lane.ledger.consumed_then_lost, 0, "acks={:?}", lane.acks);
            }
            if lane.idempotent {
                prop_assert_eq!(lane.ledger.duplicates, 0);
            }
            let (acked, lost, duplicates, consumed_lost) = lane.ledger.recount();
            prop_assert_eq!(acked, lane.ledger.acknowledged);
            prop_assert_eq!(lost, lane.ledger.acknowledged_then_lost);
            prop_assert_eq!(duplicates, lane.ledger.duplicates);
            prop_assert_eq!(consumed_lost, lane.ledger.consumed_then_lost);
        }
    }
}
