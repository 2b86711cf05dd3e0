//! "Copy link": the URL that reproduces exactly this run for whoever opens it.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShareBarProps {
    /// The full link; the playground rebuilds it only when the scenario or the paused time
    /// changes (while playing it carries no time and plays from the start).
    pub url: AttrValue,
}

#[function_component(ShareBar)]
pub fn share_bar(props: &ShareBarProps) -> Html {
    let copied = use_state(|| false);
    let onclick = {
        let url = props.url.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(window) = web_sys::window() {
                // The clipboard may be refused (no permission in an iframe); the link stays
                // visible in the box to copy by hand.
                let _ = window.navigator().clipboard().write_text(&url);
            }
            copied.set(true);
        })
    };
    html! {
        <div class="share-bar">
            <button type="button" {onclick}>{ if *copied { "Link copied" } else { "Copy link" } }</button>
            <input type="text" readonly=true class="share-url" aria-label="Share link" value={props.url.clone()} />
        </div>
    }
}
