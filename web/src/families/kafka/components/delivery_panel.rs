//! The delivery lesson's picture: per group the exact tallies (lost, duplicated, exactly once,
//! dead-lettered, lost to retention), each partition's newest records as the output store sees
//! them, the sink as a table filling with writes, the dead-letter topic beside the main topic,
//! and buttons that crash or start a member of the selected group, reset that group's offsets
//! (to earliest, latest or a time), or start a new group at earliest. Buttons add scheduled
//! actions (or a group) to the scenario at the current time.

use crate::families::kafka::components::counters::counter;
use crate::families::kafka::components::delivery_log::DeliveryLog;
use crate::platform::bounded::bounded;
use crate::platform::markup::{put, written, Escaped};
use crate::platform::palette::group_colour;
use crate::platform::shared::Shared;
use crate::platform::typed_number::parse_decimal;
use crate::shell::family::Edit;
use streamlab_sim::kafka::group::MemberPhase;
use streamlab_sim::kafka::scenario::{
    AutoOffsetReset, GroupConfig, MemberAction, OffsetTarget, Scenario, DEFAULT_GROUP_IDS,
    MAX_GROUPS,
};
use streamlab_sim::kafka::snapshot::{GroupView, Snapshot};
use yew::prelude::*;

/// Rows of the sink table.
const SINK_ROWS: usize = 8;

#[derive(Properties, PartialEq)]
pub struct DeliveryPanelProps {
    /// Equal by identity: a new snapshot is a new picture, and comparing two snapshots field
    /// by field cost more than drawing.
    pub snapshot: Shared<Snapshot>,
    pub now_ms: u64,
    /// (group id, member id, action) to schedule now.
    pub on_act: Callback<(String, String, MemberAction)>,
    pub on_edit: Callback<Edit<Scenario>>,
}

/// What each colour and mark in the log means.
const LEGEND: &str = concat!(
    r#"<p class="legend delivery-legend">"#,
    r#"<span class="swatch cell-once">✓ written once</span>"#,
    r#"<span class="swatch cell-repeated">×2 written again: a second effect</span>"#,
    r#"<span class="swatch cell-ignored">= written again, ignored by the store</span>"#,
    r#"<span class="swatch cell-lost">✕ lost: never written</span>"#,
    r#"<span class="swatch cell-dead">D dead-lettered</span>"#,
    r#"<span class="swatch cell-waiting">waiting</span>"#,
    r#"<span class="swatch cell-deleted">deleted by retention</span>"#,
    r#"<span class="swatch cell-risk-lost">lost if its owner dies now</span>"#,
    r#"<span class="swatch cell-risk-reread">re-read if its owner dies now</span>"#,
    r#"<span>▲ committed offset, | processed up to here</span>"#,
    "</p>"
);

#[function_component(DeliveryPanel)]
pub fn delivery_panel(props: &DeliveryPanelProps) -> Html {
    // The group the buttons act on, and the time a reset to a timestamp goes back to (None:
    // ten seconds before now).
    let selected = use_state(|| 0usize);
    let reset_at_s = use_state(|| None::<u64>);
    html! {
        <section class="delivery" aria-label="Delivery guarantees">
            { for (0..props.snapshot.groups.len()).map(|index| group_block(&props.snapshot, index)) }
            { actions(props, &selected, &reset_at_s) }
            { Html::from_html_unchecked(LEGEND.into()) }
        </section>
    }
}

