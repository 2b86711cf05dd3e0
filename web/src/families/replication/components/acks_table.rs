//! The three `acks` settings side by side on the same cluster and the same faults: what each
//! had acknowledged, what of that was lost, what was refused or duplicated, and the latency it
//! paid. The setting the scenario names is the one drawn above; its row says so. Each number
//! carries its figure's name (`data-figure`), as `streamlab simulate` prints it.

use crate::platform::shared::Shared;
use streamlab_sim::replication::{Acks, LanePicture, ReplicationSnapshot};
use yew::prelude::*;

/// The setting as Kafka spells it.
pub fn acks_name(acks: Acks) -> &'static str {
    match acks {
        Acks::Zero => "0",
        Acks::One => "1",
        Acks::All => "all",
    }
}

#[derive(Properties, PartialEq)]
pub struct AcksTableProps {
    pub snapshot: Shared<ReplicationSnapshot>,
}

#[function_component(AcksTable)]
pub fn acks_table(props: &AcksTableProps) -> Html {
    let snapshot = &props.snapshot;
    html! {
        <section class="rp-acks" aria-label="The three acks settings on the same faults">
            <table class="rp-acks-table">
                <caption>{ "The same records and faults under each acks setting" }</caption>
                <thead><tr>
                    <th scope="col">{ "acks" }</th>
                    <th scope="col">{ "sent" }</th>
                    <th scope="col">{ "acknowledged" }</th>
                    <th scope="col">{ "acknowledged, then lost" }</th>
                    <th scope="col">{ "refused (NotEnoughReplicas)" }</th>
                    <th scope="col">{ "duplicates" }</th>
                    <th scope="col">{ "failed" }</th>
                    <th scope="col">{ "latency p50 / p99" }</th>
                </tr></thead>
                <tbody>{ for snapshot.lanes.iter().map(|lane| row(lane, lane.acks == snapshot.acks)) }</tbody>
            </table>
        </section>
    }
}

fn row(lane: &LanePicture, drawn: bool) -> Html {
    let number = |figure: &'static str, value: u64| {
        html! { <span data-figure={figure}>{ value }</span> }
    };
    let warn = lane.acknowledged_then_lost > 0 || lane.duplicates > 0;
    html! {
        <tr class={classes!(warn.then_some("warn"), drawn.then_some("drawn"))} data-acks={lane.acks.figure_name()}>
            <th scope="row">
                { format!("acks={}", acks_name(lane.acks)) }
                if lane.idempotent { <span class="rp-note">{ " idempotent" }</span> }
                if drawn { <span class="rp-note">{ " (drawn above)" }</span> }
            </th>
            <td>{ number("sent", lane.sent) }</td>
            <td>{ number("acknowledged", lane.acknowledged) }</td>
            <td class={classes!((lane.acknowledged_then_lost > 0).then_some("bad"))}>
                { number("acknowledged_then_lost", lane.acknowledged_then_lost) }
            </td>
            <td>{ number("rejected_writes", lane.rejected_writes) }</td>
            <td class={classes!((lane.duplicates > 0).then_some("bad"))}>{ number("duplicates", lane.duplicates) }</td>
            <td>{ number("failed", lane.failed) }</td>
            <td>
                { number("produce_latency_p50_ms", lane.latency_p50_ms) }{ " / " }
                { number("produce_latency_p99_ms", lane.latency_p99_ms) }{ " ms" }
            </td>
        </tr>
    }
}
