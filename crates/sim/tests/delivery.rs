//! Delivery guarantees as properties: over many seeds and crash times, each commit strategy's
//! tallies obey the theory, the tallies match a recount of the sink's contents, and the
//! conservation invariants hold throughout.

use proptest::prelude::*;
use std::collections::BTreeMap;
use streamlab_sim::kafka::group::Liveness;
use streamlab_sim::kafka::invariants::InvariantChecker;
use streamlab_sim::kafka::scenario::{
    Distribution, GroupConfig, ManualCommit, MemberAction, Scenario, ScheduledAction,
};
use streamlab_sim::kafka::sink::{Effect, RecentEffects, SinkMode, Tallies};
use streamlab_sim::kafka::World;

/// How a group commits: manual placement and whether auto-commit is on.
#[derive(Clone, Copy, Debug)]
struct Strategy {
    manual: ManualCommit,
    auto_commit: bool,
    sink: SinkMode,
}

const BEFORE: Strategy = Strategy {
    manual: ManualCommit::BeforeProcessing,
    auto_commit: false,
    sink: SinkMode::Plain,
};
const AFTER_BATCH: Strategy = Strategy {
    manual: ManualCommit::AfterBatch,
    auto_commit: false,
    sink: SinkMode::Plain,
};
const AFTER_RECORD: Strategy = Strategy {
    manual: ManualCommit::AfterEachRecord,
    auto_commit: false,
    sink: SinkMode::Plain,
};
const AUTO: Strategy = Strategy {
    manual: ManualCommit::None,
    auto_commit: true,
    sink: SinkMode::Plain,
};
const TRANSACTIONAL: Strategy = Strategy {
    manual: ManualCommit::Transactional,
    auto_commit: false,
    sink: SinkMode::Plain,
};
const IDEMPOTENT: Strategy = Strategy {
    sink: SinkMode::Idempotent,
    ..AFTER_BATCH
};
const BY_KEY: Strategy = Strategy {
    sink: SinkMode::ByKey,
    ..AFTER_BATCH
};

/// Three partitions, two members, batches of up to 40 at 5 ms a record (c1 is about 90% busy,
/// so it is usually mid-batch); member `c1` crashes at
/// `crash_at_ms` and starts again `down_ms` later (the coordinator notices after
/// `session.timeout.ms`, 6 s here).
fn scenario(seed: u64, strategy: Strategy, crash_at_ms: u64, down_ms: u64) -> Scenario {
    let mut scenario = Scenario::default();
    scenario.seed = seed;
    scenario.duration_ms = crash_at_ms + 20_000;
    scenario.topic.partitions = 3;
    scenario.producer.rate_per_s = 280;
    scenario.producer.key_count = 30;
    let mut group = GroupConfig::named("search");
    group.members = 2;
    group.max_poll_records = 40;
    group.processing.time_ms = 5;
    group.processing.distribution = Distribution::Exponential;
    group.session_timeout_ms = 6_000;
    group.heartbeat_interval_ms = 1_000;
    group.enable_auto_commit = strategy.auto_commit;
    group.manual_commit = strategy.manual;
    group.sink = strategy.sink;
    scenario.groups = vec![group];
    scenario.schedule = vec![
        crash("c1", crash_at_ms, MemberAction::Crash),
        crash("c1", crash_at_ms + down_ms, MemberAction::Start),
    ];
    scenario
}

fn crash(member_id: &str, at_ms: u64, action: MemberAction) -> ScheduledAction {
    ScheduledAction {
        at_ms,
        group_id: "search".into(),
        member_id: member_id.into(),
        action,
    }
}

