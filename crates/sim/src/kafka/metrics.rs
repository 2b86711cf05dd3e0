//! Metrics: a time series sampled every [`SAMPLE_INTERVAL_MS`], and the lag alerts it raises.
//!
//! Each sample records every partition's log end offset and, per group, the records processed
//! so far and each partition's lag. Lag here is log end offset minus the group's processed
//! offset: the records that still wait for the application. Kafka's own tools report two
//! neighbours of it (`kafka-consumer-groups` shows log end minus the committed offset, the
//! consumer's `records-lag` metric log end minus the position); the lesson draws committed
//! offset and position as their own markers, so all three stay visible.

use crate::kafka::events::{Event, EventKind, MemberLoad};
use crate::kafka::group::{ClientCounters, Group, GroupState, Liveness, MemberPhase};
use crate::kafka::stall_tally::StallTally;
use crate::kafka::topic::Topic;
use crate::replay::chunked::ChunkedVec;
use serde::Serialize;
use std::sync::Arc;

/// Simulated time between two samples.
pub const SAMPLE_INTERVAL_MS: u64 = 250;

/// Lag thresholds that raise an alert when crossed upwards, unless the group sets its own
/// (`lag_alert_records`).
pub const LAG_ALERT_THRESHOLDS: [u64; 4] = [100, 1_000, 10_000, 100_000];

/// Below this lag, a partition that had alerted counts as caught up.
pub const CAUGHT_UP_LAG: u64 = 10;

/// How far back the inflow rate in an alert looks.
const INFLOW_WINDOW_MS: u64 = 5_000;

/// The state of the run at one sample time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sample {
    pub at_ms: u64,
    /// Records produced so far.
    pub produced_total: u64,
    /// Log end offset of every partition.
    pub log_end_offsets: Vec<u64>,
    pub groups: Vec<GroupSample>,
}

/// One group at one sample time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupSample {
    /// Records the group finished processing so far (duplicates included).
    pub processed_total: u64,
    pub duplicates_total: u64,
    pub rebalances_total: u64,
    /// The coordinator's state at the sample time.
    pub state: GroupState,
    /// Each member's phase, in member order (members added later extend the list).
    pub members: Vec<MemberPhase>,
    /// Per partition: log end offset minus processed offset.
    pub lag: Vec<u64>,
    /// The largest log end offset minus position of a partition some member owns: what the
    /// consumers' `records-lag` metric measures (a partition nobody owns has no one to report).
    pub fetch_lag_max: u64,
    /// The longest any running member has gone without calling `poll()`.
    pub since_poll_max_ms: u64,
    pub client: ClientCounters,
}

/// The sampled series of a run.
#[derive(Clone, Debug, Default)]
pub struct Metrics {
    /// Each sample behind its own pointer: a sample never changes once taken, and every
    /// checkpoint of the timeline clones the series, so a clone copies pointers instead of
    /// every sample's lists (at ten minutes that was most of re-simulating for a knob change).
    pub samples: Vec<Arc<Sample>>,
    /// The time lost in rebalances and stops over `samples`, counted as each is taken, so
    /// reading it costs nothing however long the run.
    stall_tally: StallTally,
}

impl Metrics {
    /// When the next sample is due (the first one is at t = 0).
    pub fn next_sample_ms(&self) -> u64 {
        self.samples
            .last()
            .map_or(0, |s| s.at_ms + SAMPLE_INTERVAL_MS)
    }

    /// Takes the sample for `now_ms` and raises any lag alerts it shows.
    pub fn sample(
        &mut self,
        now_ms: u64,
        topic: &Topic,
        groups: &mut [Group],
        events: &mut ChunkedVec<Arc<Event>>,
    ) {
        let log_end_offsets: Vec<u64> = topic
            .partitions
            .iter()
            .map(|p| p.log_end_offset())
            .collect();
        let group_samples = groups
            .iter()
            .map(|g| GroupSample {
                processed_total: g.processed_total,
                duplicates_total: g.duplicates_total,
                rebalances_total: g.rebalances_total,
                state: g.state,
                members: (0..g.members.len()).map(|m| g.member_phase(m)).collect(),
                lag: g
                    .partitions
                    .iter()
                    .zip(&log_end_offsets)
                    .map(|(progress, end)| end - progress.processed)
                    .collect(),
                fetch_lag_max: fetch_lag_max(g, &log_end_offsets),
                since_poll_max_ms: since_poll_max_ms(g, now_ms),
                client: g.client_counters,
            })
            .collect();
        let sample = Sample {
            at_ms: now_ms,
            produced_total: log_end_offsets.iter().sum(),
            log_end_offsets,
            groups: group_samples,
        };
        self.stall_tally.count(&sample);
        self.samples.push(Arc::new(sample));
        for (index, group) in groups.iter_mut().enumerate() {
            self.raise_lag_alerts(index, group, now_ms, events);
        }
    }

