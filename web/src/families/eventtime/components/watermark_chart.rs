//! The watermarks picture, in the convention of *Streaming Systems*: event time along x,
//! processing time up y. Each processed record is a dot at (when it happened, when it was
//! read); the watermark is the staircase those dots push up and to the right; windows are
//! vertical columns; each pane is a bar across its column at the processing time it fired.
//! Late records and late panes differ by shape and line style as well as colour, and each
//! device has its own mark shape (`device_marks`) as well as its colour.
//!
//! Clicking a dot selects its record: the chart marks where the skew correction would put it
//! and lists its three timestamps below.
//!
//! [`WatermarkChartData::from_snapshot`] turns a snapshot into what is drawn, with the core's
//! derivations (`eventtime::views`); the component only lays it out as SVG.

use crate::families::eventtime::components::device_legend::{device_legend, DeviceLegendProps};
use crate::families::eventtime::components::record_timestamps::{
    record_timestamps, RecordTimestampsProps,
};
use crate::families::eventtime::components::watermark_dots::{
    dots_html, lateness_of_class, nearest_dot, Place,
};
use crate::platform::shared::Shared;
use streamlab_sim::eventtime::events::clock_time as clock;
use streamlab_sim::eventtime::views::{lateness_of, watermark_before, watermark_path, Lateness};
use streamlab_sim::eventtime::{EventTimeScenario, EventTimeSnapshot, Record, TimestampSource};
use streamlab_sim::window::{Timing, WindowSpec};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// One processed record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartDot {
    pub event_ms: i64,
    pub processed_ms: i64,
    pub key: u32,
    pub lateness: Lateness,
    /// The record itself, for its three timestamps when it is selected.
    pub record: Record,
}

/// One pane on the chart. On-time firings of a window are drawn once for all devices (they
/// fire at the same watermark); late panes are per device, since each restates one count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartPane {
    pub start_ms: i64,
    pub end_ms: i64,
    pub emitted_at_ms: i64,
    pub count: u64,
    pub late: bool,
    /// The value a restating late pane retracts.
    pub retracted: Option<u64>,
    /// The device of a late pane; `None` for an on-time pane (all devices).
    pub key: Option<u32>,
    /// Whether the pane's count is written next to it: on-time panes always, late panes only
    /// the latest of their window, since a burst of them would print on top of each other.
    pub labelled: bool,
}

/// Everything the chart draws at one instant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WatermarkChartData {
    pub dots: Vec<ChartDot>,
    pub panes: Vec<ChartPane>,
    /// The watermark's path as (event time, processing time) corners.
    pub watermark_path: Vec<(i64, i64)>,
    /// Tumbling windows' bounds, and whether the watermark has passed their end.
    pub windows: Vec<(i64, i64, bool)>,
    pub now_ms: i64,
    /// Devices: each late pane is drawn in its device's slice of the column.
    pub keys: u32,
    /// Right end of the event-time axis and top of the processing-time axis.
    pub x_end_ms: i64,
    pub y_end_ms: i64,
    /// Which of a record's timestamps the run uses as its event time.
    pub timestamp_source: TimestampSource,
}

/// The tumbling window size, if the scenario's windows are tumbling (the only kind drawn as
/// columns: hopping windows overlap and sessions have no fixed bounds).
pub fn tumbling_size_ms(scenario: &EventTimeScenario) -> Option<i64> {
    match scenario.window {
        WindowSpec::Tumbling { size_ms } => Some(size_ms),
        _ => None,
    }
}

impl WatermarkChartData {
    pub fn from_snapshot(snapshot: &EventTimeSnapshot, scenario: &EventTimeScenario) -> Self {
        let size_ms = tumbling_size_ms(scenario);
        let steps = &snapshot.watermark_steps;
        let dots: Vec<ChartDot> = snapshot
            .records_seen
            .iter()
            .map(|r| {
                let event_ms = r.event_time_ms(scenario.timestamp);
                ChartDot {
                    event_ms,
                    processed_ms: r.processed_ms,
                    key: r.key,
                    lateness: lateness_of(
                        event_ms,
                        watermark_before(steps, r.processed_ms),
                        size_ms,
                        scenario.allowed_lateness_ms,
                    ),
                    record: *r,
                }
            })
            .collect();
        let last_event_ms = dots.iter().map(|d| d.event_ms).max().unwrap_or(0);
        let mut x_end_ms = scenario.duration_ms.max(last_event_ms).max(1);
        if let Some(size_ms) = size_ms {
            // End the axis on a window boundary so the last column is whole.
            x_end_ms = (x_end_ms + size_ms - 1).div_euclid(size_ms) * size_ms;
        }
        let windows = size_ms.map_or_else(Vec::new, |size_ms| {
            (0..x_end_ms.div_euclid(size_ms))
                .map(|i| {
                    let end_ms = (i + 1) * size_ms;
                    (
                        i * size_ms,
                        end_ms,
                        snapshot.combined_watermark.has_reached(end_ms),
                    )
                })
                .collect()
        });
        Self {
            dots,
            panes: chart_panes(snapshot),
            watermark_path: watermark_path(steps, snapshot.now_ms, x_end_ms),
            windows,
            now_ms: snapshot.now_ms,
            keys: scenario.keys.max(1),
            x_end_ms,
            y_end_ms: snapshot.input_end_ms.max(1),
            timestamp_source: scenario.timestamp,
        }
    }
}

