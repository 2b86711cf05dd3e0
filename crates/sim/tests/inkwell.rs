//! The Inkwell challenge: the broken start fails for the reasons the challenge names, a
//! solution with knobs only passes, "add everything" fails on cost, each service's fix mends
//! only that service, and the verdict is the same however the run is stepped, through the
//! headless runner and through the attempt's link.

use streamlab_sim::family::{Figure, Simulation};
use streamlab_sim::headless::{run_link, run_preset, RunOptions};
use streamlab_sim::practice::{
    grade, Consumers, InkwellScenario, InkwellWorld, Service, Status, Verdict, DURATION_MS,
};

fn verdict_at_end(scenario: &InkwellScenario) -> Verdict {
    grade(scenario).unwrap()
}

/// The status of `service`'s goal (`None`: the budget).
fn status(verdict: &Verdict, service: Option<Service>) -> Status {
    verdict.goal_of(service).status
}

/// Six partitions, so the recommender can run six busy consumers; two for search; analytics
/// keeps its two and retention covers the ~47 s it falls behind while the warehouse is slow.
fn solution() -> InkwellScenario {
    InkwellScenario {
        partitions: 6,
        retention_ms: 50_000,
        consumers: Consumers {
            search: 2,
            analytics: 2,
            recommender: 6,
        },
        ..InkwellScenario::default()
    }
}

const SEARCH: Option<Service> = Some(Service::Search);
const ANALYTICS: Option<Service> = Some(Service::Analytics);
const RECOMMENDER: Option<Service> = Some(Service::Recommender);

#[test]
fn the_broken_start_fails_every_goal_each_for_its_own_reason() {
    let verdict = verdict_at_end(&InkwellScenario::default());
    assert!(verdict.finished && !verdict.passed);
    // One consumer at 5 ms a record cannot keep up with 300 a second: search falls behind.
    let search = verdict.goal_of(SEARCH);
    assert_eq!(search.status, Status::Failed);
    assert!(search.measured.unwrap() > search.limit, "{search:?}");
    // Retention deletes what analytics has not read while its warehouse is slow.
    let analytics = verdict.goal_of(ANALYTICS);
    assert_eq!(analytics.status, Status::Failed);
    assert!(analytics.measured.unwrap() > 0);
    // The recommender loses nothing: it just never catches up.
    let recommender = verdict.goal_of(RECOMMENDER);
    assert_eq!(recommender.status, Status::Failed);
    assert_eq!((recommender.measured, recommender.lost), (None, Some(0)));
    // And its eight idle consumers put the start over the budget.
    assert_eq!(status(&verdict, None), Status::Failed);
}

#[test]
fn a_solution_with_knobs_only_passes_every_goal() {
    let verdict = verdict_at_end(&solution());
    let failed: Vec<_> = verdict
        .goals
        .iter()
        .filter(|g| g.status != Status::Passed)
        .collect();
    assert!(verdict.passed, "{failed:?}");
    let caught_up = verdict.goal_of(RECOMMENDER);
    assert!(caught_up.measured.unwrap() <= caught_up.limit);
    assert!(verdict.cost.credits.unwrap() <= verdict.cost.budget_credits);
}

#[test]
fn retention_by_bytes_or_a_third_analytics_consumer_solve_it_too() {
    // Retention by size: 2.7 MB per partition keeps 54 s of a partition's 50 records a second.
    let by_bytes = InkwellScenario {
        retention_ms: -1,
        retention_bytes: 2_700_000,
        ..solution()
    };
    assert!(verdict_at_end(&by_bytes).passed);
    // A third analytics consumer falls behind less, so less retention covers it.
    let mut third = solution();
    third.consumers.analytics = 3;
    third.retention_ms = 35_000;
    assert!(verdict_at_end(&third).passed);
}

#[test]
fn adding_everything_meets_every_deadline_and_fails_the_budget() {
    let everything = InkwellScenario {
        partitions: 12,
        retention_ms: 604_800_000,
        retention_bytes: -1,
        consumers: Consumers {
            search: 12,
            analytics: 12,
            recommender: 12,
        },
        ..InkwellScenario::default()
    };
    let verdict = verdict_at_end(&everything);
    assert!(!verdict.passed);
    for goal in verdict.goals.iter().filter(|g| g.service.is_some()) {
        assert_eq!(goal.status, Status::Passed, "{goal:?}");
    }
    assert_eq!(status(&verdict, None), Status::Failed);
    // So is one consumer more than search needs, on an otherwise passing attempt.
    let mut generous = solution();
    generous.consumers.search = 3;
    let verdict = verdict_at_end(&generous);
    assert_eq!(status(&verdict, SEARCH), Status::Passed);
    assert_eq!(status(&verdict, None), Status::Failed);
}

