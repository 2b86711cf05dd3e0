//! The coordinator's side of the classic group protocol: heartbeats, timeouts and rebalances.
//!
//! A member is removed when the coordinator hears no heartbeat for `session.timeout.ms` (a
//! crash or a long pause), when its heartbeat thread gives up because `poll()` has not been
//! called for `max.poll.interval.ms` (a batch that takes too long), or when it leaves cleanly.
//! Any change of membership starts a rebalance: members learn of it from their next heartbeat
//! and rejoin at their next `poll()`; the rebalance completes when every member has rejoined or
//! the rebalance timeout (`max.poll.interval.ms`) passes, and the ones still missing are
//! removed. Nothing here is scripted: a storm is this loop feeding itself.

use super::{Group, GroupState, Liveness, Rebalance, StepSink};
use crate::assignor::{Assignment, GroupSubscription, MemberSubscription, TopicPartition};
use crate::invariant::Surely;
use crate::kafka::events::{
    CommitCause, Event, EventKind, MemberPartitions, RebalanceReason, RemovalReason,
};
use crate::kafka::topic::Topic;
use crate::replay::sort::sort;
use crate::replay::sorted_map::SortedMap;

impl Group {
    /// The coordinator's timers. They are checked only when one is due (`membership_due_ms`,
    /// a lower bound kept by every change that can bring a timer forward), so a tick where
    /// only records move costs nothing per member here.
    pub(crate) fn run_membership(&mut self, now_ms: u64, topic: &Topic, sink: &mut StepSink) {
        if now_ms < self.membership_due_ms {
            return;
        }
        self.resume_paused(now_ms);
        self.heartbeats(now_ms);
        self.poll_timeouts(now_ms, sink);
        self.session_timeouts(now_ms, sink);
        self.try_complete_rebalance(now_ms, topic, sink);
        self.membership_due_ms = self.compute_membership_due_ms();
    }

    fn compute_membership_due_ms(&self) -> u64 {
        let deadline = self.rebalance.map_or(u64::MAX, |r| r.deadline_ms);
        (0..self.members.len())
            .map(|m| self.member_timers_ms(m))
            .fold(deadline, u64::min)
    }

    fn resume_paused(&mut self, now_ms: u64) {
        for (member, busy_until_ms) in self.members.iter_mut().zip(&mut self.busy_until_ms) {
            if let Liveness::Paused { since_ms, until_ms } = member.liveness {
                if now_ms >= until_ms {
                    member.liveness = Liveness::Running;
                    *busy_until_ms = 0;
                    // The record in hand took the pause on top of its own time.
                    if let super::Activity::Processing { done_ms, .. } = &mut member.activity {
                        *done_ms += until_ms - since_ms;
                    }
                }
            }
        }
    }

    /// Each running member's heartbeat thread reports in; the reply tells it about a
    /// rebalance in progress.
    fn heartbeats(&mut self, now_ms: u64) {
        let interval_ms = u64::from(self.config.heartbeat_interval_ms);
        let rebalancing = self.state == GroupState::PreparingRebalance;
        for member in &mut self.members {
            let heartbeating = member.is_running() && !member.static_rejoin_pending;
            if heartbeating && now_ms >= member.last_heartbeat_ms + interval_ms {
                member.last_heartbeat_ms = now_ms;
                if member.in_group && rebalancing && !member.joined {
                    member.rejoin_pending = true;
                }
            }
        }
    }

    /// A member stuck in one batch for longer than `max.poll.interval.ms` leaves the group:
    /// its heartbeat thread sends LeaveGroup while the processing thread keeps going. A static
    /// member sends no LeaveGroup (since Kafka 2.3): it stops heartbeating and rejoins with its
    /// `group.instance.id` at its next poll, and only `session.timeout.ms` can remove it.
    fn poll_timeouts(&mut self, now_ms: u64, sink: &mut StepSink) {
        for m in 0..self.members.len() {
            if now_ms >= self.poll_deadline_ms(m) {
                let since_poll_ms = now_ms - self.members[m].last_poll_ms;
                if self.config.static_membership {
                    self.members[m].static_rejoin_pending = true;
                    continue;
                }
                let removal = RemovalReason::PollIntervalExceeded {
                    since_poll_ms,
                    max_poll_interval_ms: self.config.max_poll_interval_ms,
                };
                self.remove_member(m, now_ms, removal, sink);
                let reason = RebalanceReason::PollIntervalExceeded {
                    member_id: self.members[m].id.clone(),
                    since_poll_ms,
                    max_poll_interval_ms: self.config.max_poll_interval_ms,
                };
                self.begin_rebalance(now_ms, reason, sink);
            }
        }
    }

