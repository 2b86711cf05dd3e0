//! The group protocol at a glance: the coordinator's state machine and generation, and
//! buttons that do things to members (crash, leave, restart, pause, slow down, add one).
//!
//! A button does not poke the running World: it adds a scheduled action at the current time
//! to the scenario, which is re-simulated, so the share link reproduces what was done.

use streamlab_sim::kafka::group::GroupState;
use streamlab_sim::kafka::scenario::MemberAction;
use streamlab_sim::kafka::snapshot::GroupView;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct MembershipProps {
    pub group: GroupView,
    pub now_ms: u64,
    /// (member id, action) to schedule now.
    pub on_act: Callback<(String, MemberAction)>,
}

const STATES: [GroupState; 4] = [
    GroupState::Empty,
    GroupState::PreparingRebalance,
    GroupState::CompletingRebalance,
    GroupState::Stable,
];

pub fn membership(props: &MembershipProps) -> Html {
    let group = &props.group;
    let act = |member: &str, action: MemberAction| {
        let on_act = props.on_act.clone();
        let member = member.to_string();
        Callback::from(move |_: MouseEvent| on_act.emit((member.clone(), action)))
    };
    let next_id = format!("c{}", group.members.len() + 1);
    let rebalancing_for = group
        .rebalance_started_ms
        .map(|start| format!(" for {:.1} s", (props.now_ms - start) as f64 / 1000.0));
    html! {
        <section class="membership" aria-label="Group protocol">
            <h2>{ format!("Group {} — generation {}", group.group_id, group.generation) }</h2>
            <ol class="state-machine" aria-label="Coordinator state">
                { for STATES.iter().map(|state| {
                    let current = *state == group.state;
                    html! {
                        <li class={classes!(current.then_some("current"))} aria-current={current.then_some("step")}>
                            { state.name() }
                            if current {
                                { rebalancing_for.clone().unwrap_or_default() }
                            }
                        </li>
                    }
                }) }
            </ol>
            <table class="member-actions">
                <thead><tr><th>{ "member" }</th><th>{ "now" }</th><th colspan="5">{ "make it…" }</th></tr></thead>
                <tbody>
                    { for group.members.iter().map(|m| html! {
                        <tr>
                            <th scope="row">{ &m.member_id }</th>
                            <td>{ m.phase.name() }</td>
                            <td><button type="button" onclick={act(&m.member_id, MemberAction::Crash)} title="Dies without a word: no LeaveGroup">{ "crash" }</button></td>
                            <td><button type="button" onclick={act(&m.member_id, MemberAction::Leave)} title="close(): commits and sends LeaveGroup (dynamic members)">{ "leave" }</button></td>
                            <td><button type="button" onclick={act(&m.member_id, MemberAction::Restart { down_ms: 10_000 })} title="Leaves, and starts again 10 s later">{ "restart" }</button></td>
                            <td><button type="button" onclick={act(&m.member_id, MemberAction::Pause { duration_ms: 15_000 })} title="A 15 s stop-the-world pause: no processing, no heartbeats">{ "pause 15 s" }</button></td>
                            <td><button type="button" onclick={act(&m.member_id, MemberAction::SlowDown { duration_ms: 30_000, factor: 4 })} title="Processing 4× slower for 30 s; heartbeats continue">{ "slow ×4" }</button></td>
                        </tr>
                    }) }
                </tbody>
            </table>
            <p>
                <button type="button" onclick={act(&next_id, MemberAction::Start)}>{ format!("add member {next_id}") }</button>
                { " Each button schedules the action at the current time, so the share link replays it." }
            </p>
        </section>
    }
}
