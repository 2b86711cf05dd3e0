//! The challenge's goals: one card per service and one for the budget, each with the goal in
//! words, what the run measured against its limit, the events the service lost, and whether
//! it passed. The status is written as a word and marked with a symbol as well as a colour,
//! so it reads without colour. Every number is the verdict's, the same `streamlab grade`
//! prints.

use crate::platform::shared::Shared;
use streamlab_sim::practice::{Goal, Status, Verdict};
use yew::prelude::*;

#[derive(PartialEq)]
pub struct GoalsProps {
    pub verdict: Shared<Verdict>,
}

pub fn goals(props: &GoalsProps) -> Html {
    let verdict = &props.verdict;
    let (summary, class) = if verdict.passed {
        ("Solved: every goal passed.", "passed")
    } else if verdict.goals.iter().any(|g| g.status == Status::Failed) {
        ("Not solved yet.", "failed")
    } else {
        ("Running: the goals are judged at the end.", "pending")
    };
    html! {
        <section class="p-goals" aria-label="Goals">
            <p class={classes!("p-summary", class)} data-passed={verdict.passed.to_string()}>
                { summary }
            </p>
            <div class="p-goal-cards">
                { for verdict.goals.iter().map(goal_card) }
            </div>
        </section>
    }
}

fn goal_card(goal: &Goal) -> Html {
    let name = goal.service.map_or("budget", |s| s.name());
    let (mark, word, class) = match goal.status {
        Status::Passed => ("✓", "passed", "passed"),
        Status::Failed => ("✗", "failed", "failed"),
        Status::Pending => ("…", "pending", "pending"),
    };
    let measured = match (goal.measured, goal.measure) {
        (Some(value), "caught_up_after_ms") => format!("{value} ms after the deploy"),
        (Some(value), _) => format!("{value} {}", goal.unit),
        (None, "caught_up_after_ms") => "never".to_string(),
        (None, _) => "unbounded".to_string(),
    };
    let value = goal.measured.map(|v| v.to_string()).unwrap_or_default();
    html! {
        <article class={classes!("p-goal", class)} data-service={name} data-status={word}>
            <h3>{ name }</h3>
            <p class="p-goal-text">{ goal.goal }</p>
            <p class="p-status"><span aria-hidden="true">{ mark }</span>{ format!(" {word}") }</p>
            <dl>
                <dt title={goal.measure}>{ label(goal.measure) }</dt>
                <dd data-figure={goal.measure} data-value={value}>{ measured }</dd>
                <dt>{ "limit" }</dt>
                <dd>{ format!("{} {}", goal.limit, goal.unit) }</dd>
                if let Some(lost) = goal.lost {
                    <dt>{ "lost" }</dt>
                    <dd data-figure="lost" data-value={lost.to_string()}>{ format!("{lost} records") }</dd>
                }
            </dl>
        </article>
    }
}

/// A measurement's short name on the card; its figure name stays in the tooltip and the
/// JSON.
fn label(measure: &str) -> &str {
    match measure {
        "lag_ms_max" => "worst lag",
        "caught_up_after_ms" => "caught up",
        "credits" => "cost",
        other => other,
    }
}
