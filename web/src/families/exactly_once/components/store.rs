//! The zombie comparison's results store: each key's count and the instance that wrote it
//! last, the newest epoch the store knows, and how many of the old instance's writes landed
//! over newer values or were refused.

use crate::platform::shared::Shared;
use streamlab_sim::exactly_once::{EosSnapshot, Fencing};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct StoreProps {
    pub snapshot: Shared<EosSnapshot>,
}

#[function_component(Store)]
pub fn store(props: &StoreProps) -> Html {
    let Some(table) = &props.snapshot.table else {
        return html! {};
    };
    let fencing = match table.fencing {
        Fencing::None => "no fencing: every write lands",
        Fencing::Epoch => "fenced by epoch: older instances are refused",
        Fencing::TransactionalId => "fenced by one transactional.id: the old producer is fenced",
    };
    html! {
        <section class="eo-store" aria-label="Results store">
            <h3>{ "Results store" }</h3>
            <p class="eo-system">{ format!("{fencing} · newest epoch {}", table.newest_epoch) }</p>
            <dl class="eo-counters">
                <div><dt>{ "writes" }</dt><dd>{ table.writes }</dd></div>
                <div class={classes!((table.stale_writes > 0).then_some("warn"))}>
                    <dt>{ "stale writes landed" }</dt><dd data-figure="stale_writes">{ table.stale_writes }</dd>
                </div>
                <div><dt>{ "writes refused" }</dt><dd data-figure="refused_writes">{ table.refused_writes }</dd></div>
            </dl>
            <table class="eo-state">
                <thead><tr><th>{ "key" }</th><th>{ "count" }</th><th>{ "written by" }</th></tr></thead>
                <tbody>
                    { for table.values.iter().zip(&table.written_by).enumerate().map(|(key, (v, by))| {
                        let old = *by < table.newest_epoch;
                        html! {
                            <tr class={classes!(old.then_some("warn"))}>
                                <td>{ format!("key-{key}") }</td>
                                <td>{ v }</td>
                                <td>{ if old { format!("instance {by} (old) ✕") } else { format!("instance {by}") } }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </section>
    }
}
