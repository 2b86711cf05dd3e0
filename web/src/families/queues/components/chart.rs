//! The queues family's time chart: each reader's records completed per second (the readers
//! and partitions modes), each lane's waiting records and losses (backpressure and direct), or
//! the Kinesis stream's accepted and throttled writes per second, drawn by the shared
//! `widgets::time_chart`.

pub use crate::widgets::time_chart::ChartData;
use streamlab_sim::queues::{Mode, QueuesSnapshot};

impl ChartData {
    pub fn from_snapshot(snapshot: &QueuesSnapshot) -> Self {
        let s = |at_ms: u64| at_ms as f64 / 1000.0;
        match snapshot.mode {
            Mode::Backpressure | Mode::Direct => {
                let mut series = Vec::new();
                for pipe in &snapshot.pipes {
                    let name = super::lanes::lane_name(pipe.lane);
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
                Self {
                    title: "Records waiting and records lost, per lane".into(),
                    y_title: "records",
                    series,
                }
            }
            Mode::Kinesis => {
                let samples = snapshot
                    .kinesis
                    .as_ref()
                    .map(|k| k.samples.as_slice())
                    .unwrap_or(&[]);
                Self {
                    title: "Writes per second the stream accepted and throttled".into(),
                    y_title: "records/s",
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
                }
            }
            Mode::Readers | Mode::Repartition => Self {
                title: "Records each reader completed per second".into(),
                y_title: "records/s",
                series: snapshot
                    .readers
                    .iter()
                    .map(|reader| {
                        let points = snapshot
                            .reader_samples
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
            },
        }
    }
}

impl ChartData {
    /// The backpressure lanes' rates: what each lane's producer managed to send, and what its
    /// consumer processed, per second (a blocked producer's rate falls to its consumer's).
    pub fn rates(snapshot: &QueuesSnapshot) -> Option<Self> {
        if !matches!(snapshot.mode, Mode::Backpressure | Mode::Direct) {
            return None;
        }
        let s = |at_ms: u64| at_ms as f64 / 1000.0;
        let mut series = Vec::new();
        for pipe in &snapshot.pipes {
            let name = super::lanes::lane_name(pipe.lane);
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
        Some(Self {
            title: "Producer and consumer rates, per lane".into(),
            y_title: "records/s",
            series,
        })
    }
}