/// On-time panes merged per window bounds (summing the devices' counts, stamped with the
/// latest device's firing), late panes one by one.
fn chart_panes(snapshot: &EventTimeSnapshot) -> Vec<ChartPane> {
    let mut panes: Vec<ChartPane> = Vec::new();
    for pane in &snapshot.event_time_panes {
        let late = pane.timing == Timing::Late;
        let bounds = (pane.window.start_ms, pane.window.end_ms);
        if !late {
            if let Some(merged) = panes
                .iter_mut()
                .find(|p| !p.late && (p.start_ms, p.end_ms) == bounds)
            {
                merged.count += pane.count;
                merged.emitted_at_ms = merged.emitted_at_ms.max(pane.emitted_at_ms);
                continue;
            }
        }
        panes.push(ChartPane {
            start_ms: bounds.0,
            end_ms: bounds.1,
            emitted_at_ms: pane.emitted_at_ms,
            count: pane.count,
            late,
            retracted: pane.retracted,
            key: late.then_some(pane.window.key),
            labelled: true,
        });
    }
    let mut labelled_late: Vec<(i64, i64)> = Vec::new();
    for pane in panes.iter_mut().rev().filter(|p| p.late) {
        let bounds = (pane.start_ms, pane.end_ms);
        pane.labelled = !labelled_late.contains(&bounds);
        labelled_late.push(bounds);
    }
    panes
}

#[derive(Properties, PartialEq)]
pub struct WatermarkChartProps {
    pub data: Shared<WatermarkChartData>,
}

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 44.0;

