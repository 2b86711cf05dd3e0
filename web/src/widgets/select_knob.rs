//! One knob with named choices (an assignor, a distribution).

use crate::widgets::knob_label::{knob_id, knob_label};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

pub struct SelectKnobProps {
    pub label: AttrValue,
    /// Distinguishes knobs with the same label (one per group), for unique element ids.
    pub scope: AttrValue,
    pub config_name: Option<AttrValue>,
    pub hint: AttrValue,
    /// (value, shown text) pairs.
    pub options: Vec<(AttrValue, AttrValue)>,
    pub value: AttrValue,
    pub on_change: Callback<String>,
}

pub fn select_knob(props: SelectKnobProps) -> Html {
    let id = knob_id(&props.scope, &props.label);
    let onchange = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            on_change.emit(select.value());
        })
    };
    html! {
        <div class="knob">
            { knob_label(&id, &props.label, props.config_name.as_ref(), Html::default()) }
            <div class="knob-inputs">
                <select id={id} {onchange}>
                    { for props.options.iter().map(|(value, text)| html! {
                        <option value={value.clone()} selected={*value == props.value}>{ text }</option>
                    }) }
                </select>
            </div>
            <p class="knob-hint">{ &props.hint }</p>
        </div>
    }
}
