//! Big numbers: produced, and per group processed, throughput, lag and idle members.

use crate::platform::palette::group_colour;
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
            <div class="counter">
                <span class="counter-value">{ props.produced }</span>
                <span class="counter-label">{ "records produced" }</span>
            </div>
            { for props.groups.iter().enumerate().map(|(i, g)| html! {
                <div class="counter-group" style={format!("border-top-color: {}", group_colour(i))}>
                    <h3>{ &g.group_id }</h3>
                    <div class="counter">
                        <span class="counter-value">{ g.throughput_per_s }</span>
                        <span class="counter-label">{ "records/s processed" }</span>
                    </div>
                    <div class="counter">
                        // Re-keyed on change so the CSS flash replays.
                        <span key={g.lag} class={classes!("counter-value", (g.lag >= 100).then_some("alert"))}>{ g.lag }</span>
                        <span class="counter-label">{ "lag (records waiting)" }</span>
                    </div>
                    <div class="counter">
                        <span key={g.idle_members} class={classes!("counter-value", "flash", (g.idle_members > 0).then_some("warn"))}>
                            { format!("{} / {}", g.idle_members, g.members) }
                        </span>
                        <span class="counter-label">{ "members idle" }</span>
                    </div>
                    if props.membership {
                        <div class="counter">
                            <span key={g.rebalances} class="counter-value flash">{ g.rebalances }</span>
                            <span class="counter-label">{ "rebalances" }</span>
                        </div>
                        <div class="counter">
                            <span class={classes!("counter-value", (g.stopped_s > 0).then_some("alert"))}>{ format!("{} s", g.stopped_s) }</span>
                            <span class="counter-label">{ "the group processed nothing" }</span>
                        </div>
                        <div class="counter">
                            <span class={classes!("counter-value", (g.stalled_member_s > 0).then_some("warn"))}>{ format!("{} s", g.stalled_member_s) }</span>
                            <span class="counter-label">{ "member-seconds stalled in rebalances" }</span>
                        </div>
                        <div class="counter">
                            <span key={g.duplicates} class={classes!("counter-value", "flash", (g.duplicates > 0).then_some("repeat"))}>{ g.duplicates }</span>
                            <span class="counter-label">{ "records processed twice" }</span>
                        </div>
                    }
                </div>
            }) }
        </section>
    }
}
