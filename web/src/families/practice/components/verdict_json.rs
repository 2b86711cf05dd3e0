//! The verdict as `streamlab grade` prints it, under a disclosure, and the link to this
//! attempt: what a course page would collect and grade.

use crate::platform::shared::Shared;
use streamlab_sim::practice::Verdict;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct VerdictJsonProps {
    pub verdict: Shared<Verdict>,
}

#[function_component(VerdictJson)]
pub fn verdict_json(props: &VerdictJsonProps) -> Html {
    let verdict = &*props.verdict;
    let json = serde_json::to_string_pretty(verdict).unwrap_or_default();
    html! {
        <section class="p-verdict" aria-label="Verdict">
            <p>
                { "This attempt's link: " }
                <a class="p-link" href={verdict.link.clone()}>{ &verdict.link }</a>
            </p>
            <details>
                <summary>{ "The verdict as JSON (what streamlab grade prints)" }</summary>
                <pre class="p-verdict-json">{ json }</pre>
            </details>
        </section>
    }
}