/// One group's tallies, log, dead-letter topic and sink. Everything but the log (a component
/// with its own pointer state) is written as markup: this panel's `html!` trees were one of
/// the heaviest functions of the delivery bundle.
fn group_block(snapshot: &Shared<Snapshot>, index: usize) -> Html {
    let group = &snapshot.groups[index];
    let id = Escaped(&group.group_id);
    html! {
        <div class="delivery-group" style={format!("border-top-color: {}", group_colour(index))}>
            { written(|out| put(out, format_args!("<h3>{id} — {}</h3>", strategy_words(group)))) }
            <div class="counters tallies" data-group={group.group_id.clone()}>
                { for tallies(group).into_iter().map(tally) }
            </div>
            <div class="delivery-row-pair">
                <div>
                    { written(|out| put(out, format_args!(
                        "<h4>{} — the records around {id}'s position, as its sink sees them</h4>",
                        Escaped(&snapshot.topic_name),
                    ))) }
                    <DeliveryLog snapshot={snapshot.clone()} {index} />
                </div>
                if !group.dead_letter_topic.is_empty() {
                    { written(|out| dead_letters(out, group)) }
                }
            </div>
            { written(|out| sink_table(out, group)) }
        </div>
    }
}

/// A tally's value, its label, and its classes when the value is above zero (` flash` alone
/// at zero).
type Tally = (u64, &'static str, &'static str);

fn tallies(group: &GroupView) -> Vec<Tally> {
    let t = group.tallies;
    let mut tallies = vec![
        (t.lost, "records lost (never had an effect)", " flash alert"),
        (
            t.duplicated,
            "records with duplicate effects",
            " flash repeat",
        ),
        (t.exactly_once, "records with exactly one effect", " flash"),
        (t.dead_lettered, "records dead-lettered", " flash warn"),
        (
            group.lost_to_retention,
            "of the lost: deleted by retention unread",
            " flash alert",
        ),
    ];
    if group.lost_to_deletion > 0 {
        tallies.push((
            group.lost_to_deletion,
            "deleted unread by another group's deleteRecords",
            " flash alert",
        ));
    }
    tallies
}

