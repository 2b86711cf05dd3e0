//! The animated diagram: producer → partitions (logs of records) → groups and their members.
//!
//! Data flows left to right. Each partition is a row of record cells, newest on the right,
//! coloured by key; under it, one lane per group shows that group's position (hollow
//! triangle), committed offset (solid triangle) and processed offset (tick). Lines join each
//! partition to the member that owns it. Records in the producer's buffer travel to their
//! partition, and each poll's batch travels from the partition to its member, placed by
//! interpolating between the send/append or poll times the snapshot carries, so motion stays
//! smooth at any speed.

use super::diagram_layout::{Layout, GROUPS_X, LOG_W, LOG_X, PRODUCER_W, PRODUCER_X, TOP, WIDTH};
use super::record_cells::{follow_pointer, record_paths, record_tip, HoveredCell};
use crate::platform::palette::{group_colour, key_colour};
use crate::platform::shared::Shared;
use crate::platform::svg::svg_number;
use streamlab_sim::kafka::group::MemberPhase;
use streamlab_sim::kafka::snapshot::{GroupView, MemberState, MemberView, PartitionView, Snapshot};
use yew::prelude::*;

/// Most in-flight records drawn at once (at high rates the rest would be a blur anyway).
const MAX_IN_FLIGHT_DRAWN: usize = 80;
/// Wall-clock time a fetched batch takes to travel, in ms, whatever the speed.
const FETCH_TRAVEL_WALL_MS: f64 = 300.0;

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub snapshot: Shared<Snapshot>,
    /// The simulated time to draw, with a fraction of a millisecond for smooth motion.
    pub view_ms: f64,
    /// Simulated ms per wall ms, so travel animations last the same wall time at any speed.
    pub speed: f64,
    /// Under `prefers-reduced-motion`, nothing travels: states just change.
    #[prop_or_default]
    pub reduced_motion: bool,
    /// The hovered record's details and the markers' tooltips. While the clock runs they are
    /// left out: at 32x every record moves on every frame, no one can hover one, and rewriting
    /// some 300 tooltip texts per frame was a third of the diagram's work.
    pub hover_details: bool,
}

#[function_component(Diagram)]
pub fn diagram(props: &DiagramProps) -> Html {
    let snapshot = &props.snapshot;
    let layout = Layout::new(snapshot);
    let view_box = format!("0 0 {WIDTH} {}", layout.height);
    let hovered = use_state_eq(|| HoveredCell::None);
    let svg = use_node_ref();
    {
        // A record's details are for a paused picture: forget the hovered cell once it plays.
        let hovered = hovered.clone();
        use_effect_with(props.hover_details, move |&details| {
            if !details {
                hovered.set(None);
            }
        });
    }
    let follow = props
        .hover_details
        .then(|| follow_pointer(snapshot, &svg, &hovered));
    let leave = props.hover_details.then(|| {
        let hovered = hovered.clone();
        Callback::from(move |_: MouseEvent| hovered.set(None))
    });
    html! {
        <svg ref={svg} class="diagram" viewBox={view_box} role="img" preserveAspectRatio="xMidYMin meet"
            aria-label={describe(snapshot)} onmousemove={follow} onmouseleave={leave}>
            { headers(snapshot) }
            { producer(snapshot, &layout) }
            // Every list whose length a knob or the run changes sits in a group of its own:
            // Yew matches an unkeyed list's children from the end, so a longer or shorter list
            // among fixed siblings would make it rebuild those siblings instead of adding one.
            <g class="partitions">
                { for snapshot.partitions.iter().enumerate().map(|(p, view)| partition_row(p, view, snapshot, &layout, props.hover_details)) }
            </g>
            { record_paths(snapshot, &layout) }
            <g class="offset-labels">
                { for snapshot.partitions.iter().enumerate().map(|(p, view)| offset_labels(p, view, &layout)) }
            </g>
            <g class="ownerships">
                { for snapshot.groups.iter().enumerate().map(|(g, group)| ownership_lines(g, group, &layout)) }
            </g>
            <g class="groups">
                { for snapshot.groups.iter().enumerate().map(|(g, group)| group_column(g, group, props, &layout)) }
            </g>
            if !props.reduced_motion {
                { in_flight(snapshot, props.view_ms, &layout) }
                <g class="fetch-groups">
                    { for snapshot.groups.iter().enumerate().map(|(g, group)| fetch_packets(g, group, snapshot, props, &layout)) }
                </g>
            }
            if props.hover_details {
                { record_tip(snapshot, &layout, *hovered) }
            }
        </svg>
    }
}

