//! Whether an event-time scenario can run: every knob inside its range (from the knob table,
//! other knobs narrowing some), no more records than a browser can rebuild on each knob
//! change, and windows that put a record into a bounded number of windows; one sentence
//! naming the field when not.

use super::knobs::KNOBS;
use super::scenario::{
    EventTimeScenario, MAX_KNOB_DURATION_MS, MAX_RECORDS, MAX_RECORDS_PER_SLIDING_WINDOW,
};
use crate::family::knob::check_numbers;
use crate::family::ScenarioError;
use crate::window::{WindowSpec, MAX_WINDOWS_PER_EVENT};

impl EventTimeScenario {
    /// Checks every knob against its documented range.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check_numbers(KNOBS, self)?;
        let records = self.duration_ms as u64 * u64::from(self.events_per_second) / 1000;
        if records > MAX_RECORDS {
            return Err(ScenarioError::new(
                "events_per_second",
                format!(
                    "events_per_second: duration_ms · events_per_second / 1000 is {records} \
                     records, more than the {MAX_RECORDS} a run may hold"
                ),
            ));
        }
        self.validate_windowing()
    }

    fn validate_windowing(&self) -> Result<(), ScenarioError> {
        self.validate_window(self.window)?;
        // The comparison's sliding windows are capped to the work bound when they run
        // (`capped_for_work`), so a rate or device count that suits the other lessons never
        // makes a scenario invalid because of windows it does not draw.
        for spec in self.compared.capped_for_work(self).specs() {
            self.validate_window(spec)
                .map_err(|e| ScenarioError::new("compared", format!("compared: {}", e.message)))?;
        }
        Ok(())
    }

    /// Window sizes are bounded tighter than the window operator's own limits so a run never
    /// holds an absurd number of windows.
    fn validate_window(&self, window: WindowSpec) -> Result<(), ScenarioError> {
        match window {
            WindowSpec::Tumbling { size_ms } => {
                check_range("window.size", size_ms, 100, MAX_KNOB_DURATION_MS)
            }
            WindowSpec::Hopping { size_ms, hop_ms } => {
                check_range("window.size", size_ms, 100, MAX_KNOB_DURATION_MS)?;
                check_range("window.hop", hop_ms, 100, size_ms)?;
                let windows_per_event = (size_ms + hop_ms - 1) / hop_ms;
                check_range(
                    "window.hop",
                    windows_per_event,
                    1,
                    100.min(MAX_WINDOWS_PER_EVENT),
                )
                .map_err(|_| {
                    ScenarioError::new(
                        "window.hop",
                        format!(
                            "window.hop: window.size / window.hop puts each record into \
                             {windows_per_event} windows; at most 100 are allowed"
                        ),
                    )
                })
            }
            WindowSpec::Session { gap_ms } => {
                check_range("window.gap", gap_ms, 1, MAX_KNOB_DURATION_MS)
            }
            WindowSpec::Sliding { time_difference_ms } => {
                check_range(
                    "window.time_difference",
                    time_difference_ms,
                    0,
                    MAX_KNOB_DURATION_MS,
                )?;
                self.check_records_per_sliding_window(time_difference_ms)
            }
        }
    }

    /// A record updates every sliding window around it, about two per record of its key
    /// within the time difference; bound that as the hop bounds hopping windows per record.
    fn check_records_per_sliding_window(
        &self,
        time_difference_ms: i64,
    ) -> Result<(), ScenarioError> {
        let longest_ms = self.longest_sliding_time_difference_ms();
        if time_difference_ms > longest_ms {
            return Err(ScenarioError::new(
                "window.time_difference",
                format!(
                    "window.time_difference: at {} events/s over {} devices, a time difference \
                     over {longest_ms} ms holds more than {MAX_RECORDS_PER_SLIDING_WINDOW} \
                     records of a device (shorten it, or lower the rate)",
                    self.events_per_second, self.keys
                ),
            ));
        }
        Ok(())
    }
}

/// `value` in `min..=max`, or an error naming `field` (the window specs' rules, whose bounds
/// depend on each other).
fn check_range(field: &'static str, value: i64, min: i64, max: i64) -> Result<(), ScenarioError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(ScenarioError::new(
            field,
            format!("{field}: must be in {min}..={max}, got {value}"),
        ))
    }
}
