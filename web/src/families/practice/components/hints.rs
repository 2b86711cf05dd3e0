//! Hints on request: none is shown until the learner asks, then one more each time, so a
//! learner who wants to work it out alone is never told.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HintsProps {
    pub hints: &'static [&'static str],
}

#[function_component(Hints)]
pub fn hints(props: &HintsProps) -> Html {
    let shown = use_state(|| 0_usize);
    let more = {
        let shown = shown.clone();
        let total = props.hints.len();
        Callback::from(move |_| shown.set((*shown + 1).min(total)))
    };
    let label = if *shown == 0 {
        "Show a hint"
    } else {
        "Another hint"
    };
    html! {
        <section class="p-hints" aria-label="Hints">
            <h3>{ "Hints" }</h3>
            if *shown > 0 {
                <ol>{ for props.hints[..*shown].iter().map(|h| html! { <li>{ *h }</li> }) }</ol>
            }
            if *shown < props.hints.len() {
                <button type="button" class="p-hint-button" onclick={more}>{ label }</button>
            } else {
                <p class="p-hints-done">{ "That is every hint." }</p>
            }
        </section>
    }
}
