//! The leader's side of a partition: produce requests, follower fetches, and the high
//! watermark.
//!
//! A leader appends a produce request's records with its own leader epoch and answers at once
//! for `acks=1`; for `acks=all` it first refuses the write when its ISR is smaller than
//! `min.insync.replicas` (NotEnoughReplicas, nothing written), else holds it until the high
//! watermark passes it, answering NotEnoughReplicasAfterAppend if the ISR has shrunk below
//! the minimum by then. The high watermark is the smallest log end among the ISR (the leader's
//! own included), never moving back: what every in-sync replica holds, and what consumers may
//! read. A follower's fetch tells the leader the follower's log end; it is answered with
//! records, with the epoch where the follower's log parted from the leader's, or held until
//! records arrive or `replica.fetch.wait.max.ms` passes. A fetch also decides whether the
//! follower is caught up (Kafka's `lastCaughtUpTimeMs` rule) and whether it may rejoin the ISR.

use super::events::EventKind;
use super::lane::{FetchAnswer, Item, Lane, Parked, Pending, Reply, MAX_FETCH_RECORDS};
use super::log::Entry;
use super::scenario::{record_of, Acks};

/// A produce request's records: partition `partition`'s sequence numbers `from..to` of a
/// topic of `partitions`. A range rather than a list, since every produce request carries one.
#[derive(Clone, Copy, Debug)]
struct Records {
    partition: u32,
    partitions: u32,
    from: u32,
    to: u32,
}

impl Records {
    fn iter(self) -> impl Iterator<Item = u32> {
        (self.from..self.to).map(move |seq| record_of(self.partitions, self.partition, seq))
    }

    fn len(self) -> u32 {
        self.to - self.from
    }
}

/// A follower's fetch, as it reaches the leader.
#[derive(Clone, Copy, Debug)]
pub struct FetchRequest {
    pub follower: usize,
    pub leader: usize,
    /// The follower's log end.
    pub offset: u64,
    /// The epoch of the follower's last record.
    pub last_epoch: Option<u32>,
    /// The leader epoch the follower believes in.
    pub epoch: u32,
    pub generation: u32,
}

impl Lane {
    /// A produce request reaches replica `to` of partition `p`.
    pub(crate) fn on_produce(&mut self, p: usize, to: usize, request: u64, seqs: (u32, u32)) {
        let records = Records {
            partition: p as u32,
            partitions: self.scenario.topic.partitions,
            from: seqs.0,
            to: seqs.1,
        };
        for record in records.iter() {
            self.ledger.land(record);
        }
        let broker = self.partitions[p].reps[to].broker;
        let reply = if !self.brokers[broker as usize].up {
            Some(Reply::Disconnected)
        } else if self.partitions[p].reps[to].lead.is_none() {
            Some(Reply::NotLeader)
        } else {
            self.append_as_leader(p, to, request, records)
        };
        if let Some(reply) = reply.filter(|_| self.acks != Acks::Zero) {
            self.reply(p, to, request, reply);
        }
    }

    fn reply(&mut self, p: usize, from: usize, request: u64, reply: Reply) {
        let at = self.hop_ms();
        self.schedule(
            at,
            Item::ProduceReply {
                partition: p as u32,
                from,
                request,
                reply,
            },
        );
    }

    /// Appends (or recognises) a batch on leader `l`; the answer to send now, if any.
    fn append_as_leader(
        &mut self,
        p: usize,
        l: usize,
        request: u64,
        records: Records,
    ) -> Option<Reply> {
        let min_isr = self.scenario.topic.min_insync_replicas;
        let isr = self.partitions[p].reps[l].view.isr.len() as u32;
        if self.acks == Acks::All && isr < min_isr {
            self.stats.not_enough_replicas += u64::from(records.len());
            self.tell_not_enough(p, isr, false);
            return Some(Reply::NotEnoughReplicas { isr });
        }
        let first = records.iter().next();
        let end = match first.and_then(|first| self.already_written(p, l, first, records.len())) {
            Some(end) => {
                self.tell(EventKind::DuplicateIgnored {
                    partition: p as u32,
                    records: records.len(),
                });
                end
            }
            None => self.append_records(p, l, records),
        };
        self.serve_parked(p, l);
        let reply = match self.acks {
            Acks::All => {
                let expires_ms = self.now_ms + self.scenario.producer.request_timeout_ms;
                let lead = self.partitions[p].reps[l].lead.as_mut().expect("a leader");
                lead.pending.push(Pending {
                    request,
                    required: end,
                    expires_ms,
                    records: records.len(),
                });
                None
            }
            _ => Some(Reply::Ok),
        };
        self.advance_hw(p, l);
        reply
    }