/// A one-sentence text alternative for screen readers.
fn describe(snapshot: &Snapshot) -> String {
    let groups: Vec<String> = snapshot
        .groups
        .iter()
        .map(|g| {
            let lag: u64 = g.partitions.iter().map(|p| p.lag).sum();
            format!(
                "group {} with {} members, lag {lag}",
                g.group_id,
                g.members.len()
            )
        })
        .collect();
    format!(
        "Topic {} with {} partitions; {}.",
        snapshot.topic_name,
        snapshot.partitions.len(),
        groups.join("; ")
    )
}

fn headers(snapshot: &Snapshot) -> Html {
    html! {
        <g class="headers">
            <text x={svg_number(PRODUCER_X)} y="14">{ "producer" }</text>
            <text x={svg_number(LOG_X)} y="14">
                { format!("topic \u{201c}{}\u{201d}: {} partitions, newest records on the right", snapshot.topic_name, snapshot.partitions.len()) }
            </text>
            <text x={svg_number(GROUPS_X)} y="14">{ "consumer groups" }</text>
        </g>
    }
}

fn producer(snapshot: &Snapshot, layout: &Layout) -> Html {
    let y = TOP;
    let h = 64.0;
    let keys = match snapshot.producer.key_count {
        0 => "null keys".to_string(),
        1 => "1 key".to_string(),
        n => format!("{n} keys"),
    };
    let _ = layout;
    html! {
        <g class="producer">
            <rect x={svg_number(PRODUCER_X)} y={svg_number(y)} width={svg_number(PRODUCER_W)} height={svg_number(h)} rx="6" />
            <text x={svg_number(PRODUCER_X + 8.0)} y={svg_number(y + 20.0)} class="strong">{ format!("{}/s", snapshot.producer.rate_per_s) }</text>
            <text x={svg_number(PRODUCER_X + 8.0)} y={svg_number(y + 38.0)}>{ keys }</text>
            <text x={svg_number(PRODUCER_X + 8.0)} y={svg_number(y + 55.0)} class="small">{ format!("{} sent", snapshot.producer.sent_total) }</text>
        </g>
    }
}

fn partition_row(
    p: usize,
    view: &PartitionView,
    snapshot: &Snapshot,
    layout: &Layout,
    details: bool,
) -> Html {
    let end = view.log_end_offset;
    html! {
        <g class="partition" key={p}>
            <text x={svg_number(LOG_X - 8.0)} y={svg_number(layout.row_mid(p) + 4.0)} class="row-label" text-anchor="end">{ format!("p{p}") }</text>
            <rect class="log-bg" x={svg_number(LOG_X)} y={svg_number(layout.cell_top(p))} width={svg_number(LOG_W)} height={svg_number(layout.cell_h)} />
            <text class="leo" x={svg_number(LOG_X + LOG_W + 6.0)} y={svg_number(layout.row_mid(p) + 4.0)}>
                { format!("end {end}") }
            </text>
            <g class="lanes">
                { for snapshot.groups.iter().enumerate().map(|(g, group)| group_lane(p, g, group, end, layout, details)) }
            </g>
        </g>
    }
}