/// Runs the scenario to its end, checking the invariants every 250 ms; returns the tallies.
fn run(scenario: &Scenario) -> Result<(World, Tallies), TestCaseError> {
    let mut world = World::new(scenario).unwrap();
    let mut checker = InvariantChecker::default();
    let mut t = 0;
    while t < scenario.duration_ms {
        t += 250;
        world.advance_to(t);
        checker
            .check(&world)
            .map_err(|v| TestCaseError::fail(format!("at {t} ms: {v}")))?;
    }
    let tallies = world.groups()[0].tallies();
    Ok((world, tallies))
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn commit_before_processing_never_duplicates(
        seed in any::<u64>(), crash_at_ms in 1_000u64..8_000, down_ms in 0u64..10_000,
    ) {
        let (_, tallies) = run(&scenario(seed, BEFORE, crash_at_ms, down_ms))?;
        prop_assert_eq!(tallies.duplicated, 0, "{:?}", tallies);
    }

    #[test]
    fn commit_after_processing_never_loses(
        seed in any::<u64>(), crash_at_ms in 1_000u64..8_000, down_ms in 0u64..10_000,
        strategy in prop::sample::select(vec![AFTER_BATCH, AFTER_RECORD, AUTO]),
    ) {
        let (_, tallies) = run(&scenario(seed, strategy, crash_at_ms, down_ms))?;
        prop_assert_eq!(tallies.lost, 0, "{:?} {:?}", strategy, tallies);
    }

    #[test]
    fn atomic_or_idempotent_is_effectively_once(
        seed in any::<u64>(), crash_at_ms in 1_000u64..8_000, down_ms in 0u64..10_000,
        strategy in prop::sample::select(vec![TRANSACTIONAL, IDEMPOTENT, BY_KEY]),
    ) {
        let (_, tallies) = run(&scenario(seed, strategy, crash_at_ms, down_ms))?;
        prop_assert_eq!(tallies.lost, 0, "{:?} {:?}", strategy, tallies);
        prop_assert_eq!(tallies.duplicated, 0, "{:?} {:?}", strategy, tallies);
        prop_assert!(tallies.exactly_once > 0);
    }

    #[test]
    fn random_crashes_keep_the_guarantees(seed in any::<u64>(), mean_ms in 2_000u64..20_000) {
        for (strategy, may_lose, may_duplicate) in [
            (BEFORE, true, false),
            (AFTER_BATCH, false, true),
            (TRANSACTIONAL, false, false),
            (IDEMPOTENT, false, false),
            (BY_KEY, false, false),
        ] {
            let mut s = scenario(seed, strategy, 1_000, 0);
            s.schedule.clear();
            s.duration_ms = 40_000;
            s.groups[0].crash_mean_interval_ms = mean_ms;
            s.groups[0].crash_down_ms = 3_000;
            let (_, tallies) = run(&s)?;
            prop_assert!(may_lose || tallies.lost == 0, "{:?} {:?}", strategy, tallies);
            prop_assert!(may_duplicate || tallies.duplicated == 0, "{:?} {:?}", strategy, tallies);
        }
    }
}

/// Over a spread of seeds and crash times, commit-before does lose and commit-after does
/// duplicate: the theory's "can" is real in the model, not only the "never".
#[test]
fn each_strategy_shows_its_failure_mode() {
    let mut lost_before = 0;
    let mut duplicated_after = 0;
    for seed in 0..12 {
        let crash_at_ms = 2_000 + seed * 431;
        let (_, before) = run(&scenario(seed, BEFORE, crash_at_ms, 4_000)).unwrap();
        let (_, after) = run(&scenario(seed, AFTER_BATCH, crash_at_ms, 4_000)).unwrap();
        lost_before += u64::from(before.lost > 0);
        duplicated_after += u64::from(after.duplicated > 0);
    }
    assert!(
        lost_before >= 6,
        "commit-before lost in {lost_before} of 12"
    );
    assert!(
        duplicated_after >= 6,
        "commit-after duplicated in {duplicated_after} of 12"
    );
}

/// Everything the sink received: the run stepped a millisecond at a time, each step's new
/// effects and dead letters read off the sink's newest before the next step can push them out
/// (and the invariants checked every 250 ms, as [`run`] does).
struct SinkHistory {
    effects: Vec<Effect>,
    dead_letters: Vec<Effect>,
}