#[function_component(WatermarkChart)]
pub fn watermark_chart(props: &WatermarkChartProps) -> Html {
    let d = &*props.data;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |ms: i64| x_at(d, ms);
    let y = |ms: i64| y_at(d, ms);
    let column_px = d
        .windows
        .first()
        .map_or(plot_w, |&(start, end, _)| x(end) - x(start));
    // Label every window if there is room, else every second or fourth.
    let label_every = (60.0 / column_px).ceil().max(1.0) as usize;
    let y_tick_ms = [5_000, 10_000, 20_000, 30_000, 60_000]
        .into_iter()
        .find(|tick| d.y_end_ms / tick <= 12)
        .unwrap_or(120_000);
    let path: String = d
        .watermark_path
        .iter()
        .map(|&(e, p)| format!("{:.1},{:.1}", x(e), y(p)))
        .collect::<Vec<_>>()
        .join(" ");
    let place = |dot: &ChartDot| chart_point(d, dot);
    let selected = use_state(|| None::<u32>);
    let on_pick = {
        let selected = selected.clone();
        let data = props.data.clone();
        Callback::from(move |e: MouseEvent| {
            let place = |dot: &ChartDot| chart_point(&data, dot);
            if let Some(index) = picked_record(&e, &data.dots, &place) {
                selected.set(Some(index));
            }
        })
    };
    let picked = (*selected).and_then(|index| d.dots.iter().find(|dot| dot.record.index == index));
    let late_dots = d
        .dots
        .iter()
        .filter(|dot| dot.lateness != Lateness::OnTime)
        .count();
    html! {
        <figure class="wm-chart">
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
                aria-label={format!("Records by event time and processing time: {} read, {late_dots} late; the watermark line; {} panes",
                    d.dots.len(), d.panes.len())}>
                <g class="wm-windows">
                    { for d.windows.iter().enumerate().map(|(i, &(start, end, fired))| html! {
                        <g class={classes!("wm-window", if i % 2 == 0 { "even" } else { "odd" }, (!fired).then_some("open"))}>
                            <rect x={format!("{:.1}", x(start))} y={TOP.to_string()}
                                width={format!("{:.1}", x(end) - x(start))} height={plot_h.to_string()} />
                            if i % label_every == 0 {
                                <text x={format!("{:.1}", (x(start) + x(end)) / 2.0)} y={(TOP - 8.0).to_string()}
                                    text-anchor="middle">{ format!("{}–{}", clock(start), clock(end)) }</text>
                            }
                        </g>
                    }) }
                </g>
                <g class="wm-axes">
                    <line x1={LEFT.to_string()} y1={(TOP + plot_h).to_string()} x2={(LEFT + plot_w).to_string()} y2={(TOP + plot_h).to_string()} />
                    <line x1={LEFT.to_string()} y1={TOP.to_string()} x2={LEFT.to_string()} y2={(TOP + plot_h).to_string()} />
                    { for d.windows.iter().enumerate().filter(|(i, _)| i % label_every == 0).map(|(_, &(start, _, _))| html! {
                        <text x={format!("{:.1}", x(start))} y={(TOP + plot_h + 16.0).to_string()} text-anchor="middle">{ clock(start) }</text>
                    }) }
                    { for (0..=d.y_end_ms / y_tick_ms).map(|i| {
                        let at = i * y_tick_ms;
                        html! { <text x={(LEFT - 6.0).to_string()} y={format!("{:.1}", y(at) + 4.0)} text-anchor="end">{ clock(at) }</text> }
                    }) }
                    <text class="wm-axis-title" x={(LEFT + plot_w / 2.0).to_string()} y={(HEIGHT - 6.0).to_string()} text-anchor="middle">
                        { "event time (when it happened) →" }</text>
                    <text class="wm-axis-title" transform={format!("translate(14 {:.1}) rotate(-90)", TOP + plot_h / 2.0)} text-anchor="middle">
                        { "processing time (when it was read) →" }</text>
                </g>
                // Where a record with no delay at all would sit: the further above this
                // diagonal, the later it arrived.
                <line class="wm-ideal" x1={format!("{:.1}", x(0))} y1={format!("{:.1}", y(0))}
                    x2={format!("{:.1}", x(d.x_end_ms.min(d.y_end_ms)))} y2={format!("{:.1}", y(d.x_end_ms.min(d.y_end_ms)))} />
                <g class="wm-now">
                    <line x1={LEFT.to_string()} y1={format!("{:.1}", y(d.now_ms))} x2={(LEFT + plot_w).to_string()} y2={format!("{:.1}", y(d.now_ms))} />
                    <text x={(LEFT + plot_w - 4.0).to_string()} y={format!("{:.1}", y(d.now_ms) - 4.0)} text-anchor="end">{ format!("now {}", clock(d.now_ms)) }</text>
                </g>
                <g class="wm-dots" onclick={on_pick}>
                    { dots_html(&d.dots, &place) }
                </g>
                if let Some(dot) = picked {
                    { correction_html(dot, &x, &y) }
                }
                <polyline class="wm-line" points={path} />
                <g class="wm-panes-marks">
                    { for d.panes.iter().map(|pane| {
                        let (start, end) = (x(pane.start_ms), x(pane.end_ms));
                        // A late pane covers its device's slice of the column.
                        let (from, to) = match pane.key {
                            Some(key) => {
                                let slice = (end - start) / f64::from(d.keys);
                                let lane = f64::from(key % d.keys);
                                (start + slice * lane, start + slice * (lane + 1.0))
                            }
                            None => (start, end),
                        };
                        pane_html(pane, from, to, y(pane.emitted_at_ms))
                    }) }
                </g>
            </svg>
            { device_legend(&DeviceLegendProps { devices: d.keys }) }
            <figcaption>{ "Each dot is a record at (its event time, the processing time it was read), \
                in its device's shape and colour (the key is just below the chart). \
                Small filled marks were on time; larger marks with a dashed outline were late but within the allowed lateness; \
                crosses were too late (dropped or sent to the side output). The blue staircase is the watermark; \
                the dotted diagonal is where a record with no delay would sit. Columns are windows (paler while still open). \
                A solid bar with a diamond is a window's on-time pane (all devices, total count); a dashed bar with a \
                triangle is one device's late pane, with its retraction when the policy restates. \
                Click a dot: a ring marks it, a hollow diamond where the clock correction puts it." }</figcaption>
            { record_timestamps(&RecordTimestampsProps {
                record: picked.map(|dot| dot.record),
                source: d.timestamp_source,
            }) }
        </figure>
    }
}

