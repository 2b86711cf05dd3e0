//! One on/off knob: a checkbox with its label, real config name and hint.

use crate::widgets::knob_label::{knob_id, KnobLabel};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq, Clone)]
pub struct ToggleKnobProps {
    pub label: AttrValue,
    #[prop_or_default]
    pub scope: AttrValue,
    #[prop_or_default]
    pub config_name: Option<AttrValue>,
    pub hint: AttrValue,
    pub value: bool,
    pub on_change: Callback<bool>,
}

#[function_component(ToggleKnob)]
pub fn toggle_knob(props: &ToggleKnobProps) -> Html {
    let id = knob_id(&props.scope, &props.label);
    let onchange = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_change.emit(input.checked());
        })
    };
    html! {
        <div class="knob toggle">
            <KnobLabel for_id={id.clone()} label={props.label.clone()} config_name={props.config_name.clone()}>
                <input id={id} type="checkbox" checked={props.value} {onchange} />
            </KnobLabel>
            <p class="knob-hint">{ &props.hint }</p>
        </div>
    }
}
