//! What the joins family keeps per run for drawing: the snapshot and the headline figures
//! every frame, and the time chart's series a few times a second while playing (at once when
//! rebuilt or paused).

use crate::platform::shared::Shared;
use crate::shell::test_hooks::now_ms;
use crate::widgets::time_chart::ChartData;
use streamlab_sim::family::{Figures, Simulation};
use streamlab_sim::joins::{JoinsSnapshot, JoinsWorld};

/// Least wall time between two chart redraws while playing.
const CHART_REDRAW_WALL_MS: f64 = 200.0;

pub struct JoinsView {
    pub snapshot: Shared<JoinsSnapshot>,
    /// The run's headline figures, as the CLI prints them: the counters read them.
    pub figures: Shared<Figures>,
    pub chart: Shared<ChartData>,
    chart_drawn_at: f64,
}

impl JoinsView {
    pub fn new(world: &JoinsWorld) -> Self {
        Self {
            snapshot: Shared::new(world.snapshot()),
            figures: Shared::new(world.figures()),
            chart: Shared::new(ChartData::default()),
            chart_drawn_at: f64::NEG_INFINITY,
        }
    }

    pub fn refresh(&mut self, world: &JoinsWorld, force: bool) {
        self.snapshot = Shared::new(world.snapshot());
        self.figures = Shared::new(world.figures());
        let wall = now_ms();
        if force || wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS {
            self.chart = Shared::new(super::components::chart::chart_data(&self.snapshot));
            self.chart_drawn_at = wall;
        }
    }
}
