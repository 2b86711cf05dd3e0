//! The knobs only the watermarks lesson needs, next to the shared event-time knobs: what a late
//! record does (drop, restate or side output), when a silent partition stops holding the
//! watermark (Flink `withIdleness`), how many partitions the devices share, and which of a
//! mobile record's timestamps is its event time (the device's, or the skew-corrected one). Like every
//! knob they send edits, not whole scenarios.

use crate::families::eventtime::components::knobs::EventTimeEdit;
use crate::widgets::number_knob::NumberKnob;
use crate::widgets::select_knob::SelectKnob;
use std::rc::Rc;
use streamlab_sim::eventtime::{
    EventTimeScenario, LateRecordPolicy, TimestampSource, MAX_KNOB_DURATION_MS,
};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WatermarkKnobsProps {
    pub scenario: EventTimeScenario,
    pub on_change: Callback<EventTimeEdit>,
}

/// The policy as the select spells it (the scenario's serde names).
fn policy_value(policy: LateRecordPolicy) -> &'static str {
    match policy {
        LateRecordPolicy::Drop => "drop",
        LateRecordPolicy::Restate => "restate",
        LateRecordPolicy::SideOutput => "side_output",
    }
}

fn policy_of(value: &str) -> Option<LateRecordPolicy> {
    match value {
        "drop" => Some(LateRecordPolicy::Drop),
        "restate" => Some(LateRecordPolicy::Restate),
        "side_output" => Some(LateRecordPolicy::SideOutput),
        _ => None,
    }
}

#[function_component(WatermarkKnobs)]
pub fn watermark_knobs(props: &WatermarkKnobsProps) -> Html {
    let s = &props.scenario;
    let on_policy = {
        let on_change = props.on_change.clone();
        Callback::from(move |value: String| {
            if let Some(policy) = policy_of(&value) {
                on_change.emit(Rc::new(move |s: &mut EventTimeScenario| {
                    s.late_policy = policy
                }));
            }
        })
    };
    let on_idleness = {
        let on_change = props.on_change.clone();
        Callback::from(move |v: f64| {
            on_change.emit(Rc::new(move |s: &mut EventTimeScenario| {
                s.idleness_ms = v as i64
            }));
        })
    };
    let on_partitions = {
        let on_change = props.on_change.clone();
        Callback::from(move |v: f64| {
            on_change.emit(Rc::new(move |s: &mut EventTimeScenario| {
                s.partitions = v as u32
            }));
        })
    };
    let on_timestamp = {
        let on_change = props.on_change.clone();
        Callback::from(move |value: String| {
            let source = match value.as_str() {
                "corrected" => TimestampSource::Corrected,
                _ => TimestampSource::Device,
            };
            on_change.emit(Rc::new(move |s: &mut EventTimeScenario| {
                s.timestamp = source
            }));
        })
    };
    let timestamp_options = [
        ("device", "device clock (occurred)"),
        ("corrected", "corrected (occurred + received − sent)"),
    ]
    .into_iter()
    .map(|(value, text)| (AttrValue::from(value), AttrValue::from(text)))
    .collect::<Vec<_>>();
    let timestamp_value = match s.timestamp {
        TimestampSource::Device => "device",
        TimestampSource::Corrected => "corrected",
    };
    let options = [
        ("drop", "drop (late panes update; too-late records vanish)"),
        ("restate", "restate (late panes retract the old value)"),
        ("side_output", "side output (too-late records routed aside)"),
    ]
    .into_iter()
    .map(|(value, text)| (AttrValue::from(value), AttrValue::from(text)))
    .collect::<Vec<_>>();
    html! {
        <section class="knobs wm-knobs" aria-label="Late data knobs">
            <fieldset>
                <legend>{ "Late data and idleness" }</legend>
                <SelectKnob label="Late policy" scope="et-" config_name={Some(AttrValue::from("sideOutputLateData"))}
                    hint="What a late record does once its window has answered."
                    {options} value={policy_value(s.late_policy)} on_change={on_policy} />
                <SelectKnob label="Event timestamp" scope="et-" config_name={Some(AttrValue::from("TimestampAssigner"))}
                    hint="Which time a record counts by; the correction cancels a device clock that is off."
                    options={timestamp_options} value={timestamp_value} on_change={on_timestamp} />
                <NumberKnob label="Idleness" scope="et-" config_name={Some(AttrValue::from("withIdleness"))}
                    unit="ms" hint="After this long without a record a partition stops holding the watermark; 0 never."
                    value={s.idleness_ms as f64} bounds={(0.0, MAX_KNOB_DURATION_MS as f64)} step={1000.0}
                    slider_max={Some(60_000.0)} on_change={on_idleness} />
                <NumberKnob label="Partitions" scope="et-" unit="partitions"
                    hint="Each has its own watermark; the job's watermark is their minimum."
                    value={f64::from(s.partitions)} bounds={(1.0, 16.0)} on_change={on_partitions} />
            </fieldset>
        </section>
    }
}
