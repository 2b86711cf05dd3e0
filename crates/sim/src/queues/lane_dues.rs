//! When each reader lane (the consumer group, the share group, the queue) next has work of its
//! own, kept from one tick to the next, and which lanes a tick runs.
//!
//! Every lane's steps walk all its consumers, and asking a lane when it is next due walks them
//! again. Done for every lane at every tick, those walks were most of a readers run, though at
//! most ticks one lane has work and the other two have none. A lane's state changes only in a
//! tick that runs its steps, and the lanes never read one another; what reaches a lane from
//! outside is a record arriving or a scheduled action (the crash, the restart, new partitions).
//! So in a tick with neither, a lane whose own due time is still ahead has nothing to do: its
//! steps are skipped, and the due time it gave after the last tick it ran still holds. The
//! run is the same, tick for tick; the invariants check that every kept time is what its lane
//! would say now.

use super::world::QueuesWorld;

/// Each lane's own next due time, as it said after the last tick that ran it (`None`: the
/// lane is not in this run, or has nothing ahead until something reaches it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LaneDues {
    pub(crate) consumer_group: Option<u64>,
    pub(crate) share_group: Option<u64>,
    pub(crate) queue: Option<u64>,
}

/// Which lanes run their steps in one tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LaneRuns {
    pub(crate) consumer_group: bool,
    pub(crate) share_group: bool,
    pub(crate) queue: bool,
}

impl LaneRuns {
    pub(crate) const ALL: Self = Self {
        consumer_group: true,
        share_group: true,
        queue: true,
    };
}

impl LaneDues {
    /// What the lanes of `world` say now (a walk over every lane's consumers).
    pub(crate) fn of(world: &QueuesWorld) -> Self {
        Self::of_lanes(world, LaneRuns::ALL, Self::default())
    }

    /// `kept`, with the due times of the lanes in `runs` asked again.
    pub(crate) fn of_lanes(world: &QueuesWorld, runs: LaneRuns, kept: Self) -> Self {
        let timeout_ms = world.scenario().queue.consumer_timeout_ms;
        Self {
            consumer_group: if runs.consumer_group {
                world.consumer_group().and_then(|g| g.due_ms())
            } else {
                kept.consumer_group
            },
            share_group: if runs.share_group {
                world.share_group().and_then(|g| g.due_ms())
            } else {
                kept.share_group
            },
            queue: if runs.queue {
                world.queue().and_then(|q| q.due_ms(timeout_ms))
            } else {
                kept.queue
            },
        }
    }

    /// The lanes a tick at `now_ms` runs: all of them when something reaches them from
    /// outside (`news`), else those due by now.
    pub(crate) fn runs_at(&self, now_ms: u64, news: bool) -> LaneRuns {
        let due = |at: Option<u64>| news || at.is_some_and(|at| at <= now_ms);
        LaneRuns {
            consumer_group: due(self.consumer_group),
            share_group: due(self.share_group),
            queue: due(self.queue),
        }
    }

    pub(crate) fn as_array(&self) -> [Option<u64>; 3] {
        [self.consumer_group, self.share_group, self.queue]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_runs_the_lanes_due_by_then_or_every_lane_when_news_reaches_them() {
        let dues = LaneDues {
            consumer_group: Some(10),
            share_group: Some(11),
            queue: None,
        };
        let runs = |consumer_group, share_group, queue| LaneRuns {
            consumer_group,
            share_group,
            queue,
        };
        assert_eq!(dues.runs_at(9, false), runs(false, false, false));
        assert_eq!(dues.runs_at(10, false), runs(true, false, false));
        assert_eq!(dues.runs_at(11, false), runs(true, true, false));
        assert_eq!(dues.runs_at(9, true), LaneRuns::ALL);
    }
}
