//! Transient failures: an attempt fails with a seeded probability, so most failing records
//! get through on a retry (written once, never dead-lettered) and only the ones that fail
//! every attempt reach the dead-letter topic. Either way the partition waits for the retries.

use streamlab_sim::kafka::events::EventKind;
use streamlab_sim::kafka::invariants::InvariantChecker;
use streamlab_sim::kafka::scenario::{Distribution, GroupConfig, Scenario};
use streamlab_sim::kafka::World;

const WORK_MS: u64 = 10;

fn scenario() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.seed = 7;
    scenario.duration_ms = 20_000;
    scenario.topic.partitions = 2;
    scenario.producer.rate_per_s = 20;
    let mut group = GroupConfig::named("billing");
    group.members = 1;
    group.processing.time_ms = WORK_MS as u32;
    group.processing.distribution = Distribution::Constant;
    group.errors.transient_failure_probability = 0.4;
    group.errors.max_attempts = 3;
    group.errors.backoff_ms = 200;
    group.errors.dead_letter_topic = "billing.DLT".into();
    scenario.groups = vec![group];
    scenario
}

/// The time of the first event about `partition`/`offset` that `pick` recognises.
fn event_at(
    world: &World,
    partition: u32,
    offset: u64,
    pick: fn(&EventKind) -> Option<(u32, u64)>,
) -> Option<u64> {
    world
        .events()
        .iter()
        .find(|e| pick(&e.kind) == Some((partition, offset)))
        .map(|e| e.at_ms)
}

#[test]
fn a_record_that_fails_fewer_times_than_the_limit_is_written_once_and_never_dead_lettered() {
    let scenario = scenario();
    let errors = scenario.groups[0].errors.clone();
    let mut world = World::new(&scenario).unwrap();
    let mut checker = InvariantChecker::default();
    let mut processed: Vec<(u64, Vec<u64>)> = Vec::new();
    for t in (10..=scenario.duration_ms).step_by(10) {
        world.advance_to(t);
        checker
            .check(&world)
            .unwrap_or_else(|v| panic!("at {t}: {v}"));
        let group = &world.groups()[0];
        processed.push((t, group.partitions.iter().map(|p| p.processed).collect()));
    }
    let group = &world.groups()[0];
    let (mut recovered, mut dead) = (0, 0);
    for partition in 0..scenario.topic.partitions {
        let done = group.partitions[partition as usize].processed;
        for offset in 0..done {
            // Failed attempts before the first success (or all of them).
            let failures = (1..=errors.max_attempts)
                .take_while(|&a| errors.attempt_fails(scenario.seed, partition, offset, a))
                .count() as u32;
            let sink = &group.sink;
            let written = sink.partitions[partition as usize].writes_of(offset);
            let dead_lettered = sink.dead_letters[partition as usize].writes_of(offset);
            if failures == errors.max_attempts {
                dead += 1;
                assert_eq!((written, dead_lettered), (0, 1), "p{partition}@{offset}");
                continue;
            }
            assert_eq!((written, dead_lettered), (1, 0), "p{partition}@{offset}");
            if failures == 0 {
                continue;
            }
            recovered += 1;
            let failed_ms = event_at(&world, partition, offset, |k| match k {
                EventKind::RecordFailed {
                    partition, offset, ..
                } => Some((*partition, *offset)),
                _ => None,
            })
            .expect("a failure event");
            let ok_ms = event_at(&world, partition, offset, |k| match k {
                EventKind::RecordRecovered {
                    partition, offset, ..
                } => Some((*partition, *offset)),
                _ => None,
            })
            .expect("a recovery event");
            // Each failure costs one back-off and one more try.
            let k = u64::from(failures);
            assert_eq!(
                ok_ms - failed_ms,
                k * (errors.backoff_ms + WORK_MS),
                "p{partition}@{offset} failed {k} times"
            );
            // Meanwhile the partition stood still at that record.
            let during = processed
                .iter()
                .filter(|(t, _)| *t >= failed_ms && *t < ok_ms);
            for (t, offsets) in during {
                assert_eq!(
                    offsets[partition as usize], offset,
                    "p{partition} at {t} ms"
                );
            }
        }
    }
    assert!(recovered >= 5, "{recovered} records got through on a retry");
    assert!(dead >= 1, "{dead} records used up their attempts");
    assert!(recovered > dead, "most failing records recover");
}

#[test]
fn the_same_seed_fails_the_same_attempts() {
    let errors = scenario().groups[0].errors.clone();
    let draw = |seed| -> Vec<bool> {
        (0..200)
            .flat_map(|o| (1..=3).map(move |a| (o, a)))
            .map(|(o, a)| errors.attempt_fails(seed, 1, o, a))
            .collect()
    };
    assert_eq!(draw(7), draw(7));
    assert_ne!(draw(7), draw(8));
    // Attempts are drawn apart: a record failing its first try is not doomed to fail them all.
    let first = (0..2_000)
        .filter(|&o| errors.attempt_fails(7, 0, o, 1))
        .count();
    let all = (0..2_000)
        .filter(|&o| (1..=3).all(|a| errors.attempt_fails(7, 0, o, a)))
        .count();
    assert!((700..900).contains(&first), "{first} of 2000 at p = 0.4");
    assert!(all < first / 4, "{all} fail all three");
}
