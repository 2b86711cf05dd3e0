//! A time chart any family draws under its picture: named series of (seconds, value) points
//! through the platform's `line_chart`, so lines differ by dash and marker as well as colour,
//! with its title as the figure's caption and the canvas's label.

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
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

#[derive(Properties, PartialEq)]
pub struct TimeChartProps {
    pub data: Shared<ChartData>,
    /// The family's class for the section, which its "save picture" selector names.
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
        .fold(1.0, f64::max);
    line_chart(
        &canvas,
        &LineChart {
            x: (0.0, to),
            x_title: "simulated time (s)",
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
            bands: Vec::new(),
        },
    );
}
