//! What the replication family keeps per run for drawing: the snapshot every frame (brokers,
//! each partition's replicas and logs, each `acks` lane's numbers), the headline figures the
//! CLI prints, and the latency chart's series a few times a second while playing (at once
//! when rebuilt or paused).

use super::components::chart;
use crate::platform::shared::Shared;
use crate::shell::test_hooks::now_ms;
use crate::widgets::time_chart::ChartData;
use streamlab_sim::family::{Figures, Simulation};
use streamlab_sim::replication::{ReplicationSnapshot, ReplicationWorld};

/// Least wall time between two chart redraws while playing.
const CHART_REDRAW_WALL_MS: f64 = 200.0;

pub struct ReplicationView {
    pub snapshot: Shared<ReplicationSnapshot>,
    pub figures: Shared<Figures>,
    pub chart: Shared<ChartData>,
    chart_drawn_at: f64,
}

impl ReplicationView {
    pub fn new(world: &ReplicationWorld) -> Self {
        Self {
            snapshot: Shared::new(world.snapshot()),
            figures: Shared::new(world.figures()),
            chart: Shared::new(ChartData::default()),
            chart_drawn_at: f64::NEG_INFINITY,
        }
    }

    pub fn refresh(&mut self, world: &ReplicationWorld, force: bool) {
        self.snapshot = Shared::new(world.snapshot());
        self.figures = Shared::new(world.figures());
        let wall = now_ms();
        if force || wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS {
            self.chart = Shared::new(chart::latency(&self.snapshot));
            self.chart_drawn_at = wall;
        }
    }
}
