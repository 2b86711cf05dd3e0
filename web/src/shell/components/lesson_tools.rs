//! The lesson's tools, beside the knobs: the embed snippet, exports (charts as PNG, whether
//! drawn on a canvas or as SVG; metrics as CSV, scenario as JSON) and the "real config" panel, the Kafka properties or Flink calls the
//! knobs stand for.

use crate::shell::components::embed_button::EmbedButton;
use crate::shell::export::{
    download_canvas, download_text, event_time_csv_at, group_csv_at, scenario_json,
};
use crate::shell::real_config::{flink_settings, kafka_consumer_properties};
use crate::shell::svg_png::download_svg;
use streamlab_sim::eventtime::EventTimeScenario;
use streamlab_sim::kafka::Scenario;
use yew::prelude::*;

/// The run the tools export, as the playground holds it.
#[derive(Clone, PartialEq)]
pub enum ToolsFor {
    Group {
        scenario: Scenario,
        now_ms: u64,
        /// Whether the lesson draws the delivery log (an SVG picture of its own to save).
        delivery_log: bool,
    },
    EventTime {
        scenario: EventTimeScenario,
        now_ms: i64,
        /// The chart (a canvas or an SVG) to save as PNG, if the lesson's view has one.
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
    let pictures = pictures(&props.of)
        .into_iter()
        .map(|(label, selector, file)| {
            let onclick = Callback::from(move |_: MouseEvent| {
                download_picture(selector, &format!("streamlab-{slug}-{file}.png"));
            });
            html! { <button type="button" {onclick}>{ label }</button> }
        });
    let csv = {
        let of = props.of.clone();
        Callback::from(move |_: MouseEvent| {
            let text = match &of {
                ToolsFor::Group {
                    scenario, now_ms, ..
                } => group_csv_at(scenario, *now_ms),
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
                { for pictures }
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

/// The pictures the lesson can save: (button label, selector, file name part).
fn pictures(of: &ToolsFor) -> Vec<(&'static str, &'static str, &'static str)> {
    match of {
        ToolsFor::Group { delivery_log, .. } => {
            let mut pictures = vec![("Chart (PNG)", ".charts canvas", "chart")];
            if *delivery_log {
                pictures.push(("Log (PNG)", ".delivery-log", "log"));
            }
            pictures
        }
        ToolsFor::EventTime { chart_selector, .. } => chart_selector
            .map(|selector| ("Chart (PNG)", selector, "chart"))
            .into_iter()
            .collect(),
    }
}

/// Saves the picture at `selector`: a canvas as it is, SVG with its theme colours inlined.
fn download_picture(selector: &str, name: &str) {
    if !download_canvas(selector, name) {
        download_svg(selector, name);
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
