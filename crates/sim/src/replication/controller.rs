//! The controller's side: faults as they strike, fencing, elections, and ISR changes.
//!
//! The controller (KRaft's active controller, here one node that never fails) knows a broker
//! only by its heartbeats: a broker that crashes or is cut off is fenced
//! `broker.session.timeout.ms` later, which removes it from every ISR it is not alone in (as
//! KRaft's `handleBrokerFenced` does) and elects a new leader for the partitions it led: the
//! first unfenced in-sync replica in assignment order, or with
//! `unclean.leader.election.enable` any unfenced replica, or none (the partition is offline).
//! A broker that restarts registers again and is unfenced at once; it leads a partition whose
//! only in-sync replica it is, and follows everywhere else. A cut-off broker hears nothing:
//! it keeps its last view (a leader that does not know it was replaced), and its own ISR
//! changes cannot reach the controller.
//!
//! Every decision reaches every broker the controller can reach at once, as its view of the
//! partition; a leader that learns it no longer leads answers its waiting writes with
//! NOT_LEADER_OR_FOLLOWER, and a follower whose leader changed starts fetching over.

use super::events::{EventKind, ShrinkCause};
use super::lane::{Item, Lane, LeaderState, Progress, Reply};
use super::scenario::{Fault, FaultKind};

impl Lane {
    /// A scheduled fault strikes.
    pub(crate) fn apply_fault(&mut self, fault: Fault) {
        let b = fault.broker - 1;
        let id = fault.broker;
        match fault.kind {
            FaultKind::Crash if self.brokers[b as usize].up => {
                let leading = self.leading(b);
                let broker = &mut self.brokers[b as usize];
                broker.up = false;
                broker.session += 1;
                for p in 0..self.partitions.len() {
                    if let Some(r) = self.replica_on(p, b) {
                        let rep = &mut self.partitions[p].reps[r];
                        // The process's memory is gone: its leadership, its fetch loop and
                        // what it knew of the partition. The log stays on disk.
                        rep.lead = None;
                        rep.fetch_generation += 1;
                        rep.aligned_epoch = None;
                        rep.view = super::lane::View::default();
                    }
                }
                self.tell(EventKind::BrokerCrashed {
                    broker: id,
                    leading,
                });
                if self.acks != super::scenario::Acks::Zero {
                    self.disconnect_requests_to(b);
                }
                self.arm_fence(b);
            }
            FaultKind::Restart if !self.brokers[b as usize].up => {
                let broker = &mut self.brokers[b as usize];
                broker.up = true;
                broker.session += 1;
                self.tell(EventKind::BrokerRestarted { broker: id });
                self.rejoin(b, true);
            }
            FaultKind::Isolate if !self.brokers[b as usize].isolated => {
                let leading = self.leading(b);
                let broker = &mut self.brokers[b as usize];
                broker.isolated = true;
                broker.session += 1;
                self.tell(EventKind::BrokerIsolated {
                    broker: id,
                    leading,
                });
                if self.brokers[b as usize].up {
                    self.arm_fence(b);
                }
            }
            FaultKind::Heal if self.brokers[b as usize].isolated => {
                let broker = &mut self.brokers[b as usize];
                broker.isolated = false;
                broker.session += 1;
                self.tell(EventKind::BrokerHealed { broker: id });
                if self.brokers[b as usize].up {
                    self.rejoin(b, false);
                }
            }
            FaultKind::Slow => {
                self.brokers[b as usize].slow_extra_ms = fault.extra_ms;
                self.tell(EventKind::FollowerSlowed {
                    broker: id,
                    extra_ms: fault.extra_ms,
                });
            }
            FaultKind::Normal if self.brokers[b as usize].slow_extra_ms > 0 => {
                self.brokers[b as usize].slow_extra_ms = 0;
                self.tell(EventKind::FollowerNormal { broker: id });
            }
            _ => {}
        }
    }

    /// Partitions the controller has broker `b` leading.
    fn leading(&self, b: u32) -> u32 {
        self.partitions
            .iter()
            .filter(|p| p.leader.is_some_and(|l| p.reps[l].broker == b))
            .count() as u32
    }

    /// The replica (index) of partition `p` on broker `b`, if it has one.
    pub(crate) fn replica_on(&self, p: usize, b: u32) -> Option<usize> {
        self.partitions[p].reps.iter().position(|r| r.broker == b)
    }

    /// The controller will fence `b` if no heartbeat comes for the session timeout.
    fn arm_fence(&mut self, b: u32) {
        if self.brokers[b as usize].fenced {
            return;
        }
        let at = self.now_ms + self.scenario.cluster.broker_session_timeout_ms;
        let session = self.brokers[b as usize].session;
        self.schedule(at, Item::Fence { broker: b, session });
    }

    pub(crate) fn on_fence_timer(&mut self, b: u32, session: u32) {
        let broker = &self.brokers[b as usize];
        if broker.session == session && !broker.fenced && (!broker.up || broker.isolated) {
            self.fence(b, false);
        }
    }

