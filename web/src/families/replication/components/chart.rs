//! The replication family's chart: the 99th-percentile produce latency, second by second, of
//! each `acks` setting on the same faults (what each choice costs), with the spans when a
//! partition had no leader shaded; a second in which a setting had nothing acknowledged is a
//! gap in its line. Drawn by the shared time chart.

use crate::widgets::time_chart::ChartData;
use streamlab_sim::replication::ReplicationSnapshot;

/// The latency chart of every lane.
pub fn latency(snapshot: &ReplicationSnapshot) -> ChartData {
    let s = |at_ms: u64| at_ms as f64 / 1000.0;
    ChartData {
        title: "Produce latency (99th percentile per second), by acks; shaded: a partition \
                without a leader"
            .into(),
        y_title: "ms",
        x_title: "",
        series: snapshot
            .lanes
            .iter()
            .map(|lane| {
                // A second with nothing acknowledged has no latency: a gap, not a zero.
                let points = lane
                    .samples
                    .iter()
                    .map(|p| {
                        (
                            s(p.at_ms),
                            p.latency_p99_ms.map_or(f64::NAN, |ms| ms as f64),
                        )
                    })
                    .collect();
                (
                    format!("acks={}", super::acks_table::acks_name(lane.acks)),
                    points,
                )
            })
            .collect(),
        bands: snapshot
            .offline_spans
            .iter()
            .map(|&(from, to)| (s(from), s(to)))
            .collect(),
    }
}