    /// With idempotence: where the batch's records already end in the leader's log, if they
    /// are there (Kafka keeps the last five batches of each producer; a retry is always of
    /// the newest here, so a short look back suffices).
    fn already_written(&self, p: usize, l: usize, first: u32, records: u32) -> Option<u64> {
        if !self.idempotent {
            return None;
        }
        let log = &self.partitions[p].reps[l].log;
        let look_back = 5 * super::lane::MAX_BATCH_RECORDS as u64;
        let end = log.end_offset();
        log.newest_offset_of(first, end.saturating_sub(look_back), end)
            .map(|found| found + u64::from(records))
    }

    /// Appends `records` to leader `l`'s log in its epoch; returns the new log end.
    fn append_records(&mut self, p: usize, l: usize, records: Records) -> u64 {
        let part = &mut self.partitions[p];
        let epoch = part.reps[l].lead.as_ref().expect("a leader").epoch;
        let start = part.reps[l].log.end_offset();
        let counts = l == part.source;
        for record in records.iter() {
            part.reps[l].log.append(Entry { record, epoch });
        }
        let end = part.reps[l].log.end_offset();
        if counts {
            let before = self.ledger.duplicates;
            for record in records.iter() {
                self.ledger.add_copy(record);
            }
            if self.ledger.duplicates > before {
                self.tell(EventKind::DuplicateWritten {
                    partition: p as u32,
                    offset: start,
                    records: records.len(),
                });
            }
        }
        for record in records.iter() {
            self.trace.write_u64(u64::from(record));
        }
        end
    }

    pub(crate) fn tell_not_enough(&mut self, p: usize, isr: u32, after_append: bool) {
        let told = &mut self.partitions[p].told;
        let flag = if after_append {
            &mut told.after_append
        } else {
            &mut told.not_enough
        };
        if !*flag {
            *flag = true;
            self.tell(EventKind::NotEnoughReplicas {
                partition: p as u32,
                isr,
                min_isr: self.scenario.topic.min_insync_replicas,
                after_append,
            });
        }
    }

    /// Moves leader `l`'s high watermark to the smallest log end in its ISR, then answers the
    /// `acks=all` writes it now covers.
    pub(crate) fn advance_hw(&mut self, p: usize, l: usize) {
        let rep = &self.partitions[p].reps[l];
        let Some(lead) = rep.lead.as_ref() else {
            return;
        };
        let smallest = rep
            .view
            .isr
            .iter()
            .map(|&i| {
                if i == l {
                    rep.log.end_offset()
                } else {
                    lead.progress[i].leo.unwrap_or(0)
                }
            })
            .min()
            .unwrap_or(0);
        if smallest > rep.hw {
            self.partitions[p].reps[l].hw = smallest;
        }
        self.complete_pending(p, l);
    }

    /// Answers the held `acks=all` writes the high watermark covers; drops expired ones (the
    /// producer has given them up).
    fn complete_pending(&mut self, p: usize, l: usize) {
        let now = self.now_ms;
        let min_isr = self.scenario.topic.min_insync_replicas;
        let rep = &mut self.partitions[p].reps[l];
        let hw = rep.hw;
        let isr = rep.view.isr.len() as u32;
        let Some(lead) = rep.lead.as_mut() else {
            return;
        };
        let mut done = Vec::new();
        lead.pending.retain(|w| {
            if w.expires_ms <= now {
                return false;
            }
            if w.required <= hw {
                done.push(*w);
                return false;
            }
            true
        });
        for w in done {
            let reply = if isr >= min_isr {
                Reply::Ok
            } else {
                self.stats.not_enough_replicas_after_append += u64::from(w.records);
                self.tell_not_enough(p, isr, true);
                Reply::NotEnoughReplicasAfterAppend { isr }
            };
            self.reply(p, l, w.request, reply);
        }
    }

