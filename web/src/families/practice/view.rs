//! What the practice family keeps per run for drawing: the consumer-group family's view of
//! the world underneath, and the verdict, rebuilt when a new measurement is taken (the goals
//! only change then) or when the picture is rebuilt.

use crate::families::kafka::view::KafkaView;
use crate::platform::shared::Shared;
use streamlab_sim::practice::{InkwellWorld, Verdict};

pub struct PracticeView {
    pub kafka: KafkaView,
    pub verdict: Shared<Verdict>,
    measured: usize,
}

impl PracticeView {
    pub fn new(world: &InkwellWorld) -> Self {
        Self {
            kafka: KafkaView::new(world.kafka()),
            verdict: Shared::new(world.verdict()),
            measured: world.lags().samples.len(),
        }
    }

    pub fn refresh(&mut self, world: &InkwellWorld, force: bool) {
        self.kafka.refresh(world.kafka(), force, None);
        let measured = world.lags().samples.len();
        if force || measured != self.measured {
            self.verdict = Shared::new(world.verdict());
            self.measured = measured;
        }
    }
}
