//! The event-time knobs, each with its Flink name, unit, range and a one-line hint.
//!
//! The core has no range table for the event-time scenario; the ranges here are the ones
//! `EventTimeScenario::validate` accepts (spelled out in each hint by `NumberKnob`), and the
//! sliders stop at values a lesson can use. Knobs send edits, not whole scenarios, so two quick
//! changes both land; an edit that the core would still refuse (a rate that makes the run too
//! large) is clamped here first.

use crate::widgets::number_knob::NumberKnob;
use std::rc::Rc;
use streamlab_sim::eventtime::{
    EventTimeScenario, MAX_DURATION_MS, MAX_KNOB_DURATION_MS, MAX_RECORDS,
};
use streamlab_sim::window::WindowSpec;
use yew::prelude::*;

/// A change to make to whatever the scenario is when it arrives.
pub type EventTimeEdit = crate::shell::components::lesson_text::EditOf<EventTimeScenario>;

#[derive(Properties, PartialEq)]
pub struct EventTimeKnobsProps {
    pub scenario: EventTimeScenario,
    pub on_change: Callback<EventTimeEdit>,
    /// Whether to offer the run's window size (the Windows lesson has knobs of its own).
    #[prop_or(true)]
    pub show_window: bool,
}

fn edit(
    on_change: &Callback<EventTimeEdit>,
    apply: impl Fn(&mut EventTimeScenario, f64) + 'static,
) -> Callback<f64> {
    let on_change = on_change.clone();
    let apply = Rc::new(apply);
    Callback::from(move |value: f64| {
        let apply = Rc::clone(&apply);
        on_change.emit(Rc::new(move |s: &mut EventTimeScenario| apply(s, value)));
    })
}

/// The most events per second a run of `duration_ms` may have under the core's record cap.
fn max_rate_per_s(duration_ms: i64) -> u32 {
    let cap = MAX_RECORDS * 1000 / duration_ms.max(1) as u64;
    cap.clamp(1, 2_000) as u32
}

/// The window's length, whatever its kind (a session's gap, a sliding window's time
/// difference).
fn window_size_ms(window: WindowSpec) -> i64 {
    match window {
        WindowSpec::Tumbling { size_ms } | WindowSpec::Hopping { size_ms, .. } => size_ms,
        WindowSpec::Session { gap_ms } => gap_ms,
        WindowSpec::Sliding { time_difference_ms } => time_difference_ms,
    }
}

#[function_component(EventTimeKnobs)]
pub fn eventtime_knobs(props: &EventTimeKnobsProps) -> Html {
    let s = &props.scenario;
    let cb = &props.on_change;
    let day = MAX_KNOB_DURATION_MS as f64;
    html! {
        <section class="knobs et-knobs" aria-label="Knobs">
            <fieldset>
                <legend>{ "Windows and watermark" }</legend>
                if props.show_window {
                <NumberKnob label="Window size" scope="et-" config_name={Some(AttrValue::from("TumblingEventTimeWindows.of(size)"))}
                    unit="ms" hint="Length of each tumbling window; both clocks use the same windows."
                    value={window_size_ms(s.window) as f64} bounds={(100.0, day)} step={100.0}
                    slider_max={Some(120_000.0)}
                    on_change={edit(cb, |s, v| s.window = WindowSpec::Tumbling { size_ms: v as i64 })} />
                }
                <NumberKnob label="Max out of orderness" scope="et-" config_name={Some(AttrValue::from("forBoundedOutOfOrderness"))}
                    unit="ms" hint="How far the watermark trails the latest event time seen: the wait for stragglers."
                    value={s.max_out_of_orderness_ms as f64} bounds={(0.0, day)} step={100.0}
                    slider_max={Some(30_000.0)}
                    on_change={edit(cb, |s, v| s.max_out_of_orderness_ms = v as i64)} />
                <NumberKnob label="Allowed lateness" scope="et-" config_name={Some(AttrValue::from("allowedLateness"))}
                    unit="ms" hint="How long after firing a window still takes late records and fires again."
                    value={s.allowed_lateness_ms as f64} bounds={(0.0, day)} step={100.0}
                    slider_max={Some(60_000.0)}
                    on_change={edit(cb, |s, v| s.allowed_lateness_ms = v as i64)} />
            </fieldset>
            <fieldset>
                <legend>{ "Outage" }</legend>
                <NumberKnob label="Outage start" scope="et-" unit="ms"
                    hint="When the processor stops, on its own clock; records keep arriving in the topic."
                    value={s.outage.start_ms as f64} bounds={(0.0, MAX_DURATION_MS as f64)} step={1000.0}
                    slider_max={Some(s.duration_ms as f64)}
                    on_change={edit(cb, |s, v| s.outage.start_ms = v as i64)} />
                <NumberKnob label="Outage duration" scope="et-" unit="ms"
                    hint="How long the processor is stopped; 0 means no outage."
                    value={s.outage.duration_ms as f64} bounds={(0.0, day)} step={1000.0}
                    slider_max={Some(120_000.0)}
                    on_change={edit(cb, |s, v| s.outage.duration_ms = v as i64)} />
                <NumberKnob label="Catch-up rate" scope="et-" unit="records/s"
                    hint="How fast the processor reads the backlog after the outage."
                    value={f64::from(s.outage.catch_up_records_per_second)} bounds={(1.0, 1_000_000.0)}
                    slider_max={Some(2_000.0)}
                    on_change={edit(cb, |s, v| s.outage.catch_up_records_per_second = v as u32)} />
            </fieldset>
            <fieldset>
                <legend>{ "Traffic and network" }</legend>
                <NumberKnob label="Event rate" scope="et-" unit="events/s"
                    hint={format!("Events per second over all devices; at most {} for this run's length.", max_rate_per_s(s.duration_ms))}
                    value={f64::from(s.events_per_second)} bounds={(1.0, 2_000.0)}
                    slider_max={Some(200.0)}
                    on_change={edit(cb, |s, v| s.events_per_second = (v as u32).min(max_rate_per_s(s.duration_ms)))} />
                <NumberKnob label="Delay tail share" scope="et-" unit="fraction"
                    hint="Share of records that are stragglers with an extra, exponentially distributed delay."
                    value={s.delay.tail_probability} bounds={(0.0, 1.0)} step={0.01}
                    on_change={edit(cb, |s, v| s.delay.tail_probability = v)} />
                <NumberKnob label="Delay tail mean" scope="et-" unit="ms"
                    hint="Mean extra delay of a straggler (capped at ten times this)."
                    value={s.delay.tail_mean_ms as f64} bounds={(0.0, day)} step={100.0}
                    slider_max={Some(30_000.0)}
                    on_change={edit(cb, |s, v| s.delay.tail_mean_ms = v as i64)} />
                <NumberKnob label="Devices" scope="et-" unit="keys"
                    hint="Devices producing events, one window key each (keyBy)."
                    value={f64::from(s.keys)} bounds={(1.0, 64.0)}
                    on_change={edit(cb, |s, v| {
                        s.keys = v as u32;
                        // Offline and skewed devices are counted among the keys.
                        s.offline.devices = s.offline.devices.min(s.keys);
                        s.skew.devices = s.skew.devices.min(s.keys);
                    })} />
                <NumberKnob label="Seed" scope="et-" unit=""
                    hint="Seed of every random draw; same seed, same run."
                    value={s.seed as f64} bounds={(0.0, 1_000_000.0)}
                    on_change={edit(cb, |s, v| s.seed = v as u64)} />
            </fieldset>
        </section>
    }
}