    /// A follower's fetch reaches the replica it believes leads.
    pub(crate) fn on_fetch(&mut self, p: usize, f: FetchRequest) {
        let (fb, lb) = {
            let part = &self.partitions[p];
            (part.reps[f.follower].broker, part.reps[f.leader].broker)
        };
        if !self.reachable(fb, lb) {
            if self.brokers[fb as usize].up {
                self.schedule(
                    self.now_ms + super::lane::REPLICA_FETCH_BACKOFF_MS,
                    Item::FetchWake {
                        partition: p as u32,
                        follower: f.follower,
                        generation: f.generation,
                    },
                );
            }
            return;
        }
        let rep = &self.partitions[p].reps[f.leader];
        let leads_this_epoch = rep.lead.as_ref().is_some_and(|lead| lead.epoch == f.epoch);
        if !leads_this_epoch {
            return self.answer_fetch(p, f, FetchAnswer::NotLeader);
        }
        if let Some((epoch, end)) = rep.log.diverging(f.offset, f.last_epoch) {
            return self.answer_fetch(p, f, FetchAnswer::Diverging { epoch, end });
        }
        self.record_progress(p, f);
        self.maybe_expand_isr(p, f);
        self.advance_hw(p, f.leader);
        let rep = &mut self.partitions[p].reps[f.leader];
        if f.offset < rep.log.end_offset() {
            let answer = records_from(&self.partitions[p].reps[f.leader], f.offset);
            self.answer_fetch(p, f, answer);
        } else {
            let id = self.fresh_id();
            let lead = self.partitions[p].reps[f.leader]
                .lead
                .as_mut()
                .expect("a leader");
            lead.parked.retain(|w| w.follower != f.follower);
            lead.parked.push(Parked {
                follower: f.follower,
                offset: f.offset,
                id,
                generation: f.generation,
            });
            let at = self.now_ms + self.scenario.cluster.replica_fetch_wait_max_ms;
            self.schedule(
                at,
                Item::ParkExpiry {
                    partition: p as u32,
                    leader: f.leader,
                    id,
                },
            );
        }
    }

    fn answer_fetch(&mut self, p: usize, f: FetchRequest, answer: FetchAnswer) {
        let at = self.hop_ms();
        self.schedule(
            at,
            Item::FetchReply {
                partition: p as u32,
                follower: f.follower,
                generation: f.generation,
                answer,
            },
        );
    }

    /// Kafka's `updateFetchState`: a follower whose fetch reaches the leader's current log end
    /// is caught up now; one that reaches the log end of its previous fetch was caught up then.
    fn record_progress(&mut self, p: usize, f: FetchRequest) {
        let now = self.now_ms;
        let rep = &mut self.partitions[p].reps[f.leader];
        let leader_leo = rep.log.end_offset();
        let lead = rep.lead.as_mut().expect("a leader");
        let progress = &mut lead.progress[f.follower];
        if f.offset >= leader_leo {
            progress.last_caught_up_ms = progress.last_caught_up_ms.max(now);
        } else if f.offset >= progress.last_fetch_leader_leo {
            progress.last_caught_up_ms = progress.last_caught_up_ms.max(progress.last_fetch_ms);
        }
        progress.last_fetch_leader_leo = leader_leo;
        progress.last_fetch_ms = now;
        progress.leo = Some(f.offset);
    }

