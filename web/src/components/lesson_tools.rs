//! The lesson's tools, beside the knobs: the embed snippet, exports (chart as PNG, metrics as
//! CSV, scenario as JSON) and the "real config" panel, the Kafka properties or Flink calls the
//! knobs stand for.

use crate::components::embed_button::EmbedButton;
use crate::export::{
    download_canvas, download_text, event_time_csv_at, group_csv_at, scenario_json,
};
use crate::real_config::{flink_settings, kafka_consumer_properties};
use streamlab_sim::eventtime::EventTimeScenario;
use streamlab_sim::Scenario;
use yew::prelude::*;

/// The run the tools export, as the playground holds it.
#[derive(Clone, PartialEq)]
pub enum ToolsFor {
    Group {
        scenario: Scenario,
        now_ms: u64,
    },
    EventTime {
        scenario: EventTimeScenario,
        now_ms: i64,
        /// The canvas chart to save as PNG, if the lesson's view has one.
        chart_selector: Option<&'static str>,
    },
}

#[derive(Properties, PartialEq)]
pub struct LessonToolsProps {
    /// The share link of the current scenario.
    pub url: AttrValue,
    pub slug: &'static str,
    pub title: &'static str,
    pub of: ToolsFor,
}

#[function_component(LessonTools)]
pub fn lesson_tools(props: &LessonToolsProps) -> Html {
    let (config, config_title, json_note) = {
        let of = props.of.clone();
        let memo = use_memo(scenario_key(&of), move |_| real_config(&of));
        (*memo).clone()
    };
    let slug = props.slug;
    let chart = chart_selector(&props.of).map(|selector| {
        let onclick = Callback::from(move |_: MouseEvent| {
            download_canvas(selector, &format!("streamlab-{slug}-chart.png"));
        });
        html! { <button type="button" {onclick}>{ "Chart (PNG)" }</button> }
    });
    let csv = {
        let of = props.of.clone();
        Callback::from(move |_: MouseEvent| {
            let text = match &of {
                ToolsFor::Group { scenario, now_ms } => group_csv_at(scenario, *now_ms),
                ToolsFor::EventTime {
                    scenario, now_ms, ..
                } => event_time_csv_at(scenario, *now_ms),
            };
            download_text(&format!("streamlab-{slug}-metrics.csv"), "text/csv", &text);
        })
    };
    let json = {
        let of = props.of.clone();
        Callback::from(move |_: MouseEvent| {
            let text = match &of {
                ToolsFor::Group { scenario, .. } => scenario_json(scenario),
                ToolsFor::EventTime { scenario, .. } => scenario_json(scenario),
            };
            download_text(
                &format!("streamlab-{slug}-scenario.json"),
                "application/json",
                &text,
            );
        })
    };
    html! {
        <section class="tools" aria-label="Embed and export">
            <div class="tool-buttons">
                <EmbedButton url={props.url.clone()} slug={props.slug} title={props.title} />
                { for chart }
                <button type="button" onclick={csv}>{ "Metrics (CSV)" }</button>
                <button type="button" onclick={json}>{ "Scenario (JSON)" }</button>
            </div>
            <details class="real-config">
                <summary>{ config_title }</summary>
                <pre><code>{ config }</code></pre>
                <p>{ json_note }</p>
            </details>
        </section>
    }
}

/// What the real-config memo depends on: the scenario only, not the clock.
#[derive(PartialEq)]
enum ScenarioKey {
    Group(Scenario),
    EventTime(EventTimeScenario),
}

fn scenario_key(of: &ToolsFor) -> ScenarioKey {
    match of {
        ToolsFor::Group { scenario, .. } => ScenarioKey::Group(scenario.clone()),
        ToolsFor::EventTime { scenario, .. } => ScenarioKey::EventTime(scenario.clone()),
    }
}

fn chart_selector(of: &ToolsFor) -> Option<&'static str> {
    match of {
        ToolsFor::Group { .. } => Some(".charts canvas"),
        ToolsFor::EventTime { chart_selector, .. } => *chart_selector,
    }
}

/// The config text, the panel's title, and what reads the exported JSON.
fn real_config(of: &ToolsFor) -> (String, &'static str, &'static str) {
    match of {
        ToolsFor::Group { scenario, .. } => (
            kafka_consumer_properties(scenario),
            "Real config: Kafka consumer properties",
            "The exported JSON runs headless with `streamlab simulate --scenario FILE`.",
        ),
        ToolsFor::EventTime { scenario, .. } => (
            flink_settings(scenario),
            "Real config: Flink (and Beam) settings",
            "The exported JSON is the exact scenario this lesson's share link carries; the \
             `streamlab` command does not run event-time scenarios (its `window` subcommand \
             takes a window config and events instead).",
        ),
    }
}
