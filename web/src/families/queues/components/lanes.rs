//! The answers to a producer faster than its consumer, one lane each (drop, a memory buffer,
//! block, a log; or direct delivery against a broker), with what waits in each and what each
//! lost, by cause; and for a Kinesis stream, each shard's accepted and throttled writes.

use crate::platform::shared::Shared;
use streamlab_sim::queues::{PipeKind, PipePicture, QueuesSnapshot};
use yew::prelude::*;

/// The lane's name, as the lesson says it.
pub fn lane_name(lane: PipeKind) -> &'static str {
    match lane {
        PipeKind::Direct => "direct",
        PipeKind::Drop => "drop",
        PipeKind::Buffer => "memory buffer",
        PipeKind::Block => "block",
        PipeKind::Log => "log",
        PipeKind::Broker => "broker",
    }
}

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    pub snapshot: Shared<QueuesSnapshot>,
}

#[function_component(Lanes)]
pub fn lanes(props: &LanesProps) -> Html {
    let snapshot = &props.snapshot;
    let deepest = snapshot
        .pipes
        .iter()
        .map(|p| p.in_memory + p.on_disk)
        .max()
        .unwrap_or(0)
        .max(1);
    html! {
        <div class="q-lanes">
            if !snapshot.pipes.is_empty() {
                <table class="q-lane-table">
                    <thead><tr>
                        <th scope="col">{ "lane" }</th><th scope="col">{ "consumer" }</th>
                        <th scope="col">{ "sent" }</th><th scope="col">{ "processed" }</th>
                        <th scope="col">{ "waiting" }</th><th scope="col">{ "lost, and why" }</th>
                    </tr></thead>
                    <tbody>{ for snapshot.pipes.iter().map(|pipe| lane(pipe, deepest)) }</tbody>
                </table>
            }
            if let Some(kinesis) = &snapshot.kinesis {
                <table class="q-lane-table">
                    <thead><tr><th scope="col">{ "shard" }</th><th scope="col">{ "accepted" }</th>
                        <th scope="col">{ "throttled (ProvisionedThroughputExceededException)" }</th></tr></thead>
                    <tbody>
                        { for kinesis.accepted.iter().zip(&kinesis.throttled).enumerate().map(|(shard, (ok, refused))| html! {
                            <tr class={classes!((*refused > 0).then_some("warn"))}>
                                <th scope="row">{ format!("shard {shard}") }</th><td>{ ok }</td><td>{ refused }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </div>
    }
}

fn lane(pipe: &PipePicture, deepest: u64) -> Html {
    let waiting = pipe.in_memory + pipe.on_disk;
    let losses: Vec<String> = [
        (pipe.dropped, "dropped"),
        (pipe.lost_on_crash, "lost on a crash"),
        (pipe.lost_while_down, "sent while the consumer was down"),
        (pipe.lost_to_retention, "deleted by retention"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{n} {why}"))
    .collect();
    let blocked = (pipe.producer_blocked_ms > 0).then(|| {
        format!(
            "; the producer waited {:.1} s",
            pipe.producer_blocked_ms as f64 / 1000.0
        )
    });
    let width = waiting as f64 * 100.0 / deepest as f64;
    html! {
        <tr class={classes!((!losses.is_empty()).then_some("warn"))} data-lane={lane_name(pipe.lane)}>
            <th scope="row">{ lane_name(pipe.lane) }</th>
            <td>{ if pipe.consumer_up { "up" } else { "✕ down" } }</td>
            <td>{ pipe.sent }</td>
            <td>{ pipe.processed }</td>
            <td class="q-depth">
                <span class="bar" style={format!("width: {width:.1}%")} />
                <span class="text">{ waiting_words(pipe) }</span>
            </td>
            <td>{ if losses.is_empty() { "none".to_string() } else { losses.join(", ") } }{ blocked.unwrap_or_default() }</td>
        </tr>
    }
}

/// Where a lane's waiting records are: a log or a broker keeps them on its disk; the other
/// lanes hold them in the consumer's memory (spilling to disk if asked).
fn waiting_words(pipe: &PipePicture) -> String {
    if pipe.lane.is_durable() {
        return format!("{} in the log", pipe.in_memory + pipe.on_disk);
    }
    match pipe.on_disk {
        0 => format!("{} in memory", pipe.in_memory),
        disk => format!("{} in memory, {disk} on disk", pipe.in_memory),
    }
}
