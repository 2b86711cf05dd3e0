//! The Windows lesson's picture: event time across, one band per window type (tumbling,
//! hopping, sliding, session) stacked down the page. Each band shows the device's records on
//! a strip at its top, and below it the windows as boxes, overlapping ones on rows of their
//! own; every record is drawn again inside each box that holds it, so a record in three
//! windows shows up three times. Boxes are dashed while open and solid once fired; a box that
//! fired more than once (late panes) says so. The watermark is one vertical line through all
//! bands.
//!
//! The core's [`WindowTypesPicture`] decides every window and count; this component only lays
//! them out as SVG.

use crate::platform::bounded::bounded;
use crate::platform::shared::Shared;
use streamlab_sim::eventtime::events::clock_time as clock;
use streamlab_sim::eventtime::{ComparedWindows, LaneWindow, WindowLane, WindowTypesPicture};
use streamlab_sim::window::{Watermark, WindowSpec};
use yew::prelude::*;

/// Everything the chart draws at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowsChartData {
    pub picture: WindowTypesPicture,
    pub compared: ComparedWindows,
    /// Right end of the event-time axis.
    pub x_end_ms: i64,
    /// Devices in the run; the picture shows one of them.
    pub devices: u32,
}

#[derive(Properties, PartialEq)]
pub struct WindowsChartProps {
    pub data: Shared<WindowsChartData>,
}

const WIDTH: f64 = 900.0;
const LEFT: f64 = 16.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 8.0;
const AXIS: f64 = 30.0;
/// A band's title line, and the strip of records under it.
const TITLE: f64 = 30.0;
const STRIP: f64 = 16.0;
const BAND_GAP: f64 = 10.0;
/// Room the watermark's label needs left of its line.
const WATERMARK_LABEL: f64 = 64.0;

/// Okabe–Ito colours, one per window type, in lane order; every band is also named.
const LANE_COLOURS: [&str; 4] = ["#0072B2", "#E69F00", "#CC79A7", "#009E73"];

/// "10 s", "2.5 s", "500 ms".
fn duration(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else if ms > 1000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{ms} ms")
    }
}

/// The band's name and the calls that make such windows in Flink and Kafka Streams.
fn lane_title(spec: WindowSpec) -> (String, String) {
    match spec {
        WindowSpec::Tumbling { size_ms } => (
            "Tumbling".into(),
            format!(
                "Flink TumblingEventTimeWindows.of({0}) · Kafka Streams TimeWindows.ofSizeWithNoGrace({0})",
                duration(size_ms)
            ),
        ),
        WindowSpec::Hopping { size_ms, hop_ms } => (
            "Hopping".into(),
            format!(
                "Flink SlidingEventTimeWindows.of({}, {}) (Flink calls these sliding!) · Kafka Streams TimeWindows…advanceBy({})",
                duration(size_ms),
                duration(hop_ms),
                duration(hop_ms)
            ),
        ),
        WindowSpec::Sliding { time_difference_ms } => (
            "Sliding".into(),
            format!(
                "Kafka Streams SlidingWindows.ofTimeDifferenceAndGrace({}, …) · no Flink equivalent",
                duration(time_difference_ms)
            ),
        ),
        WindowSpec::Session { gap_ms } => (
            "Session".into(),
            format!(
                "Flink EventTimeSessionWindows.withGap({0}) · Kafka Streams SessionWindows.ofInactivityGapWithNoGrace({0})",
                duration(gap_ms)
            ),
        ),
    }
}

/// Height of one row of boxes: roomy for a few rows, squeezed (but visible) for many.
fn row_height(rows: u32) -> f64 {
    if rows <= 4 {
        22.0
    } else {
        (96.0 / f64::from(rows)).max(5.0)
    }
}

fn band_height(lane: &WindowLane) -> f64 {
    TITLE + STRIP + f64::from(lane.rows.max(1)) * row_height(lane.rows) + BAND_GAP
}

/// How many windows hold the records, as "1", "2" or "1–7".
fn per_record(lane: &WindowLane) -> String {
    let least = lane.records.iter().map(|r| r.windows).min().unwrap_or(0);
    let most = lane.records.iter().map(|r| r.windows).max().unwrap_or(0);
    if least == most {
        least.to_string()
    } else {
        format!("{least}–{most}")
    }
}

