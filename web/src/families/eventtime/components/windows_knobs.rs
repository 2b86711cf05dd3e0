//! The Windows lesson's knobs: one per parameter of the four window types, each with the name
//! Flink or Kafka Streams gives it. Like every knob they send edits; an edit that would break a
//! rule the core checks (a hop longer than the size, a time difference holding too many
//! records) is clamped to the nearest value the core accepts. (If the rate or device count
//! changes afterwards, the core itself runs the comparison with the capped time difference,
//! which the sliding band's title shows.)

use crate::families::eventtime::components::knobs::EventTimeEdit;
use crate::widgets::number_knob::NumberKnob;
use std::rc::Rc;
use streamlab_sim::eventtime::{EventTimeScenario, MAX_KNOB_DURATION_MS};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WindowsKnobsProps {
    pub scenario: EventTimeScenario,
    pub on_change: Callback<EventTimeEdit>,
}

/// Hopping windows may put a record into at most this many windows (the core's bound).
const MAX_HOPPING_WINDOWS_PER_RECORD: i64 = 100;

fn edit(
    on_change: &Callback<EventTimeEdit>,
    apply: impl Fn(&mut EventTimeScenario, i64) + 'static,
) -> Callback<f64> {
    let on_change = on_change.clone();
    let apply = Rc::new(apply);
    Callback::from(move |value: f64| {
        let apply = Rc::clone(&apply);
        on_change.emit(Rc::new(move |s: &mut EventTimeScenario| {
            apply(s, value as i64)
        }));
    })
}

/// The hop kept within `[size / 100, size]`, so no record lands in more than 100 windows.
fn clamp_hop_ms(hop_ms: i64, size_ms: i64) -> i64 {
    let least_ms = (size_ms + MAX_HOPPING_WINDOWS_PER_RECORD - 1) / MAX_HOPPING_WINDOWS_PER_RECORD;
    hop_ms.clamp(least_ms.max(100), size_ms)
}

/// The longest time difference the core runs at this rate and device count.
fn max_time_difference_ms(scenario: &EventTimeScenario) -> i64 {
    scenario
        .longest_sliding_time_difference_ms()
        .min(MAX_KNOB_DURATION_MS)
}

#[function_component(WindowsKnobs)]
pub fn windows_knobs(props: &WindowsKnobsProps) -> Html {
    let c = &props.scenario.compared;
    let cb = &props.on_change;
    let day = MAX_KNOB_DURATION_MS as f64;
    let longest_difference_ms = max_time_difference_ms(&props.scenario);
    html! {
        <section class="knobs wt-knobs" aria-label="Window knobs">
            <fieldset>
                <legend>{ "The four windows" }</legend>
                <NumberKnob label="Tumbling size" scope="wt-" config_name={Some(AttrValue::from("TumblingEventTimeWindows.of(size)"))}
                    unit="ms" hint="Length of each back-to-back window (Kafka Streams: TimeWindows.ofSizeWithNoGrace)."
                    value={c.tumbling_size_ms as f64} bounds={(100.0, day)} step={100.0} slider_max={Some(40_000.0)}
                    on_change={edit(cb, |s, v| s.compared.tumbling_size_ms = v)} />
                <NumberKnob label="Hopping size" scope="wt-" config_name={Some(AttrValue::from("SlidingEventTimeWindows.of(size, slide)"))}
                    unit="ms" hint="Length of each hopping window (Flink names them sliding; Kafka Streams: TimeWindows.ofSizeWithNoGrace)."
                    value={c.hopping_size_ms as f64} bounds={(100.0, day)} step={100.0} slider_max={Some(40_000.0)}
                    on_change={edit(cb, |s, v| {
                        s.compared.hopping_size_ms = v;
                        s.compared.hopping_hop_ms = clamp_hop_ms(s.compared.hopping_hop_ms, v);
                    })} />
                <NumberKnob label="Hop" scope="wt-" config_name={Some(AttrValue::from("slide · advanceBy(advance)"))}
                    unit="ms" hint="A new hopping window starts this often; at most the size, and at most 100 windows per record."
                    value={c.hopping_hop_ms as f64} bounds={(100.0, c.hopping_size_ms as f64)} step={100.0}
                    on_change={edit(cb, |s, v| s.compared.hopping_hop_ms = clamp_hop_ms(v, s.compared.hopping_size_ms))} />
                <NumberKnob label="Time difference" scope="wt-" config_name={Some(AttrValue::from("SlidingWindows.ofTimeDifferenceAndGrace"))}
                    unit="ms" hint="Kafka Streams' sliding windows: records at most this far apart share a window."
                    value={c.sliding_time_difference_ms as f64} bounds={(0.0, longest_difference_ms as f64)} step={100.0}
                    slider_max={Some((longest_difference_ms as f64).min(40_000.0))}
                    on_change={edit(cb, move |s, v| s.compared.sliding_time_difference_ms = v.min(max_time_difference_ms(s)))} />
                <NumberKnob label="Session gap" scope="wt-" config_name={Some(AttrValue::from("EventTimeSessionWindows.withGap(gap)"))}
                    unit="ms" hint="A pause longer than this ends a device's session (Kafka Streams: SessionWindows.ofInactivityGapWithNoGrace)."
                    value={c.session_gap_ms as f64} bounds={(1.0, day)} step={100.0} slider_max={Some(20_000.0)}
                    on_change={edit(cb, |s, v| s.compared.session_gap_ms = v.max(1))} />
            </fieldset>
        </section>
    }
}
