//! The narration feed: what happened and why, newest first. A screen reader hears each newest
//! line from a polite live region holding only that line (the list itself is rebuilt as a
//! whole by some lessons, which a live list would read as noise or not at all).

use crate::platform::shared::Shared;
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
    let newest = props
        .lines
        .last()
        .map(|line| line.text.clone())
        .unwrap_or_default();
    html! {
        <section class="narration" aria-label="What happened">
            <h2>{ "What happened" }</h2>
            <p class="sr-only" aria-live="polite" aria-atomic="true">{ newest }</p>
            <ol>
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
