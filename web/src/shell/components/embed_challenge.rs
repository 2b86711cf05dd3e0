//! "Predict, then run": in a locked embed the run waits, the knobs are disabled, and this bar
//! asks the learner to predict before one button reveals what happens.

use crate::shell::page::use_page;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedChallengeProps {
    pub playing: bool,
    /// Starts the run.
    pub on_run: Callback<()>,
}

#[function_component(EmbedChallenge)]
pub fn embed_challenge(props: &EmbedChallengeProps) -> Html {
    let revealed = use_state(|| false);
    {
        // Started another way (Space, the Play button): the challenge is over for good.
        let revealed = revealed.clone();
        use_effect_with(props.playing, move |playing| {
            if *playing {
                revealed.set(true);
            }
        });
    }
    if !use_page().embed.locked || *revealed || props.playing {
        return html! {};
    }
    let onclick = {
        let on_run = props.on_run.clone();
        Callback::from(move |_: MouseEvent| {
            revealed.set(true);
            on_run.emit(());
        })
    };
    html! {
        <div class="challenge" role="region" aria-label="Predict, then run">
            <p><strong>{ "Predict first: " }</strong>{ "what will happen when this runs? Say it out loud or write it down, then reveal." }</p>
            <button type="button" {onclick}>{ "Reveal: run it" }</button>
        </div>
    }
}
