//! The stream–table join: the latest orders, each with the tier it was enriched with by
//! processing time and by event time (`FOR SYSTEM_TIME AS OF`), in the first run and in the
//! rerun with another arrival interleaving, beside the tier valid when it was placed. An
//! answer that differs between the runs is marked (≠) as well as tinted; under the orders,
//! the customer table as each run's processing-time join sees it now.

use crate::widgets::figure_counters::counters;
use streamlab_sim::family::Figures;
use streamlab_sim::joins::{tier_name, EnrichmentPicture, OrderRow};
use yew::prelude::*;

const ROWS: &[(&str, &str)] = &[
    ("orders", "orders"),
    ("tier_changes", "tier changes"),
    ("processing_time.compared", "answered in both runs"),
    (
        "processing_time.differing_enrichments",
        "differ between runs, by processing time",
    ),
    (
        "event_time.differing_enrichments",
        "differ between runs, by event time",
    ),
    (
        "processing_time.stale",
        "processing-time answers not valid at the order's time",
    ),
    (
        "event_time.waiting",
        "event-time orders waiting for the watermark",
    ),
    ("event_time.late", "late orders or changes"),
];

/// An answer cell: "…" until answered, the tier joined, "≠" when the runs disagree.
fn answer(answer: Option<Option<u8>>, other: Option<Option<u8>>) -> Html {
    let differs = matches!((answer, other), (Some(a), Some(b)) if a != b);
    let text = match answer {
        None => "…".to_string(),
        Some(tier) => format!("{}{}", tier_name(tier), if differs { " ≠" } else { "" }),
    };
    html! { <td class={classes!(differs.then_some("warn"))}>{ text }</td> }
}

fn row(r: &OrderRow) -> Html {
    // answers[run][clock]: clock 0 is processing time, 1 event time.
    let a = r.answers;
    html! {
        <tr>
            <th scope="row">{ r.order + 1 }</th>
            <td>{ r.customer + 1 }</td>
            <td>{ format!("{:.1} s", r.at_ms as f64 / 1000.0) }</td>
            <td>{ tier_name(r.valid_tier) }</td>
            { answer(a[0][0], a[1][0]) }
            { answer(a[1][0], a[0][0]) }
            { answer(a[0][1], a[1][1]) }
            { answer(a[1][1], a[0][1]) }
        </tr>
    }
}

pub fn enrichment(p: &EnrichmentPicture, figures: &Figures) -> Html {
    html! {
        <div class="j-enrichment">
            <table class="q-lane-table j-table" aria-label="The latest orders and their enrichments">
                <thead>
                    <tr>
                        <th scope="col" rowspan="2">{ "order" }</th><th scope="col" rowspan="2">{ "customer" }</th>
                        <th scope="col" rowspan="2">{ "placed" }</th><th scope="col" rowspan="2">{ "tier then" }</th>
                        <th scope="colgroup" colspan="2">{ "processing time (latest arrived)" }</th>
                        <th scope="colgroup" colspan="2">{ "event time (FOR SYSTEM_TIME AS OF)" }</th>
                    </tr>
                    <tr>
                        <th scope="col">{ "run 1" }</th><th scope="col">{ "rerun" }</th>
                        <th scope="col">{ "run 1" }</th><th scope="col">{ "rerun" }</th>
                    </tr>
                </thead>
                <tbody>{ for p.rows.iter().map(row) }</tbody>
            </table>
            <p class="j-legend">
                { "…: not answered yet (by event time, an order waits until the watermark passes its time). \
                   ≠: the two runs answered differently." }
            </p>
            <p class="j-legend">
                { "The customer table now, as each run's processing-time join sees it: " }
                { for p.customers.iter().map(|c| html! {
                    <span class="j-chip" title={format!("the event-time join keeps {} versions", c.versions_held)}>
                        { format!("customer-{}: {} / {}", c.customer + 1, tier_name(c.tiers[0]), tier_name(c.tiers[1])) }
                    </span>
                }) }
            </p>
            { counters(figures, ROWS, &["processing_time.differing_enrichments", "event_time.differing_enrichments"][..], None) }
        </div>
    }
}
