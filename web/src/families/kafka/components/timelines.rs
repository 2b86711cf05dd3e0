//! Member timelines: what each member of the first group did over the last minute.
//!
//! One row per member, one bar per stretch of samples in the same phase (a steady member is
//! one bar, not one per sample: the storm's 32 rows were most of its page). Phases differ by
//! fill and by pattern (hatched while rebalancing, crossed when dead), and the legend names
//! them, so the picture reads without colour too. Rebalance periods are shaded across all rows.

use crate::platform::shared::Shared;
use streamlab_sim::kafka::group::MemberPhase;
use yew::prelude::*;

/// The rows to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimelineData {
    pub from_ms: u64,
    pub to_ms: u64,
    pub member_ids: Vec<String>,
    /// Per member: its phases, oldest first.
    pub rows: Vec<Vec<PhaseSpan>>,
    pub rebalancing: Vec<(u64, u64)>,
}

/// A stretch of consecutive samples in which a member was in one phase: from its first
/// sample's time to one sample interval after its last (each sample stands for the interval
/// it opens).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseSpan {
    pub from_ms: u64,
    pub to_ms: u64,
    pub phase: MemberPhase,
}

#[derive(Properties, PartialEq)]
pub struct TimelinesProps {
    pub data: Shared<TimelineData>,
}

const WIDTH: f64 = 1000.0;
const LABEL_W: f64 = 40.0;
const ROW_H: f64 = 14.0;

/// Fill and label of each phase, in legend order.
pub const PHASES: [(MemberPhase, &str, &str); 8] = [
    (MemberPhase::Processing, "#009E73", "processing"),
    (MemberPhase::Waiting, "#cfe8df", "polling, no records"),
    (
        MemberPhase::Rebalancing,
        "url(#hatch)",
        "rebalancing: holds nothing",
    ),
    (
        MemberPhase::Removed,
        "#CC79A7",
        "removed, finishing old batch",
    ),
    (MemberPhase::Idle, "#eeeeee", "idle: no partition"),
    (MemberPhase::Paused, "#F0E442", "paused (GC)"),
    (MemberPhase::Dead, "url(#cross)", "crashed"),
    (MemberPhase::Stopped, "#bbbbbb", "stopped"),
];

fn fill(phase: MemberPhase) -> &'static str {
    PHASES
        .iter()
        .find(|(p, _, _)| *p == phase)
        .map_or("#fff", |(_, f, _)| f)
}

#[function_component(Timelines)]
pub fn timelines(props: &TimelinesProps) -> Html {
    let data = &props.data;
    let span_ms = (data.to_ms - data.from_ms).max(1) as f64;
    let x =
        |t: u64| LABEL_W + (t.saturating_sub(data.from_ms)) as f64 / span_ms * (WIDTH - LABEL_W);
    let height = data.rows.len() as f64 * ROW_H + 4.0;
    html! {
        <section class="timelines" aria-label="Member timelines">
            <h2>{ "Member timelines (last minute)" }</h2>
            <svg viewBox={format!("0 0 {WIDTH} {height}")} role="img"
                aria-label="What each member did over the last minute">
                <defs>
                    <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <rect width="6" height="6" fill="#fde0cc" />
                        <line x1="0" y1="0" x2="0" y2="6" stroke="#D55E00" stroke-width="2" />
                    </pattern>
                    <pattern id="cross" width="6" height="6" patternUnits="userSpaceOnUse">
                        <rect width="6" height="6" fill="#444" />
                        <path d="M0 0 L6 6 M6 0 L0 6" stroke="#fff" stroke-width="1" />
                    </pattern>
                </defs>
                { for data.rebalancing.iter().map(|&(from, to)| html! {
                    <rect class="rebalance-band" x={x(from.max(data.from_ms)).to_string()} y="0"
                        width={(x(to) - x(from.max(data.from_ms))).max(1.0).to_string()} height={height.to_string()} />
                }) }
                { for data.rows.iter().enumerate().map(|(m, row)| {
                    let y = m as f64 * ROW_H + 2.0;
                    html! {
                        <g>
                            <text x="2" y={(y + ROW_H - 4.0).to_string()} class="row-label">{ &data.member_ids[m] }</text>
                            // A hair wider than its time, so neighbouring bars leave no seam.
                            { for row.iter().map(|span| html! {
                                <rect x={x(span.from_ms).to_string()} y={y.to_string()}
                                    width={(x(span.to_ms) - x(span.from_ms) + 0.3).to_string()}
                                    height={(ROW_H - 3.0).to_string()} fill={fill(span.phase)} />
                            }) }
                        </g>
                    }
                }) }
            </svg>
            <p class="legend">
                { for PHASES.iter().map(|(_, f, label)| html! {
                    <span>
                        <svg width="14" height="10" aria-hidden="true">
                            <rect width="14" height="10" fill={*f} stroke="#999" stroke-width="0.5" />
                        </svg>
                        { *label }
                    </span>
                }) }
                <span>{ "Shaded: the group is rebalancing." }</span>
            </p>
        </section>
    }
}
