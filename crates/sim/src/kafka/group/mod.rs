//! A consumer group: its members, the coordinator's view of them, and who owns which partition.
//!
//! Each member runs the usual consumer loop (`poll_loop`): `poll()`, then process the records
//! one at a time, then poll again. The coordinator's side (`membership`) runs the classic group
//! protocol: heartbeats every `heartbeat.interval.ms`, removal after `session.timeout.ms` of
//! silence or `max.poll.interval.ms` without a poll, and rebalances through the
//! PreparingRebalance → CompletingRebalance → Stable states with a generation that only grows.
//! Eager assignors make every member give up everything before the new assignment; the
//! cooperative protocol (KIP-429) revokes only what moves, in two rounds. `lifecycle` applies
//! what happens to members from outside (start, leave, crash, pause, slow down).
//!
//! Simplifications (said in the UI): requests take no network time, so JoinGroup and SyncGroup
//! complete in the tick their conditions are met; a poll starts at the next owned partition in
//! turn and takes what each has until the batch is full (Kafka's fetcher drains one fetched
//! partition first, which evens out the same way over a few polls).

mod errors;
mod lifecycle;
mod member;
mod membership;
mod offsets;
mod poll_loop;

pub use member::{Activity, FetchedRange, Liveness, Member};
pub use offsets::LogStartCause;

use crate::assignor::{Assignor, Strategy};
use crate::kafka::events::{Event, Id};
use crate::kafka::scenario::GroupConfig;
use crate::kafka::sink::{Sink, Span, Tallies};
use crate::replay::chunked::ChunkedVec;
use crate::replay::rng::{stream, SimRng};
use crate::replay::trace::TraceHasher;
use serde::Serialize;
use std::sync::Arc;

/// The coordinator's state for the group (Kafka's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupState {
    /// No members.
    Empty,
    /// Waiting for members to (re)join.
    PreparingRebalance,
    /// Members have joined; the leader's assignment is being handed out.
    CompletingRebalance,
    Stable,
}

impl GroupState {
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
        }
    }
}

/// What a member is doing, as the diagram and the timelines show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberPhase {
    /// Handling a record as a member of the group.
    Processing,
    /// Removed from the group but still working through its old batch: its work has effects,
    /// its commits will fail.
    Removed,
    /// In `poll()`, waiting for records.
    Waiting,
    /// Joining or rejoining a rebalance, holding nothing it may process.
    Rebalancing,
    /// In a stable group but given no partition.
    Idle,
    /// Frozen in a stop-the-world pause.
    Paused,
    /// Crashed.
    Dead,
    /// Shut down cleanly.
    Stopped,
}

impl MemberPhase {
    /// The phase's name in lower case, as its JSON and the page's style classes spell it.
    pub fn name(self) -> &'static str {
        match self {
            MemberPhase::Processing => "processing",
            MemberPhase::Removed => "removed",
            MemberPhase::Waiting => "waiting",
            MemberPhase::Rebalancing => "rebalancing",
            MemberPhase::Idle => "idle",
            MemberPhase::Paused => "paused",
            MemberPhase::Dead => "dead",
            MemberPhase::Stopped => "stopped",
        }
    }
}

/// A group's progress in one partition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartitionProgress {
    /// Index of the member that owns the partition, if any.
    pub owner: Option<usize>,
    /// The owner's position: the next offset `poll()` returns.
    pub position: u64,
    /// The owner has processed every record below this offset.
    pub processed: u64,
    /// The last committed offset: where a new owner starts reading.
    pub committed: u64,
    /// One past the highest offset processed by anyone (records below it may still have been
    /// skipped, by a commit made before processing).
    pub high_water: u64,
    /// Whether `committed` is a real commit. A group that starts with the scenario begins with
    /// offset 0 committed everywhere; a group started later has none, and `auto.offset.reset`
    /// decides where it begins.
    pub has_committed: bool,
    /// A group without a committed offset has picked its starting point here.
    pub started: bool,
    /// Where the group began reading this partition: records below were there before it.
    pub first_offset: u64,
    /// Records retention deleted before the group got to them.
    pub lost_to_retention: u64,
    /// Records another application's `deleteRecords` call removed before the group got to
    /// them.
    pub lost_to_deletion: u64,
    /// Everything below this offset was deleted before the group read it.
    pub retention_floor: u64,
    /// Records a reset to latest jumped over after an out-of-range position.
    pub skipped_by_reset: u64,
    /// The position fell below the log start with `auto.offset.reset` = none: the consumer
    /// reads nothing more from this partition.
    pub out_of_range: bool,
}

