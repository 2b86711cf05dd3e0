//! "Embed": a ready `<iframe>` snippet for a course page, built from the playground's own
//! address with the current scenario (never the host page's, when the playground is itself
//! framed), with the embed options as checkboxes.

use crate::shell::embed::{iframe_snippet, EmbedOptions};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedButtonProps {
    /// The playground's share link for the current scenario.
    pub url: AttrValue,
    pub slug: &'static str,
    pub title: &'static str,
}

#[function_component(EmbedButton)]
pub fn embed_button(props: &EmbedButtonProps) -> Html {
    let open = use_state(|| false);
    let options = use_state(EmbedOptions::default);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let option =
        |label: &'static str, get: fn(&EmbedOptions) -> bool, set: fn(&mut EmbedOptions, bool)| {
            let checked = get(&options);
            let options = options.clone();
            let onchange = Callback::from(move |e: Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                let mut next = (*options).clone();
                set(&mut next, input.checked());
                options.set(next);
            });
            html! {
                <label><input type="checkbox" {checked} {onchange} />{ format!(" {label}") }</label>
            }
        };
    let snippet = iframe_snippet(&props.url, props.slug, props.title, &options);
    let copy = {
        let snippet = snippet.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(window) = web_sys::window() {
                // Refused clipboards leave the snippet in the box to copy by hand.
                let _ = window.navigator().clipboard().write_text(&snippet);
            }
        })
    };
    html! {
        <div class="embed-tool">
            <button type="button" onclick={toggle} aria-expanded={open.to_string()}>{ "Embed" }</button>
            if *open {
                <div class="embed-panel">
                    <div class="embed-options" role="group" aria-label="Embed options">
                        { option("Hide the knobs", |o| o.hide_knobs, |o, v| o.hide_knobs = v) }
                        { option("Start playing", |o| o.autoplay, |o, v| o.autoplay = v) }
                        { option("Predict, then run (locked)", |o| o.locked, |o, v| o.locked = v) }
                    </div>
                    <textarea readonly=true rows="5" aria-label="Embed code" value={snippet} />
                    <button type="button" onclick={copy}>{ "Copy embed code" }</button>
                </div>
            }
        </div>
    }
}