#[test]
fn each_fix_mends_its_own_service_only() {
    let broken = InkwellScenario::default();
    let mut search_fixed = broken.clone();
    search_fixed.consumers.search = 2;
    let verdict = verdict_at_end(&search_fixed);
    assert_eq!(status(&verdict, SEARCH), Status::Passed);
    assert_eq!(status(&verdict, ANALYTICS), Status::Failed);
    assert_eq!(status(&verdict, RECOMMENDER), Status::Failed);

    // Consumers beyond the partition count sit idle: the recommender needs partitions.
    let mut partitioned = search_fixed.clone();
    partitioned.partitions = 6;
    let verdict = verdict_at_end(&partitioned);
    assert_eq!(status(&verdict, RECOMMENDER), Status::Passed);
    assert_eq!(status(&verdict, ANALYTICS), Status::Failed);
    // Twelve recommender consumers on six partitions still cost twelve.
    assert_eq!(status(&verdict, None), Status::Failed);
}

#[test]
fn a_service_that_skips_what_retention_deleted_fails_even_if_its_lag_looks_fine() {
    // Analytics made fast enough to need no retention; retention cut to 10 s, shorter than
    // the recommender's 20 s deploy, deletes records it has not read.
    let short = InkwellScenario {
        retention_ms: 10_000,
        consumers: Consumers {
            analytics: 6,
            ..solution().consumers
        },
        ..solution()
    };
    let verdict = verdict_at_end(&short);
    assert_eq!(status(&verdict, ANALYTICS), Status::Passed);
    let recommender = verdict.goal_of(RECOMMENDER);
    assert!(recommender.lost.unwrap() > 0, "{recommender:?}");
    assert_eq!(recommender.status, Status::Failed);
}

#[test]
fn goals_wait_for_the_run_unless_already_failed() {
    let mut world = InkwellWorld::new(&InkwellScenario::default()).unwrap();
    world.advance_to(30_000);
    let verdict = world.verdict();
    assert!(!verdict.finished && !verdict.passed);
    // Search is already more than 2 s behind; the services have failed nothing else yet.
    assert_eq!(status(&verdict, SEARCH), Status::Failed);
    assert_eq!(status(&verdict, ANALYTICS), Status::Pending);
    assert_eq!(status(&verdict, RECOMMENDER), Status::Pending);
    // The budget is known from the settings before the run starts.
    assert_eq!(status(&verdict, None), Status::Failed);
    // A minute after the deploy began without catching up, the recommender has failed.
    world.advance_to(120_000);
    let verdict = world.verdict();
    assert_eq!(status(&verdict, RECOMMENDER), Status::Failed);
}

#[test]
fn the_verdict_is_the_same_however_the_run_is_stepped() {
    let scenario = solution();
    let mut whole = InkwellWorld::new(&scenario).unwrap();
    whole.advance_to(DURATION_MS);
    let mut stepped = InkwellWorld::new(&scenario).unwrap();
    let mut t_ms = 0;
    while t_ms < DURATION_MS {
        // Steps off the measurement grid, some shorter and some longer than it.
        t_ms = (t_ms + 17 + t_ms % 1_931).min(DURATION_MS);
        stepped.advance_to(t_ms);
    }
    assert_eq!(whole.trace_hash(), stepped.trace_hash());
    assert_eq!(whole.lags(), stepped.lags());
    assert_eq!(whole.verdict(), stepped.verdict());
}

#[test]
fn the_headless_runner_and_the_attempts_link_give_the_same_verdict() {
    let preset = run_preset("inkwell", RunOptions::default()).unwrap();
    assert_eq!(preset["family"], "practice");
    assert_eq!(preset["lesson"], "inkwell");
    let broken = serde_json::to_value(verdict_at_end(&InkwellScenario::default())).unwrap();
    assert_eq!(preset["verdict"], broken);
    assert_eq!(preset["figures"]["passed"], false);

    let verdict = verdict_at_end(&solution());
    assert!(
        verdict.link.starts_with("#/inkwell?s=2."),
        "{}",
        verdict.link
    );
    let linked = run_link(&verdict.link, RunOptions::default()).unwrap();
    assert_eq!(linked["verdict"], serde_json::to_value(&verdict).unwrap());
    let figures = verdict.figures();
    assert_eq!(figures.get("passed"), Some(&Figure::Flag(true)));
    assert_eq!(linked["figures"]["recommender"]["lost"], 0);
}
