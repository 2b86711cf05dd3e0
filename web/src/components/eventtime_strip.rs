//! The arrivals strip: every record the topic has received is a dot at its event time (x).
//! Dots waiting in the topic sit hollow in the upper lane; when the processor reads one it
//! drops into the lower lane and fills in, so during the outage the upper lane fills up and
//! the catch-up empties it in a rush. The outage (processing time) is shaded, and vertical
//! lines mark the processor's clock and the watermark.

use super::canvas::use_canvas_drawing;
use crate::palette::key_colour;
use crate::shared::Shared;
use crate::theme::{colour_var, ChartInk};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// One record on the strip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StripDot {
    pub event_ms: i64,
    pub key: u32,
    /// Spreads dots vertically inside a lane so they do not all sit on one line.
    pub index: u32,
    /// 0 while waiting in the topic, rising to 1 as it lands after being processed.
    pub landed: f64,
}

/// Everything the strip draws at one instant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StripData {
    pub dots: Vec<StripDot>,
    pub now_ms: i64,
    pub watermark_ms: Option<i64>,
    pub outage_ms: Option<(i64, i64)>,
    pub axis_end_ms: i64,
    pub backlog: u64,
}

#[derive(Properties, PartialEq)]
pub struct EventTimeStripProps {
    pub data: Shared<StripData>,
}

#[function_component(EventTimeStrip)]
pub fn eventtime_strip(props: &EventTimeStripProps) -> Html {
    let canvas = use_canvas_drawing(props.data.clone(), draw);
    html! {
        <figure class="et-strip">
            <canvas ref={canvas} width="900" height="190" role="img"
                aria-label={format!("Records placed by event time; {} waiting in the topic", props.data.backlog)} />
            <figcaption>{ "Each dot is a record, placed at its event time. Hollow dots in the upper lane \
                are in the topic, not yet read; read records drop into the lower lane and fill in. \
                Dashed line: the processor's clock; solid line: the watermark." }</figcaption>
        </figure>
    }
}

/// Lanes in chart units (0 at the bottom, 1 at the top).
const WAITING_LANE: (f64, f64) = (0.62, 0.92);
const PROCESSED_LANE: (f64, f64) = (0.08, 0.38);

fn seconds(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

/// A fixed spread inside a lane, from the record's index (a cheap hash, not a random draw,
/// so the same record always sits at the same height).
fn spread(index: u32) -> f64 {
    f64::from(index.wrapping_mul(2_654_435_761) >> 16 & 0xff) / 255.0
}

fn hex_colour(hex: &str) -> RGBColor {
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    RGBColor(byte(1), byte(3), byte(5))
}

fn draw(canvas: HtmlCanvasElement, data: &StripData) {
    let Some(backend) = CanvasBackend::with_canvas_object(canvas) else {
        return;
    };
    let root = backend.into_drawing_area();
    let ink = ChartInk::current();
    let _ = root.fill(&ink.paper);
    let x_end = seconds(data.axis_end_ms).max(1.0);
    let Ok(mut chart) = ChartBuilder::on(&root)
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..x_end, 0.0..1.0)
    else {
        return;
    };
    let _ = chart
        .configure_mesh()
        .x_desc("event time (s)")
        .disable_y_mesh()
        .disable_y_axis()
        .light_line_style(ink.grid)
        .bold_line_style(ink.grid)
        .axis_style(ink.muted)
        .label_style(ink.font(12))
        .axis_desc_style(ink.font(12))
        .draw();
    let label = |text: &str, y: f64| Text::new(text.to_string(), (x_end * 0.005, y), ink.font(12));
    if let Some((from, to)) = data.outage_ms {
        let _ = chart.draw_series(std::iter::once(Rectangle::new(
            [(seconds(from), 0.0), (seconds(to), 1.0)],
            RGBColor(120, 120, 120).mix(0.15).filled(),
        )));
        let _ = chart.draw_series(std::iter::once(Text::new(
            "processor stopped".to_string(),
            (seconds(from) + x_end * 0.005, 0.52),
            ink.font(12),
        )));
    }
    let _ = chart.draw_series([
        label(&format!("in the topic: {} waiting", data.backlog), 0.99),
        label("read and counted", 0.45),
    ]);
    let _ = chart.draw_series(data.dots.iter().map(|dot| {
        let (wait_low, wait_high) = WAITING_LANE;
        let (done_low, done_high) = PROCESSED_LANE;
        let s = spread(dot.index);
        let waiting_y = wait_low + s * (wait_high - wait_low);
        let done_y = done_low + s * (done_high - done_low);
        let y = waiting_y + (done_y - waiting_y) * dot.landed;
        let colour = hex_colour(key_colour(Some(dot.key)));
        let style = if dot.landed > 0.0 {
            colour.filled()
        } else {
            colour.stroke_width(1)
        };
        Circle::new((seconds(dot.event_ms), y), 2, style)
    }));
    let now = seconds(data.now_ms);
    let _ = chart.draw_series(DashedLineSeries::new(
        [(now, 0.0), (now, 1.0)],
        5,
        4,
        ink.ink.stroke_width(1),
    ));
    if let Some(watermark_ms) = data.watermark_ms {
        let w = seconds(watermark_ms);
        let _ = chart.draw_series(LineSeries::new(
            [(w, 0.0), (w, 1.0)],
            // The theme's blue: the dark theme lightens it to stay visible on dark paper.
            colour_var("--blue", RGBColor(0, 114, 178)).stroke_width(2),
        ));
    }
    let _ = root.present();
}
