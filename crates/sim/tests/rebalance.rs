//! Rebalances: the group protocol's timing, the storm that emerges from it, and its fixes.

use streamlab_sim::kafka::events::EventKind;
use streamlab_sim::kafka::group::MemberPhase;
use streamlab_sim::kafka::invariants::InvariantChecker;
use streamlab_sim::kafka::presets;
use streamlab_sim::kafka::scenario::{MemberAction, Scenario, ScheduledAction};
use streamlab_sim::kafka::World;

/// Runs a scenario to its end, checking every invariant every 50 ms of simulated time.
fn run(scenario: &Scenario) -> World {
    let mut world = World::new(scenario).expect("valid scenario");
    let mut checker = InvariantChecker::default();
    let mut t = 0;
    while t < scenario.duration_ms {
        t = (t + 50).min(scenario.duration_ms);
        world.advance_to(t);
        if let Err(violation) = checker.check(&world) {
            panic!("at {t} ms: {violation}");
        }
    }
    world
}

fn preset(slug: &str) -> World {
    run(&(presets::find(slug).expect("preset exists").build)())
}

fn total_lag(world: &World) -> u64 {
    world.snapshot(0).groups[0]
        .partitions
        .iter()
        .map(|p| p.lag)
        .sum()
}

/// Member-seconds spent waiting in a rebalance with nothing to process.
fn stalled_member_s(world: &World) -> f64 {
    let samples = &world.metrics().samples;
    let phases = samples.iter().flat_map(|s| s.groups[0].members.iter());
    phases.filter(|p| **p == MemberPhase::Rebalancing).count() as f64 * 0.25
}

fn rebalance_times(world: &World) -> Vec<u64> {
    world
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::RebalanceStarted { .. }))
        .map(|e| e.at_ms)
        .collect()
}

#[test]
fn a_slow_member_sets_off_a_storm_of_rebalances() {
    let world = preset("rebalance-storm");
    let group = &world.groups()[0];
    assert!(
        group.rebalances_total >= 10,
        "rebalances: {}",
        group.rebalances_total
    );
    assert!(
        group.duplicates_total > 1_000,
        "removed members' work is redone"
    );
    assert!(
        total_lag(&world) > 10_000,
        "the backlog runs away: {}",
        total_lag(&world)
    );
}

#[test]
fn each_storm_fix_keeps_the_group_to_its_first_rebalance_and_restores_throughput() {
    let storm = preset("rebalance-storm");
    for slug in [
        "storm-fix-smaller-batches",
        "storm-fix-longer-poll-interval",
        "storm-fix-faster-processing",
    ] {
        let world = preset(slug);
        let group = &world.groups()[0];
        assert_eq!(
            group.rebalances_total, 1,
            "{slug}: only the group's formation"
        );
        assert_eq!(group.duplicates_total, 0, "{slug}");
        assert!(total_lag(&world) < 200, "{slug}: lag {}", total_lag(&world));
        assert!(
            group.processed_total > storm.groups()[0].processed_total,
            "{slug} processes more than the storm"
        );
    }
}

#[test]
fn cooperative_sticky_stops_the_stalls_but_not_a_batch_that_outlasts_the_poll_interval() {
    let eager = preset("rebalance-storm");
    let cooperative = preset("storm-cooperative-is-not-enough");
    assert!(stalled_member_s(&cooperative) < stalled_member_s(&eager));
    assert!(cooperative.groups()[0].rebalances_total >= 10);
}

#[test]
fn a_clean_leave_rebalances_at_once_and_a_crash_only_after_the_session_timeout() {
    let at_ms = 20_000;
    let with_action = |action| {
        let mut scenario = (presets::find("rebalance-storm").unwrap().build)();
        scenario.groups[0].max_poll_interval_ms = 300_000;
        scenario.duration_ms = 80_000;
        scenario.schedule = vec![ScheduledAction {
            at_ms,
            group_id: "search".into(),
            member_id: "c2".into(),
            action,
        }];
        run(&scenario)
    };
    let leave = rebalance_times(&with_action(MemberAction::Leave));
    let crash = rebalance_times(&with_action(MemberAction::Crash));
    assert_eq!(leave[1], at_ms, "LeaveGroup starts a rebalance at once");
    let delay_ms = crash[1] - at_ms;
    // The last heartbeat came up to heartbeat.interval.ms before the crash.
    assert!(
        (42_000..=45_001).contains(&delay_ms),
        "crash noticed after {delay_ms} ms"
    );
}

#[test]
fn static_members_restart_without_any_rebalance() {
    let eager = preset("rolling-restart");
    let fixed = preset("rolling-restart-fix-static-membership");
    assert!(eager.groups()[0].rebalances_total >= 10);
    assert_eq!(
        fixed.groups()[0].rebalances_total,
        1,
        "only the group's formation"
    );
    let rejoins = fixed
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::StaticRejoin { .. }))
        .count();
    assert_eq!(rejoins, 6, "every member came back to its own partitions");
}

#[test]
fn cooperative_rebalancing_keeps_the_others_processing() {
    let eager = preset("rolling-restart");
    let cooperative = preset("rolling-restart-fix-cooperative");
    assert!(
        stalled_member_s(&cooperative) < stalled_member_s(&eager) * 0.7,
        "cooperative {} vs eager {} member-seconds stalled",
        stalled_member_s(&cooperative),
        stalled_member_s(&eager)
    );
    // Only partitions that move are revoked: no member gives up a partition it gets back.
    for event in cooperative.events() {
        if let EventKind::PartitionsRevoked { partitions, .. } = &event.kind {
            assert!(partitions.len() <= 2, "revoked {partitions:?}");
        }
    }
}

#[test]
fn without_commits_a_moved_partition_is_processed_again_and_commit_on_revoke_prevents_it() {
    let build = |commit_on_revoke| {
        let mut scenario = (presets::find("rolling-restart").unwrap().build)();
        scenario.groups[0].enable_auto_commit = false;
        scenario.groups[0].commit_on_revoke = commit_on_revoke;
        run(&scenario)
    };
    let without = build(false);
    let with = build(true);
    assert!(without.groups()[0].duplicates_total > 1_000);
    assert_eq!(with.groups()[0].duplicates_total, 0);
}