    /// A member silent for `session.timeout.ms` is declared dead.
    fn session_timeouts(&mut self, now_ms: u64, sink: &mut StepSink) {
        let session_ms = u64::from(self.config.session_timeout_ms);
        for m in 0..self.members.len() {
            let member = &self.members[m];
            if member.in_group && now_ms > member.last_heartbeat_ms + session_ms {
                let silent_ms = now_ms - member.last_heartbeat_ms;
                let session_timeout_ms = self.config.session_timeout_ms;
                let reason = RebalanceReason::SessionTimeout {
                    member_id: member.id.clone(),
                    silent_ms,
                    session_timeout_ms,
                };
                let removal = RemovalReason::SessionTimeout {
                    silent_ms,
                    session_timeout_ms,
                };
                self.remove_member(m, now_ms, removal, sink);
                self.begin_rebalance(now_ms, reason, sink);
            }
        }
    }

    /// The coordinator forgets the member and frees its partitions. The member itself may
    /// still be working through a batch; it finds out at its next poll.
    pub(crate) fn remove_member(
        &mut self,
        m: usize,
        now_ms: u64,
        reason: RemovalReason,
        sink: &mut StepSink,
    ) {
        if reason != RemovalReason::LeftGroup {
            self.client_counters.failed_rebalances_total += 1;
        }
        let member = &mut self.members[m];
        member.in_group = false;
        member.joined = false;
        member.rejoin_pending = false;
        for progress in &mut self.partitions {
            if progress.owner == Some(m) {
                progress.owner = None;
            }
        }
        sink.push(Event {
            at_ms: now_ms,
            kind: EventKind::MemberRemoved {
                group_id: self.id.clone(),
                member_id: self.members[m].id.clone(),
                reason,
            },
        });
    }

    /// Moves the group to PreparingRebalance (if it is not there already).
    pub(crate) fn begin_rebalance(
        &mut self,
        now_ms: u64,
        reason: RebalanceReason,
        sink: &mut StepSink,
    ) {
        if self.state == GroupState::PreparingRebalance {
            return;
        }
        let initial = self.generation == 0;
        let wait_ms = if initial {
            self.initial_delay_ms
        } else {
            u64::from(self.config.max_poll_interval_ms)
        };
        self.state = GroupState::PreparingRebalance;
        // A member waiting for its assignment now has to rejoin instead.
        self.wake_members();
        self.rebalances_total += 1;
        self.membership_due_ms = self.membership_due_ms.min(now_ms + wait_ms);
        self.rebalance = Some(Rebalance {
            started_ms: now_ms,
            deadline_ms: now_ms + wait_ms,
            initial,
        });
        for member in &mut self.members {
            member.joined = false;
            member.rejoin_pending = false;
        }
        sink.push(Event {
            at_ms: now_ms,
            kind: EventKind::RebalanceStarted {
                group_id: self.id.clone(),
                generation: self.generation,
                strategy: self.strategy(),
                reason,
            },
        });
    }

    /// A member in the group rejoins the rebalance in progress (inside its `poll()`).
    pub(crate) fn join_rebalance(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) {
        let member = &mut self.members[m];
        member.joined = true;
        member.rejoin_pending = false;
        member.owned_before_rebalance = member.assigned.clone();
        let everything = member.assigned.clone();
        if !self.strategy().is_cooperative() {
            self.revoke(m, &everything, now_ms, sink);
        }
    }

