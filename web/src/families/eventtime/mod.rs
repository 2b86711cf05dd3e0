//! The event-time family: the "Which clock?", watermarks and Windows lessons, on the core's
//! event-time world (`streamlab_sim::eventtime`). Each lesson picks a view: the two clocks
//! against the truth, the watermark picture with event time across and processing time up,
//! or the four window types over one stream.

pub mod benches;
pub mod components;
pub mod device_marks;
pub mod export;
pub mod lessons;
pub mod real_config;
pub mod view;
pub mod windows_view;

use crate::platform::browser::prefers_reduced_motion;
use crate::platform::shared::Shared;
use crate::shell::compare::table_differences;
use crate::shell::components::narration::NarrationLine;
use crate::shell::components::timeline_scrubber::TimelineMark;
use crate::shell::family::Lesson;
use crate::shell::family::{CompareChange, Edit, LessonFamily, Picture, RealConfig, StageContext};
use crate::widgets::knob_rows::knob_panel;
use crate::widgets::lesson_thumbnail::Thumbnail;
use components::clocks_chart::EventTimeChart;
use components::clocks_counters::{eventtime_counters, EventTimeCountersProps};
use components::strip::EventTimeStrip;
use components::watermark_chart::WatermarkChart;
use components::watermark_counters::{watermark_counters, WatermarkCountersProps};
use components::watermark_panes::WatermarkPanes;
use components::windows_chart::WindowsChart;
use streamlab_sim::eventtime::knobs::KNOBS;
use streamlab_sim::eventtime::{
    EventTimeEvent, EventTimeEventKind, EventTimeScenario, EventTimeWorld, LateRecordPolicy,
};
use view::{outage_span_ms, EventTimeRunView};
use wasm_bindgen::JsValue;
use yew::prelude::*;
/// The family's own style rules (`static/families/eventtime.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/eventtime.css");

/// The event-time family.
pub struct EventTimeFamily;

/// The pictures an event-time lesson is built around.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EventTimeView {
    /// "Which clock?": the arrivals strip and counts per window against the truth.
    Clocks,
    /// Watermarks and late data: records on event time × processing time, the watermark
    /// line, the panes as they fire, drops and side outputs.
    Watermarks,
    /// The four window types side by side on one device's records.
    Windows,
}

impl LessonFamily for EventTimeFamily {
    type Sim = EventTimeWorld;
    type Options = EventTimeView;
    type View = EventTimeRunView;

    /// A three-minute run at 1× would take three minutes; 8× shows it in about 20 s.
    const INITIAL_SPEED_EXPONENT: i32 = 3;
    /// The input is bounded: once it ends, every window has fired and nothing more happens.
    const STOPS_AT_END: bool = true;

    fn new_view(lesson: &'static Lesson<Self>, _world: &EventTimeWorld) -> EventTimeRunView {
        EventTimeRunView::new(lesson.options, prefers_reduced_motion())
    }

    fn refresh(
        view: &mut EventTimeRunView,
        _lesson: &'static Lesson<Self>,
        world: &EventTimeWorld,
        force: bool,
    ) {
        view.refresh(world, force);
    }

    fn picture(
        _lesson: &'static Lesson<Self>,
        view: &EventTimeRunView,
        _ctx: &StageContext<EventTimeScenario>,
    ) -> Html {
        let clock = view.clock;
        match view.kind {
            EventTimeView::Windows => match &view.windows {
                Some(windows) => html! { <WindowsChart data={windows.chart.clone()} /> },
                None => html! {},
            },
            EventTimeView::Watermarks => match &view.watermarks {
                Some(panels) => html! {
                    <>
                        { watermark_counters(&WatermarkCountersProps { figures: panels.figures }) }
                        <div class="wm-stage">
                            <WatermarkChart data={panels.chart.clone()} />
                            <WatermarkPanes events={panels.events.clone()} />
                        </div>
                    </>
                },
                None => html! {},
            },
            EventTimeView::Clocks => html! {
                <>
                    { eventtime_counters(&EventTimeCountersProps {
                        now_ms: clock.now_ms,
                        watermark_ms: clock.watermark.as_ms(),
                        input_ended: clock.input_ended,
                        backlog: clock.backlog,
                        processed: clock.processed,
                        overcount: view.counts.largest_overcount().map(|(_, _, over)| over),
                    }) }
                    <EventTimeStrip data={view.strip.clone()} />
                    <EventTimeChart data={view.counts.clone()} />
                </>
            },
        }
    }

    fn panels(
        _lesson: &'static Lesson<Self>,
        _view: &EventTimeRunView,
        _ctx: &StageContext<EventTimeScenario>,
    ) -> Html {
        html! {}
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &EventTimeScenario,
        on_edit: &Callback<Edit<EventTimeScenario>>,
    ) -> Html {
        knob_panel(
            KNOBS,
            lesson.knob_sections,
            scenario,
            "et-knobs",
            "et-",
            on_edit,
        )
    }

    fn scheduled_marks(world: &EventTimeWorld) -> Vec<TimelineMark> {
        outage_span_ms(world.scenario())
            .map(|(from_ms, to_ms)| {
                let mark = |at_ms: i64, label: &str| TimelineMark {
                    at_ms: at_ms.max(0) as u64,
                    kind: "action",
                    label: label.into(),
                };
                vec![
                    mark(from_ms, "the processor stops"),
                    mark(to_ms, "the processor is back"),
                ]
            })
            .unwrap_or_default()
    }