/// Partition `p`'s offset labels, every fourth record (none when the rows are too thin). They
/// are drawn over the record cells, which sit in a layer of their own under them.
fn offset_labels(p: usize, view: &PartitionView, layout: &Layout) -> Html {
    let label_every = if layout.cell_h >= 16.0 { 4 } else { u64::MAX };
    let end = view.log_end_offset;
    let top = layout.cell_top(p);
    html! {
        <g class="offsets">
        { for view.tail.iter().filter(|r| r.offset % label_every == 0).map(|r| {
            let (x, _) = layout.offset_x(r.offset, end);
            html! {
                <text class="offset" x={svg_number(x + 2.0)} y={svg_number(top + layout.cell_h - 4.0)}>{ r.offset }</text>
            }
        }) }
        </g>
    }
}

/// The points of a marker triangle `size` high with its tip at (`tip_x`, `top`).
fn triangle(tip_x: f64, top: f64, size: f64) -> String {
    let base = top + size;
    let (left, right) = (tip_x - size / 1.6, tip_x + size / 1.6);
    let [tip_x, top, base, left, right] = [tip_x, top, base, left, right].map(svg_number);
    format!("{tip_x},{top} {left},{base} {right},{base}")
}

/// One group's markers under partition `p`.
fn group_lane(
    p: usize,
    g: usize,
    group: &GroupView,
    end: u64,
    layout: &Layout,
    details: bool,
) -> Html {
    let progress = group.partitions[p];
    let lane_top = layout.row_top(p) + 4.0 + layout.cell_h + g as f64 * layout.lane_h;
    let s = layout.lane_h.min(8.0);
    let colour = group_colour(g);
    let (position_x, _) = layout.offset_x(progress.position, end);
    let (committed_x, _) = layout.offset_x(progress.committed, end);
    let (processed_x, behind) = layout.offset_x(progress.processed, end);
    let hollow = triangle(position_x, lane_top, s);
    let solid = triangle(committed_x, lane_top, s);
    html! {
        <g class="lane">
            <line x1={svg_number(processed_x)} x2={svg_number(processed_x)} y1={svg_number(lane_top - 2.0)} y2={svg_number(lane_top + s)} stroke={colour} stroke-width="2">
                if details {
                    <title>{ format!("{}: processed up to offset {}", group.group_id, progress.processed) }</title>
                }
            </line>
            <polygon points={solid} fill={colour}>
                if details {
                    <title>{ format!("{}: committed offset {}", group.group_id, progress.committed) }</title>
                }
            </polygon>
            <polygon points={hollow} fill="white" stroke={colour} stroke-width="1.5">
                if details {
                    <title>{ format!("{}: position {} (next offset poll() returns)", group.group_id, progress.position) }</title>
                }
            </polygon>
            if behind {
                <text class="behind" x={svg_number(LOG_X + 4.0)} y={svg_number(lane_top + s)} fill={colour}>
                    { format!("◀ {} behind", progress.lag) }
                </text>
            }
        </g>
    }
}

fn ownership_lines(g: usize, group: &GroupView, layout: &Layout) -> Html {
    let colour = group_colour(g);
    html! {
        <g class="ownership">
            { for group.partitions.iter().enumerate().filter_map(|(p, progress)| {
                let owner = progress.owner?;
                let (x, y, _, h) = layout.member_box(g, owner, group.members.len());
                let start_x = LOG_X + LOG_W + 52.0;
                let start_y = layout.row_mid(p);
                let [from_x, from_y, bend_1, bend_2, to_x, to_y] =
                    [start_x, start_y, start_x + 30.0, x - 30.0, x, y + h / 2.0].map(svg_number);
                let path = format!("M {from_x} {from_y} C {bend_1} {from_y}, {bend_2} {to_y}, {to_x} {to_y}");
                Some(html! { <path d={path} stroke={colour} fill="none" stroke-opacity="0.45" stroke-width="1.5" /> })
            }) }
        </g>
    }
}

