//! The databases family's time chart, drawn by the shared `widgets::time_chart`: each lane's
//! products differing from the database, and each connector's lag beside it (dual writes), the compacted
//! log's records against every write made and the event-sourced log (compaction), or the new
//! store's rows copied, differing and missed (snapshot).
//!
//! The series come off the world, not the snapshot: the snapshot is taken every frame and
//! leaves them out, and the charts are redrawn only a few times a second.

use crate::widgets::time_chart::ChartData;
use streamlab_sim::databases::{DatabasesSnapshot, DatabasesWorld, Lane};

/// The connector lanes' lag: how long the oldest change not yet in the index has waited.
pub fn lag(snapshot: &DatabasesSnapshot, world: &DatabasesWorld) -> Option<ChartData> {
    let sync = world.sync()?;
    let series = [Lane::Cdc, Lane::Outbox]
        .into_iter()
        .map(|lane| {
            (
                format!("{}: lag", lane.words()),
                sync.samples
                    .iter()
                    .map(|s| (seconds(s.at_ms), seconds(s.lanes[lane.index()].lag_ms)))
                    .collect(),
            )
        })
        .collect();
    Some(ChartData {
        title: "Connector lag: how long the oldest change not yet in the index has waited".into(),
        y_title: "seconds",
        x_title: "",
        series,
        bands: outage_band(snapshot),
    })
}

/// The connectors' outage, shaded, while the run has one.
fn outage_band(snapshot: &DatabasesSnapshot) -> Vec<(f64, f64)> {
    snapshot
        .sync
        .as_ref()
        .and_then(|s| s.outage_ms)
        .map(|(from, to)| vec![(seconds(from), seconds(to))])
        .unwrap_or_default()
}

fn seconds(at_ms: u64) -> f64 {
    at_ms as f64 / 1000.0
}

/// The chart of the run's mode.
pub fn from_run(snapshot: &DatabasesSnapshot, world: &DatabasesWorld) -> ChartData {
    if let Some(sync) = world.sync() {
        let mut series = Vec::new();
        for lane in Lane::ALL {
            series.push((
                format!("{}: products differing", lane.words()),
                sync.samples
                    .iter()
                    .map(|s| (seconds(s.at_ms), f64::from(s.lanes[lane.index()].peak)))
                    .collect(),
            ));
        }
        return ChartData {
            title: "Products whose index differs from the database (most at once per sample)"
                .into(),
            y_title: "products",
            x_title: "",
            series,
            bands: outage_band(snapshot),
        };
    }
    if let Some(c) = world.compaction() {
        let points = |value: fn(&streamlab_sim::databases::compaction::CompactionSample) -> f64| {
            c.samples
                .iter()
                .map(|s| (seconds(s.at_ms), value(s)))
                .collect()
        };
        return ChartData {
            title: "Records in each log against the accounts open".into(),
            y_title: "records",
            x_title: "",
            series: vec![
                (
                    "every write (event-sourced log)".into(),
                    points(|s| s.event_records as f64),
                ),
                ("compacted topic".into(), points(|s| s.log_records as f64)),
                ("accounts open".into(), points(|s| f64::from(s.live_keys))),
            ],
            bands: Vec::new(),
        };
    }
    let samples = world.bootstrap().map_or(&[][..], |b| b.samples.as_slice());
    let points = |value: fn(&streamlab_sim::databases::bootstrap::SnapshotSample) -> f64| {
        samples
            .iter()
            .map(|s| (seconds(s.at_ms), value(s)))
            .collect()
    };
    ChartData {
        title: "The new store: rows copied, rows differing from the table, changes missed or \
                applied twice"
            .into(),
        y_title: "rows / changes",
        x_title: "",
        series: vec![
            ("rows copied".into(), points(|s| f64::from(s.rows_copied))),
            ("rows differing".into(), points(|s| f64::from(s.divergent))),
            ("missed".into(), points(|s| s.missed as f64)),
            ("applied twice".into(), points(|s| s.duplicated as f64)),
        ],
        bands: Vec::new(),
    }
}
