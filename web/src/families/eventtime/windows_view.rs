//! The Windows view of the event-time playground: keeps a [`WindowTypesRun`] (the four window
//! types over the same records) in step with the playground's scenario and clock, and turns it
//! into the chart's data, the narration and the figures the end-to-end tests read. The
//! playground's own world still drives the clock; this only follows it.

use crate::families::eventtime::components::windows_chart::WindowsChartData;
use crate::platform::shared::Shared;
use crate::shell::components::narration::NarrationLine;
use streamlab_sim::eventtime::lane_events;
use streamlab_sim::eventtime::{
    EventTimeScenario, WindowTypesEvent, WindowTypesEventKind, WindowTypesRun,
};
use streamlab_sim::window::Timing;
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

/// The shown device's news from the core's lane events, in processing-time order (the core
/// stays silent on on-time hopping and sliding panes: every record lands in several).
fn narrate(run: &WindowTypesRun) -> Vec<NarrationLine> {
    run.events()
        .iter()
        .filter(|event| device_of(event) == SHOWN_DEVICE)
        .filter_map(|event| {
            let text = lane_events::narrate(event)?;
            let late = matches!(
                event.kind,
                WindowTypesEventKind::PaneFired { late: true, .. }
            ) || matches!(event.kind, WindowTypesEventKind::SessionsMerged { .. });
            Some(NarrationLine {
                at_ms: event.at_ms,
                text,
                kind: if late { "commit" } else { "caught-up" },
            })
        })
        .collect()
}

/// The device a lane event belongs to.
fn device_of(event: &WindowTypesEvent) -> u32 {
    match event.kind {
        WindowTypesEventKind::PaneFired { key, .. }
        | WindowTypesEventKind::SessionsMerged { key, .. } => key,
    }
}
