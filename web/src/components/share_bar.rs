//! "Copy link": the URL that reproduces exactly this scenario for whoever opens it.

use crate::link::share_url;
use streamlab_sim::Scenario;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShareBarProps {
    pub scenario: Scenario,
}

#[function_component(ShareBar)]
pub fn share_bar(props: &ShareBarProps) -> Html {
    let copied = use_state(|| false);
    let url = share_url(&props.scenario);
    let onclick = {
        let url = url.clone();
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
            <input type="text" readonly=true class="share-url" aria-label="Share link" value={url} />
        </div>
    }
}
