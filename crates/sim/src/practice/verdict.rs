//! The verdict: each goal of the Inkwell challenge with what the run measured and whether it
//! passed, the cost meter, and the link that reproduces the attempt.
//!
//! One plain, serialisable struct, built by one function from a run: `streamlab grade` prints
//! it as JSON and the practice page draws it (and shows the same JSON), so the two can never
//! disagree. While a run is still going a goal may be `pending`: nothing has failed it yet,
//! but it can only pass once the run is over (a lag may still grow, an event may still be
//! lost). A goal that has already failed stays failed. At the run's end nothing is pending.

use super::cost::Cost;
use super::lag::LagTracker;
use super::scenario::{InkwellScenario, Service, DEPLOY_AT_MS, DURATION_MS, SERVICES};
use crate::family::Figures;
use crate::kafka::World;
use serde::Serialize;

/// The challenge's name: its preset, its lesson's slug, and `--preset` of `streamlab grade`.
pub const CHALLENGE: &str = "inkwell";

/// search's deadline: never further behind than this.
pub const SEARCH_LAG_MS_MAX: u64 = 2_000;
/// The recommender's deadline: caught up this soon after its deploy began.
pub const RECOMMENDER_CATCH_UP_MS_MAX: u64 = 60_000;

/// Where a goal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Passed,
    Failed,
    /// Not failed so far; decided when the run ends.
    Pending,
}

/// One goal and what the run measured for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Goal {
    /// The service it belongs to; `None` for the budget, which is the whole attempt's.
    pub service: Option<Service>,
    /// What is measured, as the figures name it (`lag_ms_max`, `lost`, ...).
    pub measure: &'static str,
    /// The goal in words.
    pub goal: &'static str,
    /// The measured value; `None` when there is none yet (not caught up, unbounded cost).
    pub measured: Option<u64>,
    pub unit: &'static str,
    /// The largest value that passes.
    pub limit: u64,
    /// Records retention deleted before the service read them; a service goal fails with
    /// any (a service that skips what it lost is not caught up, it is wrong). `None` for
    /// the budget.
    pub lost: Option<u64>,
    pub status: Status,
}

/// The challenge's verdict on one attempt, at one moment of its run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub challenge: &'static str,
    /// Every goal passed (so the run is over).
    pub passed: bool,
    pub at_ms: u64,
    /// The run has reached its end: no goal is pending.
    pub finished: bool,
    /// One goal per service, in [`SERVICES`] order, then the budget.
    pub goals: Vec<Goal>,
    pub cost: Cost,
    /// The practice page's address for this attempt (the fragment after the site's address).
    pub link: String,
}

impl Verdict {
    /// The verdict on `scenario`'s run `world` (advanced to where it stands), whose lags
    /// `lags` measured.
    pub fn of(scenario: &InkwellScenario, world: &World, lags: &LagTracker) -> Self {
        let at_ms = world.now_ms();
        let finished = at_ms >= DURATION_MS;
        let mut goals: Vec<Goal> = SERVICES
            .iter()
            .map(|&service| {
                let lost = world.groups()[service.index()].tallies().lost;
                let mut goal = measure_of(service, lags, lost, at_ms);
                goal.lost = Some(lost);
                goal.status = match goal.status {
                    _ if lost > 0 => Status::Failed,
                    Status::Pending if finished => Status::Passed,
                    status => status,
                };
                goal
            })
            .collect();
        let cost = Cost::of(scenario);
        goals.push(Goal {
            service: None,
            measure: "credits",
            goal: "costs at most the budget",
            measured: cost.credits,
            unit: "credits",
            limit: cost.budget_credits,
            lost: None,
            status: if cost.within_budget() {
                Status::Passed
            } else {
                Status::Failed
            },
        });
        Self {
            challenge: CHALLENGE,
            passed: goals.iter().all(|g| g.status == Status::Passed),
            at_ms,
            finished,
            goals,
            cost,
            link: link(scenario),
        }
    }

    /// The goal of `service` (`None`: the budget).
    pub fn goal_of(&self, service: Option<Service>) -> &Goal {
        self.goals
            .iter()
            .find(|g| g.service == service)
            .expect("every service and the budget have a goal")
    }

    /// The verdict's numbers by stable names: `passed`, `credits` (absent while unbounded),
    /// and per service its goal's measurement under its `measure` (when there is one) and
    /// `lost`.
    pub fn figures(&self) -> Figures {
        let mut figures = Figures::new().flag("passed", self.passed);
        if let Some(credits) = self.cost.credits {
            figures = figures.count("credits", credits);
        }
        for service in SERVICES {
            let goal = self.goal_of(Some(service));
            let mut group = Figures::new()
                .count("lost", goal.lost.unwrap_or(0))
                .flag("passed", goal.status == Status::Passed);
            if let Some(value) = goal.measured {
                group = group.count(goal.measure, value);
            }
            figures = figures.group(service.name(), group);
        }
        figures
    }
}

/// `service`'s own goal, judged on its measurement alone: `Failed` once the measurement
/// fails it, otherwise `Pending` (the caller adds the losses and the run's end).
fn measure_of(service: Service, lags: &LagTracker, lost: u64, at_ms: u64) -> Goal {
    let pending_unless = |failed: bool| {
        if failed {
            Status::Failed
        } else {
            Status::Pending
        }
    };
    let (measure, goal, measured, unit, limit, status) = match service {
        Service::Search => {
            let worst = lags.lag_ms_max[service.index()];
            let limit = SEARCH_LAG_MS_MAX;
            let failed = worst > limit;
            let goal = "is never more than 2 s behind, losing no event";
            (
                "lag_ms_max",
                goal,
                Some(worst),
                "ms",
                limit,
                pending_unless(failed),
            )
        }
        Service::Analytics => {
            let goal = "loses no event (its dashboards may lag)";
            (
                "lost",
                goal,
                Some(lost),
                "records",
                0,
                pending_unless(lost > 0),
            )
        }
        Service::Recommender => {
            // Decided the moment it catches up in time, or once the minute has passed.
            let limit = RECOMMENDER_CATCH_UP_MS_MAX;
            let measured = lags.recommender_caught_up_at_ms.map(|at| at - DEPLOY_AT_MS);
            let failed = match measured {
                Some(after_ms) => after_ms > limit,
                None => at_ms >= DEPLOY_AT_MS + limit,
            };
            let goal = "is caught up within 60 s of its deploy, losing no event";
            (
                "caught_up_after_ms",
                goal,
                measured,
                "ms",
                limit,
                pending_unless(failed),
            )
        }
    };
    Goal {
        service: Some(service),
        measure,
        goal,
        measured,
        unit,
        limit,
        lost: None,
        status,
    }
}

/// The practice page's fragment that opens `scenario`: format 2, the changes from the broken
/// start, which is the lesson's default.
pub fn link(scenario: &InkwellScenario) -> String {
    let query = crate::replay::share::query::query_for(&InkwellScenario::default(), scenario, None);
    format!("#/{CHALLENGE}?{query}")
}
