//! The "which clock?" chart: records counted per window by processing time and by event time,
//! drawn against the ground truth on one canvas. Each series has its own line style
//! and marker as well as its own colour, so nothing rests on colour alone. A window appears
//! on a counted series once it has fired; the truth is drawn whole from the start, as the
//! reference no real job could know.

use crate::platform::plot::{Layout, Look, Marker, Plot, Rgb};
use crate::platform::shared::Shared;
use crate::shell::canvas::use_canvas_drawing;
use streamlab_sim::eventtime::WindowComparison;
use streamlab_sim::replay::sorted_map::SortedMap;
use streamlab_sim::window::{Watermark, WindowSpec};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// One window's bounds (all keys together) and a count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowCount {
    pub start_ms: i64,
    pub end_ms: i64,
    pub count: u64,
    /// When (processing time) the window first gave its answer; for the truth, its end.
    pub fired_at_ms: i64,
}

/// What the chart plots: per window (summed over keys), the truth and the two answers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WindowCounts {
    pub truth: Vec<WindowCount>,
    /// Windows by processing time that have fired (an empty one counts 0).
    pub processing_time: Vec<WindowCount>,
    /// Windows by event time that have fired, at their latest count.
    pub event_time: Vec<WindowCount>,
    /// The outage, in processing time, shaded on the chart.
    pub outage_ms: Option<(i64, i64)>,
    /// Right end of the x axis.
    pub axis_end_ms: i64,
}

impl WindowCounts {
    /// Sums the core's per-key window rows into one count per window, keeping only windows
    /// that have fired by `now_ms` (processing time) or under `watermark` (event time).
    pub fn from_rows(
        rows: &[WindowComparison],
        window: WindowSpec,
        now_ms: i64,
        watermark: Watermark,
        input_ended: bool,
        axis_end_ms: i64,
        outage_ms: Option<(i64, i64)>,
    ) -> Self {
        #[derive(Default)]
        struct Sums {
            truth: u64,
            processing: u64,
            event: u64,
            event_fired_at_ms: Option<i64>,
        }
        let mut by_bounds: SortedMap<(i64, i64), Sums> = SortedMap::new();
        // Tumbling windows in which nothing was processed have no row, yet they are the
        // dip of the outage: list every one up to the axis end.
        if let WindowSpec::Tumbling { size_ms } = window {
            // Events happen before `axis_end_ms`; later windows appear only if a row names
            // them (records read after the devices stopped).
            let mut start_ms = 0;
            while start_ms < axis_end_ms {
                by_bounds.entry((start_ms, start_ms + size_ms)).or_default();
                start_ms += size_ms;
            }
        }
        for row in rows {
            let sums = by_bounds
                .entry((row.window.start_ms, row.window.end_ms))
                .or_default();
            sums.truth += row.truth;
            sums.processing += row.processing_time.unwrap_or(0);
            if let Some(count) = row.event_time {
                sums.event += count;
                // Every key's window with these bounds fires under the same watermark; the
                // latest first firing is when the whole window had answered.
                let fired_ms = row.event_time_first_emitted_at_ms.unwrap_or(now_ms);
                sums.event_fired_at_ms = Some(
                    sums.event_fired_at_ms
                        .map_or(fired_ms, |at| at.max(fired_ms)),
                );
            }
        }
        let last_end_ms = by_bounds.keys().map(|&(_, end)| end).max();
        let mut counts = Self {
            outage_ms,
            axis_end_ms: last_end_ms.map_or(axis_end_ms, |end| end.max(axis_end_ms)),
            ..Self::default()
        };
        for (&(start_ms, end_ms), sums) in &by_bounds {
            let at = |count, fired_at_ms| WindowCount {
                start_ms,
                end_ms,
                count,
                fired_at_ms,
            };
            counts.truth.push(at(sums.truth, end_ms));
            if end_ms <= now_ms || input_ended {
                // Windows still open at the end of the input fire then.
                counts
                    .processing_time
                    .push(at(sums.processing, end_ms.min(now_ms)));
            }
            if let Some(fired_ms) = sums.event_fired_at_ms {
                counts.event_time.push(at(sums.event, fired_ms));
            } else if watermark.has_reached(end_ms) {
                // No device had a record in it: it answers 0 as the watermark passes.
                counts.event_time.push(at(0, end_ms.min(now_ms)));
            }
        }
        counts
    }

