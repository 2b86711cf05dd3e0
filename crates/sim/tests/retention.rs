//! Retention, replay and resets, counted exactly: a slow group loses precisely the records
//! retention deleted before it read them, a group started later at earliest reads exactly the
//! retained range, and a reset to earliest re-reads exactly what was already read.

use streamlab_sim::kafka::invariants::InvariantChecker;
use streamlab_sim::kafka::scenario::{
    AutoOffsetReset, GroupConfig, MemberAction, OffsetTarget, Scenario, ScheduledAction,
};
use streamlab_sim::kafka::World;

/// A fast `search` group and a slow `analytics` group on a topic that keeps 10 s of records.
fn falls_behind() -> Scenario {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 60_000;
    scenario.topic.partitions = 3;
    scenario.topic.retention_ms = 10_000;
    scenario.broker.log_retention_check_interval_ms = 1_000;
    scenario.producer.rate_per_s = 150;
    let search = GroupConfig::named("search");
    let mut analytics = GroupConfig::named("analytics");
    analytics.members = 1;
    analytics.processing.time_ms = 12;
    analytics.auto_offset_reset = AutoOffsetReset::Earliest;
    scenario.groups = vec![search, analytics];
    scenario
}

fn run_checked(world: &mut World, to_ms: u64) {
    let mut checker = InvariantChecker::default();
    let mut t = world.now_ms();
    while t < to_ms {
        t += 100;
        world.advance_to(t);
        checker
            .check(world)
            .unwrap_or_else(|v| panic!("at {t} ms: {v}"));
    }
}

#[test]
fn retention_loss_is_exactly_the_unread_records_it_deleted() {
    let mut world = World::new(&falls_behind()).unwrap();
    run_checked(&mut world, 60_000);
    let [search, analytics] = world.groups() else {
        panic!("two groups")
    };
    assert_eq!(search.lost_to_retention(), 0, "the fast group keeps up");
    assert!(
        analytics.lost_to_retention() > 1_000,
        "the slow one falls behind"
    );
    for (p, log) in world.topic().partitions.iter().enumerate() {
        let progress = &analytics.partitions[p];
        let runs = &analytics.sink.partitions[p];
        let start = log.log_start_offset();
        // Records deleted without ever reaching analytics' sink, apart from those its member
        // fetched before the deletion and is still working through.
        let unwritten =
            |from: u64, to: u64| (to - from) - (runs.covered_below(to) - runs.covered_below(from));
        let in_hand_to = progress.position.min(start);
        let in_hand = unwritten(progress.processed.min(in_hand_to), in_hand_to);
        assert_eq!(
            progress.lost_to_retention,
            unwritten(0, start) - in_hand,
            "p{p}"
        );
        assert_eq!(
            analytics.tallies().duplicated,
            0,
            "losing records is not re-reading them"
        );
    }
}

#[test]
fn a_new_group_at_earliest_reads_exactly_the_retained_range() {
    let mut scenario = falls_behind();
    let mut replay = GroupConfig::named("recommender");
    replay.start_ms = 30_000;
    replay.auto_offset_reset = AutoOffsetReset::Earliest;
    scenario.groups.push(replay);
    let mut world = World::new(&scenario).unwrap();
    world.advance_to(30_000);
    // Step a millisecond at a time until the new group has picked where it starts.
    let mut starts = Vec::new();
    while starts.len() < 3 {
        world.advance_to(world.now_ms() + 1);
        let group = &world.groups()[2];
        for (p, progress) in group.partitions.iter().enumerate() {
            if progress.started && !starts.iter().any(|&(q, _)| q == p) {
                let log_start = world.topic().partitions[p].log_start_offset();
                starts.push((p, log_start));
                assert_eq!(progress.first_offset, log_start, "p{p} starts at log start");
            }
        }
        assert!(world.now_ms() < 40_000, "the new group never started");
    }
    run_checked(&mut world, 60_000);
    let group = &world.groups()[2];
    let tallies = group.tallies();
    assert_eq!(tallies.lost, 0);
    assert_eq!(tallies.duplicated, 0);
    for (p, first) in starts {
        let processed = group.partitions[p].processed;
        let runs = &group.sink.partitions[p];
        assert!(processed > first + 1_000, "p{p} read the history");
        assert_eq!(
            runs.covered_below(processed) - runs.covered_below(first),
            processed - first,
            "p{p}: every retained record from the start on, once"
        );
        assert_eq!(runs.covered_below(first), 0, "p{p}: nothing before it");
    }
}

