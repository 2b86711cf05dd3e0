//! The knob panel: topic, producer and group settings, each knob with its real name.
//!
//! Every change produces a whole new Scenario (plain data), which the playground re-simulates;
//! ranges come from the core's `KNOBS` table, so the sliders cannot offer a value the core
//! would refuse.

use crate::families::kafka::components::group_knobs::GroupKnobs;
use crate::widgets::number_knob::knob_range;
use crate::widgets::number_knob::NumberKnob;
use std::rc::Rc;
use streamlab_sim::kafka::scenario::{GroupConfig, Scenario, DEFAULT_GROUP_IDS, MAX_GROUPS};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct KnobPanelProps {
    pub scenario: Scenario,
    pub on_change: Callback<Edit>,
    /// Show the group-protocol knobs (timeouts, static membership, commits on revoke).
    #[prop_or_default]
    pub protocol_knobs: bool,
}

/// A change to make to whatever the scenario is when it arrives. Knobs send edits, not
/// whole scenarios: two quick changes in a row must both land, even if the second knob was
/// rendered before the first change reached the playground.
pub type Edit = crate::shell::components::lesson_text::EditOf<Scenario>;

/// A callback that turns a knob's new value into an [`Edit`].
pub fn edit_with<T: Clone + 'static>(
    on_change: &Callback<Edit>,
    edit: impl Fn(&mut Scenario, T) + 'static,
) -> Callback<T> {
    let on_change = on_change.clone();
    let edit = Rc::new(edit);
    Callback::from(move |value: T| {
        let edit = Rc::clone(&edit);
        on_change.emit(Rc::new(move |scenario: &mut Scenario| {
            edit(scenario, value.clone())
        }));
    })
}

#[function_component(KnobPanel)]
pub fn knob_panel(props: &KnobPanelProps) -> Html {
    let s = &props.scenario;
    let edit = |f: fn(&mut Scenario, f64)| edit_with(&props.on_change, f);
    let range = knob_range;
    let group_count_changed = edit(|s, v| set_group_count(s, v as usize));
    let seed_changed = edit_with(&props.on_change, |s, v: u64| s.seed = v);
    html! {
        <section class="knobs" aria-label="Knobs">
            <fieldset>
                <legend>{ "Topic" }</legend>
                <NumberKnob label="Partitions" config_name={Some(AttrValue::from("num.partitions"))}
                    unit="partitions" value={f64::from(s.topic.partitions)}
                    bounds={range("topic.partitions")}
                    hint="Independent logs; the most members one group can keep busy."
                    on_change={edit(|s, v| s.topic.partitions = v as u32)} />
            </fieldset>
            <fieldset>
                <legend>{ "Producer" }</legend>
                <NumberKnob label="Produce rate" unit="records/s"
                    value={f64::from(s.producer.rate_per_s)}
                    bounds={range("producer.rate_per_s")}
                    slider_max={Some(2_000.0)}
                    hint="Records sent per second, evenly spaced."
                    on_change={edit(|s, v| s.producer.rate_per_s = v as u32)} />
                <NumberKnob label="Keys" unit="keys" value={f64::from(s.producer.key_count)}
                    bounds={range("producer.key_count")}
                    slider_max={Some(200.0)}
                    hint="Distinct keys; 0 sends null keys, spread by the sticky partitioner."
                    on_change={edit(|s, v| s.producer.key_count = v as u32)} />
                <NumberKnob label="Key skew" unit="Zipf exponent" step={0.1}
                    value={s.producer.key_skew}
                    bounds={range("producer.key_skew")}
                    hint="0: all keys equally busy. 2: one hot key takes most records."
                    on_change={edit(|s, v| s.producer.key_skew = v)} />
                <NumberKnob label="Linger" config_name={Some(AttrValue::from("linger.ms"))} unit="ms"
                    value={f64::from(s.producer.linger_ms)}
                    bounds={range("producer.linger_ms")}
                    slider_max={Some(200.0)}
                    hint="How long a record waits in the producer before it is appended (Kafka 4.0 default 5)."
                    on_change={edit(|s, v| s.producer.linger_ms = v as u32)} />
            </fieldset>
            <fieldset>
                <legend>{ "Consumer groups" }</legend>
                <NumberKnob label="Groups" unit="groups" value={s.groups.len() as f64}
                    bounds={(1.0, MAX_GROUPS as f64)}
                    hint="Teams reading the same topic, each at its own position."
                    on_change={group_count_changed} />
                { for (0..s.groups.len()).map(|index| html! {
                    <GroupKnobs key={index} {index} scenario={s.clone()}
                        on_change={props.on_change.clone()} protocol_knobs={props.protocol_knobs} />
                }) }
            </fieldset>
            if props.protocol_knobs {
                <fieldset>
                    <legend>{ "Broker" }</legend>
                    <NumberKnob label="Initial rebalance delay"
                        config_name={Some(AttrValue::from("group.initial.rebalance.delay.ms"))} unit="ms"
                        value={f64::from(s.broker.group_initial_rebalance_delay_ms)}
                        bounds={range("broker.group_initial_rebalance_delay_ms")}
                        slider_max={Some(10_000.0)}
                        hint="How long a new group waits for more members before its first assignment (Kafka default 3000)."
                        on_change={edit(|s, v| s.broker.group_initial_rebalance_delay_ms = v as u32)} />
                </fieldset>
            }
            <fieldset>
                <legend>{ "Run" }</legend>
                <SeedKnob value={s.seed} on_change={seed_changed} />
            </fieldset>
        </section>
    }
}

fn set_group_count(scenario: &mut Scenario, count: usize) {
    let count = count.clamp(1, MAX_GROUPS);
    scenario.groups.truncate(count);
    while scenario.groups.len() < count {
        let id = DEFAULT_GROUP_IDS
            .iter()
            .find(|id| scenario.groups.iter().all(|g| g.group_id != **id))
            .expect("fewer groups than default ids");
        scenario.groups.push(GroupConfig::named(id));
    }
}

#[derive(Properties, PartialEq)]
struct SeedKnobProps {
    value: u64,
    on_change: Callback<u64>,
}

/// The seed is a u64, wider than a JS number holds exactly, so it is typed as text.
#[function_component(SeedKnob)]
fn seed_knob(props: &SeedKnobProps) -> Html {
    let onchange = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(seed) = input.value().trim().parse::<u64>() {
                on_change.emit(seed);
            }
        })
    };
    html! {
        <div class="knob">
            <label for="knob-seed" class="knob-label"><span class="knob-name">{ "Seed" }</span></label>
            <div class="knob-inputs">
                <input id="knob-seed" type="text" inputmode="numeric" class="knob-exact wide"
                    value={props.value.to_string()} {onchange} />
            </div>
            <p class="knob-hint">{ "Every random draw comes from this number: same seed, same run. Any whole number 0–18446744073709551615." }</p>
        </div>
    }
}
