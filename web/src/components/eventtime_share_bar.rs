//! "Copy link" for an event-time lesson: the URL that reproduces exactly this scenario.

use crate::eventtime_link::share_url;
use crate::lessons::EventTimeLesson;
use streamlab_sim::eventtime::EventTimeScenario;
use yew::prelude::*;

#[derive(Properties)]
pub struct EventTimeShareBarProps {
    pub lesson: &'static EventTimeLesson,
    pub scenario: EventTimeScenario,
}

impl PartialEq for EventTimeShareBarProps {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson) && self.scenario == other.scenario
    }
}

#[function_component(EventTimeShareBar)]
pub fn eventtime_share_bar(props: &EventTimeShareBarProps) -> Html {
    let copied = use_state(|| false);
    let url = share_url(props.lesson, &props.scenario);
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