fn group_column(g: usize, group: &GroupView, props: &DiagramProps, layout: &Layout) -> Html {
    let x = GROUPS_X + g as f64 * layout.group_col_w + 6.0;
    html! {
        <g class="group">
            <text x={svg_number(x)} y={svg_number(TOP - 18.0)} fill={group_colour(g)} class="strong">
                { &group.group_id }
            </text>
            <text x={svg_number(x)} y={svg_number(TOP - 5.0)} class="small">
                { format!("gen {} · {} · {}", group.generation, group.strategy.config_name(), group.state.name()) }
            </text>
            if group.members.is_empty() {
                <text x={svg_number(x)} y={svg_number(TOP + 16.0)} class="small">{ "no members: nobody reads" }</text>
            }
            <g class="members">
                { for group.members.iter().enumerate().map(|(m, member)| member_box(g, m, member, group, props, layout)) }
            </g>
        </g>
    }
}

fn member_box(
    g: usize,
    m: usize,
    member: &MemberView,
    group: &GroupView,
    props: &DiagramProps,
    layout: &Layout,
) -> Html {
    let (x, y, w, h) = layout.member_box(g, m, group.members.len());
    let colour = group_colour(g);
    let phase = member.phase;
    let label_y = y + h / 2.0 + 4.0;
    let owned = match phase {
        MemberPhase::Idle => "idle".to_string(),
        _ => member
            .partitions
            .iter()
            .map(|p| format!("p{p}"))
            .collect::<Vec<_>>()
            .join(","),
    };
    // Every phase but plain work is also said in words, so colour is never the only clue.
    let retry = retry_label(member, group.max_attempts);
    let status = match phase {
        MemberPhase::Processing if retry.is_some() => retry.as_deref(),
        MemberPhase::Processing | MemberPhase::Waiting | MemberPhase::Idle => None,
        MemberPhase::Rebalancing => Some("⟳ rejoining"),
        MemberPhase::Removed => Some("removed: finishing old batch"),
        MemberPhase::Paused => Some("❚❚ paused"),
        MemberPhase::Dead => Some("✕ crashed"),
        MemberPhase::Stopped => Some("stopped"),
    };
    let dashed = matches!(
        phase,
        MemberPhase::Idle | MemberPhase::Removed | MemberPhase::Stopped
    );
    let class = format!("{phase:?}").to_ascii_lowercase();
    html! {
        <g class={classes!("member", class, retry.is_some().then_some("retrying"))}>
            <rect x={svg_number(x)} y={svg_number(y)} width={svg_number(w)} height={svg_number(h)} rx="4"
                stroke={if phase == MemberPhase::Removed { "#D55E00" } else { colour }}
                stroke-dasharray={if dashed { "4 3" } else { "none" }} />
            <text x={svg_number(x + 5.0)} y={svg_number(label_y)} class="strong">{ &member.member_id }</text>
            <text x={svg_number(x + 28.0)} y={svg_number(label_y)} class="small">{ owned }</text>
            if let Some(status) = status {
                <text x={svg_number(x + w - 44.0)} y={svg_number(label_y)} class="status" text-anchor="end">{ status }</text>
            } else if w > 150.0 && phase != MemberPhase::Idle {
                <text x={svg_number(x + w - 48.0)} y={svg_number(label_y)} class="small" text-anchor="end">
                    { format!("{} done · {} in batch", member.processed_total, member.batch_remaining) }
                </text>
            }
            { activity(member, x + w - 40.0, y, h, props) }
        </g>
    }
}

/// "↻ retry n/N" while the member is retrying a failing record (its n-th retry of the N the
/// error handler allows), so a blocked member reads differently from a busy one without colour.
fn retry_label(member: &MemberView, max_attempts: u32) -> Option<String> {
    (member.attempts > 0 && matches!(member.state, MemberState::Processing { .. })).then(|| {
        format!(
            "↻ retry {}/{}",
            member.attempts,
            max_attempts.saturating_sub(1)
        )
    })
}