impl PartitionProgress {
    /// Below this offset the group has moved on: a record there with no effect will not get
    /// one (short of an explicit reset). Records a live owner has fetched but not yet
    /// processed are in its hands, not lost, even when a commit before processing already
    /// covers them; once that owner dies they are.
    pub fn frontier(&self, held_by_live_owner: bool) -> u64 {
        let committed = if held_by_live_owner {
            self.committed.min(self.processed)
        } else {
            self.committed
        };
        committed.max(self.high_water).max(self.retention_floor)
    }
}

/// A rebalance in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rebalance {
    pub(crate) started_ms: u64,
    /// Members that have not rejoined by then are removed (the rebalance timeout, which the
    /// Java client sets to `max.poll.interval.ms`; for a new group,
    /// `group.initial.rebalance.delay.ms`).
    pub(crate) deadline_ms: u64,
    /// A new group's first rebalance waits out its delay even when everyone has joined.
    pub(crate) initial: bool,
}

/// A consumer group reading the topic.
#[derive(Clone, Debug)]
pub struct Group {
    pub config: GroupConfig,
    /// `config.group_id`, shared with every event that names the group.
    pub id: Id,
    pub state: GroupState,
    /// Bumped on every completed rebalance (Kafka's generation id).
    pub generation: u32,
    /// Boxed slices, not `Vec`s, like the topic's partitions: see [`crate::kafka::topic::Topic`].
    /// A member is added only by a scheduled start of a new id, which rebuilds the slice.
    pub members: Box<[Member]>,
    /// Per member, a time before which its loop has nothing to do (`asleep_until_ms`, taken
    /// after its last run; 0 once something else may have changed that). Eight bytes a
    /// member side by side, so a tick finds the one or two members due among 32 without
    /// reading every member's state: that scan, and asking waiting members whether they had
    /// a reason to wake, were half of the group's tick in the 32-member storm. The
    /// invariants check that a member skipped now would have done nothing.
    pub(crate) busy_until_ms: Box<[u64]>,
    /// Progress per partition, indexed by partition number.
    pub partitions: Box<[PartitionProgress]>,
    /// Records processed by the group, duplicates included.
    pub processed_total: u64,
    /// Records processed more than once (whether the sink applied the repeat or not).
    pub duplicates_total: u64,
    /// Records processed after a record the producer sent later: the order across partitions
    /// (and after a rewind) is not the order of production.
    pub out_of_produced_order: u64,
    /// The latest `send_ms` among the records processed so far.
    pub(crate) newest_send_ms_processed: u64,
    /// Writes aborted because a fenced member (no longer the owner) tried to commit them in a
    /// transaction.
    pub aborted_total: u64,
    /// Offset resets applied (the one way committed offsets may move backwards).
    pub resets_total: u64,
    /// Processing attempts that failed (poison records, each try counted).
    pub failed_attempts_total: u64,
    /// The group's output store.
    pub sink: Sink,
    /// Rebalances started.
    pub rebalances_total: u64,
    /// Lag-alert level reached per partition (0 = quiet, 1 = past the first threshold, ...).
    pub lag_levels: Vec<u8>,
    /// What the consumers' own metrics count, summed over members (see `client_metrics`).
    pub client_counters: ClientCounters,
    pub(crate) rebalance: Option<Rebalance>,
    /// The leader's assignor for `config.partition_assignment_strategy`.
    pub(crate) assignor: Assignor,
    /// No coordinator timer fires before this time (a lower bound; 0 = check now).
    pub(crate) membership_due_ms: u64,
    pub(crate) initial_delay_ms: u64,
    index: u64,
    /// The run's seed, for per-record decisions that must not consume a stream.
    pub(crate) seed: u64,
    pub(crate) rng: SimRng,
}

