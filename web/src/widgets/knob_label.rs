//! The label every knob shares: the human name and, beside it, the real config name.
//!
//! The knob widgets are plain functions, not components: their parent builds new callbacks
//! on every render, so a component's check for unchanged props never spared a render, and
//! each component cost the site about a kilobyte of lifecycle code.

use yew::prelude::*;

/// The element id of the knob called `label` within `scope` (one scope per group).
pub fn knob_id(scope: &str, label: &str) -> String {
    format!(
        "knob-{scope}{}",
        label.to_ascii_lowercase().replace(' ', "-")
    )
}

/// The label of the input `for_id`: `before` (a checkbox sits inside its label), the human
/// name, and the real config name if the knob is a real setting.
pub fn knob_label(
    for_id: &str,
    label: &AttrValue,
    config_name: Option<&AttrValue>,
    before: Html,
) -> Html {
    html! {
        <label for={for_id.to_string()} class="knob-label">
            { before }
            <span class="knob-name">{ label }</span>
            if let Some(name) = config_name {
                <code class="knob-config">{ name }</code>
            }
        </label>
    }
}
