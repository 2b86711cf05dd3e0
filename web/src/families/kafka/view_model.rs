//! View data derived from a World: counters, chart series, member timelines, narration lines.
//!
//! Pure functions from the core's plain data to the components' plain data, so the playground
//! only decides when to call them (every frame for counters, a few times a second for charts).

use crate::families::kafka::components::client_metrics::{GroupMetrics, MOMENT_AGO_MS};
use crate::families::kafka::components::counters::GroupCounters;
use crate::families::kafka::components::lag_chart::ChartData;
use crate::families::kafka::components::timelines::{PhaseSpan, TimelineData};
use std::sync::Arc;
use streamlab_sim::kafka::client_metrics::group_metrics;
use streamlab_sim::kafka::group::{GroupState, MemberPhase};
use streamlab_sim::kafka::metrics::{Sample, SAMPLE_INTERVAL_MS};
use streamlab_sim::kafka::snapshot::Snapshot;
use streamlab_sim::kafka::World;

/// Simulated time the charts and timelines show.
pub const CHART_WINDOW_MS: u64 = 60_000;
/// Simulated time the throughput counter averages over.
const THROUGHPUT_WINDOW_MS: u64 = 5_000;

/// Counters per group at the world's current time.
pub fn group_counters(world: &World, snapshot: &Snapshot) -> Vec<GroupCounters> {
    let samples = &world.metrics().samples;
    let tally = world.metrics().stall_tally();
    let back = (THROUGHPUT_WINDOW_MS / SAMPLE_INTERVAL_MS) as usize;
    // Early in a run the window is whatever has been sampled so far.
    let earlier = samples.len().saturating_sub(back + 1);
    snapshot
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| {
            let throughput_per_s = match (samples.get(earlier), samples.last()) {
                (Some(then), Some(now)) if now.at_ms > then.at_ms => {
                    let done = now.groups[g].processed_total - then.groups[g].processed_total;
                    done * 1000 / (now.at_ms - then.at_ms)
                }
                _ => 0,
            };
            GroupCounters {
                group_id: group.group_id.clone(),
                throughput_per_s,
                lag: group.partitions.iter().map(|p| p.lag).sum(),
                members: group.members.len(),
                idle_members: group
                    .members
                    .iter()
                    .filter(|m| m.phase == MemberPhase::Idle)
                    .count(),
                rebalances: group.rebalances_total,
                duplicates: group.duplicates_total,
                stalled_member_s: tally.stalled_member_ms(g) / 1000,
                stopped_s: tally.stopped_ms(g) / 1000,
            }
        })
        .collect()
}

/// Every group's consumer metrics now and a moment ago.
pub fn client_metric_rows(world: &World, snapshot: &Snapshot) -> Vec<GroupMetrics> {
    let now_ms = world.now_ms();
    let metrics = world.metrics();
    snapshot
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| GroupMetrics {
            group_id: group.group_id.clone(),
            earlier: group_metrics(metrics, g, now_ms.saturating_sub(MOMENT_AGO_MS)),
            now: group_metrics(metrics, g, now_ms),
        })
        .collect()
}

/// The samples of the last [`CHART_WINDOW_MS`], and the index of the first one.
fn window(world: &World) -> (u64, u64, usize) {
    let samples = &world.metrics().samples;
    let to_ms = world.now_ms();
    let from_ms = to_ms.saturating_sub(CHART_WINDOW_MS);
    (
        from_ms,
        to_ms,
        samples.partition_point(|s| s.at_ms < from_ms),
    )
}

/// The charts' series for the last minute.
pub fn chart_data(world: &World) -> ChartData {
    let samples = &world.metrics().samples;
    let (from_ms, to_ms, start) = window(world);
    let shown = &samples[start..];
    let partitions = world.topic().partitions.len();
    let lag = (0..partitions)
        .map(|p| {
            shown
                .iter()
                .map(|s| (s.at_ms, s.groups[0].lag[p]))
                .collect()
        })
        .collect();
    // Throughput over one-second windows, so the line is readable rather than jagged.
    let per_second = (1_000 / SAMPLE_INTERVAL_MS) as usize;
    let throughput = world
        .groups()
        .iter()
        .enumerate()
        .map(|(g, group)| {
            let points = (start.max(per_second)..samples.len())
                .map(|i| {
                    let (now, then) = (&samples[i], &samples[i - per_second]);
                    let done = now.groups[g].processed_total - then.groups[g].processed_total;
                    (
                        now.at_ms,
                        done as f64 * 1000.0 / (now.at_ms - then.at_ms) as f64,
                    )
                })
                .collect();
            (group.group_id().to_string(), points)
        })
        .collect();
    ChartData {
        from_ms,
        to_ms,
        lag_group_id: world.groups()[0].group_id().to_string(),
        lag,
        throughput,
        rebalancing: rebalancing_spans(shown),
    }
}

