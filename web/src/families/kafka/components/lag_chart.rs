//! Charts drawn on a canvas: lag per partition and throughput per group.
//!
//! The chart shows the last minute of simulated time. It is redrawn only when the playground
//! hands it new data (a few times a second at most), not on every animation frame. Each line
//! has its own dash pattern and point marker as well as its own colour (the legend shows all
//! three), so partitions and groups stay apart without telling colours apart.

use crate::platform::palette::{group_colour, series_colour};
use crate::platform::plot::{hex_colour, Layout, Look, Marker, Plot, Rgb};
use crate::platform::shared::Shared;
use crate::shell::canvas::use_canvas_drawing;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// What the charts plot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartData {
    pub from_ms: u64,
    pub to_ms: u64,
    /// The group whose lag is drawn.
    pub lag_group_id: String,
    /// Per partition: (time, lag) points.
    pub lag: Vec<Vec<(u64, u64)>>,
    /// Per group: its id and (time, records/s processed) points.
    pub throughput: Vec<(String, Vec<(u64, f64)>)>,
    /// Spans in which the first group was rebalancing, shaded on both charts.
    pub rebalancing: Vec<(u64, u64)>,
}

#[derive(Properties, PartialEq)]
pub struct LagChartProps {
    pub data: Shared<ChartData>,
}

#[function_component(LagChart)]
pub fn lag_chart(props: &LagChartProps) -> Html {
    let lag_canvas = use_canvas_drawing(props.data.clone(), draw_lag);
    let throughput_canvas = use_canvas_drawing(props.data.clone(), draw_throughput);
    html! {
        <section class="charts" aria-label="Charts">
            <figure>
                <canvas ref={lag_canvas} width="640" height="260" role="img"
                    aria-label={format!("Lag per partition for group {}, last minute", props.data.lag_group_id)} />
                <figcaption>{ format!("Lag per partition ({}): records appended but not yet processed", props.data.lag_group_id) }</figcaption>
            </figure>
            <figure>
                <canvas ref={throughput_canvas} width="640" height="260" role="img"
                    aria-label="Records processed per second by each group, last minute" />
                <figcaption>{ "Throughput: records processed per second, per group" }</figcaption>
            </figure>
        </section>
    }
}

fn seconds(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// One line on a chart.
struct Line {
    label: String,
    colour: Rgb,
    /// (seconds, value) points.
    points: Vec<(f64, f64)>,
}

/// Legends beyond this many lines would cover the chart; the lines still draw.
const MOST_LEGEND_ENTRIES: usize = 12;

/// Line patterns, as (dash, gap) in pixels; `None` is solid.
const DASHES: [Option<(u32, u32)>; 3] = [None, Some((8, 4)), Some((2, 3))];

/// Point markers, with their radius. With three dashes and four markers, the first twelve
/// lines (every line that gets a legend) each have a pattern of their own.
const MARKERS: [(Marker, i32); 4] = [
    (Marker::Circle, 4),
    (Marker::Triangle, 5),
    (Marker::Square, 4),
    (Marker::Cross, 4),
];

/// How many markers a line carries across the chart: enough to follow, few enough to read.
const MARKERS_PER_LINE: usize = 8;

fn draw_lag(canvas: HtmlCanvasElement, data: &ChartData) {
    let lines = data
        .lag
        .iter()
        .enumerate()
        .map(|(p, series)| Line {
            label: format!("p{p}"),
            colour: hex_colour(series_colour(p)),
            points: series
                .iter()
                .map(|(t, lag)| (seconds(*t), *lag as f64))
                .collect(),
        })
        .collect();
    draw_lines(&canvas, data, "lag (records)", lines);
}

fn draw_throughput(canvas: HtmlCanvasElement, data: &ChartData) {
    let lines = data
        .throughput
        .iter()
        .enumerate()
        .map(|(g, (group_id, series))| Line {
            label: group_id.clone(),
            colour: hex_colour(group_colour(g)),
            points: series
                .iter()
                .map(|(t, rate)| (seconds(*t), *rate))
                .collect(),
        })
        .collect();
    draw_lines(&canvas, data, "records/s", lines);
}

/// Draws `lines` over the chart window, with rebalances shaded underneath.
fn draw_lines(canvas: &HtmlCanvasElement, data: &ChartData, y_title: &str, lines: Vec<Line>) {
    let top = lines
        .iter()
        .flat_map(|line| line.points.iter().map(|(_, v)| *v))
        .fold(10.0, f64::max)
        * 1.1;
    let from_s = seconds(data.from_ms);
    let layout = Layout {
        margin: 8,
        y_label_area: 48,
        x: (from_s, seconds(data.to_ms).max(from_s + 1.0)),
        y: (0.0, top),
    };
    let Some(mut plot) = Plot::new(canvas, layout) else {
        return;
    };
    plot.axes("simulated time (s)", Some(y_title));
    // Shaded bands where the group was rebalancing, under the lines.
    for &(from, to) in &data.rebalancing {
        plot.band(
            seconds(from.max(data.from_ms)),
            seconds(to),
            Rgb(213, 94, 0),
            0.12,
        );
    }
    let mut legend = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let (marker, marker_size) = MARKERS[i % MARKERS.len()];
        let look = Look {
            colour: line.colour,
            width: 2,
            dash: DASHES[i % DASHES.len()],
            marker,
            marker_size,
        };
        plot.line(&line.points, &look);
        // Markers start at a different point on each line so coinciding lines stay visible.
        let every = (line.points.len() / MARKERS_PER_LINE).max(1);
        plot.markers(
            line.points.iter().skip(i % every).step_by(every).copied(),
            &look,
        );
        legend.push((line.label.as_str(), look));
    }
    if legend.len() <= MOST_LEGEND_ENTRIES {
        plot.legend(&legend, 0.8);
    }
}
