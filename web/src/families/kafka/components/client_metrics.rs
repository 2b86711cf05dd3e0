//! The consumer metrics an engineer would watch, under Kafka's own names, for each group: the
//! value a moment ago beside the value now, so a learner sees which one moves first when a
//! storm starts (the time since the last poll, long before the lag chart turns).

use crate::platform::palette::group_colour;
use streamlab_sim::kafka::client_metrics::{METRICS, WINDOW_MS};
use yew::prelude::*;

/// How far back "a moment ago" is.
pub const MOMENT_AGO_MS: u64 = 10_000;

/// One group's metrics then and now, in the order of the core's `METRICS`.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupMetrics {
    pub group_id: String,
    pub earlier: [Option<f64>; 8],
    pub now: [Option<f64>; 8],
}

/// The metrics of every group. A plain function rather than a component: Yew's code for one
/// more component (its creation, props and comparison) weighed more than rebuilding these few
/// rows with the rest of the panels.
pub fn client_metrics(groups: &[GroupMetrics]) -> Html {
    html! {
        <details class="client-metrics" open=true>
            <summary>{ "Consumer metrics, as Kafka names them" }</summary>
            <p class="hint">
                { format!("Rolled up over each group's members; rates and averages look back {} s \
                    (metrics.sample.window.ms). NaN is what Kafka reports for an average with \
                    nothing in its window.", WINDOW_MS / 1000) }
            </p>
            <div class="client-metrics-groups">
                { for groups.iter().enumerate().map(|(i, g)| group_table(i, g)) }
            </div>
        </details>
    }
}

fn group_table(index: usize, group: &GroupMetrics) -> Html {
    html! {
        <table class="client-metrics-table" data-group={group.group_id.clone()}
            style={format!("border-top-color: {}", group_colour(index))}>
            <caption>{ &group.group_id }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "metric" }</th>
                    <th scope="col">{ format!("{} s ago", MOMENT_AGO_MS / 1000) }</th>
                    <th scope="col">{ "now" }</th>
                </tr>
            </thead>
            <tbody>
                { for METRICS.iter().enumerate().map(|(m, info)| {
                    let (earlier, now) = (group.earlier[m], group.now[m]);
                    html! {
                        <tr data-metric={info.name} title={info.meaning}>
                            <th scope="row"><code>{ info.name }</code></th>
                            <td>{ shown(earlier, info.unit) }</td>
                            <td class={classes!(changed(earlier, now))}>
                                { shown(now, info.unit) }{ trend(earlier, now) }
                            </td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// A value with its unit; whole numbers without decimals.
pub fn shown(value: Option<f64>, unit: &str) -> String {
    let Some(value) = value else {
        return "NaN".to_string();
    };
    let number = if value.fract() == 0.0 || value.abs() >= 100.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    };
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// An arrow when the value moved: words for screen readers, not just a colour.
fn trend(earlier: Option<f64>, now: Option<f64>) -> Html {
    match (earlier, now) {
        (Some(a), Some(b)) if b > a => {
            html! { <span class="trend" aria-label="up">{ " ↑" }</span> }
        }
        (Some(a), Some(b)) if b < a => {
            html! { <span class="trend" aria-label="down">{ " ↓" }</span> }
        }
        _ => html! {},
    }
}

fn changed(earlier: Option<f64>, now: Option<f64>) -> Option<&'static str> {
    (earlier != now).then_some("moved")
}
