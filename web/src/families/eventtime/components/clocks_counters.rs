//! The event-time figures a learner watches: the processor's clock, the watermark, the backlog
//! in the topic, records read, and how far the worst processing-time window is off the truth.

use yew::prelude::*;

#[derive(PartialEq, Clone)]
pub struct EventTimeCountersProps {
    pub now_ms: i64,
    /// `None` before the first record, or after the input ended (plus infinity).
    pub watermark_ms: Option<i64>,
    pub input_ended: bool,
    pub backlog: u64,
    pub processed: u64,
    /// The largest processing-time count minus the truth among fired windows.
    pub overcount: Option<i64>,
}

fn clock(ms: i64) -> String {
    let total_s = ms.div_euclid(1000);
    format!(
        "{}:{:02}.{}",
        total_s / 60,
        total_s % 60,
        ms.rem_euclid(1000) / 100
    )
}

pub fn eventtime_counters(props: &EventTimeCountersProps) -> Html {
    let watermark = match (props.watermark_ms, props.input_ended) {
        (_, true) => "end of input".to_string(),
        (Some(ms), false) => clock(ms),
        (None, false) => "none yet".to_string(),
    };
    let overcount = props
        .overcount
        .map_or("—".to_string(), |over| format!("{over:+}"));
    let counter = |value: String, class: &'static str, label: &'static str| {
        html! {
            <div class="counter">
                <span class={classes!("counter-value", class)}>{ value }</span>
                <span class="counter-label">{ label }</span>
            </div>
        }
    };
    html! {
        <section class="counters et-counters" aria-label="Counters">
            { counter(clock(props.now_ms), "et-now", "processing time (the job's clock)") }
            { counter(watermark, "et-watermark", "watermark (event time)") }
            { counter(props.backlog.to_string(), "et-backlog", "records waiting in the topic") }
            { counter(props.processed.to_string(), "et-processed", "records read") }
            { counter(overcount, "et-overcount", "worst processing-time window minus truth") }
        </section>
    }
}
