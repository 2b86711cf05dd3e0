//! Behaviour of whole runs: what a learner sees in the first lesson, checked on the core.

use streamlab_sim::assignor::{Assignor, Strategy};
use streamlab_sim::kafka::group::{Activity, Liveness};
use streamlab_sim::kafka::invariants::InvariantChecker;
use streamlab_sim::kafka::scenario::{GroupConfig, MemberAction, Scenario, ScheduledAction};
use streamlab_sim::kafka::snapshot::MemberState;
use streamlab_sim::kafka::World;

/// Runs `scenario` to `until_ms`, checking every invariant after every tick-sized step.
fn run_checked(scenario: &Scenario, until_ms: u64, step_ms: u64) -> World {
    let mut world = World::new(scenario).expect("valid scenario");
    let mut checker = InvariantChecker::default();
    checker.check(&world).unwrap();
    let mut t = 0;
    while t < until_ms {
        t = (t + step_ms).min(until_ms);
        world.advance_to(t);
        if let Err(violation) = checker.check(&world) {
            panic!("at {t} ms: {violation}");
        }
    }
    world
}

fn one_group(partitions: u32, members: u32, time_ms: u32) -> Scenario {
    let mut scenario = Scenario::default();
    scenario.topic.partitions = partitions;
    scenario.groups = vec![GroupConfig::named("search")];
    scenario.groups[0].members = members;
    scenario.groups[0].processing.time_ms = time_ms;
    scenario
}

/// The record member `c1` holds: its offset, start and end.
fn record_in_hand(world: &World) -> (u64, u64, u64) {
    match world.groups()[0].members[0].activity {
        Activity::Processing {
            offset,
            started_ms,
            done_ms,
            ..
        } => (offset, started_ms, done_ms),
        other => panic!("c1 holds no record: {other:?}"),
    }
}

/// A stop-the-world pause freezes the record in hand: it ends as much later as the pause
/// lasted, and is written only then.
#[test]
fn a_paused_member_finishes_its_record_the_pause_later() {
    let mut scenario = one_group(1, 1, 1_000);
    scenario.schedule = vec![ScheduledAction {
        at_ms: 500,
        group_id: "search".into(),
        member_id: "c1".into(),
        action: MemberAction::Pause { duration_ms: 2_000 },
    }];
    let mut world = run_checked(&scenario, 400, 100);
    let (offset, started_ms, done_ms) = record_in_hand(&world);
    assert_eq!(done_ms, started_ms + 1_000);
    world.advance_to(1_500);
    let liveness = world.groups()[0].members[0].liveness;
    assert!(matches!(liveness, Liveness::Paused { .. }), "{liveness:?}");
    world.advance_to(2_600);
    assert_eq!(world.groups()[0].members[0].liveness, Liveness::Running);
    assert_eq!(
        record_in_hand(&world),
        (offset, started_ms, done_ms + 2_000)
    );
    world.advance_to(done_ms + 1_999);
    assert_eq!(world.groups()[0].processed_total, 0);
    world.advance_to(done_ms + 2_000);
    assert_eq!(world.groups()[0].processed_total, 1);
}

#[test]
fn six_partitions_and_eight_members_leave_two_idle() {
    let world = run_checked(&one_group(6, 8, 10), 5_000, 100);
    let snapshot = world.snapshot(0);
    let idle: Vec<&str> = snapshot.groups[0]
        .members
        .iter()
        .filter(|m| m.state == MemberState::Idle)
        .map(|m| m.member_id.as_str())
        .collect();
    assert_eq!(idle.len(), 2, "idle members: {idle:?}");
    let narration: Vec<String> = world
        .events()
        .iter()
        .map(|event| streamlab_sim::kafka::events::narrate(event))
        .collect();
    assert!(
        narration.iter().any(|line| line.contains("are idle")),
        "{narration:#?}"
    );
}

#[test]
fn twenty_ms_per_record_caps_a_partition_near_fifty_per_second() {
    // One partition, far more load than it can take, and plenty of members.
    let mut scenario = one_group(1, 8, 20);
    scenario.producer.rate_per_s = 500;
    let world = run_checked(&scenario, 20_000, 250);
    let processed = world.groups()[0].processed_total;
    // 20 s at 50/s is 1000 records; the first poll starts a few ms late.
    assert!((980..=1000).contains(&processed), "processed {processed}");
    assert!(world.snapshot(0).groups[0].partitions[0].lag > 8_000);
}

