//! The cost meter: what the attempt's settings cost, item by item (consumers, partitions,
//! the bytes retention keeps), as one stacked bar against the budget, with the sums written
//! out so the bar is never the only way to read them.

use crate::platform::shared::Shared;
use streamlab_sim::practice::cost::{CONSUMER_CREDITS, MEGABYTE_CREDITS, PARTITION_CREDITS};
use streamlab_sim::practice::Verdict;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct CostMeterProps {
    pub verdict: Shared<Verdict>,
}

pub fn cost_meter(props: &CostMeterProps) -> Html {
    let cost = &props.verdict.cost;
    let budget = cost.budget_credits;
    // The bar's full width is the budget or the cost, whichever is larger, so the budget
    // line stays inside it.
    let scale = cost.credits.unwrap_or(budget * 2).max(budget) as f64;
    let percent = |credits: u64| format!("{:.2}%", 100.0 * credits as f64 / scale);
    let retention = cost.retention_credits;
    let items = [
        ("consumers", Some(cost.consumer_credits)),
        ("partitions", Some(cost.partition_credits)),
        ("retention", retention),
    ];
    let total = match cost.credits {
        Some(credits) => format!("{credits} of {budget} credits"),
        None => format!("unbounded: no retention limit (budget {budget} credits)"),
    };
    let over = !cost.within_budget();
    let retained = match cost.retention_bytes {
        Some(bytes) => format!(
            "retention keeps up to {bytes} bytes, {} MB × {MEGABYTE_CREDITS} = {} credits",
            bytes.div_ceil(1_000_000),
            retention.unwrap_or(0)
        ),
        None => "retention keeps everything, for ever".to_string(),
    };
    html! {
        <section class={classes!("p-cost", over.then_some("over"))} aria-label="Cost meter">
            <h3>{ "Cost" }</h3>
            <p class="p-cost-total" data-figure="credits"
                data-value={cost.credits.map(|c| c.to_string()).unwrap_or_default()}>
                { total }{ if over { " · over budget" } else { " · within budget" } }
            </p>
            <div class="p-cost-bar" aria-hidden="true">
                { for items.iter().map(|(name, credits)| html! {
                    <span class={classes!("p-cost-part", *name)}
                        style={format!("width: {}", percent(credits.unwrap_or(budget)))} />
                }) }
                <span class="p-cost-budget" style={format!("left: {}", percent(budget))} />
            </div>
            <ul class="p-cost-items">
                <li class="consumers">{ format!("{} consumers × {CONSUMER_CREDITS} = {} credits", cost.consumers, cost.consumer_credits) }</li>
                <li class="partitions">{ format!("{} partitions × {PARTITION_CREDITS} = {} credits", cost.partitions, cost.partition_credits) }</li>
                <li class="retention">{ retained }</li>
            </ul>
        </section>
    }
}
