//! Poison records: one that always fails blocks its partition (and everything its member
//! reads) for the whole retry schedule, then lands in the dead-letter topic exactly once.

use streamlab_sim::kafka::events::EventKind;
use streamlab_sim::kafka::invariants::InvariantChecker;
use streamlab_sim::kafka::World;

#[test]
fn a_poison_record_blocks_for_the_retry_schedule_then_is_dead_lettered_once() {
    let scenario = (streamlab_sim::kafka::presets::find("poison-message-holds-the-line")
        .unwrap()
        .build)();
    let errors = scenario.groups[0].errors.clone();
    let poison_offset = errors.poison_every_nth - 1;
    let mut world = World::new(&scenario).unwrap();
    let mut checker = InvariantChecker::default();
    // Processed offsets of every partition, sampled each 100 ms.
    let mut samples: Vec<(u64, Vec<u64>)> = Vec::new();
    for t in (100..=scenario.duration_ms).step_by(100) {
        world.advance_to(t);
        checker
            .check(&world)
            .unwrap_or_else(|v| panic!("at {t}: {v}"));
        let processed = world.groups()[0]
            .partitions
            .iter()
            .map(|p| p.processed)
            .collect();
        samples.push((t, processed));
    }
    let group = &world.groups()[0];
    for partition in 0..scenario.topic.partitions {
        let at = |pick: fn(&EventKind) -> Option<(u32, u64, &str)>| {
            world
                .events()
                .iter()
                .find_map(|e| {
                    pick(&e.kind)
                        .filter(|k| k.0 == partition && k.1 == poison_offset)
                        .map(|k| (e.at_ms, k.2.to_string()))
                })
                .unwrap_or_else(|| panic!("p{partition}: no event"))
        };
        let (failed_ms, member) = at(|k| match k {
            EventKind::RecordFailed {
                partition,
                offset,
                member_id,
                ..
            } => Some((*partition, *offset, &**member_id)),
            _ => None,
        });
        let (dead_ms, _) = at(|k| match k {
            EventKind::DeadLettered {
                partition,
                offset,
                member_id,
                ..
            } => Some((*partition, *offset, &**member_id)),
            _ => None,
        });
        let retries = u64::from(errors.max_attempts - 1);
        assert!(
            dead_ms - failed_ms >= retries * errors.backoff_ms,
            "p{partition}: blocked {} ms",
            dead_ms - failed_ms
        );
        // While it retries, the partition and the member's other partitions stand still.
        let holder = group.members.iter().find(|m| *m.id == *member).unwrap();
        let owned: Vec<usize> = holder.assigned.iter().map(|&p| p as usize).collect();
        let during: Vec<&(u64, Vec<u64>)> = samples
            .iter()
            .filter(|(t, _)| *t > failed_ms && *t < dead_ms)
            .collect();
        assert!(during.len() as u64 >= retries * errors.backoff_ms / 100 - 1);
        for &p in &owned {
            assert!(
                during
                    .iter()
                    .all(|(_, processed)| processed[p] == during[0].1[p]),
                "p{p} moved while {member} retried p{partition}"
            );
        }
        assert_eq!(during[0].1[partition as usize], poison_offset);
        assert_eq!(
            group.sink.dead_letters[partition as usize].writes_of(poison_offset),
            1,
            "p{partition}: exactly once in the dead-letter topic"
        );
        assert_eq!(
            group.sink.partitions[partition as usize].writes_of(poison_offset),
            0
        );
    }
    let tallies = group.tallies();
    assert_eq!(tallies.lost, 0);
    // Every poison record given up so far is in the dead-letter topic once, and nothing else.
    let given_up = world
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::DeadLettered { .. }))
        .count() as u64;
    assert!(given_up >= u64::from(scenario.topic.partitions));
    assert_eq!(tallies.dead_lettered, given_up);
}

#[test]
fn a_lag_alert_fires_at_the_threshold_the_learner_sets() {
    let mut scenario = (streamlab_sim::kafka::presets::find("poison-message-holds-the-line")
        .unwrap()
        .build)();
    scenario.groups[0].lag_alert_records = 250;
    let mut world = World::new(&scenario).unwrap();
    world.advance_to(scenario.duration_ms);
    let thresholds: Vec<u64> = world
        .events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::LagRising { threshold, lag, .. } => {
                assert!(lag >= 250);
                Some(threshold)
            }
            _ => None,
        })
        .collect();
    assert!(!thresholds.is_empty(), "the blocked partitions pass 250");
    assert!(thresholds.iter().all(|&t| t == 250));
}
