//! The table–table join: the orders table and the customers table as their changelogs have
//! left them, the view of their join kept up to date, and the view's latest changelog
//! records in Flink's row kinds (`+I`, `-U`, `+U`, `-D`), a retraction marked by its sign
//! as well as a muted colour. The counters say how often the view was checked
//! against the batch join of the two tables, and how often it differed.

use crate::widgets::figure_counters::counters;
use streamlab_sim::family::Figures;
use streamlab_sim::joins::{tier_name, TablesPicture};
use yew::prelude::*;

const ROWS: &[(&str, &str)] = &[
    ("changes", "changes applied"),
    ("view_rows", "rows in the view"),
    ("additions", "rows added (+I, +U)"),
    ("retractions", "rows retracted (-U, -D)"),
    ("view_checks", "checks against the batch join"),
    ("view_mismatches", "checks that differed"),
    (
        "append_only_stale_rows",
        "stale rows an append-only sink would keep",
    ),
];

fn tier(value: u32) -> &'static str {
    tier_name(u8::try_from(value).ok())
}

pub fn tables(p: &TablesPicture, figures: &Figures) -> Html {
    html! {
        <div class="j-tables">
            <section aria-label="The orders table">
                <h3>{ "orders" }</h3>
                <table class="q-lane-table j-table">
                    <thead><tr><th scope="col">{ "order" }</th><th scope="col">{ "customer" }</th><th scope="col">{ "amount" }</th></tr></thead>
                    <tbody>{ for p.orders.iter().map(|(key, row)| html! {
                        <tr><th scope="row">{ format!("order-{}", key + 1) }</th><td>{ format!("customer-{}", row.fk + 1) }</td><td>{ row.value }</td></tr>
                    }) }</tbody>
                </table>
            </section>
            <section aria-label="The customers table">
                <h3>{ "customers" }</h3>
                <table class="q-lane-table j-table">
                    <thead><tr><th scope="col">{ "customer" }</th><th scope="col">{ "tier" }</th></tr></thead>
                    <tbody>{ for p.customers.iter().map(|(key, value)| html! {
                        <tr><th scope="row">{ format!("customer-{}", key + 1) }</th><td>{ tier(*value) }</td></tr>
                    }) }</tbody>
                </table>
            </section>
            <section aria-label="The joined view">
                <h3>{ "orders ⋈ customers (the view)" }</h3>
                <table class="q-lane-table j-table">
                    <thead><tr><th scope="col">{ "order" }</th><th scope="col">{ "customer" }</th><th scope="col">{ "amount" }</th><th scope="col">{ "tier" }</th></tr></thead>
                    <tbody>{ for p.view.iter().map(|(key, row)| html! {
                        <tr><th scope="row">{ format!("order-{}", key + 1) }</th><td>{ format!("customer-{}", row.fk + 1) }</td>
                            <td>{ row.left_value }</td><td>{ tier(row.right_value) }</td></tr>
                    }) }</tbody>
                </table>
            </section>
            <section aria-label="The view's latest changelog records">
                <h3>{ "the view's changelog, latest last" }</h3>
                <ol class="j-changelog">
                    { for p.recent.iter().map(|(at_ms, change)| {
                        let retract = change.kind.is_retraction();
                        html! {
                            <li class={classes!(retract.then_some("retract"))}>
                                { format!("{:.1} s  {} order-{} customer-{} {} {}", *at_ms as f64 / 1000.0, change.kind.symbol(),
                                    change.key + 1, change.row.fk + 1, change.row.left_value, tier(change.row.right_value)) }
                            </li>
                        }
                    }) }
                </ol>
            </section>
            { counters(figures, ROWS, &["view_mismatches"][..], Some("j-counters")) }
        </div>
    }
}
