//! The metrics an engineer watches on a consumer group, under the names Kafka's Java client
//! reports them (`consumer-fetch-manager-metrics`, `consumer-coordinator-metrics`,
//! `consumer-metrics`), computed from the run's samples at any moment.
//!
//! Kafka keeps each metric per consumer over a window of `metrics.sample.window.ms` (30 s by
//! default). Here each is one number for the whole group, the way a dashboard rolls them up:
//! the worst lag and the longest silence over the members, rates and totals summed over them,
//! averages over everything the members did in the window. A windowed average with nothing in
//! its window has no value (Kafka reports NaN), so those are `None`.

use crate::kafka::metrics::{GroupSample, Metrics, Sample};

/// The window the rates and averages look back over: Kafka's `metrics.sample.window.ms`.
pub const WINDOW_MS: u64 = 30_000;

/// One metric's name as the client reports it, what it measures, and its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricInfo {
    pub name: &'static str,
    pub meaning: &'static str,
    pub unit: &'static str,
}

/// The metrics, in the order a panel lists them.
pub const METRICS: [MetricInfo; 8] = [
    MetricInfo {
        name: "records-lag-max",
        meaning: "largest log end minus position of any owned partition in the window",
        unit: "records",
    },
    MetricInfo {
        name: "records-consumed-rate",
        meaning: "records poll() returned to the application, per second",
        unit: "/s",
    },
    MetricInfo {
        name: "commit-rate",
        meaning: "offset commit requests per second",
        unit: "/s",
    },
    MetricInfo {
        name: "rebalance-latency-avg",
        meaning: "average time from a rebalance's start to its assignment, in the window",
        unit: "ms",
    },
    MetricInfo {
        name: "rebalance-rate-per-hour",
        meaning: "rebalances completed in the window, as a rate per hour",
        unit: "/h",
    },
    MetricInfo {
        name: "failed-rebalance-total",
        meaning: "members thrown out by a timeout, whose next join or commit is refused",
        unit: "",
    },
    MetricInfo {
        name: "last-poll-seconds-ago",
        meaning: "longest time any running member has gone without calling poll()",
        unit: "s",
    },
    MetricInfo {
        name: "time-between-poll-avg",
        meaning: "average time between a member's consecutive poll() calls, in the window",
        unit: "ms",
    },
];

/// The eight metrics of one group at one moment, in the order of [`METRICS`].
pub fn group_metrics(metrics: &Metrics, group: usize, at_ms: u64) -> [Option<f64>; 8] {
    let Some(now) = metrics.sample_at(at_ms) else {
        return [None; 8];
    };
    let Some(now_group) = now.groups.get(group) else {
        return [None; 8];
    };
    let start = window_start(metrics, now);
    let then_group = start.groups.get(group);
    let window_s = (now.at_ms - start.at_ms) as f64 / 1000.0;
    let delta =
        |f: fn(&GroupSample) -> u64| f(now_group).saturating_sub(then_group.map_or(0, f)) as f64;
    let per_second = |count: f64| (window_s > 0.0).then(|| count / window_s);
    let average = |total: f64, count: f64| (count > 0.0).then(|| total / count);
    // Found by binary search: the panel refreshes all run long, and a scan from the first
    // sample would grow with the run.
    let first = metrics.samples.partition_point(|s| s.at_ms < start.at_ms);
    let fetch_lag_max = metrics.samples[first..]
        .iter()
        .take_while(|s| s.at_ms <= now.at_ms)
        .filter_map(|s| s.groups.get(group).map(|g| g.fetch_lag_max))
        .max();
    [
        fetch_lag_max.map(|lag| lag as f64),
        per_second(delta(|g| g.client.records_consumed_total)),
        per_second(delta(|g| g.client.commits_total)),
        average(
            delta(|g| g.client.rebalance_latency_ms_total),
            delta(|g| g.client.rebalances_completed_total),
        ),
        per_second(delta(|g| g.client.rebalances_completed_total)).map(|r| r * 3600.0),
        Some(now_group.client.failed_rebalances_total as f64),
        Some(now_group.since_poll_max_ms as f64 / 1000.0),
        average(
            delta(|g| g.client.poll_gaps_ms_total),
            delta(|g| g.client.polls_total),
        ),
    ]
}

