//! Charts drawn on a canvas: lag per partition and throughput per group.
//!
//! The chart shows the last minute of simulated time. It is redrawn only when the playground
//! hands it new data (a few times a second at most), not on every animation frame. Each line
//! has its own dash pattern and point marker as well as its own colour (the legend shows all
//! three), so partitions and groups stay apart without telling colours apart.

use crate::platform::palette::{group_colour, series_colour};
use crate::platform::plot::{hex_colour, line_chart, LineChart, Series};
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

fn draw_lag(canvas: HtmlCanvasElement, data: &ChartData) {
    let lines = data
        .lag
        .iter()
        .enumerate()
        .map(|(p, series)| Series {
            label: format!("p{p}"),
            colour: hex_colour(series_colour(p)),
            points: series
                .iter()
                .map(|(t, lag)| (seconds(*t), *lag as f64))
                .collect(),
        })
        .collect();
    draw(&canvas, data, "lag (records)", lines);
}

fn draw_throughput(canvas: HtmlCanvasElement, data: &ChartData) {
    let lines = data
        .throughput
        .iter()
        .enumerate()
        .map(|(g, (group_id, series))| Series {
            label: group_id.clone(),
            colour: hex_colour(group_colour(g)),
            points: series
                .iter()
                .map(|(t, rate)| (seconds(*t), *rate))
                .collect(),
        })
        .collect();
    draw(&canvas, data, "records/s", lines);
}

/// The last minute, with the rebalances shaded under the lines.
fn draw(canvas: &HtmlCanvasElement, data: &ChartData, y_title: &str, series: Vec<Series>) {
    let from_s = seconds(data.from_ms);
    line_chart(
        canvas,
        &LineChart {
            x: (from_s, seconds(data.to_ms).max(from_s + 1.0)),
            x_title: "simulated time (s)",
            y_title,
            series,
            bands: data
                .rebalancing
                .iter()
                .map(|&(from, to)| (seconds(from.max(data.from_ms)), seconds(to)))
                .collect(),
        },
    );
}