/// Where `dot` is drawn, in the chart's own coordinates (its `viewBox`).
fn chart_point(d: &WatermarkChartData, dot: &ChartDot) -> (f64, f64) {
    (x_at(d, dot.event_ms), y_at(d, dot.processed_ms))
}

/// Where event time `ms` is along the chart.
fn x_at(d: &WatermarkChartData, ms: i64) -> f64 {
    LEFT + ms as f64 / d.x_end_ms as f64 * (WIDTH - LEFT - RIGHT)
}

/// Where processing time `ms` is up the chart: it grows upwards, as in the book's diagrams.
fn y_at(d: &WatermarkChartData, ms: i64) -> f64 {
    TOP + (1.0 - ms.min(d.y_end_ms) as f64 / d.y_end_ms as f64) * (HEIGHT - TOP - BOTTOM)
}

/// The record a click on one of the dots' paths picked: of that path's device and lateness,
/// the one drawn nearest the pointer.
fn picked_record(e: &MouseEvent, dots: &[ChartDot], place: Place) -> Option<u32> {
    let path = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let key = path.get_attribute("data-key")?.parse().ok()?;
    let lateness = lateness_of_class(&path.get_attribute("class")?)?;
    let svg = path.closest("svg").ok()??;
    nearest_dot(dots, key, lateness, in_view_box(&svg, e), place)
}

/// The pointer's position in the chart's `viewBox`, which the page scales to fit the width
/// it is given, keeping its proportions and centring it (SVG's default `xMidYMid meet`).
fn in_view_box(svg: &web_sys::Element, e: &MouseEvent) -> (f64, f64) {
    let rect = svg.get_bounding_client_rect();
    let scale = (rect.width() / WIDTH).min(rect.height() / HEIGHT);
    // A chart not laid out (no size) has no point under the pointer worth finding.
    if scale.is_nan() || scale <= 0.0 {
        return (0.0, 0.0);
    }
    let left = rect.left() + (rect.width() - WIDTH * scale) / 2.0;
    let top = rect.top() + (rect.height() - HEIGHT * scale) / 2.0;
    (
        (f64::from(e.client_x()) - left) / scale,
        (f64::from(e.client_y()) - top) / scale,
    )
}

/// The selected record: a ring where it is drawn, and a hollow diamond at its corrected event
/// time (same processing time), joined by a dashed line, so the correction is a visible move.
fn correction_html(dot: &ChartDot, x: &dyn Fn(i64) -> f64, y: &dyn Fn(i64) -> f64) -> Html {
    let (from_x, at_y) = (x(dot.event_ms), y(dot.processed_ms));
    let to_x = x(dot.record.corrected_ms());
    html! {
        <g class="wm-selected">
            <line x1={format!("{from_x:.1}")} y1={format!("{at_y:.1}")} x2={format!("{to_x:.1}")} y2={format!("{at_y:.1}")} />
            <circle cx={format!("{from_x:.1}")} cy={format!("{at_y:.1}")} r="7" />
            <path class="wm-corrected" d={format!("M{to_x:.1} {:.1}l6 6l-6 6l-6 -6z", at_y - 6.0)} />
            <text x={format!("{:.1}", to_x + 8.0)} y={format!("{:.1}", at_y - 8.0)}>{ "corrected" }</text>
        </g>
    }
}

fn pane_html(pane: &ChartPane, x_start: f64, x_end: f64, y: f64) -> Html {
    let label = match pane.retracted {
        Some(old) => format!("{old} → {}", pane.count),
        None if pane.late => format!("late {}", pane.count),
        None => pane.count.to_string(),
    };
    let (class, marker) = if pane.late {
        (
            "wm-pane late",
            format!("M{:.1} {:.1}l4 7h-8z", (x_start + x_end) / 2.0, y - 3.5),
        )
    } else {
        (
            "wm-pane on-time",
            format!("M{:.1} {:.1}l5 5l-5 5l-5 -5z", x_end - 6.0, y - 5.0),
        )
    };
    html! {
        <g class={class}>
            <line x1={format!("{:.1}", x_start + 1.0)} y1={format!("{y:.1}")} x2={format!("{:.1}", x_end - 1.0)} y2={format!("{y:.1}")} />
            <path d={marker} />
            if pane.labelled {
                <text x={format!("{:.1}", x_start + 3.0)} y={format!("{:.1}", y - 3.0)}>{ label }</text>
            }
        </g>
    }
}
