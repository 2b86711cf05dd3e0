//! The run's headline figures under the names `streamlab simulate` prints, each with the
//! words a learner reads: the page shows the very numbers a course page or a test reads.

use streamlab_sim::family::Figures;
use yew::prelude::*;

/// A figure as printed: counts whole, ratios to three decimals at most.
pub fn shown(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.3}");
        text.trim_end_matches('0').to_string()
    }
}

/// The figures named in `rows` (figure name, dotted for a group's, and its words), in that
/// order; those in `warn` stand out when not zero. `class` is the family's own, beside the
/// shared `q-counters`. A plain function, not a component: the figures change on every
/// frame of a run, so a component's check for unchanged props would never spare a render.
pub fn counters(
    figures: &Figures,
    rows: &[(&'static str, &'static str)],
    warn: &[&str],
    class: Option<&'static str>,
) -> Html {
    let flat = figures.flattened();
    let value = |name: &str| flat.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    html! {
        <dl class={classes!("q-counters", class)}>
            { for rows.iter().filter_map(|&(name, words)| value(name).map(|v| {
                let warn = warn.contains(&name) && v != 0.0;
                html! {
                    <div class={classes!(warn.then_some("warn"))}>
                        <dt>{ words }</dt><dd data-figure={name}>{ shown(v) }</dd>
                    </div>
                }
            })) }
        </dl>
    }
}
