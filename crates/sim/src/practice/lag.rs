//! How far behind each service is, in time: measured on the run every
//! [`MEASURE_INTERVAL_MS`], the worst so far kept per service, and when the recommender
//! caught up after its deploy.
//!
//! A service's lag here is how long the oldest event it has not yet processed has been in
//! the topic: for each partition, now minus the append time of the record at the group's
//! processed offset (or at the log start, if retention deleted that record), the largest over
//! the partitions; nothing waiting is 0. Kafka itself reports lag in records
//! (`kafka-consumer-groups`, `records-lag`); lag in time is what monitoring tools estimate
//! from those offsets (Amazon MSK's `EstimatedMaxTimeLag`, lag exporters), and it is what a
//! service's deadline is written in. The world knows every append time, so here it is exact.
//!
//! Measuring on a fixed grid (every multiple of the interval, whatever steps the world is
//! advanced in) keeps a run's measurements the same however it is played, sought or linked.

use super::scenario::{Service, DEPLOY_AT_MS, DEPLOY_DOWN_MS, SERVICES};
use crate::kafka::group::Group;
use crate::kafka::topic::Topic;
use crate::kafka::World;

/// Simulated time between two measurements: the consumer-group world's own sample interval.
pub const MEASURE_INTERVAL_MS: u64 = crate::kafka::metrics::SAMPLE_INTERVAL_MS;

/// A service whose lag is at most this is caught up.
pub const CAUGHT_UP_LAG_MS: u64 = 1_000;

/// One measurement of every service's lag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagSample {
    pub at_ms: u64,
    /// Per service, in [`SERVICES`] order.
    pub lag_ms: [u64; 3],
}

/// Every measurement of a run so far, and what the goals read from them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LagTracker {
    pub samples: Vec<LagSample>,
    /// Per service: the largest lag measured so far.
    pub lag_ms_max: [u64; 3],
    /// The first measurement after the recommender's consumers came back from the deploy
    /// at which it was caught up.
    pub recommender_caught_up_at_ms: Option<u64>,
}

impl LagTracker {
    /// When the next measurement is due.
    pub fn next_ms(&self) -> u64 {
        self.samples
            .last()
            .map_or(0, |s| s.at_ms + MEASURE_INTERVAL_MS)
    }

    /// Measures `world`, which stands at a grid time.
    pub fn measure(&mut self, world: &World) {
        let at_ms = world.now_ms();
        debug_assert_eq!(at_ms, self.next_ms(), "measured off the grid");
        let groups = world.groups();
        let lag_ms = SERVICES.map(|s| time_lag_ms(&groups[s.index()], world.topic(), at_ms));
        for (max, lag) in self.lag_ms_max.iter_mut().zip(lag_ms) {
            *max = (*max).max(lag);
        }
        let back_ms = DEPLOY_AT_MS + DEPLOY_DOWN_MS;
        let recommender = lag_ms[Service::Recommender.index()];
        if self.recommender_caught_up_at_ms.is_none()
            && at_ms >= back_ms
            && recommender <= CAUGHT_UP_LAG_MS
        {
            self.recommender_caught_up_at_ms = Some(at_ms);
        }
        self.samples.push(LagSample { at_ms, lag_ms });
    }
}

/// How long the oldest record `group` has not processed has been in `topic`, at `now_ms`.
pub fn time_lag_ms(group: &Group, topic: &Topic, now_ms: u64) -> u64 {
    (group.partitions.iter().zip(&topic.partitions))
        .map(|(progress, log)| {
            let next = progress.processed.max(log.log_start_offset());
            log.get(next)
                .map_or(0, |record| now_ms.saturating_sub(record.append_ms()))
        })
        .max()
        .unwrap_or(0)
}
