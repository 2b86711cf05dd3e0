//! What the queues family keeps per run for drawing: the snapshot every frame (the readers'
//! consumers and what they hold, the share-partitions' windows, the queue, the lanes), and the
//! time chart's series a few times a second while playing (at once when rebuilt or paused).

use super::components::chart;
use crate::platform::shared::Shared;
use crate::shell::test_hooks::now_ms;
use crate::widgets::time_chart::ChartData;
use streamlab_sim::family::{Figures, Simulation};
use streamlab_sim::queues::{QueuesSnapshot, QueuesWorld};

/// Least wall time between two chart redraws while playing.
const CHART_REDRAW_WALL_MS: f64 = 200.0;

pub struct QueuesView {
    pub snapshot: Shared<QueuesSnapshot>,
    /// The run's headline figures, as the CLI prints them: the counters read them.
    pub figures: Shared<Figures>,
    pub chart: Shared<ChartData>,
    /// The backpressure lanes' producer and consumer rates, when the run has lanes.
    pub rates: Option<Shared<ChartData>>,
    chart_drawn_at: f64,
}

impl QueuesView {
    pub fn new(world: &QueuesWorld) -> Self {
        Self {
            snapshot: Shared::new(world.snapshot()),
            figures: Shared::new(world.figures()),
            chart: Shared::new(ChartData::default()),
            rates: None,
            chart_drawn_at: f64::NEG_INFINITY,
        }
    }

    pub fn refresh(&mut self, world: &QueuesWorld, force: bool) {
        self.snapshot = Shared::new(world.snapshot());
        self.figures = Shared::new(world.figures());
        let wall = now_ms();
        if force || wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS {
            self.chart = Shared::new(chart::from_run(&self.snapshot, world));
            self.rates = chart::rates(&self.snapshot, world).map(Shared::new);
            self.chart_drawn_at = wall;
        }
    }
}
