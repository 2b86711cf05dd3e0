//! The delivery lesson's picture: per group the exact tallies (lost, duplicated, exactly once,
//! dead-lettered, lost to retention), each partition's newest records as the output store sees
//! them, the sink as a table filling with writes, the dead-letter topic beside the main topic,
//! and buttons that crash or start a member of the selected group, reset that group's offsets
//! (to earliest, latest or a time), or start a new group at earliest. Buttons add scheduled
//! actions (or a group) to the scenario at the current time.

use crate::families::kafka::components::delivery_log::DeliveryLog;
use crate::platform::bounded::bounded;
use crate::platform::palette::group_colour;
use crate::platform::typed_number::parse_decimal;
use crate::shell::family::Edit;
use std::rc::Rc;
use streamlab_sim::kafka::group::MemberPhase;
use streamlab_sim::kafka::scenario::{
    AutoOffsetReset, GroupConfig, MemberAction, OffsetTarget, Scenario, DEFAULT_GROUP_IDS,
    MAX_GROUPS,
};
use streamlab_sim::kafka::sink::Effect;
use streamlab_sim::kafka::snapshot::{GroupView, Snapshot};
use yew::prelude::*;

/// Rows of the sink table.
const SINK_ROWS: usize = 8;

#[derive(Properties, PartialEq)]
pub struct DeliveryPanelProps {
    pub snapshot: Rc<Snapshot>,
    pub now_ms: u64,
    /// (group id, member id, action) to schedule now.
    pub on_act: Callback<(String, String, MemberAction)>,
    pub on_edit: Callback<Edit<Scenario>>,
}

#[function_component(DeliveryPanel)]
pub fn delivery_panel(props: &DeliveryPanelProps) -> Html {
    let snapshot = &props.snapshot;
    // The group the buttons act on, and the time a reset to a timestamp goes back to (None:
    // ten seconds before now).
    let selected = use_state(|| 0usize);
    let reset_at_s = use_state(|| None::<u64>);
    html! {
        <section class="delivery" aria-label="Delivery guarantees">
            { for snapshot.groups.iter().enumerate().map(|(i, g)| group_block(i, g, snapshot)) }
            { actions(props, &selected, &reset_at_s) }
            <p class="legend delivery-legend">
                <span class="swatch cell-once">{ "✓ written once" }</span>
                <span class="swatch cell-repeated">{ "×2 written again: a second effect" }</span>
                <span class="swatch cell-ignored">{ "= written again, ignored by the store" }</span>
                <span class="swatch cell-lost">{ "✕ lost: never written" }</span>
                <span class="swatch cell-dead">{ "D dead-lettered" }</span>
                <span class="swatch cell-waiting">{ "waiting" }</span>
                <span class="swatch cell-deleted">{ "deleted by retention" }</span>
                <span class="swatch cell-risk-lost">{ "lost if its owner dies now" }</span>
                <span class="swatch cell-risk-reread">{ "re-read if its owner dies now" }</span>
                <span>{ "▲ committed offset, | processed up to here" }</span>
            </p>
        </section>
    }
}

fn group_block(index: usize, group: &GroupView, snapshot: &Snapshot) -> Html {
    let t = group.tallies;
    let counter = |value: u64, label: &str, class: Option<&'static str>| {
        html! {
            <div class="counter">
                <span key={value} class={classes!("counter-value", "flash", (value > 0).then_some(class).flatten())}>{ value }</span>
                <span class="counter-label">{ label.to_string() }</span>
            </div>
        }
    };
    html! {
        <div class="delivery-group" style={format!("border-top-color: {}", group_colour(index))}>
            <h3>{ format!("{} — {}", group.group_id, strategy_words(group)) }</h3>
            <div class="counters tallies" data-group={group.group_id.clone()}>
                { counter(t.lost, "records lost (never had an effect)", Some("alert")) }
                { counter(t.duplicated, "records with duplicate effects", Some("repeat")) }
                { counter(t.exactly_once, "records with exactly one effect", None) }
                { counter(t.dead_lettered, "records dead-lettered", Some("warn")) }
                { counter(group.lost_to_retention, "of the lost: deleted by retention unread", Some("alert")) }
                if group.lost_to_deletion > 0 {
                    { counter(group.lost_to_deletion, "deleted unread by another group's deleteRecords", Some("alert")) }
                }
            </div>
            <div class="delivery-row-pair">
                <div>
                    <h4>{ format!("{} — the records around {}'s position, as its sink sees them", snapshot.topic_name, group.group_id) }</h4>
                    <DeliveryLog group={group.clone()} partitions={snapshot.partitions.clone()} />
                </div>
                if !group.dead_letter_topic.is_empty() {
                    { dead_letters(group) }
                }
            </div>
            { sink_table(group) }
        </div>
    }
}