fn run_collecting(scenario: &Scenario) -> (World, SinkHistory) {
    let mut world = World::new(scenario).unwrap();
    let mut checker = InvariantChecker::default();
    let mut history = SinkHistory {
        effects: Vec::new(),
        dead_letters: Vec::new(),
    };
    let collect = |recent: &RecentEffects, into: &mut Vec<Effect>| {
        let new = (recent.pushed_total() - into.len() as u64) as usize;
        assert!(new <= recent.len(), "{new} effects in one millisecond");
        into.extend(recent.newest(new));
    };
    for t in 0..=scenario.duration_ms {
        world.advance_to(t);
        let sink = &world.groups()[0].sink;
        collect(&sink.recent, &mut history.effects);
        collect(&sink.recent_dead_letters, &mut history.dead_letters);
        if t % 250 == 0 {
            let checked = checker.check(&world);
            assert!(checked.is_ok(), "at {t} ms: {checked:?}");
        }
    }
    (world, history)
}

/// The tallies, recounted from the list of everything the sink received.
fn recount(world: &World, history: &SinkHistory) -> Tallies {
    let group = &world.groups()[0];
    let sink = &group.sink;
    assert_eq!(sink.writes_total, history.effects.len() as u64);
    let mut writes: BTreeMap<(u32, u64), u32> = BTreeMap::new();
    // By-key mode, replayed independently: the newest offset applied per (key, partition),
    // and the writes each record made that changed the table.
    let mut newest: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let mut applied: BTreeMap<(u32, u64), u32> = BTreeMap::new();
    for effect in &history.effects {
        let at = (effect.partition, effect.offset);
        *writes.entry(at).or_default() += 1;
        let changes = match effect.key {
            Some(key) => {
                let old = newest.get(&(key, effect.partition)).copied();
                let newer = old.is_none_or(|old| old < effect.offset);
                if newer {
                    newest.insert((key, effect.partition), effect.offset);
                }
                newer
            }
            None => true,
        };
        if sink.mode == SinkMode::ByKey {
            assert_eq!(effect.ignored, !changes, "{effect:?}");
        }
        *applied.entry(at).or_default() += u32::from(changes);
    }
    let mut tallies = Tallies::default();
    for (at, &n) in &writes {
        let effects = match sink.mode {
            SinkMode::Idempotent => 1,
            SinkMode::ByKey => applied[at].max(1),
            SinkMode::Plain => n,
        };
        if effects == 1 {
            tallies.exactly_once += 1;
        } else {
            tallies.duplicated += 1;
            tallies.duplicate_effects += u64::from(effects - 1);
        }
    }
    let dead: Vec<(u32, u64)> = history
        .dead_letters
        .iter()
        .map(|e| (e.partition, e.offset))
        .collect();
    for (p, progress) in group.partitions.iter().enumerate() {
        // Records a live owner holds are in its hands, not lost.
        let held = progress.owner.is_some_and(|m| {
            let member = &group.members[m];
            member.owns(p as u32)
                && matches!(member.liveness, Liveness::Running | Liveness::Paused { .. })
        });
        let in_hand = if held {
            progress.processed..progress.position
        } else {
            0..0
        };
        let unwritten: Vec<u64> = (progress.first_offset..group.frontier(p))
            .filter(|&o| !writes.contains_key(&(p as u32, o)) && !dead.contains(&(p as u32, o)))
            .collect();
        let held_now = unwritten.iter().filter(|&o| in_hand.contains(o)).count() as u64;
        tallies.in_hand += held_now;
        tallies.lost += unwritten.len() as u64 - held_now;
    }
    tallies
}

#[test]
fn tallies_equal_a_recount_of_the_sink() {
    let mut seen_lost = false;
    let mut seen_duplicated = false;
    for seed in 0..8 {
        for strategy in [BEFORE, AFTER_BATCH, AUTO, IDEMPOTENT, BY_KEY, TRANSACTIONAL] {
            let mut s = scenario(seed, strategy, 1_500 + seed * 300, 2_000);
            s.duration_ms = 9_000;
            let (world, history) = run_collecting(&s);
            let tallies = world.groups()[0].tallies();
            assert_eq!(
                tallies,
                recount(&world, &history),
                "seed {seed} {strategy:?}"
            );
            seen_lost |= tallies.lost > 0;
            seen_duplicated |= tallies.duplicated > 0;
        }
    }
    assert!(
        seen_lost && seen_duplicated,
        "the recount saw both failure modes"
    );
}
