//! What the event-time family keeps per run for drawing, by lesson view: "Which clock?" (the
//! arrivals strip and the counts per window against the truth), the watermarks picture
//! (records on event time × processing time, the panes, what became of late records), or the
//! Windows lesson's four window types over the same records ([`WindowsView`]). Costly parts
//! are rebuilt only when a pane fired since the last time.

use super::components::clocks_chart::WindowCounts;
use super::components::strip::{StripData, StripDot};
use super::components::watermark_chart::WatermarkChartData;
use super::components::watermark_counters::WatermarkFigures;
use super::components::watermark_panes::{self, PaneEvent};
use super::windows_view::WindowsView;
use super::EventTimeView;
use crate::platform::bounded::bounded;
use crate::platform::shared::Shared;
use streamlab_sim::eventtime::{EventTimeScenario, EventTimeSnapshot, EventTimeWorld};
use streamlab_sim::window::{Watermark, WindowSpec};

/// Processing time a read record takes to drop into the lower lane of the strip.
const LAND_MS: f64 = 1_500.0;

/// The figures every view's counters show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub now_ms: i64,
    pub watermark: Watermark,
    pub input_ended: bool,
    pub backlog: u64,
    pub processed: u64,
}

pub struct EventTimeRunView {
    pub kind: EventTimeView,
    pub clock: Clock,
    pub reduced_motion: bool,
    /// "Which clock?": the strip and the counts per window.
    pub strip: Shared<StripData>,
    pub counts: Shared<WindowCounts>,
    /// The watermarks view's data.
    pub watermarks: Option<WatermarkPanels>,
    /// The Windows lesson's four runs.
    pub windows: Option<WindowsView>,
    /// Panes (and drops, idleness changes) when the slow parts were last rebuilt.
    seen: usize,
}

/// What the watermarks view draws, rebuilt from each snapshot.
pub struct WatermarkPanels {
    pub chart: Shared<WatermarkChartData>,
    pub figures: WatermarkFigures,
    /// Panes, drops and idleness changes; rebuilt only when one of them was added.
    pub events: Shared<Vec<PaneEvent>>,
}

impl EventTimeRunView {
    pub fn new(kind: EventTimeView, reduced_motion: bool) -> Self {
        Self {
            kind,
            clock: Clock {
                now_ms: 0,
                watermark: Watermark::MinusInfinity,
                input_ended: false,
                backlog: 0,
                processed: 0,
            },
            reduced_motion,
            strip: Shared::new(StripData::default()),
            counts: Shared::new(WindowCounts::default()),
            watermarks: None,
            windows: None,
            seen: usize::MAX,
        }
    }

    /// Brings the view to `world`'s time.
    pub fn refresh(&mut self, world: &EventTimeWorld, force: bool) {
        if force {
            self.seen = usize::MAX;
        }
        match self.kind {
            EventTimeView::Windows => self.refresh_windows(world),
            EventTimeView::Watermarks => {
                let snapshot = world.snapshot();
                self.refresh_clock(world, &snapshot);
                self.refresh_watermarks(world.scenario(), &snapshot);
            }
            EventTimeView::Clocks => {
                let snapshot = world.snapshot();
                self.refresh_clock(world, &snapshot);
                self.refresh_clocks(world, &snapshot);
            }
        }
    }

    fn refresh_clock(&mut self, world: &EventTimeWorld, snapshot: &EventTimeSnapshot) {
        self.clock = Clock {
            now_ms: world.now_ms(),
            watermark: snapshot.combined_watermark,
            input_ended: snapshot.input_ended,
            backlog: snapshot.backlog,
            processed: snapshot.records_seen.len() as u64,
        };
    }

    /// The Windows view follows the world's clock with its four runs.
    fn refresh_windows(&mut self, world: &EventTimeWorld) {
        let now_ms = world.now_ms();
        match &mut self.windows {
            Some(view) => view.sync(world.scenario(), now_ms),
            None => {
                self.windows = WindowsView::new(world.scenario());
                if let Some(view) = &mut self.windows {
                    view.sync(world.scenario(), now_ms);
                }
            }
        }
    }

    /// The watermarks view: chart and counters every time (records appear as they are
    /// read), the pane list only when a pane, drop or idleness change was added.
    fn refresh_watermarks(&mut self, scenario: &EventTimeScenario, snapshot: &EventTimeSnapshot) {
        let chart = WatermarkChartData::from_snapshot(snapshot, scenario);
        let figures = WatermarkFigures::from_snapshot(snapshot, &chart.dots);
        let seen = snapshot.event_time_panes.len()
            + snapshot.side_outputs.len()
            + snapshot.dropped as usize
            + snapshot.idleness_changes.len();
        let events = match self.watermarks.take() {
            Some(panels) if seen == self.seen => panels.events,
            _ => {
                self.seen = seen;
                Shared::new(watermark_panes::pane_events(
                    snapshot,
                    scenario,
                    &chart.dots,
                ))
            }
        };
        self.watermarks = Some(WatermarkPanels {
            chart: Shared::new(chart),
            figures,
            events,
        });
    }

    /// "Which clock?": the strip every time (it moves), the counts only when a window fired.
    fn refresh_clocks(&mut self, world: &EventTimeWorld, snapshot: &EventTimeSnapshot) {
        let scenario = world.scenario();
        let outage = outage_span_ms(scenario);
        let now_ms = world.now_ms();
        let timestamp = scenario.timestamp;
        let reduced_motion = self.reduced_motion;
        let dots = world
            .records()
            .iter()
            .filter(|r| r.received_ms <= now_ms)
            .map(|r| StripDot {
                event_ms: r.event_time_ms(timestamp),
                key: r.key,
                index: r.index,
                landed: if r.processed_ms > now_ms {
                    0.0
                } else if reduced_motion {
                    1.0
                } else {
                    bounded((now_ms - r.processed_ms) as f64 / LAND_MS, 0.05, 1.0)
                },
            })
            .collect();
        self.strip = Shared::new(StripData {
            dots,
            now_ms,
            watermark_ms: snapshot.combined_watermark.as_ms(),
            outage_ms: outage,
            axis_end_ms: world.input_end_ms().max(scenario.duration_ms),
            backlog: snapshot.backlog,
        });
        let panes = snapshot.event_time_panes.len() + snapshot.processing_time_panes.len();
        // Empty processing-time windows fire without a pane, so the clock passing a window
        // end also counts as a change.
        let window_ends_passed = match scenario.window {
            WindowSpec::Tumbling { size_ms } => (now_ms / size_ms) as usize,
            _ => 0,
        };
        let seen = panes * 1_000_003 + window_ends_passed;
        if seen != self.seen {
            self.seen = seen;
            self.counts = Shared::new(WindowCounts::from_rows(
                &snapshot.windows,
                scenario.window,
                now_ms,
                snapshot.combined_watermark,
                snapshot.input_ended,
                scenario.duration_ms,
                outage,
            ));
        }
    }
}

/// The outage in processing time, if the scenario has one.
pub fn outage_span_ms(scenario: &EventTimeScenario) -> Option<(i64, i64)> {
    let outage = &scenario.outage;
    (outage.duration_ms > 0).then_some((outage.start_ms, outage.start_ms + outage.duration_ms))
}
