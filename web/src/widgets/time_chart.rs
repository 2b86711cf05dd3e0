//! A time chart any family can fill: named series of (seconds, value) points, optional shaded
//! spans (an outage), drawn through the platform's `line_chart` so lines differ by dash and
//! marker as well as colour. The queues, replication and joins families draw their charts
//! with it; each builds its `ChartData` from its own snapshot.

use crate::platform::palette::series_colour;
use crate::platform::plot::{hex_colour, line_chart, LineChart, Series};
use crate::platform::shared::Shared;
use crate::shell::canvas::use_canvas_drawing;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// What the chart plots: named series of (seconds, value) points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartData {
    pub title: String,
    pub y_title: &'static str,
    /// The x axis's title; simulated time when empty.
    pub x_title: &'static str,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    /// (from, to) spans in seconds, shaded under the lines.
    pub bands: Vec<(f64, f64)>,
}

#[derive(Properties, PartialEq)]
pub struct TimeChartProps {
    pub data: Shared<ChartData>,
    /// The family's class for the section (what "save as PNG" selects).
    pub class: &'static str,
}

#[function_component(TimeChart)]
pub fn time_chart(props: &TimeChartProps) -> Html {
    let canvas = use_canvas_drawing(props.data.clone(), draw);
    html! {
        <section class={classes!("charts", props.class)} aria-label="Chart">
            <figure>
                <canvas ref={canvas} width="640" height="260" role="img" aria-label={props.data.title.clone()} />
                <figcaption>{ &props.data.title }</figcaption>
            </figure>
        </section>
    }
}

fn draw(canvas: HtmlCanvasElement, data: &ChartData) {
    let to = data
        .series
        .iter()
        .flat_map(|(_, points)| points.iter().map(|(t, _)| *t))
        .chain(data.bands.iter().map(|(_, to)| *to))
        .fold(1.0, f64::max);
    let x_title = if data.x_title.is_empty() {
        "simulated time (s)"
    } else {
        data.x_title
    };
    line_chart(
        &canvas,
        &LineChart {
            x: (0.0, to),
            x_title,
            y_title: data.y_title,
            series: data
                .series
                .iter()
                .enumerate()
                .map(|(i, (label, points))| Series {
                    label: label.clone(),
                    colour: hex_colour(series_colour(i)),
                    points: points.clone(),
                })
                .collect(),
            bands: data.bands.clone(),
        },
    );
}