    /// A member outside the group (new, restarted, or removed while it worked) joins.
    pub(crate) fn rejoin_after_removal(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) {
        let member = &mut self.members[m];
        if !member.assigned.is_empty() {
            // Its offsets can no longer be committed (the generation moved on): the next owner
            // starts from the last commit and redoes what this member did since.
            let partitions = std::mem::take(&mut member.assigned);
            sink.push(Event {
                at_ms: now_ms,
                kind: EventKind::PartitionsLost {
                    group_id: self.id.clone(),
                    member_id: member.id.clone(),
                    partitions,
                },
            });
        }
        member.clear_batch();
        member.owned_before_rebalance.clear();
        member.in_group = true;
        member.last_heartbeat_ms = now_ms;
        let reason = if self.generation == 0 {
            RebalanceReason::GroupForming {
                initial_rebalance_delay_ms: self.initial_delay_ms,
            }
        } else {
            RebalanceReason::MemberJoined {
                member_id: self.members[m].id.clone(),
            }
        };
        // Starting the rebalance resets everyone's join; this member's JoinGroup comes after.
        self.begin_rebalance(now_ms, reason, sink);
        let member = &mut self.members[m];
        member.joined = true;
        member.rejoin_pending = false;
    }

    /// Gives up `partitions`, committing first if auto-commit or the rebalance listener says
    /// so (Kafka auto-commits before every rebalance).
    pub(crate) fn revoke(
        &mut self,
        m: usize,
        partitions: &[u32],
        now_ms: u64,
        sink: &mut StepSink,
    ) {
        if partitions.is_empty() {
            return;
        }
        let commits = self.config.enable_auto_commit || self.config.commit_on_revoke;
        if commits {
            self.commit_positions(m, partitions, now_ms, CommitCause::BeforeRevoke, sink);
        }
        for &p in partitions {
            if self.partitions[p as usize].owner == Some(m) {
                self.partitions[p as usize].owner = None;
            }
        }
        self.members[m].assigned.retain(|p| !partitions.contains(p));
        sink.push(Event {
            at_ms: now_ms,
            kind: EventKind::PartitionsRevoked {
                group_id: self.id.clone(),
                member_id: self.members[m].id.clone(),
                partitions: partitions.to_vec(),
                committed: commits,
            },
        });
    }

    /// Completes the rebalance once every member has rejoined or the timeout has passed. Runs
    /// every tick and finds no rebalance on most: only that check is inlined, so a quiet tick
    /// does not call into the work behind it.
    #[inline(always)]
    pub(crate) fn try_complete_rebalance(
        &mut self,
        now_ms: u64,
        topic: &Topic,
        sink: &mut StepSink,
    ) {
        if let Some(rebalance) = self.rebalance {
            self.complete_rebalance_if_due(rebalance, now_ms, topic, sink);
        }
    }

    fn complete_rebalance_if_due(
        &mut self,
        rebalance: Rebalance,
        now_ms: u64,
        topic: &Topic,
        sink: &mut StepSink,
    ) {
        let all_joined = self.members.iter().filter(|m| m.in_group).all(|m| m.joined);
        let due = now_ms >= rebalance.deadline_ms || (!rebalance.initial && all_joined);
        if !due {
            return;
        }
        for m in 0..self.members.len() {
            if self.members[m].in_group && !self.members[m].joined {
                let removal = RemovalReason::RejoinTimeout {
                    max_poll_interval_ms: self.config.max_poll_interval_ms,
                };
                self.remove_member(m, now_ms, removal, sink);
            }
        }
        self.state = GroupState::CompletingRebalance;
        // Every member waiting for its assignment gets one now.
        self.wake_members();
        let (assignment, revocations) = self.compute_assignment(topic);
        self.generation += 1;
        self.client_counters.rebalances_completed_total += 1;
        self.client_counters.rebalance_latency_ms_total += now_ms - rebalance.started_ms;
        self.rebalance = None;
        self.apply_assignment(&assignment, &revocations, now_ms, sink);
        // The rebalance is over for everyone: a rejoin a heartbeat announced is no longer due.
        for member in &mut self.members {
            member.joined = false;
            member.rejoin_pending = false;
        }
        self.state = if self.members.iter().any(|m| m.in_group) {
            GroupState::Stable
        } else {
            GroupState::Empty
        };
        self.push_assigned_event(now_ms, sink);
    }

