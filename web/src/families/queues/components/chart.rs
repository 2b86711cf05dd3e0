//! The queues family's time chart: each reader's records completed per second (the readers
//! and partitions modes), each lane's waiting records and losses (backpressure and direct), or
//! the Kinesis stream's accepted and throttled writes per second. One line chart through the
//! shared time chart, so lines differ by dash and marker as well as colour.
//!
//! The series come off the world, not the snapshot: the snapshot is taken every frame and
//! leaves them out, and the charts are redrawn only a few times a second.

use crate::widgets::time_chart::ChartData;
use streamlab_sim::queues::{Mode, QueuesSnapshot, QueuesWorld};

/// The chart of the run's mode.
pub fn from_run(snapshot: &QueuesSnapshot, world: &QueuesWorld) -> ChartData {
    let s = |at_ms: u64| at_ms as f64 / 1000.0;
    match snapshot.mode {
        Mode::Backpressure | Mode::Direct => {
            let mut series = Vec::new();
            for pipe in world.pipes() {
                let name = super::lanes::lane_name(pipe.kind);
                series.push((
                    format!("{name}: waiting"),
                    pipe.samples
                        .iter()
                        .map(|p| (s(p.at_ms), p.depth as f64))
                        .collect(),
                ));
                series.push((
                    format!("{name}: lost"),
                    pipe.samples
                        .iter()
                        .map(|p| (s(p.at_ms), p.lost as f64))
                        .collect(),
                ));
            }
            ChartData {
                title: "Records waiting and records lost, per lane".into(),
                y_title: "records",
                x_title: "",
                series,
                bands: Vec::new(),
            }
        }
        Mode::Kinesis => {
            let samples = world.kinesis().map_or(&[][..], |k| k.samples.as_slice());
            ChartData {
                title: "Writes per second the stream accepted and throttled".into(),
                y_title: "records/s",
                x_title: "",
                series: vec![
                    (
                        "accepted".into(),
                        samples
                            .iter()
                            .map(|k| (s(k.at_ms), k.accepted_per_s as f64))
                            .collect(),
                    ),
                    (
                        "throttled".into(),
                        samples
                            .iter()
                            .map(|k| (s(k.at_ms), k.throttled_per_s as f64))
                            .collect(),
                    ),
                ],
                bands: Vec::new(),
            }
        }
        Mode::Readers | Mode::Repartition => ChartData {
            title: "Records each reader completed per second".into(),
            y_title: "records/s",
            x_title: "",
            series: snapshot
                .readers
                .iter()
                .map(|reader| {
                    let points = world
                        .reader_samples()
                        .iter()
                        .filter(|sample| sample.reader == reader.reader)
                        .map(|sample| (s(sample.at_ms), sample.completed_per_s as f64))
                        .collect();
                    (
                        super::readers::reader_name(reader.reader).to_string(),
                        points,
                    )
                })
                .collect(),
            bands: Vec::new(),
        },
    }
}

/// The backpressure lanes' rates: what each lane's producer managed to send, and what its
/// consumer processed, per second (a blocked producer's rate falls to its consumer's).
pub fn rates(snapshot: &QueuesSnapshot, world: &QueuesWorld) -> Option<ChartData> {
    if !matches!(snapshot.mode, Mode::Backpressure | Mode::Direct) {
        return None;
    }
    let s = |at_ms: u64| at_ms as f64 / 1000.0;
    let mut series = Vec::new();
    for pipe in world.pipes() {
        let name = super::lanes::lane_name(pipe.kind);
        series.push((
            format!("{name}: producer"),
            pipe.samples
                .iter()
                .map(|p| (s(p.at_ms), p.producer_per_s as f64))
                .collect(),
        ));
        series.push((
            format!("{name}: consumer"),
            pipe.samples
                .iter()
                .map(|p| (s(p.at_ms), p.consumer_per_s as f64))
                .collect(),
        ));
    }
    Some(ChartData {
        title: "Producer and consumer rates, per lane".into(),
        y_title: "records/s",
        x_title: "",
        series,
        bands: Vec::new(),
    })
}