/// Running totals behind the consumer metrics Kafka's clients report (`poll()` calls and the
/// time between them, commit requests, failed and completed rebalances and their latency),
/// summed over the group's members. Sampled with the metrics, so a metric over a window is a
/// difference of two samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClientCounters {
    pub polls_total: u64,
    /// Records returned by `poll()`.
    pub records_consumed_total: u64,
    /// Time between each `poll()` and the same member's previous one, summed.
    pub poll_gaps_ms_total: u64,
    /// Offset commit requests (one per `commitSync`, auto-commit or listener commit).
    pub commits_total: u64,
    /// Members thrown out by a timeout: the client's next JoinGroup or commit is refused, which
    /// its coordinator metrics count as a failed rebalance.
    pub failed_rebalances_total: u64,
    pub rebalances_completed_total: u64,
    /// From the start of each completed rebalance to its assignment, summed.
    pub rebalance_latency_ms_total: u64,
}

/// Where a group's step writes what it did.
pub struct StepSink<'a> {
    pub events: &'a mut ChunkedVec<Arc<Event>>,
    pub trace: &'a mut TraceHasher,
}

impl StepSink<'_> {
    /// Appends `event` to the run's events.
    pub fn push(&mut self, event: Event) {
        self.events.push(Arc::new(event));
    }
}

impl Group {
    /// A group whose `config.members` members start at t = 0; `index` picks its random stream.
    pub fn new(
        config: &GroupConfig,
        assignor: Assignor,
        partition_count: u32,
        initial_delay_ms: u32,
        seed: u64,
        index: u64,
    ) -> Self {
        let members: Box<[Member]> = (1..=config.members)
            .map(|i| {
                let mut member = Member::new(format!("c{i}").into(), 0);
                if config.start_ms > 0 {
                    // Started by a scheduled Start at `start_ms`.
                    member.liveness = Liveness::Stopped;
                    member.activity = Activity::Waiting { until_ms: u64::MAX };
                }
                member
            })
            .collect();
        let progress = PartitionProgress {
            has_committed: config.start_ms == 0,
            ..PartitionProgress::default()
        };
        Self {
            config: config.clone(),
            id: config.group_id.as_str().into(),
            state: GroupState::Empty,
            generation: 0,
            busy_until_ms: vec![0; members.len()].into_boxed_slice(),
            members,
            partitions: vec![progress; partition_count as usize].into_boxed_slice(),
            processed_total: 0,
            duplicates_total: 0,
            out_of_produced_order: 0,
            newest_send_ms_processed: 0,
            aborted_total: 0,
            resets_total: 0,
            failed_attempts_total: 0,
            sink: Sink::new(config.sink, partition_count),
            rebalances_total: 0,
            client_counters: ClientCounters::default(),
            lag_levels: vec![0; partition_count as usize],
            rebalance: None,
            assignor,
            membership_due_ms: 0,
            initial_delay_ms: u64::from(initial_delay_ms),
            index,
            seed,
            rng: SimRng::for_stream(seed, stream::GROUP_BASE + index),
        }
    }

    pub fn group_id(&self) -> &str {
        &self.config.group_id
    }

    pub fn strategy(&self) -> Strategy {
        self.config.partition_assignment_strategy
    }

    /// When the rebalance in progress started, if one is.
    pub fn rebalance_started_ms(&self) -> Option<u64> {
        self.rebalance.map(|r| r.started_ms)
    }

    /// Index of the member called `member_id`.
    pub fn member_index(&self, member_id: &str) -> Option<usize> {
        self.members.iter().position(|m| *m.id == *member_id)
    }