/// Width a count's character may take, in the chart's units: bold 10 px digits are about 7
/// wide in the common UI fonts (DejaVu Sans Bold, the widest, 6.96; "×" 8.4), so with this
/// a label estimated to fit does fit, whatever the font.
const COUNT_CHAR_W: f64 = 7.5;
/// Room kept between a count and its box's edges.
const COUNT_PAD: f64 = 3.0;
/// Least box height a 10 px count fits in.
const COUNT_MIN_BOX_H: f64 = 12.0;

/// The count to print inside a window's box `box_w` wide and `box_h` high: the count and how
/// often it fired ("12 ×2"), or only the count if that is all that fits, or nothing. A label
/// never leaves its box, so crowded windows do not write over their neighbours; a count not
/// printed is still in the box's title, and a window that fired again keeps its thicker
/// outline either way.
fn count_label(w: &LaneWindow, box_w: f64, box_h: f64) -> Option<String> {
    let fits =
        |label: &String| label.chars().count() as f64 * COUNT_CHAR_W + 2.0 * COUNT_PAD <= box_w;
    let full = match w.panes {
        0 | 1 => w.count.to_string(),
        panes => format!("{} ×{panes}", w.count),
    };
    if box_h < COUNT_MIN_BOX_H {
        return None;
    }
    [full, w.count.to_string()].into_iter().find(fits)
}

#[function_component(WindowsChart)]
pub fn windows_chart(props: &WindowsChartProps) -> Html {
    let d = &*props.data;
    let plot_w = WIDTH - LEFT - RIGHT;
    let x_end_ms = d.x_end_ms.max(1);
    let x = move |ms: i64| LEFT + ms.clamp(0, x_end_ms) as f64 / x_end_ms as f64 * plot_w;
    let mut tops = Vec::with_capacity(d.picture.lanes.len());
    let mut y = TOP;
    for lane in &d.picture.lanes {
        tops.push(y);
        y += band_height(lane);
    }
    let height = y + AXIS;
    let tick_ms = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000]
        .into_iter()
        .find(|tick| x_end_ms / tick <= 12)
        .unwrap_or(600_000);
    let watermark_x = match d.picture.watermark {
        Watermark::At(ms) if ms >= 0 => Some(x(ms)),
        Watermark::PlusInfinity => Some(x(x_end_ms)),
        _ => None,
    };
    let bands = d
        .picture
        .lanes
        .iter()
        .zip(&tops)
        .enumerate()
        .map(|(i, (lane, &top))| band_html(lane, top, LANE_COLOURS[i % LANE_COLOURS.len()], &x));
    let shown = if d.devices > 1 {
        format!(
            " Device {} of {}: windows are per device.",
            d.picture.key, d.devices
        )
    } else {
        String::new()
    };
    html! {
        <figure class="wt-chart">
            <svg viewBox={format!("0 0 {WIDTH} {height:.0}")} role="img"
                aria-label={format!("One device's records under four kinds of windows: {}",
                    d.picture.lanes.iter().map(|l| format!("{} {} windows", lane_title(l.spec).0, l.windows.len())).collect::<Vec<_>>().join(", "))}>
                { for bands }
                <g class="wt-axis">
                    <line x1={LEFT.to_string()} y1={format!("{:.1}", y)} x2={(LEFT + plot_w).to_string()} y2={format!("{:.1}", y)} />
                    { for (0..=x_end_ms / tick_ms).map(|i| {
                        let at = i * tick_ms;
                        html! { <text x={format!("{:.1}", x(at))} y={format!("{:.1}", y + 14.0)} text-anchor="middle">{ clock(at) }</text> }
                    }) }
                    <text class="wt-axis-title" x={(LEFT + plot_w / 2.0).to_string()} y={format!("{:.1}", y + 27.0)} text-anchor="middle">
                        { "event time (when it happened) →" }</text>
                </g>
                if let Some(wx) = watermark_x {
                    <g class="wt-watermark">
                        <line x1={format!("{wx:.1}")} y1={TOP.to_string()} x2={format!("{wx:.1}")} y2={format!("{y:.1}")} />
                        // Near the left edge the label goes right of the line, so it is never cut off.
                        if wx < LEFT + WATERMARK_LABEL {
                            <text x={format!("{:.1}", wx + 3.0)} y={format!("{:.1}", y - 3.0)} text-anchor="start">{ "watermark" }</text>
                        } else {
                            <text x={format!("{:.1}", wx - 3.0)} y={format!("{:.1}", y - 3.0)} text-anchor="end">{ "watermark" }</text>
                        }
                    </g>
                }
            </svg>
            <figcaption>{ format!("Each band is one kind of window over the same records. The strip at the top of a band holds \
                the records as they are read (a cross: too late for every window); below it each box is one window, \
                with every record it holds drawn inside it and its count. Dashed boxes are still open, solid ones have \
                fired; \"×2\" means a late record made it fire again. The blue line is the watermark.{shown}") }</figcaption>
        </figure>
    }
}