    /// Fences `b`: out of every ISR it is not alone in, its leaderships elected away.
    fn fence(&mut self, b: u32, reregistered: bool) {
        self.brokers[b as usize].fenced = true;
        self.tell(EventKind::BrokerFenced {
            broker: b + 1,
            session_timeout_ms: self.scenario.cluster.broker_session_timeout_ms,
            reregistered,
        });
        for p in 0..self.partitions.len() {
            let Some(r) = self.replica_on(p, b) else {
                continue;
            };
            let part = &mut self.partitions[p];
            if part.isr.len() > 1 && part.isr.contains(&r) {
                part.isr.retain(|&i| i != r);
                let isr = part.isr.len() as u32;
                self.stats.isr_shrinks += 1;
                self.tell(EventKind::IsrShrunk {
                    partition: p as u32,
                    broker: b + 1,
                    isr,
                    min_isr: self.scenario.topic.min_insync_replicas,
                    cause: ShrinkCause::Fenced,
                    lag_ms: 0,
                });
            }
            if self.partitions[p].leader == Some(r) {
                self.elect(p);
            }
            self.push_views(p);
        }
    }

    /// A broker that restarted, or whose network partition healed, registers again. A
    /// restart the controller had not yet noticed is a fence first (the process lost its
    /// leaderships and follower state); then the broker is unfenced, leads where it is the
    /// only one left that may, and follows everywhere else.
    fn rejoin(&mut self, b: u32, restarted: bool) {
        if restarted && !self.brokers[b as usize].fenced {
            self.fence(b, true);
        }
        self.brokers[b as usize].fenced = false;
        for p in 0..self.partitions.len() {
            let Some(r) = self.replica_on(p, b) else {
                continue;
            };
            let part = &self.partitions[p];
            let eligible =
                part.isr.contains(&r) || self.scenario.topic.unclean_leader_election_enable;
            if part.leader.is_none() && eligible {
                self.elect(p);
            }
            self.push_views(p);
        }
    }

    /// Elects a leader for `p`: the first unfenced in-sync replica, else (if allowed) the
    /// first unfenced replica, else none.
    fn elect(&mut self, p: usize) {
        let part = &self.partitions[p];
        let unfenced = |r: &usize| !self.brokers[part.reps[*r].broker as usize].fenced;
        let clean = part.isr.iter().copied().find(unfenced);
        let unclean = (clean.is_none() && self.scenario.topic.unclean_leader_election_enable)
            .then(|| (0..part.reps.len()).find(unfenced))
            .flatten();
        let was_offline = part.leader.is_none();
        let part = &mut self.partitions[p];
        part.epoch += 1;
        match clean.or(unclean) {
            Some(r) => {
                part.leader = Some(r);
                if clean.is_none() {
                    part.isr = vec![r];
                    self.stats.unclean_elections += 1;
                }
                self.stats.leader_elections += 1;
                let newly_lost = self.move_source(p, r);
                let log_end = self.partitions[p].reps[r].log.end_offset();
                self.tell(EventKind::LeaderElected {
                    partition: p as u32,
                    broker: self.partitions[p].reps[r].broker + 1,
                    epoch: self.partitions[p].epoch,
                    unclean: clean.is_none(),
                    log_end,
                    newly_lost,
                });
                self.partitions[p].told.deposed = false;
            }
            None => {
                part.leader = None;
                if !was_offline {
                    self.tell(EventKind::PartitionOffline {
                        partition: p as u32,
                        unclean_allowed: self.scenario.topic.unclean_leader_election_enable,
                    });
                }
            }
        }
        self.note_offline(p);
    }

    /// Makes replica `r`'s log the one that counts for `p`: the ledger forgets the old
    /// source's copies and counts the new one's. Returns the acknowledged records that became
    /// lost by it.
    fn move_source(&mut self, p: usize, r: usize) -> u64 {
        let old = self.partitions[p].source;
        let before = self.ledger.acknowledged_then_lost;
        if old != r {
            let (old_log, new_log) = {
                let reps = &self.partitions[p].reps;
                (
                    reps[old].log.iter().copied().collect::<Vec<_>>(),
                    reps[r].log.iter().copied().collect::<Vec<_>>(),
                )
            };
            for e in &new_log {
                self.ledger.add_copy(e.record);
            }
            for e in &old_log {
                self.ledger.remove_copy(e.record);
            }
            self.partitions[p].source = r;
        }
        self.ledger.acknowledged_then_lost.saturating_sub(before)
    }

    /// Replica `r` of `p` starts leading in the partition's current epoch.
    pub(crate) fn become_leader(&mut self, p: usize, r: usize) {
        let now = self.now_ms;
        let part = &mut self.partitions[p];
        let epoch = part.epoch;
        let replicas = part.reps.len();
        let rep = &mut part.reps[r];
        rep.log.begin_epoch(epoch);
        rep.fetch_generation += 1;
        rep.lead = Some(LeaderState {
            epoch,
            epoch_start: rep.log.end_offset(),
            progress: vec![
                Progress {
                    last_caught_up_ms: now,
                    ..Progress::default()
                };
                replicas
            ],
            parked: Vec::new(),
            pending: Vec::new(),
            refusal_told: false,
        });
    }

