//! The delivery lesson's knobs for one group: when it commits, what its sink does with a
//! repeat, random crashes, `auto.offset.reset`, the lag alert, and the error handler for
//! poison records; plus the topic's retention.

use crate::families::kafka::components::knob_panel::{edit_with, Edit};
use crate::platform::palette::group_colour;
use crate::widgets::number_knob::knob_range;
use crate::widgets::number_knob::NumberKnob;
use crate::widgets::select_knob::SelectKnob;
use crate::widgets::toggle_knob::ToggleKnob;
use streamlab_sim::kafka::scenario::{AutoOffsetReset, ManualCommit, Scenario};
use streamlab_sim::kafka::sink::SinkMode;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DeliveryKnobsProps {
    pub scenario: Scenario,
    pub on_change: Callback<Edit>,
}

const COMMITS: [(ManualCommit, &str, &str); 5] = [
    (
        ManualCommit::None,
        "none",
        "none (auto-commit / listener only)",
    ),
    (
        ManualCommit::BeforeProcessing,
        "before-processing",
        "commitSync() before processing",
    ),
    (
        ManualCommit::AfterEachRecord,
        "after-each-record",
        "commitSync() after each record",
    ),
    (
        ManualCommit::AfterBatch,
        "after-batch",
        "commitSync() after each batch",
    ),
    (
        ManualCommit::Transactional,
        "transactional",
        "in the output's transaction",
    ),
];

const RESETS: [(AutoOffsetReset, &str); 3] = [
    (AutoOffsetReset::Earliest, "earliest"),
    (AutoOffsetReset::Latest, "latest"),
    (AutoOffsetReset::None, "none"),
];

fn options<T>(items: &[(T, &'static str, &'static str)]) -> Vec<(AttrValue, AttrValue)> {
    items
        .iter()
        .map(|(_, v, t)| (AttrValue::from(*v), AttrValue::from(*t)))
        .collect()
}

#[function_component(DeliveryKnobs)]
pub fn delivery_knobs(props: &DeliveryKnobsProps) -> Html {
    let s = &props.scenario;
    let range = knob_range;
    let on = &props.on_change;
    let topic = |f: fn(&mut Scenario, f64)| edit_with(on, f);
    html! {
        <section class="knobs delivery-knobs" aria-label="Delivery knobs">
            <fieldset>
                <legend>{ "Topic retention" }</legend>
                <NumberKnob label="Retention time" config_name={Some(AttrValue::from("retention.ms"))} unit="ms"
                    value={s.topic.retention_ms as f64}
                    bounds={range("topic.retention_ms")}
                    slider_max={Some(120_000.0)} step={1000.0}
                    hint="Records older than this are deleted, read or not (Kafka default 604800000, seven days; -1 keeps them)."
                    on_change={topic(|s, v| s.topic.retention_ms = v as i64)} />
                <NumberKnob label="Retention size" config_name={Some(AttrValue::from("retention.bytes"))} unit="bytes"
                    value={s.topic.retention_bytes as f64}
                    bounds={range("topic.retention_bytes")}
                    slider_max={Some(10_000_000.0)} step={1000.0}
                    hint="A partition larger than this deletes its oldest records (default -1: no limit). Records are 1 kB here."
                    on_change={topic(|s, v| s.topic.retention_bytes = v as i64)} />
                <NumberKnob label="Retention check" config_name={Some(AttrValue::from("log.retention.check.interval.ms"))} unit="ms"
                    value={f64::from(s.broker.log_retention_check_interval_ms)}
                    bounds={range("broker.log_retention_check_interval_ms")}
                    slider_max={Some(300_000.0)} step={1000.0}
                    hint="How often the broker deletes what has expired (default 300000): the log start jumps at each check."
                    on_change={topic(|s, v| s.broker.log_retention_check_interval_ms = v as u32)} />
            </fieldset>
            { for (0..s.groups.len()).map(|i| group_knobs(s, i, on)) }
        </section>
    }
}