#[test]
fn a_reset_to_earliest_reads_everything_again_once() {
    let mut scenario = Scenario::default();
    scenario.duration_ms = 40_000;
    scenario.topic.partitions = 2;
    scenario.topic.retention_ms = -1;
    scenario.producer.rate_per_s = 100;
    scenario.schedule = vec![ScheduledAction {
        at_ms: 20_000,
        group_id: "search".into(),
        member_id: "c1".into(),
        action: MemberAction::ResetOffsets {
            to: OffsetTarget::Earliest,
        },
    }];
    let mut world = World::new(&scenario).unwrap();
    run_checked(&mut world, 19_999);
    let read_before: u64 = world.groups()[0]
        .partitions
        .iter()
        .map(|p| p.high_water)
        .sum();
    run_checked(&mut world, 40_000);
    let group = &world.groups()[0];
    assert_eq!(group.resets_total, 1);
    let tallies = group.tallies();
    assert_eq!(tallies.lost, 0);
    // Everything read before the reset is read again, and so is each record a member had in
    // hand at the reset (it finishes, then its partition starts over): at most one per member.
    let members = u64::from(scenario.groups[0].members);
    assert!(
        tallies.duplicated >= read_before && tallies.duplicated <= read_before + members,
        "{} re-read of {read_before}",
        tallies.duplicated
    );
    assert_eq!(tallies.duplicate_effects, tallies.duplicated);
}

#[test]
fn the_retention_and_replay_presets_show_what_they_promise() {
    let run = |slug: &str| {
        let scenario = (streamlab_sim::kafka::presets::find(slug).unwrap().build)();
        let mut world = World::new(&scenario).unwrap();
        world.advance_to(scenario.duration_ms);
        world
    };
    let behind = run("analytics-falls-behind-retention");
    let [search, analytics] = behind.groups() else {
        panic!("search and analytics")
    };
    assert_eq!(search.lost_to_retention(), 0);
    assert!(analytics.lost_to_retention() > 0);
    assert!(behind.events().iter().any(|e| e.kind.category() == "loss"
        && streamlab_sim::kafka::events::narrate(e).contains("analytics")));

    let replay = run("replay-after-bug-fix");
    let [search, recommender] = replay.groups() else {
        panic!("search and recommender")
    };
    assert!(
        search.tallies().duplicated > 1_000,
        "the fixed code re-reads"
    );
    assert_eq!(search.tallies().lost, 0);
    assert!(
        recommender.partitions.iter().all(|p| p.first_offset > 0),
        "retention had already deleted the oldest records when the recommender started"
    );
    assert_eq!(recommender.tallies().lost, 0);
    assert!(
        recommender.tallies().exactly_once > 3_000,
        "it read the history"
    );
}

#[test]
fn with_no_reset_policy_a_deleted_position_stops_its_partition_and_says_so() {
    let mut scenario = falls_behind();
    scenario.groups[1].auto_offset_reset = AutoOffsetReset::None;
    let mut world = World::new(&scenario).unwrap();
    run_checked(&mut world, 60_000);
    let analytics = &world.groups()[1];
    let stopped: Vec<u32> = (0..scenario.topic.partitions)
        .filter(|&p| analytics.partitions[p as usize].out_of_range)
        .collect();
    assert!(!stopped.is_empty(), "retention overtook analytics");
    let narrated: Vec<(u32, String)> = world
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            streamlab_sim::kafka::events::EventKind::OffsetOutOfRange {
                group_id,
                partition,
                position,
                log_start,
                ..
            } if &**group_id == "analytics" => {
                assert!(position.is_some_and(|p| p < *log_start));
                Some((*partition, streamlab_sim::kafka::events::narrate(e)))
            }
            _ => None,
        })
        .collect();
    // Once per stopped partition, not once per poll.
    assert_eq!(
        narrated.iter().map(|(p, _)| *p).collect::<Vec<_>>().len(),
        stopped.len()
    );
    for (p, line) in &narrated {
        assert!(stopped.contains(p));
        assert!(line.contains("auto.offset.reset=none"), "{line}");
        assert!(line.contains("OffsetOutOfRangeException"), "{line}");
    }
    // A stopped partition reads nothing more: the position stays below the log start.
    for &p in &stopped {
        let start = world.topic().partitions[p as usize].log_start_offset();
        assert!(analytics.partitions[p as usize].position < start);
    }
}
