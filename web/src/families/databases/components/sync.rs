//! The dual-writes comparison: the four ways of keeping a search index in step with a
//! database side by side, each with its figures under the names `streamlab simulate` prints;
//! under them, each product's version in the database and in each lane's index (a version
//! that differs is marked by a sign as well as a colour), the first write each dual-write
//! lane applied out of order, and the outbox table's newest rows.

use crate::platform::shared::Shared;
use crate::widgets::figure_counters::counters;
use streamlab_sim::databases::sync::RaceTrace;
use streamlab_sim::databases::{DatabasesSnapshot, Lane, SyncPicture};
use streamlab_sim::family::Figures;
use yew::prelude::*;

/// What each lane's application (or connector) does, in a line.
fn how(lane: Lane) -> &'static str {
    match lane {
        Lane::DualWrite => "The server writes the database, then the index. A failure is raised and the write is gone.",
        Lane::TryCatch => "The same, with the index write in a try/catch that waits and sends it again.",
        Lane::Cdc => "The server writes only the database. Debezium reads its log; a sink writes the index in log order.",
        Lane::Outbox => "The server writes the row and an outbox row in one transaction; the outbox router publishes the outbox in commit order.",
    }
}

/// Each lane's figures, by the names the CLI prints, and the words a learner reads.
fn rows(lane: Lane) -> &'static [(&'static str, &'static str)] {
    match lane {
        Lane::DualWrite => &[
            ("dual_write.divergent_keys", "products differing now"),
            (
                "dual_write.out_of_order_writes",
                "writes landed out of order",
            ),
            ("dual_write.exceptions", "exceptions"),
            ("dual_write.lost_writes", "writes lost"),
        ],
        Lane::TryCatch => &[
            ("try_catch.divergent_keys", "products differing now"),
            (
                "try_catch.out_of_order_writes",
                "writes landed out of order",
            ),
            ("try_catch.exceptions", "exceptions"),
            ("try_catch.lost_writes", "writes lost"),
        ],
        Lane::Cdc => &[
            ("cdc.divergent_keys", "products differing now"),
            ("cdc.connector_lag_ms", "lag now (ms)"),
            ("cdc.max_connector_lag_ms", "longest lag (ms)"),
            ("cdc.changes_behind", "changes not yet in the index"),
        ],
        Lane::Outbox => &[
            ("outbox.divergent_keys", "products differing now"),
            ("outbox.connector_lag_ms", "lag now (ms)"),
            ("outbox.max_connector_lag_ms", "longest lag (ms)"),
            ("outbox.changes_behind", "changes not yet in the index"),
        ],
    }
}

const WARN: &[&str] = &[
    "dual_write.divergent_keys",
    "try_catch.divergent_keys",
    "cdc.divergent_keys",
    "outbox.divergent_keys",
    "dual_write.lost_writes",
    "try_catch.lost_writes",
];

#[derive(Properties, PartialEq)]
pub struct SyncProps {
    pub snapshot: Shared<DatabasesSnapshot>,
    pub figures: Shared<Figures>,
}

#[function_component(Sync)]
pub fn sync(props: &SyncProps) -> Html {
    let Some(sync) = &props.snapshot.sync else {
        return Html::default();
    };
    html! {
        <div class="db-sync">
            <p class="db-summary" data-figure="writes">
                { format!("{} updates arrived, {} committed by the database.", sync.writes, sync.committed) }
            </p>
            <div class="db-lanes">
                { for sync.lanes.iter().map(|l| {
                    let state = if l.connector.as_ref().is_some_and(|c| !c.running) { " (connector down)" } else { "" };
                    html! {
                        <section class={classes!("db-lane", l.lane.name())} aria-label={l.lane.words()}>
                            <h3>{ l.lane.words() }{ state }</h3>
                            <p class="q-system">{ how(l.lane) }</p>
                            { counters(&props.figures, rows(l.lane), WARN, None) }
                        </section>
                    }
                }) }
            </div>
            { products(sync) }
            { races(&sync.races) }
            { outbox(sync) }
        </div>
    }
}

/// Each product's version in the database and in every lane's index.
fn products(sync: &SyncPicture) -> Html {
    html! {
        <table class="db-table db-products">
            <caption>{ "Each product's version: the database, and each lane's index (≠ differs)" }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "product" }</th>
                    <th scope="col">{ "database" }</th>
                    { for Lane::ALL.iter().map(|l| html! { <th scope="col">{ l.words() }</th> }) }
                </tr>
            </thead>
            <tbody>
                { for sync.keys.iter().map(|k| html! {
                    <tr>
                        <th scope="row">{ format!("product-{}", k.key) }</th>
                        <td>{ format!("v{}", k.db_version) }</td>
                        { for k.lanes.iter().map(|held| {
                            let differs = *held != Some(k.db_version);
                            let text = held.map_or("—".to_string(), |v| format!("v{v}"));
                            html! {
                                <td class={classes!(differs.then_some("db-differs"))}>
                                    if differs { <span class="db-mark" aria-label="differs">{ "≠ " }</span> }
                                    { text }
                                </td>
                            }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// The first write each dual-write lane applied after a newer one of its product.
fn races(races: &[RaceTrace]) -> Html {
    if races.is_empty() {
        return Html::default();
    }
    html! {
        <ul class="db-races">
            { for races.iter().map(|r| html! {
                <li>
                    <strong>{ format!("{}: ", r.lane.words()) }</strong>
                    { format!(
                        "product-{}'s v{} (app-{}, committed at {} ms) reached the index at {} ms, after v{} (app-{}, committed at {} ms) had landed at {} ms.",
                        r.key, r.late.version, r.late.server + 1, r.late.committed_ms, r.late.applied_ms,
                        r.overwritten.version, r.overwritten.server + 1, r.overwritten.committed_ms, r.overwritten.applied_ms,
                    ) }
                </li>
            }) }
        </ul>
    }
}

/// The outbox table's newest rows, in the columns Debezium's outbox router reads.
fn outbox(sync: &SyncPicture) -> Html {
    html! {
        <table class="db-table db-outbox">
            <caption>{ "The outbox table's newest rows published (one per transaction)" }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "id" }</th>
                    <th scope="col">{ "aggregatetype" }</th>
                    <th scope="col">{ "aggregateid" }</th>
                    <th scope="col">{ "type" }</th>
                    <th scope="col">{ "payload" }</th>
                </tr>
            </thead>
            <tbody>
                { for sync.outbox_rows.iter().map(|r| html! {
                    <tr>
                        <td>{ r.id }</td>
                        <td>{ "product" }</td>
                        <td>{ format!("product-{}", r.aggregateid) }</td>
                        <td>{ "ProductUpdated" }</td>
                        <td>{ format!("{{\"version\": {}}}", r.version) }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
