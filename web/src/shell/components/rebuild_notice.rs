//! What the stage shows while a knob change's run is rebuilt in slices
//! ([`crate::shell::rebuild`]): that the run is being simulated again, from zero or from where
//! a kept run of the setting had got to, and how far it has got, over the previous picture,
//! which stays until the new one is ready.

use super::timeline_scrubber::seconds;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct RebuildNoticeProps {
    /// Where the build started: 0, or how far a kept run of the setting had been simulated.
    pub from_ms: u64,
    /// How far the new run has been simulated.
    pub built_ms: u64,
    /// Where it is going: the time on screen.
    pub target_ms: u64,
}

pub fn rebuild_notice(props: &RebuildNoticeProps) -> Html {
    let (built, target) = (props.built_ms, props.target_ms);
    let (heading, why) = words(props.from_ms);
    html! {
        <div class="rebuild-notice" role="status">
            <strong>{ heading }</strong>
            <progress max={target.to_string()} value={built.to_string()}
                aria-label="Simulated so far" />
            <span class="rebuild-figures">{ format!("{} of {}", seconds(built), seconds(target)) }</span>
            <span class="rebuild-why">{ why }</span>
        </div>
    }
}

/// The notice's heading and explanation for a build that started at `from_ms`: from zero, or
/// going on with a run of this setting built part-way earlier (say the learner turned the
/// knob there and back while it was building).
fn words(from_ms: u64) -> (String, String) {
    const PREVIOUS: &str = "The picture below is the previous setting's until then.";
    if from_ms == 0 {
        return (
            "Simulating the new setting from 0 s".to_string(),
            format!("A knob applies from the start, so the run is simulated again up to now. {PREVIOUS}"),
        );
    }
    let from = seconds(from_ms);
    (
        format!("Simulating the new setting from {from}"),
        format!(
            "A knob applies from the start. This setting's run was simulated to {from} earlier \
             and goes on from there up to now. {PREVIOUS}"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_notice_says_where_the_build_starts() {
        let (heading, why) = words(0);
        assert_eq!(heading, "Simulating the new setting from 0 s");
        assert!(why.starts_with("A knob applies from the start, so the run is simulated again"));
        let (heading, why) = words(12_300);
        assert_eq!(heading, "Simulating the new setting from 12.3 s");
        assert!(
            why.contains("was simulated to 12.3 s earlier and goes on from there"),
            "{why}"
        );
        assert!(why.ends_with("the previous setting's until then."));
    }
}
