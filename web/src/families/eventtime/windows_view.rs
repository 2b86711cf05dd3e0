//! The Windows view of the event-time playground: keeps a [`WindowTypesRun`] (the four window
//! types over the same records) in step with the playground's scenario and clock, and turns it
//! into the chart's data, the narration and the figures the end-to-end tests read. The
//! playground's own world still drives the clock; this only follows it.

use crate::families::eventtime::components::windows_chart::WindowsChartData;
use crate::platform::shared::Shared;
use crate::shell::components::narration::NarrationLine;
use streamlab_sim::eventtime::events::clock_time as clock;
use streamlab_sim::eventtime::{EventTimeScenario, WindowTypesRun};
use streamlab_sim::window::{Timing, WindowSpec};
use wasm_bindgen::JsValue;

/// The device whose windows the picture shows.
const SHOWN_DEVICE: u32 = 0;

pub struct WindowsView {
    scenario: EventTimeScenario,
    run: WindowTypesRun,
    pub chart: Shared<WindowsChartData>,
    pub narration: Shared<Vec<NarrationLine>>,
    /// Panes of the four runs when the narration was last rebuilt.
    panes_seen: usize,
}

impl WindowsView {
    /// `None` if the scenario cannot run (the playground shows why).
    pub fn new(scenario: &EventTimeScenario) -> Option<Self> {
        let run = WindowTypesRun::new(scenario).ok()?;
        let mut view = Self {
            scenario: scenario.clone(),
            chart: Shared::new(chart_data(&run, scenario)),
            narration: Shared::new(Vec::new()),
            run,
            panes_seen: usize::MAX,
        };
        view.refresh();
        Some(view)
    }

    /// Follows the playground to `scenario` at `now_ms`: a new scenario or a clock that went
    /// back (reset) means a new run.
    pub fn sync(&mut self, scenario: &EventTimeScenario, now_ms: i64) {
        if *scenario != self.scenario || now_ms < self.run.now_ms() {
            if let Some(fresh) = Self::new(scenario) {
                *self = fresh;
            }
        }
        self.run.advance_to(now_ms);
        self.refresh();
    }

    fn refresh(&mut self) {
        self.chart = Shared::new(chart_data(&self.run, &self.scenario));
        let panes: usize = self
            .run
            .worlds()
            .iter()
            .map(|w| w.event_time_panes().len())
            .sum();
        if panes != self.panes_seen {
            self.panes_seen = panes;
            self.narration = Shared::new(narrate(&self.run));
        }
    }

    /// Adds the view's figures to `window.__streamlab_eventtime` (which the playground has
    /// just published): per window type, in lane order, how many windows the shown device has
    /// and the most windows one of its records falls in, and the late panes of each run.
    pub fn publish(&self) {
        let Some(hooks) = web_sys::window()
            .and_then(|w| {
                js_sys::Reflect::get(&w, &JsValue::from_str("__streamlab_eventtime")).ok()
            })
            .filter(|hooks| hooks.is_object())
        else {
            return;
        };
        let numbers = |values: Vec<f64>| {
            values
                .into_iter()
                .map(JsValue::from_f64)
                .collect::<js_sys::Array>()
        };
        let lanes = &self.chart.picture.lanes;
        let set = |name: &str, value: JsValue| {
            let _ = js_sys::Reflect::set(&hooks, &JsValue::from_str(name), &value);
        };
        set(
            "windowsPerType",
            numbers(lanes.iter().map(|l| l.windows.len() as f64).collect()).into(),
        );
        set(
            "mostWindowsPerRecord",
            numbers(
                lanes
                    .iter()
                    .map(|l| f64::from(l.records.iter().map(|r| r.windows).max().unwrap_or(0)))
                    .collect(),
            )
            .into(),
        );
        set(
            "latePanesPerType",
            numbers(
                self.run
                    .worlds()
                    .iter()
                    .map(|w| {
                        w.event_time_panes()
                            .iter()
                            .filter(|p| p.timing == Timing::Late)
                            .count() as f64
                    })
                    .collect(),
            )
            .into(),
        );
    }
}

fn chart_data(run: &WindowTypesRun, scenario: &EventTimeScenario) -> WindowsChartData {
    let size_ms = scenario.compared.tumbling_size_ms.max(1);
    // End the axis on a tumbling boundary so the last tumbling window is whole.
    let x_end_ms = (scenario.duration_ms.max(1) + size_ms - 1) / size_ms * size_ms;
    WindowsChartData {
        picture: run.picture(SHOWN_DEVICE),
        compared: scenario.compared.clone(),
        x_end_ms,
        devices: scenario.keys,
    }
}

/// "0:10–0:20", or with tenths of a second when both ends fall in the same second (a short
/// session): "0:39.2–0:39.7".
fn span(start_ms: i64, end_ms: i64) -> String {
    let (from, to) = (clock(start_ms), clock(end_ms));
    if from == to {
        let tenths = |ms: i64| ms.rem_euclid(1000) / 100;
        format!("{from}.{}–{to}.{}", tenths(start_ms), tenths(end_ms))
    } else {
        format!("{from}–{to}")
    }
}

fn kind_name(spec: WindowSpec) -> &'static str {
    match spec {
        WindowSpec::Tumbling { .. } => "Tumbling",
        WindowSpec::Hopping { .. } => "Hopping",
        WindowSpec::Sliding { .. } => "Sliding",
        WindowSpec::Session { .. } => "Session",
    }
}

/// The shown device's panes, in processing-time order: every tumbling and session answer,
/// and for the overlapping kinds (too many to list) only the late ones, which are the news.
fn narrate(run: &WindowTypesRun) -> Vec<NarrationLine> {
    let mut lines: Vec<NarrationLine> = Vec::new();
    for world in run.worlds() {
        let spec = world.scenario().window;
        let overlapping = matches!(
            spec,
            WindowSpec::Hopping { .. } | WindowSpec::Sliding { .. }
        );
        for pane in world.event_time_panes() {
            let late = pane.timing == Timing::Late;
            if pane.window.key != SHOWN_DEVICE || (overlapping && !late) {
                continue;
            }
            let span = span(pane.window.start_ms.max(0), pane.window.end_ms);
            let records = match pane.count {
                1 => "1 record".to_string(),
                n => format!("{n} records"),
            };
            let text = if late {
                format!(
                    "{} window {span} fired again with {records}: a late record landed in it.",
                    kind_name(spec)
                )
            } else {
                format!(
                    "{} window {span} fired with {records} once the watermark passed its end.",
                    kind_name(spec)
                )
            };
            lines.push(NarrationLine {
                at_ms: pane.emitted_at_ms.max(0) as u64,
                text,
                kind: if late { "commit" } else { "caught-up" },
            });
        }
    }
    streamlab_sim::replay::sort::sort_by_key(&mut lines, |line| line.at_ms);
    lines
}