    /// A follower outside the ISR that has reached the high watermark (and the start of the
    /// leader's epoch) asks to rejoin, through the controller.
    fn maybe_expand_isr(&mut self, p: usize, f: FetchRequest) {
        let part = &self.partitions[p];
        let rep = &part.reps[f.leader];
        let lead = rep.lead.as_ref().expect("a leader");
        let in_sync = rep.view.isr.contains(&f.follower);
        let broker = part.reps[f.follower].broker;
        if !in_sync
            && f.offset >= rep.hw
            && f.offset >= lead.epoch_start
            && !self.brokers[broker as usize].fenced
        {
            self.alter_isr(p, f.leader, f.follower, true, 0);
        }
    }

    /// New records on leader `l`: every held fetch is answered now.
    fn serve_parked(&mut self, p: usize, l: usize) {
        let parked = std::mem::take(
            &mut self.partitions[p].reps[l]
                .lead
                .as_mut()
                .expect("a leader")
                .parked,
        );
        for w in parked {
            self.answer_parked(p, l, w);
        }
    }

    /// `replica.fetch.wait.max.ms` passed on a held fetch: it is answered empty (with the
    /// high watermark, which is how an idle follower learns it).
    pub(crate) fn on_park_expiry(&mut self, p: usize, l: usize, id: u64) {
        let Some(lead) = self.partitions[p].reps[l].lead.as_mut() else {
            return;
        };
        let Some(i) = lead.parked.iter().position(|w| w.id == id) else {
            return;
        };
        let w = lead.parked.remove(i);
        self.answer_parked(p, l, w);
    }

    fn answer_parked(&mut self, p: usize, l: usize, w: Parked) {
        let answer = records_from(&self.partitions[p].reps[l], w.offset);
        let request = FetchRequest {
            follower: w.follower,
            leader: l,
            offset: w.offset,
            last_epoch: None,
            epoch: 0,
            generation: w.generation,
        };
        self.answer_fetch(p, request, answer);
    }
}

/// The leader's records from `offset` (at most a fetch's worth) and its high watermark.
fn records_from(rep: &super::lane::Replica, offset: u64) -> FetchAnswer {
    let end = rep.log.end_offset().min(offset + MAX_FETCH_RECORDS);
    let entries = rep.log.range(offset, end).copied().collect();
    FetchAnswer::Records {
        from: offset,
        entries,
        hw: rep.hw,
    }
}

#[cfg(test)]
mod tests {
    use super::super::lane::{Lane, MAX_BATCH_RECORDS};
    use super::super::log::Entry;
    use crate::replication::{lesson_default, Acks};
    use std::sync::Arc;

    /// A lane whose first replica of partition 0 holds records 0, 1, 2, … up to `len`.
    fn lane_with_log(len: u32, idempotent: bool) -> Lane {
        let mut scenario = lesson_default();
        scenario.producer.enable_idempotence = idempotent;
        let mut lane = Lane::new(Arc::new(scenario), Arc::from(Vec::new()), Acks::All);
        for record in 0..len {
            lane.partitions[0].reps[0]
                .log
                .append(Entry { record, epoch: 0 });
        }
        lane
    }

    /// A retried batch is found anywhere in the last five batches' worth of entries, and
    /// its end is where the broker answers the retry from; older entries are not looked at.
    #[test]
    fn a_retried_batch_is_found_within_five_batches_of_the_end() {
        let look_back = 5 * MAX_BATCH_RECORDS;
        let lane = lane_with_log(2 * look_back, true);
        let end = 2 * look_back;
        // The newest three records.
        assert_eq!(lane.already_written(0, 0, end - 3, 3), Some(u64::from(end)));
        let oldest_seen = end - look_back;
        assert_eq!(
            lane.already_written(0, 0, oldest_seen, 2),
            Some(u64::from(oldest_seen + 2))
        );
        assert_eq!(lane.already_written(0, 0, oldest_seen - 1, 1), None);
        assert_eq!(lane.already_written(0, 0, end, 1), None, "a new batch");
    }

    #[test]
    fn without_idempotence_nothing_is_recognised() {
        let lane = lane_with_log(10, false);
        assert_eq!(lane.already_written(0, 0, 9, 1), None);
    }
}