/// One tally: it flashes when its value changes, and takes its class above zero.
fn tally((value, label, class): Tally) -> Html {
    counter(value, label, if value > 0 { class } else { " flash" })
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

/// Seconds of simulated time.
fn seconds(at_ms: u64) -> f64 {
    at_ms as f64 / 1000.0
}

/// The dead-letter topic's newest records.
fn dead_letters(out: &mut String, group: &GroupView) {
    put(
        out,
        format_args!(
            r#"<div class="dlq" aria-label="Dead-letter topic"><h4>{} (dead-letter topic)</h4>"#,
            Escaped(&group.dead_letter_topic)
        ),
    );
    if group.recent_dead_letters.is_empty() {
        out.push_str(r#"<p class="muted">empty</p>"#);
    }
    out.push_str("<ol>");
    for e in group.recent_dead_letters.iter().rev().take(SINK_ROWS) {
        let (p, offset, at_s) = (e.partition, e.offset, seconds(e.at_ms));
        put(out, format_args!("<li>p{p} offset {offset} at {at_s:.1} s"));
        if e.nth > 1 {
            put(out, format_args!(" (copy {})", e.nth));
        }
        out.push_str("</li>");
    }
    out.push_str("</ol></div>");
}

/// The output store's newest writes, a repeat or an ignored write marked.
fn sink_table(out: &mut String, group: &GroupView) {
    let id = Escaped(&group.group_id);
    put(
        out,
        format_args!(
            r#"<table class="sink-table" aria-label="{id}'s sink, newest writes first"><caption>{id}'s output store, newest writes first</caption><thead><tr><th>time</th><th>from</th><th>key</th><th>write</th></tr></thead><tbody>"#
        ),
    );
    for e in group.recent_effects.iter().rev().take(SINK_ROWS) {
        let class = match (e.nth > 1, e.ignored) {
            (_, true) => r#" class="ignored""#,
            (true, false) => r#" class="duplicate""#,
            (false, false) => "",
        };
        let (at_s, p, offset) = (seconds(e.at_ms), e.partition, e.offset);
        put(
            out,
            format_args!("<tr{class}><td>{at_s:.2} s</td><td>p{p} @ {offset}</td><td>"),
        );
        match e.key {
            Some(key) => put(out, format_args!("k{key}")),
            None => out.push_str("null"),
        }
        out.push_str("</td><td>");
        match (e.nth > 1, e.ignored) {
            (_, true) if e.nth == 1 => out.push_str("ignored (its key holds a newer offset)"),
            (_, true) => put(out, format_args!("#{}: ignored (already applied)", e.nth)),
            (true, false) => put(out, format_args!("#{}: a duplicate effect", e.nth)),
            (false, false) => out.push_str("first"),
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table>");
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

#[cfg(test)]
mod tests {
    use super::*;
    use streamlab_sim::kafka::snapshot::DRAWN_CELLS;
    use streamlab_sim::kafka::World;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The first group's view after `at_ms` of `scenario`.
    fn group_at(scenario: &Scenario, at_ms: u64) -> GroupView {
        let mut world = World::new(scenario).unwrap_or_else(|_| panic!("a valid scenario"));
        world.advance_to(at_ms);
        world.snapshot(DRAWN_CELLS).groups.remove(0)
    }

    /// A run whose every 50th record fails for good and goes to a dead-letter topic.
    fn poisoned(group_id: &str, dead_letter_topic: &str) -> Scenario {
        let mut scenario = Scenario::default();
        let group = &mut scenario.groups[0];
        group.group_id = group_id.into();
        group.errors.poison_every_nth = 50;
        group.errors.max_attempts = 1;
        group.errors.dead_letter_topic = dead_letter_topic.into();
        scenario
    }

    #[wasm_bindgen_test]
    fn the_sink_and_the_dead_letters_write_names_as_text() {
        let group = group_at(&poisoned("<b>g</b>", r#""><script>x</script>"#), 20_000);
        assert!(
            !group.recent_dead_letters.is_empty(),
            "the run dead-letters"
        );
        let mut out = String::new();
        sink_table(&mut out, &group);
        dead_letters(&mut out, &group);
        assert!(!out.contains("<b>") && !out.contains("<script"), "{out}");
        assert!(out.contains("&lt;b&gt;g&lt;/b&gt;'s output store"), "{out}");
        assert!(out.contains("&quot;&gt;&lt;script&gt;x&lt;/script&gt; (dead-letter topic)"));
    }

    #[wasm_bindgen_test]
    fn the_sink_lists_the_newest_writes_first_at_most_a_table_full() {
        let group = group_at(&Scenario::default(), 20_000);
        let mut out = String::new();
        sink_table(&mut out, &group);
        let rows: Vec<&str> = out.split("<tr").skip(2).collect();
        assert_eq!(rows.len(), SINK_ROWS);
        let newest = group
            .recent_effects
            .last()
            .unwrap_or_else(|| panic!("writes"));
        let from = format!("<td>p{} @ {}</td>", newest.partition, newest.offset);
        assert!(rows[0].contains(&from), "{} lacks {from}", rows[0]);
    }

    /// The markup of a node written as text.
    fn markup_of(node: Html) -> String {
        match node {
            Html::VRaw(raw) => raw.html.to_string(),
            _ => panic!("a node written as text"),
        }
    }

    #[wasm_bindgen_test]
    fn a_counter_flashes_always_and_takes_its_warning_class_only_above_zero() {
        let lost = markup_of(tally((3, "records lost", " flash alert")));
        assert!(
            lost.contains(r#"class="counter-value flash alert">3<"#),
            "{lost}"
        );
        let none = markup_of(tally((0, "records lost", " flash alert")));
        assert!(none.contains(r#"class="counter-value flash">0<"#), "{none}");
    }

    #[wasm_bindgen_test]
    fn records_skipped_without_a_dead_letter_topic_are_tallied_as_lost() {
        let group = group_at(&poisoned("g", ""), 20_000);
        let tallies = tallies(&group);
        assert_eq!(
            tallies.len(),
            5,
            "no deleteRecords tally while nothing was deleted"
        );
        let (lost, label, class) = tallies[0];
        assert!(lost > 0, "{lost} lost");
        assert_eq!(
            (label, class),
            ("records lost (never had an effect)", " flash alert")
        );
    }
}