/// The sample [`WINDOW_MS`] before `now`, or the first one.
fn window_start<'a>(metrics: &'a Metrics, now: &Sample) -> &'a Sample {
    metrics
        .sample_at(now.at_ms.saturating_sub(WINDOW_MS))
        .unwrap_or(&metrics.samples[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::presets;
    use crate::kafka::World;

    const LAG_MAX: usize = 0;
    const CONSUMED_RATE: usize = 1;
    const COMMIT_RATE: usize = 2;
    const REBALANCE_LATENCY_AVG: usize = 3;
    const REBALANCE_RATE_PER_HOUR: usize = 4;
    const FAILED_REBALANCE_TOTAL: usize = 5;
    const LAST_POLL_SECONDS_AGO: usize = 6;
    const TIME_BETWEEN_POLL_AVG: usize = 7;

    fn run(slug: &str, to_ms: u64) -> World {
        let preset = crate::family::preset::find(presets::PRESETS, slug).unwrap();
        let mut world = World::new(&(preset.build)()).unwrap();
        world.advance_to(to_ms);
        world
    }

    fn at(world: &World, at_ms: u64) -> [Option<f64>; 8] {
        group_metrics(world.metrics(), 0, at_ms)
    }

    #[test]
    fn a_storm_shows_in_the_coordinator_metrics_and_its_fix_shows_nothing() {
        let storm = at(&run("rebalance-storm", 60_000), 60_000);
        assert!(storm[FAILED_REBALANCE_TOTAL].unwrap() > 0.0, "{storm:?}");
        assert!(storm[REBALANCE_RATE_PER_HOUR].unwrap() > 0.0);
        assert!(storm[REBALANCE_LATENCY_AVG].unwrap() > 1_000.0);
        let fixed = at(&run("storm-fix-smaller-batches", 60_000), 60_000);
        assert_eq!(fixed[FAILED_REBALANCE_TOTAL], Some(0.0), "{fixed:?}");
        assert_eq!(fixed[REBALANCE_RATE_PER_HOUR], Some(0.0));
        assert_eq!(fixed[REBALANCE_LATENCY_AVG], None);
    }

    #[test]
    fn the_storm_shows_in_poll_timing_before_anyone_is_removed() {
        // c3 slows down at 20 s and is first removed after max.poll.interval.ms (8 s).
        let world = run("rebalance-storm", 30_000);
        let calm = at(&world, 19_000);
        let slow = at(&world, 30_000);
        assert!(calm[LAST_POLL_SECONDS_AGO].unwrap() < 1.0, "{calm:?}");
        assert!(slow[LAST_POLL_SECONDS_AGO].unwrap() > 5.0, "{slow:?}");
        assert_eq!(slow[FAILED_REBALANCE_TOTAL], Some(0.0));
        assert!(slow[LAG_MAX].unwrap() > calm[LAG_MAX].unwrap());
        assert!(slow[TIME_BETWEEN_POLL_AVG].unwrap() > calm[TIME_BETWEEN_POLL_AVG].unwrap());
    }

    #[test]
    fn a_steady_group_consumes_what_is_produced_and_auto_commits_on_its_interval() {
        let preset =
            crate::family::preset::find(presets::PRESETS, "storm-fix-smaller-batches").unwrap();
        let scenario = (preset.build)();
        let world = run(preset.slug, 120_000);
        let metrics = at(&world, 120_000);
        let produced = f64::from(scenario.producer.rate_per_s);
        let consumed = metrics[CONSUMED_RATE].unwrap();
        assert!(
            (consumed - produced).abs() < produced * 0.1,
            "{consumed} vs {produced}"
        );
        // Every member commits once per auto.commit.interval.ms.
        let group = &scenario.groups[0];
        let expected = f64::from(group.members) * 1000.0 / f64::from(group.auto_commit_interval_ms);
        let commits = metrics[COMMIT_RATE].unwrap();
        assert!(
            (commits - expected).abs() < expected * 0.2,
            "{commits} vs {expected}"
        );
    }

    #[test]
    fn a_windowed_average_empties_once_a_window_passes_without_a_rebalance() {
        let world = run("commit-after-duplicates", 70_000);
        assert!(at(&world, 50_000)[REBALANCE_LATENCY_AVG].is_some());
        assert_eq!(at(&world, 70_000)[REBALANCE_LATENCY_AVG], None);
        assert_eq!(at(&world, 70_000)[REBALANCE_RATE_PER_HOUR], Some(0.0));
    }

    #[test]
    fn at_the_start_rates_and_averages_have_no_window_yet() {
        let world = World::new(&presets::storm_32_members()).unwrap();
        let start = at(&world, 0);
        for metric in [
            CONSUMED_RATE,
            COMMIT_RATE,
            REBALANCE_LATENCY_AVG,
            TIME_BETWEEN_POLL_AVG,
        ] {
            assert_eq!(start[metric], None, "{}", METRICS[metric].name);
        }
        assert_eq!(start[FAILED_REBALANCE_TOTAL], Some(0.0));
        assert_eq!(group_metrics(world.metrics(), 7, 0), [None; 8]);
    }
}