/// Spans of simulated time in which the first group was not Stable.
fn rebalancing_spans(samples: &[Arc<Sample>]) -> Vec<(u64, u64)> {
    let mut spans: Vec<(u64, u64)> = Vec::new();
    for s in samples {
        let unstable = !matches!(s.groups[0].state, GroupState::Stable | GroupState::Empty);
        if !unstable {
            continue;
        }
        match spans.last_mut() {
            Some((_, end)) if *end + SAMPLE_INTERVAL_MS >= s.at_ms => *end = s.at_ms,
            _ => spans.push((s.at_ms, s.at_ms)),
        }
    }
    for span in &mut spans {
        span.1 += SAMPLE_INTERVAL_MS;
    }
    spans
}

/// Every member's phase over the last minute, for the first group.
pub fn timeline_data(world: &World) -> TimelineData {
    let samples = &world.metrics().samples;
    let (from_ms, to_ms, start) = window(world);
    let group = &world.groups()[0];
    let rows = (0..group.members.len())
        .map(|m| phase_spans(&samples[start..], m))
        .collect();
    TimelineData {
        from_ms,
        to_ms,
        member_ids: group.members.iter().map(|m| m.id.to_string()).collect(),
        rows,
        rebalancing: rebalancing_spans(&samples[start..]),
    }
}

/// Member `m` of the first group over `samples`, one span per run of consecutive samples in
/// the same phase (samples before the member joined have none).
fn phase_spans(samples: &[Arc<Sample>], m: usize) -> Vec<PhaseSpan> {
    let mut spans: Vec<PhaseSpan> = Vec::new();
    for sample in samples {
        let Some(&phase) = sample.groups[0].members.get(m) else {
            continue;
        };
        let to_ms = sample.at_ms + SAMPLE_INTERVAL_MS;
        match spans.last_mut() {
            Some(span) if span.phase == phase => span.to_ms = to_ms,
            _ => spans.push(PhaseSpan {
                from_ms: sample.at_ms,
                to_ms,
                phase,
            }),
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamlab_sim::family::preset;
    use streamlab_sim::kafka::presets::PRESETS;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn storm_at(at_ms: u64) -> World {
        let storm = preset::find(PRESETS, "rebalance-storm").expect("the storm preset");
        let mut world = World::new(&(storm.build)()).expect("the storm runs");
        world.advance_to(at_ms);
        world
    }

    #[wasm_bindgen_test]
    fn the_member_timelines_show_every_sampled_phase_in_one_bar_per_steady_stretch() {
        let world = storm_at(120_000);
        let data = timeline_data(&world);
        let (_, _, start) = window(&world);
        let shown = &world.metrics().samples[start..];
        let (mut sampled, mut bars) = (0, 0);
        for (m, row) in data.rows.iter().enumerate() {
            for pair in row.windows(2) {
                assert!(pair[0].to_ms <= pair[1].from_ms, "member {m}: bars overlap");
                assert!(
                    pair[0].to_ms < pair[1].from_ms || pair[0].phase != pair[1].phase,
                    "member {m}: touching bars of one phase should be one bar"
                );
            }
            let mut member_samples = 0;
            for sample in shown {
                let Some(&phase) = sample.groups[0].members.get(m) else {
                    continue;
                };
                member_samples += 1;
                let covering: Vec<&PhaseSpan> = row
                    .iter()
                    .filter(|bar| bar.from_ms <= sample.at_ms && sample.at_ms < bar.to_ms)
                    .collect();
                assert_eq!(covering.len(), 1, "member {m} at {}", sample.at_ms);
                assert_eq!(covering[0].phase, phase, "member {m} at {}", sample.at_ms);
            }
            // The bars cover the member's sampled intervals and nothing else.
            let covered_ms: u64 = row.iter().map(|bar| bar.to_ms - bar.from_ms).sum();
            assert_eq!(
                covered_ms,
                member_samples * SAMPLE_INTERVAL_MS,
                "member {m}"
            );
            sampled += member_samples;
            bars += row.len() as u64;
        }
        assert!(
            sampled > 1_000,
            "the storm's minute has {sampled} member samples"
        );
        assert!(
            bars * 4 < sampled,
            "{bars} bars for {sampled} member samples: steady stretches should share a bar"
        );
    }
}
