//! What the databases family keeps per run for drawing: the snapshot and the figures every
//! frame (the lanes, the log, the rows), and the time chart's series a few times a second
//! while playing (at once when rebuilt or paused).

use super::components::chart;
use crate::platform::shared::Shared;
use crate::shell::test_hooks::now_ms;
use crate::widgets::time_chart::ChartData;
use streamlab_sim::databases::{DatabasesSnapshot, DatabasesWorld};
use streamlab_sim::family::{Figures, Simulation};

/// Least wall time between two chart redraws while playing.
const CHART_REDRAW_WALL_MS: f64 = 200.0;

pub struct DatabasesView {
    pub snapshot: Shared<DatabasesSnapshot>,
    /// The run's headline figures, as the CLI prints them: the counters read them.
    pub figures: Shared<Figures>,
    pub chart: Shared<ChartData>,
    /// The connectors' lag, when the run has connectors.
    pub lag: Option<Shared<ChartData>>,
    chart_drawn_at: f64,
}

impl DatabasesView {
    pub fn new(world: &DatabasesWorld) -> Self {
        Self {
            snapshot: Shared::new(world.snapshot()),
            figures: Shared::new(world.figures()),
            chart: Shared::new(ChartData::default()),
            lag: None,
            chart_drawn_at: f64::NEG_INFINITY,
        }
    }

    pub fn refresh(&mut self, world: &DatabasesWorld, force: bool) {
        self.snapshot = Shared::new(world.snapshot());
        self.figures = Shared::new(world.figures());
        let wall = now_ms();
        if force || wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS {
            self.chart = Shared::new(chart::from_run(&self.snapshot, world));
            self.lag = chart::lag(&self.snapshot, world).map(Shared::new);
            self.chart_drawn_at = wall;
        }
    }
}
