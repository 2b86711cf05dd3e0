//! The watermarks lesson's figures: the clock and the watermark, what became of late records
//! (dropped, side output, late panes, retractions), windows still open, how long the watermark
//! has stood still, and accuracy against latency (first answers equal to the truth, and the
//! mean wait from a window's end to its first pane). [`WatermarkFigures::from_snapshot`]
//! gathers them, with the core's derivations (`eventtime::views`, tested natively); the
//! end-to-end tests read the same struct.

use crate::families::eventtime::components::watermark_chart::ChartDot;
use streamlab_sim::eventtime::events::clock_time as clock;
use streamlab_sim::eventtime::views::{first_answers, longest_stall_ms, Lateness};
use streamlab_sim::eventtime::EventTimeSnapshot;
use streamlab_sim::window::{Timing, Watermark};
use yew::prelude::*;

/// How long after a drop the dropped counter stays alarmed, in processing time.
const FRESH_DROP_MS: i64 = 3_000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WatermarkFigures {
    pub now_ms: i64,
    pub watermark: Watermark,
    pub input_ended: bool,
    pub dropped: u64,
    /// Processing time of the latest record the chart counts as too late, if any.
    pub last_too_late_at_ms: Option<i64>,
    pub side_outputs: u64,
    pub late_panes: u64,
    pub retractions: u64,
    /// Per device: windows that still hold state (not fired, or within allowed lateness).
    pub open_windows: u64,
    /// Windows (per device) whose first answer came out, and how many of those equalled the
    /// truth.
    pub windows_answered: u64,
    pub first_answers_right: u64,
    /// Mean processing time from a window's end to its first pane.
    pub mean_first_delay_ms: Option<i64>,
    /// The longest processing-time stretch during which the watermark did not move, before
    /// the input ended.
    pub longest_stall_ms: i64,
    pub idle_partitions: u32,
    /// When a partition was first declared idle.
    pub first_idle_at_ms: Option<i64>,
    pub holding_partition: Option<u32>,
}

impl WatermarkFigures {
    pub fn from_snapshot(snapshot: &EventTimeSnapshot, dots: &[ChartDot]) -> Self {
        let answers = first_answers(&snapshot.windows);
        let longest_stall_ms = longest_stall_ms(
            &snapshot.watermark_steps,
            snapshot.input_ended,
            snapshot.input_end_ms,
            snapshot.now_ms,
        );
        let late: Vec<_> = snapshot
            .event_time_panes
            .iter()
            .filter(|p| p.timing == Timing::Late)
            .collect();
        Self {
            now_ms: snapshot.now_ms,
            watermark: snapshot.combined_watermark,
            input_ended: snapshot.input_ended,
            dropped: snapshot.dropped,
            last_too_late_at_ms: dots
                .iter()
                .rev()
                .find(|d| d.lateness == Lateness::TooLate)
                .map(|d| d.processed_ms),
            side_outputs: snapshot.side_outputs.len() as u64,
            late_panes: late.len() as u64,
            retractions: late.iter().filter(|p| p.retracted.is_some()).count() as u64,
            open_windows: snapshot.open_windows.len() as u64,
            windows_answered: answers.answered,
            first_answers_right: answers.right,
            mean_first_delay_ms: answers.mean_delay_ms,
            longest_stall_ms,
            idle_partitions: snapshot.partitions.iter().filter(|p| p.idle).count() as u32,
            first_idle_at_ms: snapshot
                .idleness_changes
                .iter()
                .find(|c| c.idle)
                .map(|c| c.at_ms),
            holding_partition: snapshot.holding_partition,
        }
    }
}

#[derive(PartialEq)]
pub struct WatermarkCountersProps {
    pub figures: WatermarkFigures,
}

pub fn watermark_counters(props: &WatermarkCountersProps) -> Html {
    let f = &props.figures;
    let watermark = match f.watermark {
        _ if f.input_ended => "end of input".to_string(),
        Watermark::At(ms) => clock(ms),
        Watermark::MinusInfinity => "none yet".to_string(),
        Watermark::PlusInfinity => "end of input".to_string(),
    };
    let fresh_drop = f
        .last_too_late_at_ms
        .is_some_and(|at_ms| f.now_ms - at_ms < FRESH_DROP_MS);
    let dropped_class = classes!(
        "wm-dropped",
        (f.dropped > 0).then_some("alert"),
        fresh_drop.then_some("fresh")
    );
    let holding = match (f.holding_partition, f.idle_partitions) {
        (_, idle) if idle > 0 => format!("{idle} partition(s) idle, set aside"),
        (Some(p), _) => format!("held back by partition {p}"),
        (None, _) => String::new(),
    };
    let counter = |value: String, class: Classes, label: String| {
        html! {
            <div class="counter">
                <span class={classes!("counter-value", class)}>{ value }</span>
                <span class="counter-label">{ label }</span>
            </div>
        }
    };
    html! {
        <section class="counters wm-counters" aria-label="Counters">
            { counter(clock(f.now_ms), classes!("et-now"), "processing time (the job's clock)".into()) }
            { counter(watermark, classes!("et-watermark"), format!("watermark (event time) {holding}")) }
            { counter(format!("{} s", f.longest_stall_ms / 1000), classes!("wm-stall"), "longest the watermark stood still".into()) }
            { counter(f.dropped.to_string(), dropped_class, "records dropped as too late".into()) }
            { counter(f.side_outputs.to_string(), classes!("wm-side"), "side outputs (sideOutputLateData)".into()) }
            { counter(format!("{} / {}", f.late_panes, f.retractions), classes!("wm-late"), "late panes / of them retractions".into()) }
            { counter(f.open_windows.to_string(), classes!("wm-open"), "windows still open (per device)".into()) }
            { counter(format!("{} / {}", f.first_answers_right, f.windows_answered), classes!("wm-right"),
                "first answers equal to the truth".into()) }
            { counter(f.mean_first_delay_ms.map_or("—".to_string(), |ms| format!("{:.1} s", ms as f64 / 1000.0)),
                classes!("wm-delay"), "mean wait from window end to first answer".into()) }
        </section>
    }
}
