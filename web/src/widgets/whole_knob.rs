//! A whole-number knob wider than a browser's numbers hold exactly (a 64-bit seed), typed as
//! text: anything that does not parse is left as it was.

use super::knob_label::{knob_id, knob_label};
use yew::prelude::*;

pub struct WholeKnobProps {
    pub label: AttrValue,
    pub scope: AttrValue,
    pub hint: AttrValue,
    pub value: u64,
    pub on_change: Callback<u64>,
}

pub fn whole_knob(props: WholeKnobProps) -> Html {
    let id = knob_id(&props.scope, &props.label);
    let onchange = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(value) = input.value().trim().parse::<u64>() {
                on_change.emit(value);
            }
        })
    };
    html! {
        <div class="knob">
            { knob_label(&id, &props.label, None, Html::default()) }
            <div class="knob-inputs">
                <input {id} type="text" inputmode="numeric" class="knob-exact wide"
                    value={props.value.to_string()} {onchange} />
            </div>
            <p class="knob-hint">{ &props.hint }</p>
        </div>
    }
}
