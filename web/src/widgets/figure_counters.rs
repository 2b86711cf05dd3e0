//! The run's headline figures under the names `streamlab simulate` prints, each with the
//! words a learner reads: the page shows the very numbers a course page or a test reads.

use crate::platform::shared::Shared;
use streamlab_sim::family::Figures;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CountersProps {
    pub figures: Shared<Figures>,
    /// (figure name, dotted for a group's, and its words), in the order shown.
    pub rows: &'static [(&'static str, &'static str)],
    /// Names whose value is a warning when it is not zero.
    #[prop_or_default]
    pub warn: &'static [&'static str],
    /// The family's own class, beside the shared `q-counters`.
    #[prop_or_default]
    pub class: Classes,
}

/// A figure as printed: counts whole, ratios to three decimals at most.
pub fn shown(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.3}");
        text.trim_end_matches('0').to_string()
    }
}

#[function_component(Counters)]
pub fn counters(props: &CountersProps) -> Html {
    let flat = props.figures.flattened();
    let value = |name: &str| flat.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    html! {
        <dl class={classes!("q-counters", props.class.clone())}>
            { for props.rows.iter().filter_map(|&(name, words)| value(name).map(|v| {
                let warn = props.warn.contains(&name) && v != 0.0;
                html! {
                    <div class={classes!(warn.then_some("warn"))}>
                        <dt>{ words }</dt><dd data-figure={name}>{ shown(v) }</dd>
                    </div>
                }
            })) }
        </dl>
    }
}