fn band_html(lane: &WindowLane, top: f64, colour: &'static str, x: &dyn Fn(i64) -> f64) -> Html {
    let (name, calls) = lane_title(lane.spec);
    let row_h = row_height(lane.rows);
    let rows_top = top + TITLE + STRIP;
    let strip_y = top + TITLE + STRIP / 2.0;
    let summary = format!(
        "{} windows · each record in {}",
        lane.windows.len(),
        per_record(lane)
    );
    html! {
        <g class="wt-band" data-kind={name.to_ascii_lowercase()}>
            <text class="wt-name" x={LEFT.to_string()} y={format!("{:.1}", top + 12.0)} fill={colour}>{ name }</text>
            <text class="wt-summary" x={(LEFT + 70.0).to_string()} y={format!("{:.1}", top + 12.0)}>{ summary }</text>
            <text class="wt-calls" x={LEFT.to_string()} y={format!("{:.1}", top + 25.0)}>{ calls }</text>
            <line class="wt-strip" x1={LEFT.to_string()} y1={format!("{strip_y:.1}")} x2={format!("{:.1}", WIDTH - RIGHT)} y2={format!("{strip_y:.1}")} />
            { for lane.records.iter().map(|r| {
                let (cx, cy) = (x(r.event_ms), strip_y);
                if r.windows == 0 {
                    html! { <path class="wt-record too-late" d={format!("M{:.1} {:.1}l6 6m-6 0l6 -6", cx - 3.0, cy - 3.0)}>
                        <title>{ format!("record at {}: in no window", clock(r.event_ms)) }</title></path> }
                } else {
                    html! { <circle class="wt-record" cx={format!("{cx:.1}")} cy={format!("{cy:.1}")} r="3">
                        <title>{ format!("record at {}: in {} window(s)", clock(r.event_ms), r.windows) }</title></circle> }
                }
            }) }
            { for lane.windows.iter().map(|w| window_html(lane, w, rows_top, row_h, colour, x)) }
        </g>
    }
}

fn window_html(
    lane: &WindowLane,
    w: &LaneWindow,
    rows_top: f64,
    row_h: f64,
    colour: &'static str,
    x: &dyn Fn(i64) -> f64,
) -> Html {
    let (left, right) = (x(w.start_ms), x(w.end_ms));
    let top = rows_top + f64::from(w.row) * row_h;
    let box_h = (row_h - 2.0).max(3.0);
    let mid = top + box_h / 2.0;
    let label = count_label(w, right - left, box_h);
    let inside = lane
        .records
        .iter()
        .filter(|r| (w.start_ms..w.end_ms).contains(&r.event_ms));
    let title = format!(
        "[{}, {}) · {} record(s) · {}",
        clock(w.start_ms),
        clock(w.end_ms),
        w.count,
        match w.panes {
            0 => "open".to_string(),
            1 => "fired".to_string(),
            n => format!("fired {n} times"),
        }
    );
    html! {
        // The title belongs to the whole window, so hovering its records or its count shows it
        // too: it is where a count too wide for a narrow box can still be read.
        <g class={classes!("wt-window", (!w.fired).then_some("open"), (w.panes > 1).then_some("refired"))}>
            <title>{ title }</title>
            <rect x={format!("{:.1}", left + 0.5)} y={format!("{top:.1}")} width={format!("{:.1}", (right - left - 1.0).max(1.0))}
                height={format!("{box_h:.1}")} rx="2" stroke={colour} />
            { for inside.map(|r| html! {
                <circle class="wt-in" cx={format!("{:.1}", x(r.event_ms))} cy={format!("{mid:.1}")} r={format!("{:.1}", bounded(box_h / 4.0, 1.2, 2.5))} />
            }) }
            if let Some(label) = label {
                <text class="wt-count" x={format!("{:.1}", right - COUNT_PAD)} y={format!("{:.1}", mid + 3.5)} text-anchor="end">{ label }</text>
            }
        </g>
    }
}