    /// Cooperative protocol, inside the member's `poll()`: it gives up what the first round
    /// took away, then rejoins so the follow-up rebalance can hand those partitions on.
    pub(crate) fn revoke_and_follow_up(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) {
        let revoked = std::mem::take(&mut self.members[m].pending_revocation);
        self.revoke(m, &revoked, now_ms, sink);
        let reason = RebalanceReason::CooperativeFollowUp {
            member_id: self.members[m].id.clone(),
            revoked_count: revoked.len() as u32,
        };
        self.begin_rebalance(now_ms, reason, sink);
        let member = &mut self.members[m];
        member.joined = true;
        member.rejoin_pending = false;
        member.owned_before_rebalance = member.assigned.clone();
    }

    /// The leader's assignment for the joined members, and (cooperative) what each revokes.
    fn compute_assignment(&self, topic: &Topic) -> (Assignment, Assignment) {
        let subscription = self.subscription(topic);
        (self.assignor.rebalance)(&subscription)
            .surely("the group's own subscription is always valid")
    }

    fn subscription(&self, topic: &Topic) -> GroupSubscription {
        let members = self
            .members
            .iter()
            .filter(|m| m.in_group && m.joined)
            .map(|m| MemberSubscription {
                id: m.id.to_string(),
                topics: vec![topic.name.clone()],
                owned: m
                    .owned_before_rebalance
                    .iter()
                    .map(|&p| TopicPartition::new(topic.name.clone(), p))
                    .collect(),
            })
            .collect();
        GroupSubscription {
            topics: SortedMap::from([(topic.name.clone(), self.partitions.len() as u32)]),
            members,
        }
    }

    /// Hands out the new assignment. Under the cooperative protocol a member keeps what the
    /// first round takes away until its next poll gives it up (see `revoke_and_follow_up`).
    fn apply_assignment(
        &mut self,
        assignment: &Assignment,
        revocations: &Assignment,
        now_ms: u64,
        sink: &mut StepSink,
    ) {
        for m in 0..self.members.len() {
            let member = &self.members[m];
            if !(member.in_group && member.joined) {
                continue;
            }
            let id = member.id.clone();
            let revoked: Vec<u32> = revocations
                .get(&*id)
                .map(|tps| tps.iter().map(|tp| tp.partition).collect())
                .unwrap_or_default();
            let mut new: Vec<u32> = assignment
                .get(&*id)
                .map(|tps| tps.iter().map(|tp| tp.partition).collect())
                .unwrap_or_default();
            sort(&mut new);
            for &p in &new {
                let kept = self.members[m].assigned.contains(&p);
                self.partitions[p as usize].owner = Some(m);
                if !kept {
                    self.take_over(m, p, now_ms, sink);
                }
            }
            // Partitions being revoked stay this member's until its next poll.
            new.extend(revoked.iter().copied());
            sort(&mut new);
            let member = &mut self.members[m];
            member.assigned = new;
            member.pending_revocation = revoked;
            member.owned_before_rebalance = member.assigned.clone();
            member.joined = false;
            member.poll_cursor = 0;
        }
    }

    /// A member gains partition `p`: it starts reading at the committed offset.
    pub(crate) fn take_over(&mut self, m: usize, p: u32, now_ms: u64, sink: &mut StepSink) {
        let progress = &mut self.partitions[p as usize];
        progress.position = progress.committed;
        progress.processed = progress.committed;
        if progress.committed < progress.high_water {
            sink.push(Event {
                at_ms: now_ms,
                kind: EventKind::Reprocessing {
                    group_id: self.id.clone(),
                    member_id: self.members[m].id.clone(),
                    partition: p,
                    committed: progress.committed,
                    processed_to: progress.high_water,
                },
            });
        }
    }

    fn push_assigned_event(&self, now_ms: u64, sink: &mut StepSink) {
        sink.push(Event {
            at_ms: now_ms,
            kind: EventKind::Assigned {
                group_id: self.id.clone(),
                generation: self.generation,
                strategy: self.strategy(),
                partition_count: self.partitions.len() as u32,
                members: self
                    .members
                    .iter()
                    .filter(|m| m.in_group)
                    .map(|m| MemberPartitions {
                        member_id: m.id.clone(),
                        partitions: m.assigned.clone(),
                    })
                    .collect(),
            },
        });
    }
}