#[test]
fn more_partitions_lift_the_ceiling() {
    let mut scenario = one_group(4, 4, 20);
    scenario.producer.rate_per_s = 500;
    scenario.producer.key_count = 1000;
    let world = run_checked(&scenario, 20_000, 250);
    let processed = world.groups()[0].processed_total;
    assert!(
        processed > 3_800,
        "four partitions, four members: {processed}"
    );
}

#[test]
fn a_hot_key_makes_one_partitions_lag_climb_while_others_keep_up() {
    let mut scenario = one_group(6, 6, 10);
    scenario.producer.rate_per_s = 300;
    scenario.producer.key_skew = 2.0;
    let world = run_checked(&scenario, 30_000, 500);
    let snapshot = world.snapshot(0);
    let lags: Vec<u64> = snapshot.groups[0]
        .partitions
        .iter()
        .map(|p| p.lag)
        .collect();
    let hot = (0..6).max_by_key(|&p| lags[p]).unwrap();
    assert!(lags[hot] > 1_000, "lags {lags:?}");
    let others_quiet = (0..6).filter(|&p| p != hot).all(|p| lags[p] < 50);
    assert!(others_quiet, "lags {lags:?}");
    let alerts = world
        .events()
        .iter()
        .filter(|e| matches!(e.kind, streamlab_sim::kafka::EventKind::LagRising { partition, .. } if partition as usize == hot))
        .count();
    assert!(alerts >= 2, "the hot partition raised {alerts} lag alerts");
}

#[test]
fn groups_read_the_same_records_independently() {
    let mut scenario = one_group(6, 3, 1);
    let mut slow = GroupConfig::named("analytics");
    slow.members = 1;
    slow.processing.time_ms = 20;
    scenario.groups.push(slow);
    let world = run_checked(&scenario, 10_000, 100);
    let fast = world.groups()[0].processed_total;
    let slow = world.groups()[1].processed_total;
    assert!(fast > 1_900, "the fast group keeps up: {fast}");
    assert!(
        slow < 520,
        "one member at 20 ms reads at most ~50/s: {slow}"
    );
}

#[test]
fn auto_commit_follows_the_interval() {
    let world = run_checked(&one_group(2, 2, 1), 12_000, 100);
    let commits: Vec<u64> = world
        .events()
        .iter()
        .filter(|e| matches!(e.kind, streamlab_sim::kafka::EventKind::OffsetsCommitted { ref member_id, .. } if &**member_id == "c1"))
        .map(|e| e.at_ms)
        .collect();
    assert_eq!(commits.len(), 2, "commits at {commits:?}");
    assert!(commits[0] >= 5_000 && commits[0] < 5_600, "{commits:?}");
    assert!(commits[1] - commits[0] >= 5_000, "{commits:?}");
}

