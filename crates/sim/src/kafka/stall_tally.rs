//! Running totals of the time a group lost, read from the metrics samples: member time spent
//! rebalancing with nothing it may process, and time no member worked although records waited.
//!
//! The counters under the picture show both on every frame. Counting them over every sample
//! since the start made each frame's cost grow with the run (an hour holds 14 400 samples), so
//! the tally keeps its counts and, on each update, only reads the samples added since the last
//! one. Samples never change once taken, so a longer series always extends the counted one; a
//! shorter series (a seek back) is counted again from the start.

use crate::kafka::group::MemberPhase;
use crate::kafka::metrics::{GroupSample, Sample, SAMPLE_INTERVAL_MS};
use std::sync::Arc;

/// Per group, the samples in which members were stalled or the group stopped, so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StallTally {
    counted: usize,
    /// Per group: member-samples spent rebalancing.
    stalled_member_samples: Vec<u64>,
    /// Per group: samples with lag and no member processing.
    stopped_samples: Vec<u64>,
}

impl StallTally {
    /// The tally of `samples` from scratch.
    pub fn of(samples: &[Arc<Sample>]) -> Self {
        let mut tally = Self::default();
        tally.update(samples);
        tally
    }

    /// Brings the tally to `samples`: the series it counted last, possibly longer, or a
    /// shorter one after a seek back.
    pub fn update(&mut self, samples: &[Arc<Sample>]) {
        if samples.len() < self.counted {
            *self = Self::default();
        }
        for sample in &samples[self.counted..] {
            self.count(sample);
        }
        self.counted = samples.len();
    }

    fn count(&mut self, sample: &Sample) {
        let groups = sample.groups.len();
        if self.stopped_samples.len() < groups {
            self.stalled_member_samples.resize(groups, 0);
            self.stopped_samples.resize(groups, 0);
        }
        for (g, group) in sample.groups.iter().enumerate() {
            self.stalled_member_samples[g] += rebalancing_members(group);
            self.stopped_samples[g] += u64::from(stopped(group));
        }
    }

    /// Member-milliseconds group `group` spent in a rebalance with nothing it may process.
    pub fn stalled_member_ms(&self, group: usize) -> u64 {
        self.stalled_member_samples.get(group).copied().unwrap_or(0) * SAMPLE_INTERVAL_MS
    }

    /// Milliseconds in which group `group` processed nothing although records were waiting.
    pub fn stopped_ms(&self, group: usize) -> u64 {
        self.stopped_samples.get(group).copied().unwrap_or(0) * SAMPLE_INTERVAL_MS
    }
}

fn rebalancing_members(group: &GroupSample) -> u64 {
    group
        .members
        .iter()
        .filter(|phase| **phase == MemberPhase::Rebalancing)
        .count() as u64
}

/// Records waited and no member of the group was at work (a removed member finishing its old
/// batch does not count).
fn stopped(group: &GroupSample) -> bool {
    group.lag.iter().any(|&lag| lag > 0) && !group.members.contains(&MemberPhase::Processing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::group::GroupState;

    fn group(lag: u64, members: &[MemberPhase]) -> GroupSample {
        GroupSample {
            processed_total: 0,
            duplicates_total: 0,
            rebalances_total: 0,
            state: GroupState::Stable,
            members: members.to_vec(),
            lag: vec![lag, 0],
            fetch_lag_max: 0,
            since_poll_max_ms: 0,
            client: Default::default(),
        }
    }

    fn sample(at_ms: u64, groups: Vec<GroupSample>) -> Sample {
        Sample {
            at_ms,
            produced_total: 0,
            log_end_offsets: vec![0, 0],
            groups,
        }
    }

    /// Eight samples of two groups: the first rebalancing (two members stuck) for three of
    /// them, the second, added later, with records waiting and nobody processing for two.
    fn series() -> Vec<Arc<Sample>> {
        use MemberPhase::{Processing, Rebalancing, Waiting};
        (0..8u64)
            .map(|i| {
                let first = if (2..5).contains(&i) {
                    group(5, &[Rebalancing, Rebalancing, Processing])
                } else {
                    group(5, &[Processing, Waiting, Waiting])
                };
                let mut groups = vec![first];
                if i >= 4 {
                    let working = if i < 6 { Waiting } else { Processing };
                    groups.push(group(3, &[working]));
                }
                Arc::new(sample(i * SAMPLE_INTERVAL_MS, groups))
            })
            .collect()
    }

    #[test]
    fn counts_member_time_in_rebalances_and_time_nobody_worked() {
        let tally = StallTally::of(&series());
        assert_eq!(tally.stalled_member_ms(0), 6 * SAMPLE_INTERVAL_MS);
        assert_eq!(tally.stopped_ms(0), 0, "a member kept processing");
        assert_eq!(tally.stalled_member_ms(1), 0);
        assert_eq!(tally.stopped_ms(1), 2 * SAMPLE_INTERVAL_MS);
        assert_eq!(tally.stopped_ms(7), 0, "a group it never saw lost nothing");
    }

    #[test]
    fn no_lag_is_not_stopped() {
        let idle = [Arc::new(sample(0, vec![group(0, &[MemberPhase::Waiting])]))];
        assert_eq!(StallTally::of(&idle).stopped_ms(0), 0);
    }

    #[test]
    fn growing_step_by_step_gives_the_tally_from_scratch() {
        let all = series();
        let mut tally = StallTally::default();
        for len in [0, 1, 3, 3, 6, 8] {
            tally.update(&all[..len]);
            assert_eq!(tally, StallTally::of(&all[..len]), "after {len} samples");
        }
    }

    #[test]
    fn a_shorter_series_is_counted_again() {
        let all = series();
        let mut tally = StallTally::of(&all);
        tally.update(&all[..3]);
        assert_eq!(tally, StallTally::of(&all[..3]));
        assert_eq!(tally.stalled_member_ms(0), 2 * SAMPLE_INTERVAL_MS);
    }
}