fn strategy_words(group: &GroupView) -> String {
    use streamlab_sim::kafka::scenario::ManualCommit::*;
    let commit = match group.manual_commit {
        None if group.enable_auto_commit => "auto-commit (enable.auto.commit)",
        None => "no commits except the rebalance listener",
        BeforeProcessing => "commitSync() before processing",
        AfterEachRecord => "commitSync() after each record",
        AfterBatch => "commitSync() after each batch",
        Transactional => "offsets committed in the output's transaction",
    };
    let sink = match group.sink_mode {
        streamlab_sim::kafka::sink::SinkMode::Plain => "plain sink",
        streamlab_sim::kafka::sink::SinkMode::Idempotent => {
            "idempotent sink (keyed by partition and offset)"
        }
        streamlab_sim::kafka::sink::SinkMode::ByKey => {
            "upsert by record key (a write older than the key's newest is ignored)"
        }
    };
    format!("{commit}, {sink}")
}

fn dead_letters(group: &GroupView) -> Html {
    let newest: Vec<&Effect> = group
        .recent_dead_letters
        .iter()
        .rev()
        .take(SINK_ROWS)
        .collect();
    html! {
        <div class="dlq" aria-label="Dead-letter topic">
            <h4>{ format!("{} (dead-letter topic)", group.dead_letter_topic) }</h4>
            if newest.is_empty() {
                <p class="muted">{ "empty" }</p>
            }
            <ol>
                { for newest.iter().map(|e| html! {
                    <li>{ format!("p{} offset {} at {:.1} s{}", e.partition, e.offset, e.at_ms as f64 / 1000.0,
                        if e.nth > 1 { format!(" (copy {})", e.nth) } else { String::new() }) }</li>
                }) }
            </ol>
        </div>
    }
}

