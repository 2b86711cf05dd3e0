//! What the exactly-once family keeps per run for drawing: the snapshot and the figures every
//! frame (the lanes read the same figures the CLI prints), and the chart's series a few times
//! a second while playing (at once when rebuilt or paused).

use super::components::chart::{from_samples, ChartData};
use crate::platform::shared::Shared;
use crate::shell::test_hooks::now_ms;
use streamlab_sim::exactly_once::{EosSnapshot, EosWorld};
use streamlab_sim::family::{Figures, Simulation};

/// Least wall time between two chart redraws while playing.
const CHART_REDRAW_WALL_MS: f64 = 200.0;

pub struct EosView {
    pub snapshot: Shared<EosSnapshot>,
    pub figures: Shared<Figures>,
    pub chart: Shared<ChartData>,
    chart_drawn_at: f64,
}

impl EosView {
    pub fn new(world: &EosWorld) -> Self {
        Self {
            snapshot: Shared::new(Simulation::snapshot(world)),
            figures: Shared::new(world.figures()),
            chart: Shared::new(ChartData::default()),
            chart_drawn_at: f64::NEG_INFINITY,
        }
    }

    pub fn refresh(&mut self, world: &EosWorld, force: bool) {
        self.snapshot = Shared::new(Simulation::snapshot(world));
        self.figures = Shared::new(world.figures());
        let wall = now_ms();
        if force || wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS {
            self.chart = Shared::new(from_samples(world.samples()));
            self.chart_drawn_at = wall;
        }
    }
}
