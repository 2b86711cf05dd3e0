//! Running totals of the time a group lost, read from the metrics samples: member time spent
//! rebalancing with nothing it may process, and time no member worked although records waited.
//!
//! The counters under the picture show both on every frame and right after a knob change.
//! Counting them over every sample since the start made that cost grow with the run (ten
//! minutes hold 2 400 samples, about 9 ms in the browser), so the metrics count each sample
//! once, as it is taken ([`crate::kafka::metrics::Metrics::stall_tally`]): a world restored
//! from a checkpoint carries the tally of its own samples.

use crate::kafka::group::MemberPhase;
use crate::kafka::metrics::{GroupSample, Sample, SAMPLE_INTERVAL_MS};

/// Per group, the samples in which members were stalled or the group stopped, so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StallTally {
    /// Per group: member-samples spent rebalancing.
    stalled_member_samples: Vec<u64>,
    /// Per group: samples with lag and no member processing.
    stopped_samples: Vec<u64>,
}

impl StallTally {
    /// Adds one more sample to the tally.
    pub fn count(&mut self, sample: &Sample) {
        // Groups added later extend the lists; they never shrink.
        let groups = sample.groups.len().max(self.stopped_samples.len());
        self.stalled_member_samples.resize(groups, 0);
        self.stopped_samples.resize(groups, 0);
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
    use std::sync::Arc;

    impl StallTally {
        /// The tally of `samples` from scratch, to compare the running one with.
        fn of(samples: &[Arc<Sample>]) -> Self {
            let mut tally = Self::default();
            for sample in samples {
                tally.count(sample);
            }
            tally
        }
    }

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
    fn counting_one_sample_at_a_time_gives_the_tally_from_scratch() {
        let all = series();
        let mut tally = StallTally::default();
        for (len, sample) in all.iter().enumerate() {
            assert_eq!(tally, StallTally::of(&all[..len]), "after {len} samples");
            tally.count(sample);
        }
        assert_eq!(tally, StallTally::of(&all));
    }

    /// The tally a run keeps as it samples: the storm's lost time, the same as counting its
    /// samples afresh, also after the timeline seeks back to a checkpoint and replays.
    #[test]
    fn a_run_keeps_the_tally_of_its_own_samples_across_a_seek_back() {
        use crate::family::timeline::Timeline;
        use crate::kafka::{presets, World};
        let storm = presets::find("rebalance-storm").expect("a preset");
        let mut timeline = Timeline::new(World::new(&(storm.build)()).expect("valid"));
        timeline.seek(90_000);
        let late = timeline.world().metrics();
        assert_eq!(late.stall_tally(), &StallTally::of(&late.samples));
        let late_stalled_ms = late.stall_tally().stalled_member_ms(0);
        assert!(late_stalled_ms > 0, "the storm stalls its members");
        timeline.seek(40_000);
        let early = timeline.world().metrics();
        assert_eq!(early.stall_tally(), &StallTally::of(&early.samples));
        assert!(early.stall_tally().stalled_member_ms(0) < late_stalled_ms);
    }
}
