//! Big numbers: produced, and per group processed, throughput, lag and idle members.

use crate::platform::markup::{put, written, Escaped};
use crate::platform::palette::group_colour;
use std::fmt::Display;
use yew::prelude::*;

/// One group's counters.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupCounters {
    pub group_id: String,
    /// Records processed per second over the last five simulated seconds.
    pub throughput_per_s: u64,
    pub lag: u64,
    pub members: usize,
    pub idle_members: usize,
    pub rebalances: u64,
    /// Records processed more than once.
    pub duplicates: u64,
    /// Member-seconds spent in rebalances with nothing they may process.
    pub stalled_member_s: u64,
    /// Seconds in which no member processed anything although records were waiting.
    pub stopped_s: u64,
}

#[derive(PartialEq)]
pub struct CountersProps {
    pub produced: u64,
    pub groups: Vec<GroupCounters>,
    /// Show the rebalance counters (rebalances, stalled time, duplicates).
    pub membership: bool,
}

pub fn counters(props: &CountersProps) -> Html {
    html! {
        <section class="counters" aria-label="Counters">
            { counter(props.produced, "records produced", "") }
            { for props.groups.iter().enumerate().map(|(i, g)| group_counters(i, g, props.membership)) }
        </section>
    }
}

fn group_counters(index: usize, g: &GroupCounters, membership: bool) -> Html {
    let lag_class = if g.lag >= 100 { " alert" } else { "" };
    let idle = format!("{} / {}", g.idle_members, g.members);
    html! {
        <div class="counter-group" style={format!("border-top-color: {}", group_colour(index))}>
            { written(|out| put(out, format_args!("<h3>{}</h3>", Escaped(&g.group_id)))) }
            { counter(g.throughput_per_s, "records/s processed", "") }
            { counter(g.lag, "lag (records waiting)", lag_class) }
            { counter(idle, "members idle", if g.idle_members > 0 { " flash warn" } else { " flash" }) }
            if membership {
                { counter(g.rebalances, "rebalances", " flash") }
                // An element Yew keeps: its alert flashes when the group first stops, not again
                // with every second it stays stopped.
                <div class="counter">
                    <span class={classes!("counter-value", (g.stopped_s > 0).then_some("alert"))}>{ format!("{} s", g.stopped_s) }</span>
                    <span class="counter-label">{ "the group processed nothing" }</span>
                </div>
                { counter(format!("{} s", g.stalled_member_s), "member-seconds stalled in rebalances", if g.stalled_member_s > 0 { " warn" } else { "" }) }
                { counter(g.duplicates, "records processed twice", if g.duplicates > 0 { " flash repeat" } else { " flash" }) }
            }
        </div>
    }
}

/// One counter, written as markup: a node of its own, which Yew replaces when its value
/// changes, so a `flash` (or `alert`) animation in `classes` plays again, and only there.
/// `classes` follow `counter-value`, each after a space.
pub fn counter(value: impl Display, label: &str, classes: &str) -> Html {
    written(|out| {
        put(
            out,
            format_args!(
                r#"<div class="counter"><span class="counter-value{classes}">{value}</span><span class="counter-label">{label}</span></div>"#
            ),
        )
    })
}
