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
//!
//! A lane that runs only because a record arrived runs only its starts, and starting work
//! only adds times to the lane's (a processing's end, a new lock's deadline, a delivery's
//! timeout): its due time is then the sooner of the kept one and the earliest it added,
//! without asking the lane. A start that also takes a time away (a share-group poll that lets
//! go of a lock batch) has the lane asked again.

use super::world::QueuesWorld;
use crate::replay::due::earliest;

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

/// What one lane's starts did to its due times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Started {
    /// The earliest time they added.
    pub earliest_ms: Option<u64>,
    /// Whether they also took one away.
    pub took_away: bool,
}

impl Started {
    pub fn add(&mut self, at_ms: u64) {
        self.earliest_ms = earliest([self.earliest_ms, Some(at_ms)]);
    }

    /// The lane's due time after these starts, given the one before them (`None` when the
    /// lane must be asked).
    fn due_after(&self, before: Option<u64>) -> Option<Option<u64>> {
        (!self.took_away).then(|| earliest([before, self.earliest_ms]))
    }
}

/// Each lane's starts in one tick (default for a lane that did not start).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LaneStarts {
    pub(crate) consumer_group: Started,
    pub(crate) share_group: Started,
    pub(crate) queue: Started,
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

    /// The due times after a tick that ran all the steps of the lanes in `due` and only the
    /// starts of the others in `runs`: the first are asked, the others follow from what their
    /// starts added (or are asked, when their starts took a time away).
    pub(crate) fn after_tick(
        world: &QueuesWorld,
        due: LaneRuns,
        runs: LaneRuns,
        starts: LaneStarts,
        kept: Self,
    ) -> Self {
        let mut ask = due;
        let known = Self {
            consumer_group: followed(
                runs.consumer_group,
                starts.consumer_group,
                kept.consumer_group,
                &mut ask.consumer_group,
            ),
            share_group: followed(
                runs.share_group,
                starts.share_group,
                kept.share_group,
                &mut ask.share_group,
            ),
            queue: followed(runs.queue, starts.queue, kept.queue, &mut ask.queue),
        };
        Self::of_lanes(world, ask, known)
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

/// One lane's due time after a tick, where it follows from its starts: for a lane that ran
/// only its starts, the sooner of `kept` and what they added, unless they took a time away,
/// which sets `ask`. A lane that is asked anyway, or did not run, keeps `kept` here.
fn followed(runs: bool, started: Started, kept: Option<u64>, ask: &mut bool) -> Option<u64> {
    if !runs || *ask {
        return kept;
    }
    started.due_after(kept).unwrap_or_else(|| {
        *ask = true;
        kept
    })
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

    #[test]
    fn a_lane_that_only_started_work_is_due_at_the_sooner_of_its_kept_and_added_times() {
        let started = |earliest_ms, took_away| Started {
            earliest_ms,
            took_away,
        };
        let mut ask = false;
        assert_eq!(
            followed(true, started(Some(5), false), Some(9), &mut ask),
            Some(5)
        );
        assert_eq!(
            followed(true, started(Some(12), false), Some(9), &mut ask),
            Some(9)
        );
        assert_eq!(
            followed(true, started(Some(5), false), None, &mut ask),
            Some(5)
        );
        assert_eq!(
            followed(true, started(None, false), Some(9), &mut ask),
            Some(9)
        );
        assert!(!ask, "nothing taken away: no need to ask the lane");
        // A lane that did not run, or is asked anyway, keeps its time here.
        assert_eq!(
            followed(false, started(Some(5), false), Some(9), &mut ask),
            Some(9)
        );
        let mut asked = true;
        assert_eq!(
            followed(true, started(Some(5), false), Some(9), &mut asked),
            Some(9)
        );
        // A start that took a time away has the lane asked.
        assert_eq!(
            followed(true, started(Some(5), true), Some(9), &mut ask),
            Some(9)
        );
        assert!(ask);
    }
}
