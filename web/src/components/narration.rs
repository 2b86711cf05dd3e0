//! The narration feed: what happened and why, newest first, read out by screen readers.

use crate::shared::Shared;
use yew::prelude::*;

/// One narrated event.
#[derive(Clone, Debug, PartialEq)]
pub struct NarrationLine {
    pub at_ms: u64,
    pub text: String,
    /// CSS class by kind: "assigned", "commit", "lag", "caught-up".
    pub kind: &'static str,
}

#[derive(Properties, PartialEq)]
pub struct NarrationProps {
    pub lines: Shared<Vec<NarrationLine>>,
}

#[function_component(Narration)]
pub fn narration(props: &NarrationProps) -> Html {
    html! {
        <section class="narration" aria-label="What happened">
            <h2>{ "What happened" }</h2>
            <ol aria-live="polite" aria-relevant="additions">
                { for props.lines.iter().rev().map(|line| html! {
                    <li class={line.kind}>
                        <span class="at">{ format!("{:.1} s", line.at_ms as f64 / 1000.0) }</span>
                        <span class="text">{ &line.text }</span>
                    </li>
                }) }
            </ol>
        </section>
    }
}
