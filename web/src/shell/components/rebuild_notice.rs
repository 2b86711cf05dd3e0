//! What the stage shows while a knob change's run is rebuilt in slices
//! ([`crate::shell::rebuild`]): that the run is being simulated again from zero and how far it
//! has got, over the previous picture, which stays until the new one is ready.

use super::timeline_scrubber::seconds;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RebuildNoticeProps {
    /// How far the new run has been simulated.
    pub built_ms: u64,
    /// Where it is going: the time on screen.
    pub target_ms: u64,
}

#[function_component(RebuildNotice)]
pub fn rebuild_notice(props: &RebuildNoticeProps) -> Html {
    let (built, target) = (props.built_ms, props.target_ms);
    html! {
        <div class="rebuild-notice" role="status">
            <strong>{ "Simulating the new setting from 0 s" }</strong>
            <progress max={target.to_string()} value={built.to_string()}
                aria-label="Simulated so far" />
            <span class="rebuild-figures">{ format!("{} of {}", seconds(built), seconds(target)) }</span>
            <span class="rebuild-why">
                { "A knob applies from the start, so the run is simulated again up to now. \
                   The picture below is the previous setting's until then." }
            </span>
        </div>
    }
}
