//! Charts drawn with plotters on a canvas: lag per partition and throughput per group.
//!
//! The chart shows the last minute of simulated time. It is redrawn only when the playground
//! hands it new data (a few times a second at most), not on every animation frame. Each line
//! has its own dash pattern and point marker as well as its own colour (the legend shows all
//! three), so partitions and groups stay apart without telling colours apart.

use super::canvas::use_canvas_drawing;
use crate::palette::{group_colour, series_colour};
use crate::shared::Shared;
use crate::theme::ChartInk;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
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
    colour: RGBColor,
    /// (seconds, value) points.
    points: Vec<(f64, f64)>,
}

/// Legends beyond this many lines would cover the chart; the lines still draw.
const MOST_LEGEND_ENTRIES: usize = 12;

/// Line patterns, as (dash, gap) in pixels; `None` is solid.
const DASHES: [Option<(u32, u32)>; 3] = [None, Some((8, 4)), Some((2, 3))];

/// Point markers. With three dashes and four markers, the first twelve lines (every line
/// that gets a legend) each have a pattern of their own.
#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Triangle,
    Square,
    Cross,
}
const MARKERS: [Marker; 4] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Cross,
];

/// How many markers a line carries across the chart: enough to follow, few enough to read.
const MARKERS_PER_LINE: usize = 8;

/// Marker `marker` of `colour`, centred on `at`, as a drawable element.
fn marker_element<C: Clone + 'static>(
    marker: Marker,
    at: C,
    colour: RGBColor,
) -> DynElement<'static, CanvasBackend, C> {
    with_marker(EmptyElement::at(at), (0, 0), marker, colour)
}

/// `base` with marker `marker` added at pixel offset `at` from its anchor.
fn with_marker<C: Clone + 'static, B>(
    base: B,
    at: (i32, i32),
    marker: Marker,
    colour: RGBColor,
) -> DynElement<'static, CanvasBackend, C>
where
    B: std::ops::Add<Circle<(i32, i32), i32>>
        + std::ops::Add<TriangleMarker<(i32, i32), i32>>
        + std::ops::Add<Rectangle<(i32, i32)>>
        + std::ops::Add<Cross<(i32, i32), i32>>,
    <B as std::ops::Add<Circle<(i32, i32), i32>>>::Output:
        IntoDynElement<'static, CanvasBackend, C>,
    <B as std::ops::Add<TriangleMarker<(i32, i32), i32>>>::Output:
        IntoDynElement<'static, CanvasBackend, C>,
    <B as std::ops::Add<Rectangle<(i32, i32)>>>::Output: IntoDynElement<'static, CanvasBackend, C>,
    <B as std::ops::Add<Cross<(i32, i32), i32>>>::Output: IntoDynElement<'static, CanvasBackend, C>,
{
    let (x, y) = at;
    match marker {
        Marker::Circle => (base + Circle::new(at, 4, colour.filled())).into_dyn(),
        Marker::Triangle => (base + TriangleMarker::new(at, 5, colour.filled())).into_dyn(),
        Marker::Square => {
            (base + Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], colour.filled())).into_dyn()
        }
        Marker::Cross => (base + Cross::new(at, 4, colour.stroke_width(2))).into_dyn(),
    }
}

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
    draw_lines(canvas, data, "lag (records)", lines);
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
    draw_lines(canvas, data, "records/s", lines);
}

/// Draws `lines` over the chart window, with rebalances shaded underneath.
fn draw_lines(canvas: HtmlCanvasElement, data: &ChartData, y_desc: &str, lines: Vec<Line>) {
    let Some(backend) = CanvasBackend::with_canvas_object(canvas) else {
        return;
    };
    let root = backend.into_drawing_area();
    let ink = ChartInk::current();
    let _ = root.fill(&ink.paper);
    let top = lines
        .iter()
        .flat_map(|line| line.points.iter().map(|(_, v)| *v))
        .fold(10.0, f64::max)
        * 1.1;
    let from_s = seconds(data.from_ms);
    let Ok(mut chart) = ChartBuilder::on(&root)
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(48)
        .build_cartesian_2d(from_s..seconds(data.to_ms).max(from_s + 1.0), 0.0..top)
    else {
        return;
    };
    let _ = chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .y_desc(y_desc)
        .light_line_style(ink.grid)
        .bold_line_style(ink.grid)
        .axis_style(ink.muted)
        .label_style(ink.font(12))
        .axis_desc_style(ink.font(12))
        .draw();
    shade_rebalances(&mut chart, data, top);
    let legend = lines.len() <= MOST_LEGEND_ENTRIES;
    for (i, line) in lines.into_iter().enumerate() {
        let colour = line.colour;
        let style = colour.stroke_width(2);
        let dash = DASHES[i % DASHES.len()];
        let marker = MARKERS[i % MARKERS.len()];
        // Markers start at a different point on each line so coinciding lines stay visible.
        let every = (line.points.len() / MARKERS_PER_LINE).max(1);
        let marks = line
            .points
            .iter()
            .skip(i % every)
            .step_by(every)
            .map(|&p| marker_element(marker, p, colour))
            .collect::<Vec<_>>();
        let drawn = match dash {
            None => chart.draw_series(LineSeries::new(line.points, style)),
            Some((size, gap)) => {
                chart.draw_series(DashedLineSeries::new(line.points, size, gap, style))
            }
        };
        if let (true, Ok(series)) = (legend, drawn) {
            series
                .label(line.label)
                .legend(move |(x, y)| legend_sample(x, y, dash, marker, colour));
        }
        let _ = chart.draw_series(marks);
    }
    if legend {
        let _ = chart
            .configure_series_labels()
            .background_style(ink.paper.mix(0.8))
            .border_style(ink.grid)
            .label_font(ink.font(12))
            .position(SeriesLabelPosition::UpperLeft)
            .draw();
    }
    let _ = root.present();
}

/// A legend entry: a stretch of the line's pattern with its marker in the middle.
fn legend_sample(
    x: i32,
    y: i32,
    dash: Option<(u32, u32)>,
    marker: Marker,
    colour: RGBColor,
) -> DynElement<'static, CanvasBackend, (i32, i32)> {
    let style = colour.stroke_width(2);
    // Four stretches, always, so every pattern is the same kind of element.
    let pieces: [(i32, i32); 4] = match dash {
        None => [(0, 5), (5, 10), (10, 15), (15, 20)],
        Some((8, _)) => [(0, 6), (0, 6), (14, 20), (14, 20)],
        Some(_) => [(0, 2), (5, 7), (13, 15), (18, 20)],
    };
    let piece = |i: usize| PathElement::new([(pieces[i].0, 0), (pieces[i].1, 0)], style);
    let base = EmptyElement::at((x, y)) + piece(0) + piece(1) + piece(2) + piece(3);
    with_marker(base, (10, 0), marker, colour)
}

/// Grey bands where the group was rebalancing, drawn under the lines.
fn shade_rebalances<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    data: &ChartData,
    top: f64,
) {
    let band = RGBColor(213, 94, 0).mix(0.12).filled();
    let _ = chart.draw_series(data.rebalancing.iter().map(|&(from, to)| {
        Rectangle::new(
            [(seconds(from.max(data.from_ms)), 0.0), (seconds(to), top)],
            band,
        )
    }));
}

/// "#E69F00" as a plotters colour.
fn hex_colour(hex: &str) -> RGBColor {
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    RGBColor(byte(1), byte(3), byte(5))
}
