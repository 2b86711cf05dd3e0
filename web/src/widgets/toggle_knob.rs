//! One on/off knob: a checkbox with its label, real config name and hint.

use crate::widgets::knob_label::{knob_id, knob_label};
use web_sys::HtmlInputElement;
use yew::prelude::*;

pub struct ToggleKnobProps {
    pub label: AttrValue,
    pub scope: AttrValue,
    pub config_name: Option<AttrValue>,
    pub hint: AttrValue,
    pub value: bool,
    pub on_change: Callback<bool>,
}

pub fn toggle_knob(props: ToggleKnobProps) -> Html {
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
            { knob_label(&id, &props.label, props.config_name.as_ref(), html! {
                <input id={id.clone()} type="checkbox" checked={props.value} {onchange} />
            }) }
            <p class="knob-hint">{ &props.hint }</p>
        </div>
    }
}
