//! The exactly-once family's time chart: per recovery model, the records counted again and
//! the updates that reached the outside more than once. One line chart through the
//! platform's `line_chart`, so lines differ by dash and marker as well as colour.

use super::lanes::model_name;
use crate::platform::palette::series_colour;
use crate::platform::plot::{hex_colour, line_chart, LineChart, Series};
use crate::platform::shared::Shared;
use crate::shell::canvas::use_canvas_drawing;
use streamlab_sim::exactly_once::{LaneSample, Model};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// What the chart plots: named series of (seconds, value) points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChartData {
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

const TITLE: &str = "Records counted again, and updates the outside saw twice, per model";

impl ChartData {
    pub fn from_samples(samples: &[LaneSample]) -> Self {
        let mut series = Vec::new();
        for model in Model::ALL {
            let mine: Vec<&LaneSample> = samples.iter().filter(|s| s.model == model).collect();
            if mine.is_empty() {
                continue;
            }
            let points = |value: fn(&LaneSample) -> u64| {
                mine.iter()
                    .map(|s| (s.at_ms as f64 / 1000.0, value(s) as f64))
                    .collect()
            };
            let name = model_name(model);
            series.push((
                format!("{name}: counted again"),
                points(|s| s.reprocessed_records),
            ));
            series.push((
                format!("{name}: duplicates outside"),
                points(|s| s.duplicates),
            ));
        }
        Self { series }
    }
}

#[derive(Properties, PartialEq)]
pub struct EosChartProps {
    pub data: Shared<ChartData>,
}

#[function_component(EosChart)]
pub fn eos_chart(props: &EosChartProps) -> Html {
    let canvas = use_canvas_drawing(props.data.clone(), draw);
    html! {
        <section class="charts eo-chart" aria-label="Chart">
            <figure>
                <canvas ref={canvas} width="640" height="260" role="img" aria-label={TITLE} />
                <figcaption>{ TITLE }</figcaption>
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
            y_title: "records",
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