    /// The time lost in rebalances and stops over every sample so far.
    pub fn stall_tally(&self) -> &StallTally {
        &self.stall_tally
    }

    /// The newest sample taken at or before `at_ms`.
    pub fn sample_at(&self, at_ms: u64) -> Option<&Sample> {
        let after = self.samples.partition_point(|s| s.at_ms <= at_ms);
        self.samples.get(after.checked_sub(1)?).map(Arc::as_ref)
    }

    fn raise_lag_alerts(
        &self,
        index: usize,
        group: &mut Group,
        now_ms: u64,
        events: &mut ChunkedVec<Arc<Event>>,
    ) {
        let latest = self.samples.last().expect("called right after a push");
        let custom = [group.config.lag_alert_records];
        let thresholds: &[u64] = if group.config.lag_alert_records > 0 {
            &custom
        } else {
            &LAG_ALERT_THRESHOLDS
        };
        for partition in 0..group.partitions.len() {
            let lag = latest.groups[index].lag[partition];
            let level = usize::from(group.lag_levels[partition]);
            if level < thresholds.len() && lag >= thresholds[level] {
                let crossed = thresholds.iter().filter(|&&t| lag >= t).count();
                group.lag_levels[partition] = crossed as u8;
                let kind = EventKind::LagRising {
                    group_id: group.id.clone(),
                    partition: partition as u32,
                    threshold: thresholds[crossed - 1],
                    lag,
                    inflow_per_s: self.inflow_per_s(partition),
                    owner: owner_load(group, partition),
                };
                events.push(Arc::new(Event {
                    at_ms: now_ms,
                    kind,
                }));
            } else if level > 0 && lag < CAUGHT_UP_LAG {
                group.lag_levels[partition] = 0;
                let kind = EventKind::CaughtUp {
                    group_id: group.id.clone(),
                    partition: partition as u32,
                };
                events.push(Arc::new(Event {
                    at_ms: now_ms,
                    kind,
                }));
            }
        }
    }

    /// Records appended to `partition` per second over the last few seconds.
    fn inflow_per_s(&self, partition: usize) -> u64 {
        let latest = self.samples.last().expect("at least one sample");
        let back = (INFLOW_WINDOW_MS / SAMPLE_INTERVAL_MS) as usize;
        let earlier = &self.samples[self.samples.len().saturating_sub(back + 1)];
        let span_ms = latest.at_ms - earlier.at_ms;
        if span_ms == 0 {
            return 0;
        }
        let appended = latest.log_end_offsets[partition] - earlier.log_end_offsets[partition];
        appended * 1000 / span_ms
    }
}

fn owner_load(group: &Group, partition: usize) -> Option<MemberLoad> {
    let owner = group.partitions[partition].owner?;
    let member = &group.members[owner];
    Some(MemberLoad {
        member_id: member.id.clone(),
        partitions: member.assigned.clone(),
        processing_time_ms: group.config.processing.time_ms,
    })
}

fn fetch_lag_max(group: &Group, log_end_offsets: &[u64]) -> u64 {
    group
        .partitions
        .iter()
        .zip(log_end_offsets)
        .filter(|(progress, _)| progress.owner.is_some())
        .map(|(progress, end)| end.saturating_sub(progress.position))
        .max()
        .unwrap_or(0)
}

fn since_poll_max_ms(group: &Group, now_ms: u64) -> u64 {
    group
        .members
        .iter()
        .filter(|m| matches!(m.liveness, Liveness::Running | Liveness::Paused { .. }))
        .map(|m| now_ms.saturating_sub(m.last_poll_ms))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use crate::kafka::scenario::Scenario;
    use crate::kafka::World;

    fn run_for_ten_seconds(members: u32) -> World {
        let mut scenario = Scenario::default();
        scenario.groups[0].members = members;
        let mut world = World::new(&scenario).expect("valid");
        world.advance_to(10_000);
        world
    }

    /// Lag is what the group has yet to process: every record appended, while nobody reads.
    #[test]
    fn a_group_with_no_members_lags_by_every_record_appended() {
        let world = run_for_ten_seconds(0);
        let last = world.metrics().samples.last().expect("sampled");
        assert!(last.produced_total > 0);
        assert_eq!(last.groups[0].lag, last.log_end_offsets);
    }

    /// A group at work lags by less than the log holds, and by nothing that was processed.
    #[test]
    fn a_working_group_lags_by_what_it_has_not_processed() {
        let world = run_for_ten_seconds(3);
        let last = world.metrics().samples.last().expect("sampled");
        assert!(last.groups[0].processed_total > 0);
        let lag: u64 = last.groups[0].lag.iter().sum();
        let appended: u64 = last.log_end_offsets.iter().sum();
        assert!(lag < appended, "lag {lag} of {appended} appended");
        for (p, (&lag, &end)) in last.groups[0]
            .lag
            .iter()
            .zip(&last.log_end_offsets)
            .enumerate()
        {
            assert!(lag <= end, "p{p}: lag {lag} past the log end {end}");
        }
    }
}