    /// Tells every broker the controller can reach what it now knows of `p`: leaders start or
    /// step down, followers of a new leader start fetching over.
    pub(crate) fn push_views(&mut self, p: usize) {
        let (leader, epoch, isr) = {
            let part = &self.partitions[p];
            (part.leader, part.epoch, part.isr.clone())
        };
        for r in 0..self.partitions[p].reps.len() {
            let broker = self.partitions[p].reps[r].broker;
            if !self.connected(broker) {
                continue;
            }
            let rep = &mut self.partitions[p].reps[r];
            let leader_changed = rep.view.leader != leader || rep.view.epoch != epoch;
            rep.view = super::lane::View {
                leader,
                epoch,
                isr: isr.clone(),
            };
            let leads = leader == Some(r);
            if leads && rep.lead.as_ref().is_none_or(|l| l.epoch != epoch) {
                self.step_down(p, r);
                self.become_leader(p, r);
            } else if !leads && rep.lead.is_some() {
                self.step_down(p, r);
            }
            if leads {
                // A smaller ISR can move the high watermark (and answer waiting writes).
                self.advance_hw(p, r);
            } else if leader_changed {
                self.restart_fetching(p, r);
            }
        }
    }

    /// Replica `r` stops leading: its waiting writes are answered NOT_LEADER_OR_FOLLOWER.
    fn step_down(&mut self, p: usize, r: usize) {
        let Some(lead) = self.partitions[p].reps[r].lead.take() else {
            return;
        };
        for w in lead.pending {
            if w.expires_ms > self.now_ms {
                let at = self.hop_ms();
                self.schedule(
                    at,
                    Item::ProduceReply {
                        partition: p as u32,
                        from: r,
                        request: w.request,
                        reply: Reply::NotLeader,
                    },
                );
            }
        }
    }

    /// Leader `l` asks the controller to add (or remove) `follower` to (from) `p`'s ISR.
    pub(crate) fn alter_isr(
        &mut self,
        p: usize,
        l: usize,
        follower: usize,
        add: bool,
        lag_ms: u64,
    ) {
        let part = &self.partitions[p];
        let broker = part.reps[l].broker;
        let current = part.leader == Some(l)
            && part.reps[l]
                .lead
                .as_ref()
                .is_some_and(|x| x.epoch == part.epoch);
        if !self.connected(broker) || !current {
            let lead = self.partitions[p].reps[l].lead.as_mut();
            if let Some(lead) = lead.filter(|x| !x.refusal_told) {
                lead.refusal_told = true;
                self.tell(EventKind::IsrChangeRefused {
                    partition: p as u32,
                    broker: broker + 1,
                });
            }
            return;
        }
        let part = &mut self.partitions[p];
        if add {
            part.isr.push(follower);
            part.isr.sort_unstable();
            self.stats.isr_expands += 1;
            let isr = part.isr.len() as u32;
            let broker = part.reps[follower].broker + 1;
            self.tell(EventKind::IsrExpanded {
                partition: p as u32,
                broker,
                isr,
            });
        } else {
            part.isr.retain(|&i| i != follower);
            self.stats.isr_shrinks += 1;
            let isr = part.isr.len() as u32;
            let broker = part.reps[follower].broker + 1;
            self.tell(EventKind::IsrShrunk {
                partition: p as u32,
                broker,
                isr,
                min_isr: self.scenario.topic.min_insync_replicas,
                cause: ShrinkCause::Lagging,
                lag_ms,
            });
        }
        self.push_views(p);
    }

    /// Every `replica.lag.time.max.ms / 2`, each leader drops the followers that have not
    /// caught up for longer than `replica.lag.time.max.ms` (unless already at its log end).
    pub(crate) fn on_isr_check(&mut self) {
        let lag_max = self.scenario.cluster.replica_lag_time_max_ms;
        let now = self.now_ms;
        for p in 0..self.partitions.len() {
            for l in 0..self.partitions[p].reps.len() {
                let rep = &self.partitions[p].reps[l];
                let Some(lead) = rep.lead.as_ref() else {
                    continue;
                };
                let leo = rep.log.end_offset();
                let out: Vec<(usize, u64)> = rep
                    .view
                    .isr
                    .iter()
                    .filter(|&&i| i != l)
                    .map(|&i| (i, lead.progress[i]))
                    .filter(|(_, pr)| pr.leo != Some(leo) && now - pr.last_caught_up_ms > lag_max)
                    .map(|(i, pr)| (i, now - pr.last_caught_up_ms))
                    .collect();
                for (follower, lag_ms) in out {
                    self.alter_isr(p, l, follower, false, lag_ms);
                }
            }
        }
        self.schedule(now + (lag_max / 2).max(1), Item::IsrCheck);
    }
}