    fn tone(event: &EventTimeEvent) -> &'static str {
        match event.kind {
            EventTimeEventKind::WindowClosed { count, truth, .. } if count == truth => "caught-up",
            EventTimeEventKind::PaneFired {
                count,
                truth: Some(truth),
                ..
            } if count == truth => "caught-up",
            EventTimeEventKind::PaneFired { .. } | EventTimeEventKind::PartitionActive { .. } => {
                "commit"
            }
            _ => "lag",
        }
    }

    fn own_narration(view: &EventTimeRunView) -> Option<Shared<Vec<NarrationLine>>> {
        view.windows
            .as_ref()
            .map(|windows| windows.narration.clone())
    }

    fn real_config(scenario: &EventTimeScenario) -> RealConfig {
        RealConfig {
            title: "Real config: Flink (and Beam) settings",
            text: real_config::flink_settings(scenario),
            note: "The exported JSON is the exact scenario this lesson's share link carries; \
                   `streamlab simulate --scenario FILE` runs it headless.",
        }
    }

    fn csv(scenario: &EventTimeScenario, at_ms: u64) -> String {
        export::event_time_csv_at(scenario, at_ms as i64)
    }

    fn pictures(lesson: &'static Lesson<Self>) -> Vec<Picture> {
        let selector = match lesson.options {
            EventTimeView::Clocks => ".et-chart canvas",
            EventTimeView::Watermarks => ".wm-chart svg",
            EventTimeView::Windows => ".wt-chart svg",
        };
        vec![("Chart (PNG)", selector, "chart")]
    }

    fn compare_changes(
        lesson: &'static Lesson<Self>,
    ) -> &'static [CompareChange<EventTimeScenario>] {
        match lesson.options {
            EventTimeView::Clocks => CLOCKS_COMPARISONS,
            EventTimeView::Watermarks => WATERMARK_COMPARISONS,
            EventTimeView::Windows => &[],
        }
    }

    fn differences(a: &EventTimeScenario, b: &EventTimeScenario) -> (String, String) {
        table_differences(KNOBS, a, b)
    }

    fn thumbnail(lesson: &'static Lesson<Self>) -> Thumbnail {
        match lesson.options {
            EventTimeView::Clocks => Thumbnail::Clocks,
            EventTimeView::Watermarks => Thumbnail::Watermark,
            EventTimeView::Windows => Thumbnail::Windows,
        }
    }

    fn publish_for_tests(view: &EventTimeRunView, world: &EventTimeWorld) {
        publish_for_tests(view, world);
        if let Some(windows) = &view.windows {
            windows.publish();
        }
    }
}

/// "Which clock?": the same devices and network with a processor that never stops, so the
/// processing-time spike is seen to come from the outage alone.
const CLOCKS_COMPARISONS: &[CompareChange<EventTimeScenario>] = &[CompareChange {
    label: "with a processor that never stops",
    apply: |s, _| s.outage.duration_ms = 0,
}];

/// The watermarks lesson: what another late policy, or waiting longer, would have done.
const WATERMARK_COMPARISONS: &[CompareChange<EventTimeScenario>] = &[
    CompareChange {
        label: "with a side output for late records",
        apply: |s, _| s.late_policy = LateRecordPolicy::SideOutput,
    },
    CompareChange {
        label: "with 10 s more allowed lateness",
        apply: |s, _| s.allowed_lateness_ms = s.allowed_lateness_ms.saturating_add(10_000),
    },
];

/// `window.__streamlab_eventtime`: read-only figures for the end-to-end tests.
fn publish_for_tests(view: &EventTimeRunView, world: &EventTimeWorld) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let counts = &view.counts;
    let hooks = js_sys::Object::new();
    let set = |name: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&hooks, &JsValue::from_str(name), &value);
    };
    let number = |value: u64| JsValue::from_f64(value as f64);
    set("simMs", JsValue::from_f64(world.now_ms() as f64));
    set("inputEndMs", JsValue::from_f64(world.input_end_ms() as f64));
    set(
        "maxProcessingOverTruth",
        counts
            .largest_overcount()
            .map_or(JsValue::NULL, |(_, _, over)| JsValue::from_f64(over as f64)),
    );
    let event_time_off = counts
        .event_time
        .iter()
        .map(|w| (w.count as i64 - counts.truth_of(w) as i64).abs())
        .max();
    set(
        "maxEventTimeOffTruth",
        event_time_off.map_or(JsValue::NULL, |off| JsValue::from_f64(off as f64)),
    );
    set(
        "eventTimeWindowsFired",
        number(counts.event_time.len() as u64),
    );
    if let Some(f) = view.watermarks.as_ref().map(|w| &w.figures) {
        set("dropped", number(f.dropped));
        set("sideOutputs", number(f.side_outputs));
        set("latePanes", number(f.late_panes));
        set("retractions", number(f.retractions));
        set("openWindows", number(f.open_windows));
        set(
            "longestWatermarkStallMs",
            JsValue::from_f64(f.longest_stall_ms as f64),
        );
        set(
            "firstIdleAtMs",
            f.first_idle_at_ms
                .map_or(JsValue::NULL, |at_ms| JsValue::from_f64(at_ms as f64)),
        );
    }
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("__streamlab_eventtime"), &hooks);
}