    /// The largest amount by which a fired processing-time window exceeds the truth, with
    /// that window; `None` when no window has fired yet.
    pub fn largest_overcount(&self) -> Option<(WindowCount, u64, i64)> {
        self.processing_time
            .iter()
            .map(|p| {
                let truth = self.truth_of(p);
                (*p, truth, p.count as i64 - truth as i64)
            })
            .max_by_key(|&(_, _, over)| over)
    }

    /// The true count of the window with `window`'s bounds.
    pub fn truth_of(&self, window: &WindowCount) -> u64 {
        self.truth
            .iter()
            .find(|t| (t.start_ms, t.end_ms) == (window.start_ms, window.end_ms))
            .map_or(0, |t| t.count)
    }
}

#[derive(Properties, PartialEq)]
pub struct EventTimeChartProps {
    pub data: Shared<WindowCounts>,
}

#[function_component(EventTimeChart)]
pub fn eventtime_chart(props: &EventTimeChartProps) -> Html {
    let canvas = use_canvas_drawing(props.data.clone(), draw);
    html! {
        <figure class="et-chart">
            <canvas ref={canvas} width="900" height="320" role="img"
                aria-label="Records per window: the truth, counted by processing time, and counted by event time" />
            <figcaption>{ "Records per window, all devices together. Truth: grey, solid, circles. \
                By processing time: vermillion, dashed, triangles. By event time: blue, solid, squares. \
                The shaded band is the outage." }</figcaption>
        </figure>
    }
}

/// Truth first and widest, so the event-time line visibly lies on it.
const TRUTH: Look = Look {
    colour: Rgb(90, 90, 90),
    width: 5,
    dash: None,
    marker: Marker::Circle,
    marker_size: 5,
};
const PROCESSING: Look = Look {
    colour: Rgb(213, 94, 0),
    width: 2,
    dash: Some((8, 5)),
    marker: Marker::Triangle,
    marker_size: 6,
};
const EVENT: Look = Look {
    colour: Rgb(0, 114, 178),
    width: 2,
    dash: None,
    marker: Marker::Square,
    marker_size: 3,
};

fn seconds(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

fn middle(w: &WindowCount) -> (f64, f64) {
    (seconds(w.start_ms + w.end_ms) / 2.0, w.count as f64)
}

fn draw(canvas: HtmlCanvasElement, data: &WindowCounts) {
    let top = data
        .truth
        .iter()
        .chain(&data.processing_time)
        .chain(&data.event_time)
        .map(|w| w.count)
        .max()
        .unwrap_or(0)
        .max(10) as f64
        * 1.15;
    let layout = Layout {
        margin: 10,
        // As wide as the other event-time chart's, so the two plots line up, with room for
        // four-digit counts.
        y_label_area: 56,
        x: (0.0, seconds(data.axis_end_ms).max(1.0)),
        y: (0.0, top),
    };
    let Some(mut plot) = Plot::new(&canvas, layout) else {
        return;
    };
    plot.axes("window (simulated time, s)", Some("records in the window"));
    if let Some((from, to)) = data.outage_ms {
        plot.band(seconds(from), seconds(to), Rgb(120, 120, 120), 0.12);
    }
    let series = [
        (&data.truth, TRUTH, "truth (by when it happened)"),
        (
            &data.processing_time,
            PROCESSING,
            "by processing time (when it was read)",
        ),
        (&data.event_time, EVENT, "by event time (its timestamp)"),
    ];
    for (windows, look, _) in &series {
        let points: Vec<(f64, f64)> = windows.iter().map(middle).collect();
        plot.line(&points, look);
        plot.markers(points, look);
    }
    let legend: Vec<(&str, Look)> = series
        .iter()
        .map(|&(_, look, label)| (label, look))
        .collect();
    plot.legend(&legend, 0.85);
}
