//! The label every knob shares: the human name and, beside it, the real config name.

use yew::prelude::*;

/// The element id of the knob called `label` within `scope` (one scope per group).
pub fn knob_id(scope: &str, label: &str) -> String {
    format!(
        "knob-{scope}{}",
        label.to_ascii_lowercase().replace(' ', "-")
    )
}

#[derive(Properties, PartialEq)]
pub struct KnobLabelProps {
    /// The id of the input the label names.
    pub for_id: AttrValue,
    pub label: AttrValue,
    #[prop_or_default]
    pub config_name: Option<AttrValue>,
    /// Shown before the name (a checkbox sits inside its label).
    #[prop_or_default]
    pub children: Html,
}

#[function_component(KnobLabel)]
pub fn knob_label(props: &KnobLabelProps) -> Html {
    html! {
        <label for={props.for_id.clone()} class="knob-label">
            { props.children.clone() }
            <span class="knob-name">{ &props.label }</span>
            if let Some(name) = &props.config_name {
                <code class="knob-config">{ name }</code>
            }
        </label>
    }
}