    /// What member `m` is doing now.
    pub fn member_phase(&self, m: usize) -> MemberPhase {
        let member = &self.members[m];
        match member.liveness {
            Liveness::Crashed => return MemberPhase::Dead,
            Liveness::Stopped => return MemberPhase::Stopped,
            Liveness::Paused { .. } => return MemberPhase::Paused,
            Liveness::Running => {}
        }
        if matches!(member.activity, Activity::Processing { .. }) {
            return if member.in_group {
                MemberPhase::Processing
            } else {
                MemberPhase::Removed
            };
        }
        let rebalancing = matches!(
            self.state,
            GroupState::PreparingRebalance | GroupState::CompletingRebalance
        );
        if !member.in_group || (rebalancing && member.joined && !self.strategy().is_cooperative()) {
            MemberPhase::Rebalancing
        } else if member.assigned.is_empty() {
            if rebalancing {
                MemberPhase::Rebalancing
            } else {
                MemberPhase::Idle
            }
        } else {
            MemberPhase::Waiting
        }
    }

    /// One tick: the coordinator's timers first, then every member's loop in member order.
    pub fn run_tick(
        &mut self,
        now_ms: u64,
        topic: &crate::kafka::topic::Topic,
        sink: &mut StepSink,
    ) {
        self.run_membership(now_ms, topic, sink);
        for m in 0..self.members.len() {
            if self.busy_until_ms[m] > now_ms {
                continue;
            }
            self.run_member(m, now_ms, topic, sink);
            self.busy_until_ms[m] = self.asleep_until_ms(m);
        }
        // A poll may have completed the last join of a rebalance.
        self.try_complete_rebalance(now_ms, topic, sink);
    }

    /// Every member's loop looks at it again next tick: the group's state changed, or an
    /// action reached it, so a wait may end sooner than its member was told.
    pub(crate) fn wake_members(&mut self) {
        self.busy_until_ms.fill(0);
    }

    /// Lost, duplicated and exactly-once records, read off the sink.
    pub fn tallies(&self) -> Tallies {
        let spans: Vec<Span> = (0..self.partitions.len())
            .map(|p| {
                let progress = &self.partitions[p];
                Span {
                    first: progress.first_offset,
                    frontier: self.frontier(p),
                    in_hand: if self.held_by_live_owner(p) {
                        (progress.processed, progress.position)
                    } else {
                        (0, 0)
                    },
                }
            })
            .collect();
        self.sink.tallies(&spans)
    }

    /// Whether partition `p`'s owner is alive and still counts it as its own.
    pub fn held_by_live_owner(&self, p: usize) -> bool {
        self.partitions[p].owner.is_some_and(|m| {
            let member = &self.members[m];
            member.owns(p as u32)
                && matches!(member.liveness, Liveness::Running | Liveness::Paused { .. })
        })
    }

    /// Partition `p`'s frontier (see [`PartitionProgress::frontier`]).
    pub fn frontier(&self, p: usize) -> u64 {
        self.partitions[p].frontier(self.held_by_live_owner(p))
    }

    /// Records retention deleted before the group read them, over all partitions.
    pub fn lost_to_retention(&self) -> u64 {
        self.partitions.iter().map(|p| p.lost_to_retention).sum()
    }

    /// Records a `deleteRecords` call removed before the group read them, over all partitions.
    pub fn lost_to_deletion(&self) -> u64 {
        self.partitions.iter().map(|p| p.lost_to_deletion).sum()
    }

    /// The earliest tick at which something in the group has work. Asked on most ticks: a
    /// plain loop, since an iterator chain's adapters stay calls in the size build.
    pub fn next_activity_ms(&self) -> u64 {
        let mut earliest_ms = self.membership_due_ms;
        for m in 0..self.members.len() {
            earliest_ms = earliest_ms.min(self.member_next_activity_ms(m));
        }
        earliest_ms
    }
}

#[cfg(test)]
mod tests {
    use super::MemberPhase;

    #[test]
    fn a_phase_is_named_as_its_json_spells_it() {
        let phases = [
            MemberPhase::Processing,
            MemberPhase::Removed,
            MemberPhase::Waiting,
            MemberPhase::Rebalancing,
            MemberPhase::Idle,
            MemberPhase::Paused,
            MemberPhase::Dead,
            MemberPhase::Stopped,
        ];
        for phase in phases {
            let json = serde_json::to_string(&phase).unwrap();
            assert_eq!(json, format!("\"{}\"", phase.name()));
        }
    }
}
