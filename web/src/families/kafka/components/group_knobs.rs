//! The knobs of one consumer group: members, assignor, poll size, processing time.

use crate::families::kafka::components::knob_panel::{edit_with, Edit};
use crate::platform::palette::group_colour;
use crate::widgets::number_knob::knob_range;
use crate::widgets::number_knob::NumberKnob;
use crate::widgets::select_knob::SelectKnob;
use crate::widgets::toggle_knob::ToggleKnob;
use streamlab_sim::assignor::Strategy;
use streamlab_sim::kafka::scenario::{Distribution, Scenario};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GroupKnobsProps {
    pub index: usize,
    pub scenario: Scenario,
    pub on_change: Callback<Edit>,
    #[prop_or_default]
    pub protocol_knobs: bool,
}

#[function_component(GroupKnobs)]
pub fn group_knobs(props: &GroupKnobsProps) -> Html {
    let i = props.index;
    let group = &props.scenario.groups[i];
    let scope = AttrValue::from(format!("g{i}-"));
    let edit =
        |f: fn(&mut Scenario, usize, f64)| edit_with(&props.on_change, move |s, v: f64| f(s, i, v));
    let strategy_changed = edit_with(&props.on_change, move |s, v: String| {
        if let Some(strategy) = Strategy::parse(&v) {
            s.groups[i].partition_assignment_strategy = strategy;
        }
    });
    let distribution_changed = edit_with(&props.on_change, move |s, v: String| {
        s.groups[i].processing.distribution = match v.as_str() {
            "uniform" => Distribution::Uniform,
            "exponential" => Distribution::Exponential,
            _ => Distribution::Constant,
        };
    });
    let strategies: Vec<(AttrValue, AttrValue)> = Strategy::ALL
        .iter()
        .map(|s| {
            (
                AttrValue::from(s.config_name()),
                AttrValue::from(s.config_name()),
            )
        })
        .collect();
    let distributions: Vec<(AttrValue, AttrValue)> = [
        ("constant", "constant"),
        ("uniform", "uniform 0–2× mean"),
        ("exponential", "exponential"),
    ]
    .iter()
    .map(|(v, t)| (AttrValue::from(*v), AttrValue::from(*t)))
    .collect();
    let distribution = match group.processing.distribution {
        Distribution::Constant => "constant",
        Distribution::Uniform => "uniform",
        Distribution::Exponential => "exponential",
    };
    let range = knob_range;
    let toggle = |f: fn(&mut Scenario, usize, bool)| {
        edit_with(&props.on_change, move |s, v: bool| f(s, i, v))
    };
    html! {
        <div class="group-knobs" style={format!("border-left-color: {}", group_colour(i))}>
            <h3><code>{ "group.id" }</code>{ " = " }{ &group.group_id }</h3>
            <NumberKnob label="Members" scope={scope.clone()} unit="consumers"
                value={f64::from(group.members)}
                bounds={range("groups[].members")}
                hint="Consumer processes in this group."
                on_change={edit(|s, i, v| s.groups[i].members = v as u32)} />
            <NumberKnob label="Processing time" scope={scope.clone()} unit="ms/record"
                value={f64::from(group.processing.time_ms)}
                bounds={range("groups[].processing.time_ms")}
                slider_max={Some(100.0)}
                hint="The application's work per record, one record at a time."
                on_change={edit(|s, i, v| s.groups[i].processing.time_ms = v as u32)} />
            <SelectKnob label="Processing spread" scope={scope.clone()} options={distributions}
                value={AttrValue::from(distribution)}
                hint="How processing time varies around its mean."
                on_change={distribution_changed} />
            <NumberKnob label="Max poll records" scope={scope.clone()}
                config_name={Some(AttrValue::from("max.poll.records"))} unit="records"
                value={f64::from(group.max_poll_records)}
                bounds={range("groups[].max_poll_records")}
                slider_max={Some(1_000.0)}
                hint="Most records one poll() returns (Kafka default 500)."
                on_change={edit(|s, i, v| s.groups[i].max_poll_records = v as u32)} />
            <SelectKnob label="Assignor" scope={scope.clone()}
                config_name={Some(AttrValue::from("partition.assignment.strategy"))}
                options={strategies} value={AttrValue::from(group.partition_assignment_strategy.config_name())}
                hint="How partitions are dealt out to members (Kafka's default starts with range)."
                on_change={strategy_changed} />
            if props.protocol_knobs {
                <NumberKnob label="Session timeout" scope={scope.clone()}
                    config_name={Some(AttrValue::from("session.timeout.ms"))} unit="ms"
                    value={f64::from(group.session_timeout_ms)}
                    bounds={range("groups[].session_timeout_ms")}
                    slider_max={Some(120_000.0)} step={1000.0}
                    hint="Silence after which the coordinator declares a member dead (Kafka default 45000)."
                    on_change={edit(|s, i, v| s.groups[i].session_timeout_ms = v as u32)} />
                <NumberKnob label="Heartbeat interval" scope={scope.clone()}
                    config_name={Some(AttrValue::from("heartbeat.interval.ms"))} unit="ms"
                    value={f64::from(group.heartbeat_interval_ms)}
                    bounds={range("groups[].heartbeat_interval_ms")}
                    slider_max={Some(15_000.0)} step={100.0}
                    hint="How often the heartbeat thread reports in; also how soon a member hears of a rebalance (default 3000)."
                    on_change={edit(|s, i, v| s.groups[i].heartbeat_interval_ms = v as u32)} />
                <NumberKnob label="Max poll interval" scope={scope.clone()}
                    config_name={Some(AttrValue::from("max.poll.interval.ms"))} unit="ms"
                    value={f64::from(group.max_poll_interval_ms)}
                    bounds={range("groups[].max_poll_interval_ms")}
                    slider_max={Some(600_000.0)} step={1000.0}
                    hint="Longest batch before the member is removed; also the rebalance timeout (default 300000)."
                    on_change={edit(|s, i, v| s.groups[i].max_poll_interval_ms = v as u32)} />
                <ToggleKnob label="Static membership" scope={scope.clone()}
                    config_name={Some(AttrValue::from("group.instance.id"))} value={group.static_membership}
                    hint="Each member keeps an instance id: a quick restart gets its partitions back with no rebalance."
                    on_change={toggle(|s, i, v| s.groups[i].static_membership = v)} />
                <ToggleKnob label="Auto-commit" scope={scope.clone()}
                    config_name={Some(AttrValue::from("enable.auto.commit"))} value={group.enable_auto_commit}
                    hint="Commit positions inside poll() every auto.commit.interval.ms, and before every rebalance."
                    on_change={toggle(|s, i, v| s.groups[i].enable_auto_commit = v)} />
                <ToggleKnob label="Commit on revoke" scope={scope}
                    config_name={Some(AttrValue::from("onPartitionsRevoked"))} value={group.commit_on_revoke}
                    hint="A rebalance listener that commits before giving partitions up."
                    on_change={toggle(|s, i, v| s.groups[i].commit_on_revoke = v)} />
            }
        </div>
    }
}
