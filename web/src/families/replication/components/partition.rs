//! One partition, replica by replica: each replica's broker, role, whether it is in the ISR,
//! its log end offset, and the newest stretch of its log, aligned by offset so the replicas
//! can be read against each other. A thick rule after a cell marks the high watermark (what
//! the consumer may read). Each record is marked by its state against the leader's log with a
//! glyph as well as a colour: committed, not yet committed, divergent (it will be cut),
//! acknowledged and lost, or a duplicate a retry wrote.

use streamlab_sim::replication::WINDOW_CELLS;
use streamlab_sim::replication::{
    CellPicture, CellState, PartitionPicture, ReplicaPicture, ReplicaRole,
};
use yew::prelude::*;

/// One grid column per offset a snapshot draws: narrower when the box is, never wider than a
/// readable cell.
fn columns() -> String {
    format!("grid-template-columns: repeat({WINDOW_CELLS}, minmax(6px, 13px))")
}

#[derive(Properties, PartialEq)]
pub struct PartitionProps {
    pub partition: PartitionPicture,
    pub min_insync_replicas: u32,
}

#[function_component(Partition)]
pub fn partition(props: &PartitionProps) -> Html {
    let p = &props.partition;
    let leader = p.leader.map_or("no leader (offline)".to_string(), |b| {
        format!("leader broker {b}")
    });
    let isr: Vec<String> = p.isr.iter().map(u32::to_string).collect();
    let short = (p.isr.len() as u32) < props.min_insync_replicas;
    html! {
        <section class={classes!("rp-partition", p.leader.is_none().then_some("offline"))} data-partition={p.id.to_string()}>
            <h3>{ format!("p{} — {leader}, leader epoch {}", p.id, p.leader_epoch) }</h3>
            <p class="rp-facts">
                <span class={classes!(short.then_some("warn"))}>
                    { format!("ISR {{{}}}", isr.join(", ")) }
                    if short { { format!(" — below min.insync.replicas={}", props.min_insync_replicas) } }
                </span>
                { format!(" · high watermark {} · consumer at {} · offsets {}–{}", p.high_watermark,
                    p.consumer_position, p.window_from, p.window_to.saturating_sub(1)) }
            </p>
            <table class="rp-replicas">
                <tbody>{ for p.replicas.iter().map(|r| replica(r, p)) }</tbody>
            </table>
        </section>
    }
}

fn role_words(role: ReplicaRole) -> &'static str {
    match role {
        ReplicaRole::Leader => "leader",
        ReplicaRole::Follower => "follower",
        ReplicaRole::DeposedLeader => "deposed leader (it does not know)",
        ReplicaRole::Down => "✕ down",
    }
}

fn replica(r: &ReplicaPicture, p: &PartitionPicture) -> Html {
    html! {
        <tr class={classes!("rp-replica", (r.role == ReplicaRole::Leader).then_some("leader"), (r.role == ReplicaRole::Down).then_some("down"))}>
            <th scope="row">
                <span class="rp-who">{ format!("broker {}", r.broker) }</span>
                <span class="rp-role">{ role_words(r.role) }</span>
                <span class={classes!("rp-isr", (!r.in_isr).then_some("out"))}>{ if r.in_isr { "in ISR" } else { "out of ISR" } }</span>
            </th>
            <td class="rp-leo">{ format!("log end {}", r.log_end) }</td>
            <td class="rp-log">
                if r.cells.is_empty() && r.log_end <= p.window_from {
                    <span class="rp-behind">{ format!("its log ends before offset {}", p.window_from) }</span>
                } else {
                    <ol class="rp-cells" style={columns()}
                        aria-label={format!("broker {}'s log from offset {}", r.broker, p.window_from)}>
                        { for r.cells.iter().map(|c| cell(c, p.high_watermark)) }
                    </ol>
                }
            </td>
        </tr>
    }
}

/// A state's class, glyph and words.
fn looks(state: CellState) -> (&'static str, &'static str, &'static str) {
    match state {
        CellState::Committed => ("committed", "", "committed (below the high watermark)"),
        CellState::Uncommitted => (
            "uncommitted",
            "",
            "above the high watermark, not readable yet",
        ),
        CellState::Divergent => (
            "divergent",
            "≠",
            "not what the leader holds here: it will be cut",
        ),
        CellState::Lost => ("lost", "✕", "acknowledged to the producer, and lost"),
        CellState::Duplicate => ("duplicate", "2", "a second copy written by a retry"),
    }
}

fn cell(c: &CellPicture, high_watermark: u64) -> Html {
    let (class, glyph, words) = looks(c.state);
    let at_hw = c.offset + 1 == high_watermark;
    html! {
        <li class={classes!("rp-cell", class, at_hw.then_some("hw"))}
            title={format!("offset {}, record #{}, epoch {}: {words}", c.offset, c.record, c.epoch)}>{ glyph }</li>
    }
}

/// The key to the cells' glyphs and colours.
pub fn legend() -> Html {
    let states = [
        CellState::Committed,
        CellState::Uncommitted,
        CellState::Divergent,
        CellState::Lost,
        CellState::Duplicate,
    ];
    html! {
        <ul class="rp-legend" aria-label="Key">
            { for states.iter().map(|&s| {
                let (class, glyph, words) = looks(s);
                html! { <li><span class={classes!("rp-cell", class)} aria-hidden="true">{ glyph }</span>{ words }</li> }
            }) }
            <li><span class="rp-cell committed hw" aria-hidden="true" />{ "the thick rule: the high watermark" }</li>
        </ul>
    }
}