/// Each commit event's time, member and the partitions it names, in order.
fn commits(world: &World) -> Vec<(u64, String, Vec<u32>)> {
    (world.events().iter())
        .filter_map(|e| match &e.kind {
            streamlab_sim::kafka::EventKind::OffsetsCommitted {
                member_id, offsets, ..
            } => Some((
                e.at_ms,
                member_id.to_string(),
                offsets.iter().map(|o| o.partition).collect(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn an_auto_commit_names_only_the_partitions_that_moved() {
    // One key: every record lands in one partition, so its owner commits it every five
    // seconds and the other member, with nothing processed, never commits.
    let mut scenario = one_group(2, 2, 1);
    scenario.producer.key_count = 1;
    let committed = commits(&run_checked(&scenario, 16_000, 100));
    assert_eq!(committed.len(), 3, "{committed:?}");
    assert!(
        (committed.iter())
            .all(|c| c.1 == committed[0].1 && c.2 == committed[0].2 && c.2.len() == 1),
        "{committed:?}"
    );
    let mut silent = one_group(2, 2, 1);
    silent.producer.rate_per_s = 0;
    assert_eq!(commits(&run_checked(&silent, 16_000, 100)), []);
}

#[test]
fn an_auto_commit_names_every_partition_that_moved_at_the_offset_processed() {
    // One member owns both partitions and reads both: its first auto-commit lists the two,
    // each at the next offset to read there, which is the records processed from it.
    let world = run_checked(&one_group(2, 1, 1), 5_500, 100);
    let first = (world.events().iter())
        .find_map(|e| match &e.kind {
            streamlab_sim::kafka::EventKind::OffsetsCommitted { offsets, .. } => {
                Some(offsets.to_vec())
            }
            _ => None,
        })
        .expect("an auto-commit by 5.5 s");
    let partitions: Vec<u32> = first.iter().map(|o| o.partition).collect();
    assert_eq!(partitions.len(), 2, "{first:?}");
    assert!(
        partitions.contains(&0) && partitions.contains(&1),
        "{first:?}"
    );
    let committed: u64 = first.iter().map(|o| o.offset).sum();
    let processed = world.groups()[0].processed_total;
    assert!(
        committed > 0 && committed <= processed,
        "{committed} committed of {processed} processed: {first:?}"
    );
}

#[test]
fn an_auto_commit_is_due_exactly_one_interval_after_the_last() {
    // A member kept busy one record (1 ms) per poll polls every millisecond, so each commit
    // lands on the first millisecond `auto.commit.interval.ms` allows.
    let mut scenario = one_group(1, 1, 1);
    scenario.producer.rate_per_s = 2_000;
    scenario.groups[0].max_poll_records = 1;
    let at_ms: Vec<u64> = (commits(&run_checked(&scenario, 16_000, 100)).iter())
        .map(|c| c.0)
        .collect();
    assert!(at_ms.len() >= 2, "{at_ms:?}");
    assert!(at_ms.windows(2).all(|w| w[1] - w[0] == 5_000), "{at_ms:?}");
}

#[test]
fn the_same_scenario_gives_the_same_trace_whatever_the_frame_sizes() {
    let mut scenario = one_group(6, 4, 3);
    scenario.producer.key_skew = 1.1;
    scenario.groups[0].processing.distribution =
        streamlab_sim::kafka::scenario::Distribution::Exponential;
    let in_big_steps = run_checked(&scenario, 20_000, 5_000);
    let in_small_steps = run_checked(&scenario, 20_000, 17);
    assert_eq!(in_big_steps.trace_hash(), in_small_steps.trace_hash());
    assert_eq!(in_big_steps.events(), in_small_steps.events());
    let mut other_seed = scenario.clone();
    other_seed.seed += 1;
    assert_ne!(
        run_checked(&other_seed, 20_000, 5_000).trace_hash(),
        in_big_steps.trace_hash()
    );
}

#[test]
fn a_silent_producer_and_an_empty_group_are_fine() {
    let mut scenario = one_group(3, 0, 10);
    scenario.producer.rate_per_s = 0;
    let world = run_checked(&scenario, 10_000, 1_000);
    assert_eq!(world.topic().total_records(), 0);
    let mut scenario = one_group(3, 0, 10);
    scenario.producer.rate_per_s = 100;
    let world = run_checked(&scenario, 10_000, 1_000);
    // Sent at 0, 10, ..., 10_000 ms; the last one still waits out linger.ms.
    let lag: u64 = world.snapshot(0).groups[0]
        .partitions
        .iter()
        .map(|p| p.lag)
        .sum();
    assert_eq!(lag, 1_000, "nobody reads, so every appended record is lag");
}

#[test]
fn a_world_refuses_a_strategy_its_assignor_table_lacks() {
    let mut scenario = one_group(6, 3, 10);
    scenario.groups[0].partition_assignment_strategy = Strategy::CooperativeSticky;
    let error = World::with_assignors(&scenario, &[Assignor::RANGE]).unwrap_err();
    assert_eq!(error.field, "groups[0].partition_assignment_strategy");
    assert!(error.message.contains("cooperative-sticky"), "{error}");
    let world = World::with_assignors(&scenario, &[Assignor::RANGE, Assignor::COOPERATIVE_STICKY]);
    assert!(world.is_ok());
}
