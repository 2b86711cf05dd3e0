//! Whether a joins scenario can run: every knob inside its range (from the knob table,
//! other knobs narrowing some), no more inputs than a browser can rebuild on each knob
//! change, and the rules between knobs; one sentence naming the field when not.

use super::knobs::KNOBS;
use super::scenario::{JoinsScenario, Mode, TopKWindow, MAX_INPUTS};
use crate::family::knob::check_numbers;
use crate::family::ScenarioError;

/// Most hopping windows one view may fall in (size / hop), so a view costs little.
pub const MAX_WINDOWS_PER_VIEW: u64 = 20;

impl JoinsScenario {
    /// Checks every knob against its documented range and the rules between knobs.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check_numbers(KNOBS, self)?;
        let inputs = self.input_estimate();
        if inputs > MAX_INPUTS {
            return Err(ScenarioError::new(
                "duration_ms",
                format!(
                    "duration_ms: this run would generate about {inputs} inputs, more than the \
                     {MAX_INPUTS} a run may hold; shorten it or lower the rates"
                ),
            ));
        }
        if self.clicks.lower_ms > self.clicks.upper_ms {
            return Err(ScenarioError::new(
                "clicks.lower_ms",
                format!(
                    "clicks.lower_ms ({}) must not exceed clicks.upper_ms ({})",
                    self.clicks.lower_ms, self.clicks.upper_ms
                ),
            ));
        }
        let t = &self.topk;
        if self.mode == Mode::TopK && t.window == TopKWindow::Hopping {
            let windows = t.window_size_ms.div_ceil(t.window_hop_ms);
            if windows > MAX_WINDOWS_PER_VIEW {
                return Err(ScenarioError::new(
                    "topk.window_hop_ms",
                    format!(
                        "topk.window_hop_ms: a hop of {} ms puts each view in {windows} windows \
                         of {} ms, more than {MAX_WINDOWS_PER_VIEW}",
                        t.window_hop_ms, t.window_size_ms
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_runs_and_each_broken_rule_names_its_field() {
        assert_eq!(JoinsScenario::default().validate(), Ok(()));
        let mut s = JoinsScenario::default();
        s.clicks.lower_ms = 5_000;
        s.clicks.upper_ms = 1_000;
        assert_eq!(s.validate().unwrap_err().field, "clicks.lower_ms");
        let mut s = JoinsScenario::default();
        s.mode = Mode::TopK;
        s.topk.events_per_second = 1_000;
        s.duration_ms = 600_000;
        assert_eq!(s.validate().unwrap_err().field, "duration_ms");
        let mut s = JoinsScenario::default();
        s.mode = Mode::TopK;
        s.topk.window = TopKWindow::Hopping;
        s.topk.window_size_ms = 60_000;
        s.topk.window_hop_ms = 1_000;
        assert_eq!(s.validate().unwrap_err().field, "topk.window_hop_ms");
        let mut s = JoinsScenario::default();
        s.topk.sketch_depth = 0;
        assert_eq!(s.validate().unwrap_err().field, "topk.sketch_depth");
    }
}
