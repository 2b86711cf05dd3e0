//! The scrubber: a slider over the run's time with marks where something was injected (a
//! crash, a restart, an outage) and where the group rebalanced. Dragging it seeks the run
//! (the playground restores a checkpoint and replays at most one spacing); acting after a
//! seek back forks the run from there, which the hint under the slider says.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// One mark on the scrubber.
#[derive(Clone, PartialEq, Debug)]
pub struct TimelineMark {
    pub at_ms: u64,
    /// "action" (something the scenario injects) or "rebalance".
    pub kind: &'static str,
    /// What it was, for the tooltip and screen readers.
    pub label: String,
}

#[derive(PartialEq)]
pub struct TimelineScrubberProps {
    pub position_ms: u64,
    /// The end of the slider: how far the run has been, or its planned length.
    pub end_ms: u64,
    pub marks: Vec<TimelineMark>,
    /// The position is earlier than the furthest the run has been: acting forks.
    pub in_the_past: bool,
    pub on_seek: Callback<u64>,
}

pub fn timeline_scrubber(props: &TimelineScrubberProps) -> Html {
    let end_ms = props.end_ms.max(props.position_ms).max(1);
    let on_input = {
        let on_seek = props.on_seek.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(at_ms) = input.value().parse::<u64>() {
                on_seek.emit(at_ms);
            }
        })
    };
    let has = |kind: &str| props.marks.iter().any(|m| m.kind == kind);
    let marks = props.marks.iter().filter(|m| m.at_ms <= end_ms).map(|mark| {
        let left = mark.at_ms as f64 * 100.0 / end_ms as f64;
        let title = format!("{} at {}", mark.label, seconds(mark.at_ms));
        html! {
            <span class={classes!("scrubber-mark", mark.kind)} style={format!("left: {left:.3}%")}
                title={title.clone()} aria-label={title} role="img" />
        }
    });
    html! {
        <div class="scrubber">
            <div class="scrubber-track">
                <input type="range" class="scrubber-input" aria-label="Time in the run"
                    min="0" max={end_ms.to_string()} step="100" value={props.position_ms.to_string()}
                    aria-valuetext={seconds(props.position_ms)} oninput={on_input} />
                <div class="scrubber-marks">{ for marks }</div>
            </div>
            <p class="scrubber-legend">
                if has("action") {
                    <span class="scrubber-key action" aria-hidden="true" />{ " injected event " }
                }
                if has("rebalance") {
                    <span class="scrubber-key rebalance" aria-hidden="true" />{ " rebalance " }
                }
                if has("difference") {
                    <span class="scrubber-key difference" aria-hidden="true" />{ " A and B first differ " }
                }
                <span class="scrubber-end">{ format!("{} of {}", seconds(props.position_ms), seconds(end_ms)) }</span>
                if props.in_the_past {
                    <span class="scrubber-fork">{ "In the past: a change now starts a new future from here." }</span>
                }
            </p>
        </div>
    }
}

pub fn seconds(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}
