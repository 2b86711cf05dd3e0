//! The exactly-once family's time chart: per recovery model, the records counted again and
//! the updates that reached the outside more than once, drawn by the shared
//! `widgets::time_chart`.

use super::lanes::model_name;
pub use crate::widgets::time_chart::ChartData;
use streamlab_sim::exactly_once::{LaneSample, Model};

/// The chart's series from the run's samples.
pub fn from_samples(samples: &[LaneSample]) -> ChartData {
    let mut series = Vec::new();
    for model in Model::ALL {
        let mine: Vec<&LaneSample> = samples.iter().filter(|s| s.model == model).collect();
        if mine.is_empty() {
            continue;
        }
        let points = |value: fn(&LaneSample) -> u64| {
            mine.iter()
                .map(|s| (s.at_ms as f64 / 1000.0, value(s) as f64))
                .collect()
        };
        let name = model_name(model);
        series.push((
            format!("{name}: counted again"),
            points(|s| s.reprocessed_records),
        ));
        series.push((
            format!("{name}: duplicates outside"),
            points(|s| s.duplicates),
        ));
    }
    ChartData {
        title: "Records counted again, and updates the outside saw twice, per model".into(),
        y_title: "records",
        x_title: "",
        series,
        bands: Vec::new(),
    }
}