/// The record in hand (with a progress bar), or nothing when waiting.
fn activity(member: &MemberView, x: f64, y: f64, h: f64, props: &DiagramProps) -> Html {
    let MemberState::Processing {
        key,
        started_ms,
        done_ms,
        offset,
        partition,
    } = member.state
    else {
        return html! {};
    };
    let span = (done_ms - started_ms).max(1) as f64;
    let fraction = ((props.view_ms - started_ms as f64) / span).clamp(0.0, 1.0);
    let size = (h - 6.0).min(16.0);
    html! {
        <g class="in-hand">
            <rect x={svg_number(x)} y={svg_number(y + 3.0)} width={svg_number(size)} height={svg_number(size)} fill={key_colour(key)}>
                <title>{ format!("processing p{partition} offset {offset}") }</title>
            </rect>
            <rect class="progress-bg" x={svg_number(x + size + 3.0)} y={svg_number(y + 3.0 + size / 2.0 - 2.0)} width="16" height="4" />
            <rect class="progress" x={svg_number(x + size + 3.0)} y={svg_number(y + 3.0 + size / 2.0 - 2.0)} width={svg_number(16.0 * fraction)} height="4" />
        </g>
    }
}

fn in_flight(snapshot: &Snapshot, view_ms: f64, layout: &Layout) -> Html {
    let from_x = PRODUCER_X + PRODUCER_W;
    let from_y = TOP + 32.0;
    html! {
        <g class="in-flight">
            { for snapshot.producer.in_flight.iter().take(MAX_IN_FLIGHT_DRAWN).filter_map(|f| {
                let r = f.record;
                let span = r.append_ms.saturating_sub(r.send_ms) as f64;
                if span == 0.0 {
                    return None;
                }
                let t = ((view_ms - r.send_ms as f64) / span).clamp(0.0, 1.0);
                let to_x = LOG_X + LOG_W - layout.cell_w / 2.0;
                let to_y = layout.row_mid(f.partition as usize);
                let cx = from_x + (to_x - from_x) * t;
                let cy = from_y + (to_y - from_y) * t;
                Some(html! { <circle cx={svg_number(cx)} cy={svg_number(cy)} r="4" fill={key_colour(r.key)} stroke="#333" stroke-width="0.5" /> })
            }) }
        </g>
    }
}

fn fetch_packets(
    g: usize,
    group: &GroupView,
    snapshot: &Snapshot,
    props: &DiagramProps,
    layout: &Layout,
) -> Html {
    let travel_ms = (FETCH_TRAVEL_WALL_MS * props.speed).max(1.0);
    html! {
        <g class="fetches">
            { for group.members.iter().enumerate().flat_map(|(m, member)| {
                let age = props.view_ms - member.last_poll_ms as f64;
                let (bx, by, _, bh) = layout.member_box(g, m, group.members.len());
                let moving = !member.last_fetch.is_empty() && (0.0..travel_ms).contains(&age);
                let t = age / travel_ms;
                member.last_fetch.iter().filter(move |_| moving).map(move |fetch| {
                    let p = fetch.partition as usize;
                    let end = snapshot.partitions[p].log_end_offset;
                    let (from_x, _) = layout.offset_x(fetch.from, end);
                    let from_y = layout.row_mid(p);
                    let cx = from_x + (bx - from_x) * t;
                    let cy = from_y + (by + bh / 2.0 - from_y) * t;
                    html! {
                        <g>
                            <rect x={svg_number(cx - 9.0)} y={svg_number(cy - 7.0)} width="18" height="14" rx="3" fill={group_colour(g)} />
                            <text x={svg_number(cx)} y={svg_number(cy + 4.0)} text-anchor="middle" class="packet">{ fetch.to - fetch.from }</text>
                        </g>
                    }
                })
            }) }
        </g>
    }
}
