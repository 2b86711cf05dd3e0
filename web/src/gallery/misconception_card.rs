//! One misconception on the gallery page: the belief, a link that opens its refuting run
//! locked ("predict, then run"), the figure that decides it, and what is true instead, folded
//! away so the learner predicts before reading it.

use crate::catalog;
use streamlab_sim::misconceptions::Misconception;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct MisconceptionCardProps {
    pub misconception: &'static Misconception,
}

/// The address that opens the refuting run paused, with the knobs locked until the learner
/// has made a prediction and pressed "Reveal".
pub fn challenge_link(misconception: &Misconception) -> String {
    format!(
        "#/{}?preset={}&lock",
        misconception.lesson, misconception.preset
    )
}

#[function_component(MisconceptionCard)]
pub fn misconception_card(props: &MisconceptionCardProps) -> Html {
    let m = props.misconception;
    let lesson_title = catalog::find(m.lesson).map_or(m.lesson, |entry| entry.words.title);
    html! {
        <article class="card misconception" data-preset={m.preset}>
            <p class="misconception-number">{ format!("Misconception {}", m.number) }</p>
            <h3><a href={challenge_link(m)} class="card-link">{ format!("“{}”", m.belief) }</a></h3>
            <p class="misconception-run">
                { "Predict, then run " }<code>{ m.preset }</code>{ format!(" in “{lesson_title}”") }
            </p>
            <p class="misconception-proof">
                { "The belief falls if " }<code>{ m.figure }</code>
                { format!(" {} at the end of the run.", m.refuted_when.condition()) }
            </p>
            <details class="misconception-truth">
                <summary>{ "What is true instead" }</summary>
                <p>{ m.truth }</p>
            </details>
        </article>
    }
}
