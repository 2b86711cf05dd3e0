//! One numeric knob: a label, the real config name, a slider, an exact box, unit and hint.

use crate::platform::bounded::bounded;
use crate::platform::typed_number::parse_decimal;
use crate::widgets::edit::on_grid;
use crate::widgets::knob_label::{knob_id, knob_label};
use streamlab_sim::family::knob::Bounds as CoreBounds;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The values a knob accepts, inclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: f64,
    pub max: f64,
}

/// A range from the core's knob tables.
impl From<CoreBounds> for Bounds {
    fn from(bounds: CoreBounds) -> Self {
        Bounds {
            min: bounds.min,
            max: bounds.max,
        }
    }
}

#[derive(Clone)]
pub struct NumberKnobProps {
    /// Human label ("Partitions").
    pub label: AttrValue,
    /// Distinguishes knobs with the same label (one per group), for unique element ids.
    pub scope: AttrValue,
    /// The real Kafka/Flink name, shown in monospace, if the knob is a real setting.
    pub config_name: Option<AttrValue>,
    pub unit: AttrValue,
    /// One line on what the knob does.
    pub hint: AttrValue,
    pub value: f64,
    pub bounds: Bounds,
    pub step: f64,
    /// The slider's top, when the full range is too wide to slide through usefully.
    pub slider_max: Option<f64>,
    pub disabled: bool,
    pub on_change: Callback<f64>,
}

pub fn number_knob(props: NumberKnobProps) -> Html {
    let id = knob_id(&props.scope, &props.label);
    let emit = {
        let props = props.clone();
        move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(v) = parse_decimal(&input.value()) {
                // The box accepts any typing; the value sent on is always within range.
                let clamped = bounded(v, props.bounds.min, props.bounds.max);
                let stepped = on_grid(clamped, props.step);
                props.on_change.emit(stepped);
            }
        }
    };
    let on_slide = {
        let emit = emit.clone();
        Callback::from(move |e: InputEvent| emit(e.into()))
    };
    let on_box = Callback::from(emit);
    let slider_max = props.slider_max.unwrap_or(props.bounds.max);
    html! {
        <div class="knob">
            { knob_label(&id, &props.label, props.config_name.as_ref(), Html::default()) }
            <div class="knob-inputs">
                <input type="range" aria-label={props.label.clone()}
                    min={props.bounds.min.to_string()} max={slider_max.to_string()}
                    step={props.step.to_string()} value={props.value.min(slider_max).to_string()}
                    disabled={props.disabled} oninput={on_slide} />
                <input id={id} type="number" class="knob-exact"
                    min={props.bounds.min.to_string()} max={props.bounds.max.to_string()}
                    step={props.step.to_string()} value={props.value.to_string()}
                    disabled={props.disabled} onchange={on_box} />
                <span class="knob-unit">{ &props.unit }</span>
            </div>
            <p class="knob-hint">{ &props.hint }{ format!(" Range {}–{}.", props.bounds.min, props.bounds.max) }</p>
        </div>
    }
}
