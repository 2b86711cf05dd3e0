//! The recovery models side by side on one seed: for each, whether its job runs, restarts or
//! is paused; its figures by the names the CLI prints; its state per key beside the exact
//! count of the records before its positions (a wrong count is marked with a cross, not only a
//! colour); what a restart would go back to; its input channels with the records and
//! barriers in flight (a held-back channel is marked "waits"); the checkpoint or microbatch in
//! progress; and what its sink let out.

use crate::platform::palette::key_colour;
use crate::platform::shared::Shared;
use streamlab_sim::exactly_once::{
    ChannelPicture, EosSnapshot, LanePicture, LaneStatus, Model, RestoreFrom,
};
use streamlab_sim::family::{Figure, Figures};
use yew::prelude::*;

/// Elements of a channel drawn as cells.
const CELLS: usize = 40;

/// The words a learner reads for each model.
pub fn model_name(model: Model) -> &'static str {
    match model {
        Model::Microbatch => "Microbatches",
        Model::Checkpoint => "Checkpoint barriers",
        Model::NoCheckpoint => "No checkpoints",
    }
}

fn model_system(model: Model) -> &'static str {
    match model {
        Model::Microbatch => "Spark Structured Streaming: offsets logged, state and offsets committed per batch",
        Model::Checkpoint => "Flink: barriers at every execution.checkpointing.interval, a snapshot of state and offsets",
        Model::NoCheckpoint => "Flink without checkpoints: the state lives only in memory",
    }
}

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    pub snapshot: Shared<EosSnapshot>,
    pub figures: Shared<Figures>,
}

#[function_component(Lanes)]
pub fn lanes(props: &LanesProps) -> Html {
    let snapshot = &props.snapshot;
    html! {
        <div class="eo-lanes">
            { for snapshot.lanes.iter().map(|lane| html! {
                <section class={classes!("eo-lane", lane.model.name())} aria-label={model_name(lane.model)}>
                    <h3>{ model_name(lane.model) }</h3>
                    <p class="eo-system">{ model_system(lane.model) }</p>
                    { status(lane) }
                    { counters(props.figures.get(lane.model.name())) }
                    { state_table(lane) }
                    { progress(lane) }
                    { channels(snapshot, lane) }
                </section>
            }) }
        </div>
    }
}

fn status(lane: &LanePicture) -> Html {
    let (class, words) = match lane.status {
        LaneStatus::Running => ("running", format!("running (instance {})", lane.epoch)),
        LaneStatus::Restarting { at_ms } => (
            "down",
            format!("✕ failed: restarts at {:.1} s", at_ms as f64 / 1000.0),
        ),
        LaneStatus::Paused { until_ms } => (
            "down",
            format!("paused until {:.1} s", until_ms as f64 / 1000.0),
        ),
    };
    let restore = match (lane.restore, lane.restore_id) {
        (RestoreFrom::Checkpoint, Some(id)) => format!("checkpoint {id}"),
        (RestoreFrom::Checkpoint | RestoreFrom::Nothing, None) | (RestoreFrom::Nothing, _) => {
            "nothing saved yet: the input's start".into()
        }
        (RestoreFrom::Batch | RestoreFrom::CommittedBatch, Some(id)) => {
            format!("the state committed by microbatch {id}")
        }
        (RestoreFrom::Batch | RestoreFrom::CommittedBatch, None) => {
            "the state of the last committed microbatch".into()
        }
        (RestoreFrom::CommittedOffsets, _) => "empty state, auto-committed offsets".into(),
        (RestoreFrom::Earliest, _) => "empty state, the input's start".into(),
    };
    let at: Vec<String> = lane.restore_positions.iter().map(u32::to_string).collect();
    html! {
        <p class={classes!("eo-status", class)}>
            { words }
            <span class="eo-restore">{ format!(" · a failure now restores {restore} (offsets {})", at.join(", ")) }</span>
        </p>
    }
}

/// The model's figures, by the names the CLI prints; only those this model reports.
fn counters(figures: Option<&Figure>) -> Html {
    let value = |name: &str| match figures {
        Some(Figure::Group(group)) => match group.get(name) {
            Some(Figure::Count(v)) => Some(*v),
            _ => None,
        },
        _ => None,
    };
    let rows: [(&str, &str); 8] = [
        ("state_errors", "state errors at restarts"),
        ("reprocessed_records", "records counted again"),
        ("external_duplicates", "duplicates outside"),
        ("deduplicated", "repeats refused"),
        ("aborted_records", "writes aborted"),
        ("checkpoints_completed", "checkpoints completed"),
        ("alignment_ms", "last alignment (ms)"),
        ("batches_committed", "microbatches committed"),
    ];
    html! {
        <dl class="eo-counters">
            { for rows.into_iter().filter_map(|(name, words)| value(name).map(|v| {
                let bad = v > 0 && matches!(name, "state_errors" | "external_duplicates");
                html! {
                    <div class={classes!(bad.then_some("warn"))}>
                        <dt>{ words }{ if bad { " ✕" } else { "" } }</dt>
                        <dd data-figure={name}>{ v }</dd>
                    </div>
                }
            })) }
        </dl>
    }
}

