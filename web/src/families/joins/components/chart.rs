//! What the joins family's time chart plots, by mode: the searches and clicks the join holds
//! and the lost clicks; the enrichments that differ between the two runs, by each clock; the
//! view's rows against an append-only sink's; each ranking's recall@K per closed window, in
//! percent.

use crate::widgets::time_chart::ChartData;
use streamlab_sim::joins::JoinsSnapshot;

fn seconds(at_ms: u64) -> f64 {
    at_ms as f64 / 1000.0
}

/// One series from `samples`, its value read by `value`.
fn series<T>(
    name: &str,
    samples: &[T],
    at: fn(&T) -> u64,
    value: impl Fn(&T) -> f64,
) -> (String, Vec<(f64, f64)>) {
    (
        name.to_string(),
        samples.iter().map(|s| (seconds(at(s)), value(s))).collect(),
    )
}

/// The chart of the run's mode.
pub fn chart_data(snapshot: &JoinsSnapshot) -> ChartData {
    if let Some(c) = &snapshot.clicks {
        let at = |s: &streamlab_sim::joins::search_click::ClickSample| s.at_ms;
        return ChartData {
            title: "What the join holds, and what it lost".into(),
            y_title: "events",
            x_title: "",
            bands: Vec::new(),
            series: vec![
                series("searches waiting for a click", &c.samples, at, |s| {
                    f64::from(s.held_searches)
                }),
                series("clicks waiting for a search", &c.samples, at, |s| {
                    f64::from(s.held_clicks)
                }),
                series("unclicked searches emitted", &c.samples, at, |s| {
                    f64::from(s.unclicked)
                }),
                series("lost clicks", &c.samples, at, |s| f64::from(s.lost_clicks)),
            ],
        };
    }
    if let Some(e) = &snapshot.enrichment {
        let at = |s: &streamlab_sim::joins::enrichment::EnrichSample| s.at_ms;
        return ChartData {
            title: "Orders enriched differently in the two runs".into(),
            y_title: "orders",
            x_title: "",
            bands: Vec::new(),
            series: vec![
                series("by processing time", &e.samples, at, |s| {
                    f64::from(s.differing[0])
                }),
                series("by event time", &e.samples, at, |s| {
                    f64::from(s.differing[1])
                }),
            ],
        };
    }
    if let Some(t) = &snapshot.tables {
        let at = |s: &streamlab_sim::joins::tables::TablesSample| s.at_ms;
        return ChartData {
            title: "Rows of the view, kept up to date, against an append-only sink".into(),
            y_title: "rows",
            x_title: "",
            bands: Vec::new(),
            series: vec![
                series("view (retract and add)", &t.samples, at, |s| {
                    f64::from(s.view_rows)
                }),
                series("append-only sink", &t.samples, at, |s| {
                    f64::from(s.append_only_rows)
                }),
            ],
        };
    }
    if let Some(r) = &snapshot.ranking {
        let at = |s: &streamlab_sim::joins::ranking::RecallSample| s.at_ms;
        let names = super::ranking::METHOD_NAMES;
        // In percent: the chart's axis starts at ten at the least, too tall for a fraction.
        return ChartData {
            title: "Recall@K of each closed window, per method (%)".into(),
            y_title: "recall@K (%)",
            x_title: "",
            bands: Vec::new(),
            series: (0..4)
                .map(|m| series(names[m], &r.samples, at, move |s| 100.0 * s.recall[m]))
                .collect(),
        };
    }
    ChartData::default()
}
