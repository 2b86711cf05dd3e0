//! While a misconception's refuting run is on screen, this banner states the belief, names
//! the figure that decides it with its value now, and once the run has ended gives the
//! verdict. The numbers are the run's own figures, the ones `streamlab simulate` prints.

use crate::shell::page::use_page;
use streamlab_sim::misconceptions::Misconception;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct MisconceptionBannerProps {
    pub misconception: &'static Misconception,
    /// The deciding figure as the run reports it now (none before it has a value).
    pub value: Option<f64>,
    /// The run has reached its end, so the figure is final.
    pub finished: bool,
}

#[function_component(MisconceptionBanner)]
pub fn misconception_banner(props: &MisconceptionBannerProps) -> Html {
    let m = props.misconception;
    let locked = use_page().embed.locked;
    let value = props.value.unwrap_or(0.0);
    let refuted = m.refuted_when.holds(value);
    let verdict = match (props.finished, refuted) {
        (false, _) => "The run is still going: watch the figure.".to_string(),
        (true, true) => format!(
            "Refuted: {} ended at {}, so what the belief rules out happened.",
            m.figure,
            shown(value)
        ),
        (true, false) => format!(
            "Not refuted by this run: {} stayed at {}.",
            m.figure,
            shown(value)
        ),
    };
    html! {
        <section class={classes!("misconception-banner", (props.finished && refuted).then_some("refuted"))}
            aria-label={format!("Misconception {}", m.number)} data-preset={m.preset}>
            <p class="belief">
                <strong>{ format!("Misconception {}: ", m.number) }</strong>{ format!("“{}”", m.belief) }
            </p>
            <p class="watch">
                { "It falls if " }<code>{ m.figure }</code>{ format!(" {}. Now: ", m.refuted_when.condition()) }
                <output class="misconception-value" data-misconception-figure={m.figure}>{ shown(value) }</output>
            </p>
            <p class="verdict" aria-live="polite">{ verdict }</p>
            if props.finished {
                <p class="truth">{ m.truth }</p>
                if locked {
                    // The challenge keeps the knobs locked; the same run, unlocked, is one
                    // click away for the learner who wants to try a fix.
                    <p><a href={format!("#/{}?preset={}", m.lesson, m.preset)}>{ "Open this run with the knobs unlocked" }</a></p>
                }
            }
        </section>
    }
}

/// Counts print as whole numbers; a fraction keeps two decimals.
fn shown(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}
