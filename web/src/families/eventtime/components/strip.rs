//! The arrivals strip: every record the topic has received is a dot at its event time (x).
//! Dots waiting in the topic sit hollow in the upper lane; when the processor reads one it
//! drops into the lower lane and fills in, so during the outage the upper lane fills up and
//! the catch-up empties it in a rush. The outage (processing time) is shaded, and vertical
//! lines mark the processor's clock and the watermark.

use crate::platform::draw_order::grouped_in_runs;
use crate::platform::palette::key_colour;
use crate::platform::plot::{hex_colour, Layout, Look, Marker, Plot, Rgb};
use crate::platform::shared::Shared;
use crate::platform::theme::colour_var;
use crate::shell::canvas::use_canvas_drawing;
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

/// Where a dot sits up the strip: its place in the waiting lane, moved toward its place in the
/// processed lane as it lands.
fn height(dot: &StripDot) -> f64 {
    let (wait_low, wait_high) = WAITING_LANE;
    let (done_low, done_high) = PROCESSED_LANE;
    let s = spread(dot.index);
    let waiting_y = wait_low + s * (wait_high - wait_low);
    let done_y = done_low + s * (done_high - done_low);
    waiting_y + (done_y - waiting_y) * dot.landed
}

fn draw(canvas: HtmlCanvasElement, data: &StripData) {
    let x_end = seconds(data.axis_end_ms).max(1.0);
    let layout = Layout {
        margin: 10,
        // As wide as the other event-time chart's, so the two plots line up, with room for
        // four-digit counts.
        y_label_area: 56,
        x: (0.0, x_end),
        y: (0.0, 1.0),
    };
    let Some(mut plot) = Plot::new(&canvas, layout) else {
        return;
    };
    plot.axes("event time (s)", None);
    if let Some((from, to)) = data.outage_ms {
        plot.band(seconds(from), seconds(to), Rgb(120, 120, 120), 0.15);
        plot.text("processor stopped", (seconds(from) + x_end * 0.005, 0.52));
    }
    plot.text(
        &format!("in the topic: {} waiting", data.backlog),
        (x_end * 0.005, 0.99),
    );
    plot.text("read and counted", (x_end * 0.005, 0.45));
    // A run of dots at a time, one path per device and state (see `draw_order`).
    for ((key, landed), dots) in grouped_in_runs(&data.dots, |dot| (dot.key, dot.landed > 0.0)) {
        let look = Look {
            colour: hex_colour(key_colour(Some(key))),
            width: 1,
            dash: None,
            marker: if landed { Marker::Circle } else { Marker::Ring },
            marker_size: 2,
        };
        let points = dots.iter().map(|dot| (seconds(dot.event_ms), height(dot)));
        plot.markers_together(points, &look);
    }
    let ink = plot.ink();
    let clock = Look {
        colour: ink.ink,
        // 2 px: plotters strokes on whole pixels, where 1 px would smear into a grey line.
        width: 2,
        dash: Some((5, 4)),
        marker: Marker::Circle,
        marker_size: 0,
    };
    plot.vertical(seconds(data.now_ms), &clock);
    if let Some(watermark_ms) = data.watermark_ms {
        let watermark = Look {
            // The theme's blue: the dark theme lightens it to stay visible on dark paper.
            colour: colour_var("--blue", Rgb(0, 114, 178)),
            dash: None,
            ..clock
        };
        plot.vertical(seconds(watermark_ms), &watermark);
    }
}
