//! Member timelines: what each member of the first group did over the last minute.
//!
//! One row per member, one bar per stretch of samples in the same phase (a steady member is
//! one bar, not one per sample: the storm's 32 rows were most of its page). Phases differ by
//! fill and by pattern (hatched while rebalancing, crossed when dead), and the legend names
//! them, so the picture reads without colour too. Rebalance periods are shaded across all rows.
//!
//! The bars are drawn as one path per phase for all rows, and the shading as one path, not
//! one rectangle each: a member that alternates between processing and polling makes a bar
//! every sample, some four hundred rectangles for four members, which a knob change created,
//! moved and removed one by one.

use crate::platform::shared::Shared;
use crate::platform::svg::{push_rect_outline, svg_number};
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

/// Where member `m`'s row starts.
fn row_top(m: usize) -> f64 {
    m as f64 * ROW_H + 2.0
}

/// What the timelines draw: the rebalance shading, and per phase (in [`PHASES`] order) the
/// path of its bars and how many there are.
struct Outlines {
    bands: String,
    bars: [(String, usize); PHASES.len()],
}

/// The outlines of every bar and band, in an SVG `height` high.
fn outlines(data: &TimelineData, height: f64) -> Outlines {
    let span_ms = (data.to_ms - data.from_ms).max(1) as f64;
    let x =
        |t: u64| LABEL_W + (t.saturating_sub(data.from_ms)) as f64 / span_ms * (WIDTH - LABEL_W);
    let mut drawing = Outlines {
        bands: String::new(),
        bars: Default::default(),
    };
    for &(from, to) in &data.rebalancing {
        let left = x(from.max(data.from_ms));
        push_rect_outline(
            &mut drawing.bands,
            left,
            0.0,
            (x(to) - left).max(1.0),
            height,
        );
    }
    for (m, row) in data.rows.iter().enumerate() {
        for span in row {
            let Some(index) = PHASES.iter().position(|(p, _, _)| *p == span.phase) else {
                continue;
            };
            let (from, to) = (x(span.from_ms), x(span.to_ms));
            let bars = &mut drawing.bars[index];
            // A hair wider than its time, so neighbouring bars leave no seam.
            push_rect_outline(&mut bars.0, from, row_top(m), to - from + 0.3, ROW_H - 3.0);
            bars.1 += 1;
        }
    }
    drawing
}

#[function_component(Timelines)]
pub fn timelines(props: &TimelinesProps) -> Html {
    let data = &props.data;
    let height = data.rows.len() as f64 * ROW_H + 4.0;
    let drawing = outlines(data, height);
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
                <path class="rebalance-band" data-bands={data.rebalancing.len().to_string()} d={drawing.bands} />
                <g class="row-labels">
                    { for data.member_ids.iter().enumerate().map(|(m, id)| html! {
                        <text x="2" y={svg_number(row_top(m) + ROW_H - 4.0)} class="row-label">{ id }</text>
                    }) }
                </g>
                { for PHASES.iter().zip(drawing.bars).map(|((_, fill, _), (d, count))| html! {
                    <path class="phase-bars" fill={*fill} data-bars={count.to_string()} d={d} />
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

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn span(from_ms: u64, to_ms: u64, phase: MemberPhase) -> PhaseSpan {
        PhaseSpan {
            from_ms,
            to_ms,
            phase,
        }
    }

    /// Two members over a minute drawn 960 units wide past the labels: every bar lands in its
    /// phase's path, in its member's row, as wide as its time (and a hair more); the bands
    /// span every row.
    #[wasm_bindgen_test]
    fn every_bar_is_drawn_in_its_phases_path_and_its_members_row() {
        let data = TimelineData {
            from_ms: 60_000,
            to_ms: 120_000,
            member_ids: vec!["c1".into(), "c2".into()],
            rows: vec![
                vec![
                    span(60_000, 90_000, MemberPhase::Processing),
                    span(90_000, 120_000, MemberPhase::Rebalancing),
                ],
                vec![span(75_000, 120_000, MemberPhase::Processing)],
            ],
            rebalancing: vec![(30_000, 61_500), (90_000, 90_010)],
        };
        let drawing = outlines(&data, 32.0);
        let index = |phase| PHASES.iter().position(|(p, _, _)| *p == phase).unwrap();
        assert_eq!(
            drawing.bars[index(MemberPhase::Processing)],
            (
                "M40 2h480.3v11h-480.3zM280 16h720.3v11h-720.3z".to_string(),
                2
            )
        );
        assert_eq!(
            drawing.bars[index(MemberPhase::Rebalancing)],
            ("M520 2h480.3v11h-480.3z".to_string(), 1)
        );
        let drawn: usize = drawing.bars.iter().map(|(_, count)| count).sum();
        assert_eq!(drawn, 3, "no bar is drawn twice or lost");
        assert_eq!(
            drawing.bands, "M40 0h24v32h-24zM520 0h1v32h-1z",
            "the first clipped to the window, the second too short to see made a unit wide"
        );
    }
}