/// Per key: the count the job holds, and the exact count of the records before its positions.
/// A job that is down holds nothing: its state went with its process, so nothing is compared.
fn state_table(lane: &LanePicture) -> Html {
    if lane.status != LaneStatus::Running {
        return html! {
            <p class="eo-lost">{ "The job is down: its state in memory is gone until the restart restores it." }</p>
        };
    }
    let most = lane
        .exact
        .iter()
        .chain(&lane.state)
        .copied()
        .max()
        .unwrap_or(1)
        .max(1);
    html! {
        <table class="eo-state" aria-label="State per key against the exact count">
            <thead><tr><th>{ "key" }</th><th>{ "state" }</th><th>{ "exact" }</th></tr></thead>
            <tbody>
                { for lane.state.iter().zip(&lane.exact).enumerate().map(|(key, (&held, &exact))| {
                    let width = format!("width: {}%", held * 100 / most);
                    let off = held != exact;
                    html! {
                        <tr class={classes!(off.then_some("warn"))}>
                            <td><span class="eo-swatch" style={format!("background: {}", key_colour(Some(key as u32)))} />{ format!("key-{key}") }</td>
                            <td class="eo-bar"><span class="bar" style={width} /><span class="text">{ held }</span></td>
                            <td>{ if off { format!("{exact} ✕") } else { format!("{exact} ✓") } }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// The checkpoint or microbatch in progress, and what waits in the sink.
fn progress(lane: &LanePicture) -> Html {
    let mut lines = Vec::new();
    if let Some(pending) = &lane.pending {
        let seen = pending.seen.iter().filter(|&&s| s).count();
        lines.push(format!(
            "checkpoint {}: barriers from {seen} of {} inputs{}",
            pending.id,
            pending.seen.len(),
            if pending.snapshot_at_ms.is_some() {
                ", snapshot taken, uploading"
            } else {
                ""
            }
        ));
    }
    if let Some(batch) = &lane.batch {
        lines.push(format!(
            "microbatch {}{}: {} of {} records counted",
            batch.id,
            if batch.rerun { " (run again)" } else { "" },
            batch.done,
            batch.total
        ));
    }
    if let Some(zombie) = &lane.zombie {
        let until = zombie.until_ms as f64 / 1000.0;
        lines.push(if zombie.paused {
            format!("old instance {}: paused until {until:.1} s", zombie.epoch)
        } else {
            format!(
                "old instance {} (a zombie): runs and writes until its heartbeat at {until:.1} s",
                zombie.epoch
            )
        });
    }
    if lane.sink.open + lane.sink.precommitted > 0 {
        lines.push(format!(
            "sink: {} writes in the open transaction, {} pre-committed",
            lane.sink.open, lane.sink.precommitted
        ));
    }
    html! {
        <ul class="eo-progress">{ for lines.into_iter().map(|l| html! { <li>{ l }</li> }) }</ul>
    }
}

/// Each input channel: records (coloured by key, with the key's digit) and barriers ("|").
fn channels(snapshot: &EosSnapshot, lane: &LanePicture) -> Html {
    if lane.channels.is_empty() {
        return html! {};
    }
    html! {
        <div class="eo-channels">
            { for lane.channels.iter().map(|c| channel(snapshot, c)) }
            <p class="eo-key">{ "leftmost arrives first · digit: a record's key · | a barrier · waits: its barrier came, held back until the others' do" }</p>
        </div>
    }
}

fn channel(snapshot: &EosSnapshot, c: &ChannelPicture) -> Html {
    let slow = snapshot
        .delays_ms
        .get(c.partition as usize)
        .copied()
        .unwrap_or(0);
    html! {
        <div class={classes!("eo-channel", c.blocked.then_some("blocked"))}>
            <span class="eo-channel-name">
                { format!("p{}", c.partition) }
                if slow > 0 { { format!(" (+{slow} ms)") } }
                if c.blocked { <strong>{ " waits" }</strong> }
            </span>
            <ol class="eo-cells" aria-label={format!("records and barriers in flight from partition {}", c.partition)}>
                { for c.elements.iter().take(CELLS).map(|e| match e.key {
                    Some(key) => html! {
                        <li class="eo-cell" style={format!("background: {}", key_colour(Some(key)))}
                            title={format!("offset {}, key-{key}", e.number)}>{ key }</li>
                    },
                    None => html! {
                        <li class="eo-cell barrier" title={format!("barrier of checkpoint {}", e.number)}>{ "|" }</li>
                    },
                }) }
            </ol>
        </div>
    }
}
