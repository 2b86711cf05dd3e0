//! Transport controls: play/pause, single step, speed on a log scale, reset, and the clock.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Speed is `2^exponent`: from 1/16× to 64×.
pub const SPEED_EXPONENT_MIN: i32 = -4;
pub const SPEED_EXPONENT_MAX: i32 = 6;

/// The speed factor for an exponent.
pub fn speed_factor(exponent: i32) -> f64 {
    // Exact for these small exponents; the UI clock is not part of the deterministic core.
    2f64.powi(exponent)
}

/// "1/4×", "1×", "16×".
pub fn speed_label(exponent: i32) -> String {
    if exponent < 0 {
        format!("1/{}×", 1u32 << (-exponent))
    } else {
        format!("{}×", 1u32 << exponent)
    }
}

#[derive(PartialEq)]
pub struct TransportProps {
    pub playing: bool,
    pub speed_exponent: i32,
    pub sim_ms: u64,
    pub on_toggle: Callback<()>,
    pub on_step: Callback<()>,
    pub on_reset: Callback<()>,
    pub on_speed: Callback<i32>,
}

pub fn transport(props: &TransportProps) -> Html {
    let click = |cb: &Callback<()>| {
        let cb = cb.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let on_speed = {
        let cb = props.on_speed.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(v) = input.value().parse::<i32>() {
                cb.emit(v);
            }
        })
    };
    let seconds = props.sim_ms as f64 / 1000.0;
    html! {
        <div class="transport" role="toolbar" aria-label="Playback">
            <button type="button" class="primary" onclick={click(&props.on_toggle)}
                aria-keyshortcuts="Space" title="Play or pause (Space)">
                { if props.playing { "❚❚ Pause" } else { "▶ Play" } }
            </button>
            <button type="button" onclick={click(&props.on_step)} aria-keyshortcuts="ArrowRight"
                title="Advance 100 ms of simulated time (→)">{ "Step" }</button>
            <button type="button" onclick={click(&props.on_reset)} aria-keyshortcuts="R"
                title="Back to time zero (R)">{ "Reset" }</button>
            <label class="speed">
                <span>{ "Speed" }</span>
                <input type="range" min={SPEED_EXPONENT_MIN.to_string()} max={SPEED_EXPONENT_MAX.to_string()}
                    step="1" value={props.speed_exponent.to_string()} oninput={on_speed}
                    aria-valuetext={speed_label(props.speed_exponent)}
                    title="Slower or faster (↓ / ↑)" />
                <output>{ speed_label(props.speed_exponent) }</output>
            </label>
            <span class="clock" aria-label="Simulated time">{ format!("t = {seconds:.1} s") }</span>
            <span class="keys-hint">{ "Space play/pause · → step · ↑↓ speed · R reset · ? all shortcuts" }</span>
        </div>
    }
}
