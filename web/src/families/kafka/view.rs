//! What the consumer-group family keeps per run for drawing: the snapshot and counters (every
//! frame), the charts, consumer metrics and member timelines (a few times a second while
//! playing, and at once when the picture is rebuilt or paused).

use super::components::client_metrics::GroupMetrics;
use super::components::counters::GroupCounters;
use super::components::lag_chart::ChartData;
use super::components::timelines::TimelineData;
use super::view_model::{chart_data, client_metric_rows, group_counters};
use crate::platform::shared::Shared;
use crate::shell::test_hooks::now_ms;
use streamlab_sim::kafka::snapshot::{Snapshot, DRAWN_CELLS};
use streamlab_sim::kafka::World;

/// Least wall time between two chart redraws while playing.
const CHART_REDRAW_WALL_MS: f64 = 200.0;

pub struct KafkaView {
    pub snapshot: Shared<Snapshot>,
    pub counters: Vec<GroupCounters>,
    pub chart: Shared<ChartData>,
    pub timelines: Shared<TimelineData>,
    /// The consumer metrics, refreshed with the charts (they are windowed over samples).
    pub client_metrics: Vec<GroupMetrics>,
    pub now_ms: u64,
    chart_samples: usize,
    chart_drawn_at: f64,
}

impl KafkaView {
    /// The view of `world` as it stands; the charts follow on the first refresh.
    pub fn new(world: &World) -> Self {
        let snapshot = Shared::new(world.snapshot(DRAWN_CELLS));
        Self {
            counters: group_counters(world, &snapshot),
            snapshot,
            chart: Shared::new(ChartData::default()),
            timelines: Shared::new(TimelineData::default()),
            client_metrics: Vec::new(),
            now_ms: world.now_ms(),
            chart_samples: usize::MAX,
            chart_drawn_at: f64::NEG_INFINITY,
        }
    }

    /// Brings the view to `world`'s time; the timelines only in a lesson that shows them, which
    /// passes the function deriving them (`super::panels::MembershipPanel`).
    pub fn refresh(
        &mut self,
        world: &World,
        force: bool,
        timelines: Option<fn(&World) -> TimelineData>,
    ) {
        self.snapshot = Shared::new(world.snapshot(DRAWN_CELLS));
        self.counters = group_counters(world, &self.snapshot);
        self.now_ms = world.now_ms();
        let samples = world.metrics().samples.len();
        let wall = now_ms();
        let due =
            samples != self.chart_samples && wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS;
        if force || due {
            self.chart = Shared::new(chart_data(world));
            self.client_metrics = client_metric_rows(world, &self.snapshot);
            if let Some(timeline_data) = timelines {
                self.timelines = Shared::new(timeline_data(world));
            }
            self.chart_samples = samples;
            self.chart_drawn_at = wall;
        }
    }
}