fn sink_table(group: &GroupView) -> Html {
    let newest: Vec<&Effect> = group.recent_effects.iter().rev().take(SINK_ROWS).collect();
    html! {
        <table class="sink-table" aria-label={format!("{}'s sink, newest writes first", group.group_id)}>
            <caption>{ format!("{}'s output store, newest writes first", group.group_id) }</caption>
            <thead><tr><th>{ "time" }</th><th>{ "from" }</th><th>{ "key" }</th><th>{ "write" }</th></tr></thead>
            <tbody>
                { for newest.iter().map(|e| {
                    let repeat = e.nth > 1;
                    let what = match (repeat, e.ignored) {
                        (_, true) if e.nth == 1 => "ignored (its key holds a newer offset)".to_string(),
                        (_, true) => format!("#{}: ignored (already applied)", e.nth),
                        (true, false) => format!("#{}: a duplicate effect", e.nth),
                        (false, false) => "first".to_string(),
                    };
                    html! {
                        <tr class={classes!((repeat || e.ignored).then_some(if e.ignored { "ignored" } else { "duplicate" }))}>
                            <td>{ format!("{:.2} s", e.at_ms as f64 / 1000.0) }</td>
                            <td>{ format!("p{} @ {}", e.partition, e.offset) }</td>
                            <td>{ e.key.map_or("null".to_string(), |k| format!("k{k}")) }</td>
                            <td>{ what }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

fn actions(
    props: &DeliveryPanelProps,
    selected: &UseStateHandle<usize>,
    reset_at_s: &UseStateHandle<Option<u64>>,
) -> Html {
    let groups = &props.snapshot.groups;
    let index = (**selected).min(groups.len().saturating_sub(1));
    let Some(group) = groups.get(index) else {
        return html! {};
    };
    let group_id = group.group_id.clone();
    let act = |member: &str, action: MemberAction| {
        let on_act = props.on_act.clone();
        let (group_id, member) = (group_id.clone(), member.to_string());
        Callback::from(move |_: MouseEvent| on_act.emit((group_id.clone(), member.clone(), action)))
    };
    // A reset is the group's business; the tool names no member, so the first one stands in.
    let any_member = group.members.first().map_or("c1", |m| m.member_id.as_str());
    let reset = |to: OffsetTarget| act(any_member, MemberAction::ResetOffsets { to });
    let at_s = reset_at_s.unwrap_or(props.now_ms.saturating_sub(10_000) / 1000);
    let start_at = props.now_ms + 1;
    let add_group = {
        let on_edit = props.on_edit.clone();
        Callback::from(move |_: MouseEvent| {
            on_edit.emit(Edit::new(move |s: &mut Scenario| {
                add_group_at_earliest(s, start_at)
            }))
        })
    };
    let can_add = groups.len() < MAX_GROUPS;
    html! {
        <div class="delivery-actions" aria-label="Do something">
            if groups.len() > 1 {
                { group_selector(groups, index, selected) }
            } else {
                <span>{ format!("{group_id}:") }</span>
            }
            { for group.members.iter().map(|m| {
                let down = matches!(m.phase, MemberPhase::Dead | MemberPhase::Stopped);
                if down {
                    html! { <button type="button" onclick={act(&m.member_id, MemberAction::Start)}>{ format!("Start {}", m.member_id) }</button> }
                } else {
                    html! { <button type="button" class="danger" onclick={act(&m.member_id, MemberAction::Crash)}>{ format!("Crash {}", m.member_id) }</button> }
                }
            }) }
            <span class="reset-buttons" role="group" aria-label={format!("Reset {group_id}'s offsets (kafka-consumer-groups --reset-offsets)")}>
                <button type="button" onclick={reset(OffsetTarget::Earliest)}>{ "Reset offsets to earliest" }</button>
                <button type="button" onclick={reset(OffsetTarget::Latest)}>{ "Reset offsets to latest" }</button>
                <label class="reset-time">{ "to time " }
                    <input type="number" min="0" max={(streamlab_sim::kafka::validate::schedule_bounds::RESET_TO_MS.max / 1000.0).to_string()} step="1" value={at_s.to_string()}
                        aria-label="Reset time in seconds of the run"
                        onchange={time_changed(reset_at_s)} />
                    { " s" }
                </label>
                <button type="button" onclick={reset(OffsetTarget::Timestamp { at_ms: at_s * 1000 })}>
                    { format!("Reset offsets to {at_s} s") }
                </button>
            </span>
            <button type="button" class="danger" onclick={act(any_member, MemberAction::DeleteRecords)}
                title="Admin.deleteRecords up to this group's committed offsets, as kafka-delete-records does: every group loses what it has not read below them">
                { format!("Delete what {group_id} has consumed") }
            </button>
            <button type="button" disabled={!can_add} onclick={add_group}>{ "Start a new group at earliest" }</button>
        </div>
    }
}

/// Which group the buttons act on.
fn group_selector(groups: &[GroupView], index: usize, selected: &UseStateHandle<usize>) -> Html {
    let onchange = {
        let selected = selected.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            selected.set(value.parse().unwrap_or(0));
        })
    };
    html! {
        <label class="group-select">{ "Act on " }
            <select aria-label="Group the buttons act on" {onchange}>
                { for groups.iter().enumerate().map(|(i, g)| html! {
                    <option value={i.to_string()} selected={i == index}>{ g.group_id.clone() }</option>
                }) }
            </select>
        </label>
    }
}

/// The reset time the learner typed, in whole seconds within the knob's documented range.
fn time_changed(reset_at_s: &UseStateHandle<Option<u64>>) -> Callback<Event> {
    let reset_at_s = reset_at_s.clone();
    let max_s = streamlab_sim::kafka::validate::schedule_bounds::RESET_TO_MS.max / 1000.0;
    Callback::from(move |e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .value();
        let seconds = parse_decimal(&value);
        reset_at_s.set(seconds.map(|v| bounded(v, 0.0, max_s) as u64));
    })
}

/// Adds a group that starts at `start_ms` with `auto.offset.reset=earliest`, under the first
/// unused lesson group id.
fn add_group_at_earliest(scenario: &mut Scenario, start_ms: u64) {
    if scenario.groups.len() >= MAX_GROUPS {
        return;
    }
    let Some(id) = DEFAULT_GROUP_IDS
        .iter()
        .find(|id| !scenario.groups.iter().any(|g| g.group_id == **id))
    else {
        return;
    };
    let mut group = GroupConfig::named(id);
    group.members = 1;
    group.start_ms = start_ms;
    group.auto_offset_reset = AutoOffsetReset::Earliest;
    scenario.groups.push(group);
}