fn group_knobs(s: &Scenario, i: usize, on: &Callback<Edit>) -> Html {
    let group = &s.groups[i];
    let scope = AttrValue::from(format!("d{i}-"));
    let range = knob_range;
    let number = |f: fn(&mut Scenario, usize, f64)| edit_with(on, move |s, v: f64| f(s, i, v));
    let toggle = |f: fn(&mut Scenario, usize, bool)| edit_with(on, move |s, v: bool| f(s, i, v));
    let commit_changed = edit_with(on, move |s, v: String| {
        if let Some((c, _, _)) = COMMITS.iter().find(|(_, name, _)| *name == v) {
            s.groups[i].manual_commit = *c;
        }
    });
    let sink_changed = edit_with(on, move |s, v: String| {
        s.groups[i].sink = match v.as_str() {
            "idempotent" => SinkMode::Idempotent,
            "by-key" => SinkMode::ByKey,
            _ => SinkMode::Plain,
        };
    });
    let reset_changed = edit_with(on, move |s, v: String| {
        if let Some((r, _)) = RESETS.iter().find(|(_, name)| *name == v) {
            s.groups[i].auto_offset_reset = *r;
        }
    });
    let commit_name = COMMITS
        .iter()
        .find(|(c, _, _)| *c == group.manual_commit)
        .map_or("none", |c| c.1);
    let reset_name = RESETS
        .iter()
        .find(|(r, _)| *r == group.auto_offset_reset)
        .map_or("latest", |r| r.1);
    let sinks = vec![
        (
            AttrValue::from("plain"),
            AttrValue::from("plain: every write is an effect"),
        ),
        (
            AttrValue::from("idempotent"),
            AttrValue::from("idempotent: keyed by partition+offset"),
        ),
        (
            AttrValue::from("by-key"),
            AttrValue::from("upsert by key: newest offset wins"),
        ),
    ];
    let resets: Vec<(AttrValue, AttrValue)> = RESETS
        .iter()
        .map(|(_, n)| (AttrValue::from(*n), AttrValue::from(*n)))
        .collect();
    let errors = &group.errors;
    html! {
        <fieldset class="group-knobs" style={format!("border-left-color: {}", group_colour(i))}>
            <legend><code>{ "group.id" }</code>{ " = " }{ &group.group_id }</legend>
            <ToggleKnob label="Auto-commit" scope={scope.clone()}
                config_name={Some(AttrValue::from("enable.auto.commit"))} value={group.enable_auto_commit}
                hint="Commit the positions inside poll() every auto.commit.interval.ms (default true)."
                on_change={toggle(|s, i, v| s.groups[i].enable_auto_commit = v)} />
            <NumberKnob label="Auto-commit interval" scope={scope.clone()}
                config_name={Some(AttrValue::from("auto.commit.interval.ms"))} unit="ms"
                value={f64::from(group.auto_commit_interval_ms)}
                bounds={range("groups[].auto_commit_interval_ms")}
                slider_max={Some(30_000.0)} step={100.0}
                hint="Default 5000: up to five seconds of work is redone after a crash."
                on_change={number(|s, i, v| s.groups[i].auto_commit_interval_ms = v as u32)} />
            <SelectKnob label="Manual commit" scope={scope.clone()} config_name={Some(AttrValue::from("commitSync()"))}
                options={options(&COMMITS)} value={AttrValue::from(commit_name)}
                hint="Where the application commits by itself (turn auto-commit off to see it alone)."
                on_change={commit_changed} />
            <ToggleKnob label="Commit on revoke" scope={scope.clone()}
                config_name={Some(AttrValue::from("onPartitionsRevoked"))} value={group.commit_on_revoke}
                hint="A rebalance listener that commits before giving partitions up."
                on_change={toggle(|s, i, v| s.groups[i].commit_on_revoke = v)} />
            <SelectKnob label="Sink" scope={scope.clone()} options={sinks}
                value={AttrValue::from(sink_name(group.sink))}
                hint="What the output store does with a write it has already seen. Upsert by key keeps, per key, the highest input offset applied and ignores one that is not newer, so a replay never writes an old value back; a null key has nothing to upsert by and is appended."
                on_change={sink_changed} />
            <NumberKnob label="Random crashes: mean interval" scope={scope.clone()} unit="ms"
                value={group.crash_mean_interval_ms as f64}
                bounds={range("groups[].crash_mean_interval_ms")}
                slider_max={Some(60_000.0)} step={1000.0}
                hint="Each member crashes at random times this far apart on average (0: never); drawn from the seed."
                on_change={number(|s, i, v| s.groups[i].crash_mean_interval_ms = v as u64)} />
            <NumberKnob label="Down time after a crash" scope={scope.clone()} unit="ms"
                value={group.crash_down_ms as f64}
                bounds={range("groups[].crash_down_ms")}
                slider_max={Some(60_000.0)} step={1000.0}
                hint="How long a randomly crashed member stays down before it starts again."
                on_change={number(|s, i, v| s.groups[i].crash_down_ms = v as u64)} />
            <SelectKnob label="Offset reset" scope={scope.clone()}
                config_name={Some(AttrValue::from("auto.offset.reset"))} options={resets}
                value={AttrValue::from(reset_name)}
                hint="Where to read when there is no valid committed offset (default latest)."
                on_change={reset_changed} />
            <NumberKnob label="Lag alert" scope={scope.clone()} unit="records"
                value={group.lag_alert_records as f64}
                bounds={range("groups[].lag_alert_records")}
                slider_max={Some(5_000.0)} step={50.0}
                hint="Narrate an alert when a partition's lag passes this (0: at 100, 1000, ...)."
                on_change={number(|s, i, v| s.groups[i].lag_alert_records = v as u64)} />
            <NumberKnob label="Poison: every n-th record" scope={scope.clone()} unit="records"
                value={errors.poison_every_nth as f64}
                bounds={range("groups[].errors.poison_every_nth")}
                slider_max={Some(5_000.0)} step={1.0}
                hint="These records always fail processing (0: none)."
                on_change={number(|s, i, v| s.groups[i].errors.poison_every_nth = v as u64)} />
            <NumberKnob label="Transient failures" scope={scope.clone()} unit="per attempt"
                value={errors.transient_failure_probability}
                bounds={range("groups[].errors.transient_failure_probability")}
                step={0.001}
                hint="Any attempt fails with this probability (a timeout, a lock), drawn from the seed per record and attempt: most failing records get through on a retry and reach the sink once; only one that fails every attempt goes to the dead-letter topic."
                on_change={number(|s, i, v| s.groups[i].errors.transient_failure_probability = v)} />
            <NumberKnob label="Attempts" scope={scope.clone()}
                config_name={Some(AttrValue::from("FixedBackOff maxAttempts + 1"))} unit="attempts"
                value={f64::from(errors.max_attempts)}
                bounds={range("groups[].errors.max_attempts")}
                slider_max={Some(20.0)}
                hint="Deliveries before the error handler gives up (Spring's default handler: 10)."
                on_change={number(|s, i, v| s.groups[i].errors.max_attempts = v as u32)} />
            <NumberKnob label="Back-off" scope={scope.clone()}
                config_name={Some(AttrValue::from("FixedBackOff interval"))} unit="ms"
                value={errors.backoff_ms as f64}
                bounds={range("groups[].errors.backoff_ms")}
                slider_max={Some(10_000.0)} step={100.0}
                hint="Wait between attempts; the member reads nothing else meanwhile."
                on_change={number(|s, i, v| s.groups[i].errors.backoff_ms = v as u64)} />
            <ToggleKnob label="Dead-letter topic" scope={scope}
                config_name={Some(AttrValue::from("errors.deadletterqueue.topic.name"))}
                value={!errors.dead_letter_topic.is_empty()}
                hint="Publish a given-up record to <topic>.DLT; without it the record is skipped and lost."
                on_change={edit_with(on, move |s, v: bool| {
                    s.groups[i].errors.dead_letter_topic = if v { format!("{}.DLT", s.topic.name) } else { String::new() };
                })} />
        </fieldset>
    }
}

/// The sink select's value for a mode.
fn sink_name(mode: SinkMode) -> &'static str {
    match mode {
        SinkMode::Plain => "plain",
        SinkMode::Idempotent => "idempotent",
        SinkMode::ByKey => "by-key",
    }
}
