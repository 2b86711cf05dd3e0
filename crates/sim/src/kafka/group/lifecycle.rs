//! What happens to members from outside the protocol: a start, a clean leave, a crash, a
//! stop-the-world pause, a slow downstream. Each is a scheduled action in the scenario, so a
//! link reproduces what the learner did.

use super::{Activity, Group, GroupState, Liveness, Member, StepSink};
use crate::kafka::events::{CommitCause, Event, EventKind, RebalanceReason, RemovalReason};
use crate::kafka::scenario::MemberAction;
use crate::kafka::topic::Topic;

impl Group {
    /// Applies `action` to the member called `member_id` at `now_ms`. `Restart` is expanded
    /// into a leave and a later start by the World before it gets here.
    pub fn apply_action(
        &mut self,
        member_id: &str,
        action: MemberAction,
        now_ms: u64,
        topic: &Topic,
        sink: &mut StepSink,
    ) {
        // Any of these can bring a coordinator timer forward (a crash starts a session clock).
        self.membership_due_ms = 0;
        let m = match self.member_index(member_id) {
            Some(m) => m,
            None if action == MemberAction::Start => {
                let mut member = Member::new(member_id.into(), now_ms);
                member.liveness = Liveness::Stopped;
                // Rare (a scheduled start of a new id): the slice is rebuilt one longer.
                let mut members = std::mem::take(&mut self.members).into_vec();
                members.push(member);
                self.members = members.into_boxed_slice();
                let mut busy = std::mem::take(&mut self.busy_until_ms).into_vec();
                busy.push(0);
                self.busy_until_ms = busy.into_boxed_slice();
                self.members.len() - 1
            }
            // A reset is the group's business, whoever runs the tool.
            None if matches!(action, MemberAction::ResetOffsets { .. }) => 0,
            // Acting on a member that never existed changes nothing.
            None => return,
        };
        // A reset reaches every member, any other action its own; all are rare.
        self.wake_members();
        let changed = match action {
            MemberAction::Start => self.start_member(m, now_ms, sink),
            MemberAction::Leave | MemberAction::Restart { .. } => self.leave(m, now_ms, sink),
            MemberAction::Crash => self.crash(m),
            MemberAction::ResetOffsets { to } => {
                self.reset_offsets(to, topic);
                true
            }
            // The world deletes the records (it owns the topic) and reports it as its own event.
            MemberAction::DeleteRecords => false,
            MemberAction::Pause { duration_ms } => self.pause(m, now_ms, duration_ms),
            MemberAction::SlowDown {
                duration_ms,
                factor,
            } => {
                let member = &mut self.members[m];
                member.slow_factor = factor.max(1);
                member.slow_until_ms = now_ms + duration_ms;
                member.is_running()
            }
        };
        if changed {
            sink.push(Event {
                at_ms: now_ms,
                kind: EventKind::MemberAction {
                    group_id: self.id.clone(),
                    member_id: member_id.into(),
                    action,
                    static_membership: self.config.static_membership,
                },
            });
        }
    }

    fn start_member(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) -> bool {
        if self.members[m].is_running()
            || matches!(self.members[m].liveness, Liveness::Paused { .. })
        {
            return false;
        }
        let mut fresh = Member::new(self.members[m].id.clone(), now_ms);
        // The coordinator's view survives a restart; the process's own state does not.
        fresh.in_group = self.members[m].in_group;
        self.members[m] = fresh;
        if self.config.static_membership && self.members[m].in_group {
            self.rejoin_static(m, now_ms, sink);
        } else {
            self.members[m].in_group = false;
        }
        true
    }

    /// A static member back within `session.timeout.ms`: the coordinator recognises its
    /// `group.instance.id` and hands back the same partitions, with no rebalance.
    pub(crate) fn rejoin_static(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) {
        let owned: Vec<u32> = (0..self.partitions.len() as u32)
            .filter(|&p| self.partitions[p as usize].owner == Some(m))
            .collect();
        for &p in &owned {
            self.take_over(m, p, now_ms, sink);
        }
        let rebalancing = self.state == GroupState::PreparingRebalance;
        let member = &mut self.members[m];
        member.assigned = owned.clone();
        member.owned_before_rebalance = owned.clone();
        member.rejoin_pending = rebalancing;
        sink.push(Event {
            at_ms: now_ms,
            kind: EventKind::StaticRejoin {
                group_id: self.id.clone(),
                member_id: self.members[m].id.clone(),
                partitions: owned,
            },
        });
    }

    fn leave(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) -> bool {
        if !self.members[m].is_running() {
            return false;
        }
        // close(): Kafka commits synchronously first when auto-commit is on, and calls the
        // rebalance listener.
        if self.config.enable_auto_commit || self.config.commit_on_revoke {
            let owned = self.members[m].assigned.clone();
            self.commit_positions(m, &owned, now_ms, CommitCause::OnClose, sink);
        }
        self.stop(m, Liveness::Stopped);
        if self.config.static_membership || !self.members[m].in_group {
            // A static member sends no LeaveGroup: its partitions wait for it.
            return true;
        }
        self.members[m].assigned.clear();
        self.remove_member(m, now_ms, RemovalReason::LeftGroup, sink);
        let reason = RebalanceReason::MemberLeft {
            member_id: self.members[m].id.clone(),
        };
        self.begin_rebalance(now_ms, reason, sink);
        true
    }

    fn crash(&mut self, m: usize) -> bool {
        if matches!(
            self.members[m].liveness,
            Liveness::Crashed | Liveness::Stopped
        ) {
            return false;
        }
        self.stop(m, Liveness::Crashed);
        true
    }

    fn stop(&mut self, m: usize, liveness: Liveness) {
        let member = &mut self.members[m];
        member.liveness = liveness;
        member.activity = Activity::Waiting { until_ms: u64::MAX };
        member.clear_batch();
        member.attempts = 0;
        member.joined = false;
        member.rejoin_pending = false;
    }

    fn pause(&mut self, m: usize, now_ms: u64, duration_ms: u64) -> bool {
        if !self.members[m].is_running() {
            return false;
        }
        self.members[m].liveness = Liveness::Paused {
            since_ms: now_ms,
            until_ms: now_ms + duration_ms,
        };
        true
    }
}
