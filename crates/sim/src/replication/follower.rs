//! The follower's fetch loop: ask the leader it believes in for records from its own log end,
//! naming the epoch of its last record; append what comes back and ask again after its
//! follower delay (plus any slowness); when the leader answers that the logs have parted, cut
//! the log back to the point the epochs agree on (KIP-101/KIP-320) and ask again. A fetch that
//! cannot reach its leader is tried again after `replica.fetch.backoff.ms`.

use super::events::EventKind;
use super::lane::{FetchAnswer, Item, Lane, REPLICA_FETCH_BACKOFF_MS};

impl Lane {
    /// Replica `f` of partition `p` asks its leader for records, if it is a live follower.
    pub(crate) fn send_fetch(&mut self, p: usize, f: usize) {
        let rep = &self.partitions[p].reps[f];
        if !self.brokers[rep.broker as usize].up || rep.lead.is_some() {
            return;
        }
        let Some(l) = rep.view.leader.filter(|&l| l != f) else {
            return;
        };
        let generation = rep.fetch_generation;
        let leader_broker = self.partitions[p].reps[l].broker;
        if !self.reachable(rep.broker, leader_broker) {
            self.schedule(
                self.now_ms + REPLICA_FETCH_BACKOFF_MS,
                Item::FetchWake {
                    partition: p as u32,
                    follower: f,
                    generation,
                },
            );
            return;
        }
        let (offset, last_epoch, epoch) =
            (rep.log.end_offset(), rep.log.last_epoch(), rep.view.epoch);
        let at = self.hop_ms();
        self.schedule(
            at,
            Item::Fetch {
                partition: p as u32,
                follower: f,
                leader: l,
                offset,
                last_epoch,
                epoch,
                generation,
            },
        );
    }

    /// Starts replica `f`'s fetch loop over (its leader changed, or it came back).
    pub(crate) fn restart_fetching(&mut self, p: usize, f: usize) {
        let rep = &mut self.partitions[p].reps[f];
        rep.fetch_generation += 1;
        rep.aligned_epoch = None;
        self.send_fetch(p, f);
    }

    /// The leader's answer reaches follower `f`.
    pub(crate) fn on_fetch_reply(
        &mut self,
        p: usize,
        f: usize,
        generation: u32,
        answer: FetchAnswer,
    ) {
        let rep = &self.partitions[p].reps[f];
        let broker = rep.broker;
        if !self.brokers[broker as usize].up || rep.fetch_generation != generation {
            return;
        }
        match answer {
            FetchAnswer::Records { from, entries, hw } => {
                let rep = &mut self.partitions[p].reps[f];
                if from != rep.log.end_offset() {
                    // An answer to a fetch from before a truncation: ask again.
                    return self.send_fetch(p, f);
                }
                for entry in entries {
                    rep.log.append(entry);
                    self.trace.write_u64(u64::from(entry.record));
                }
                let rep = &mut self.partitions[p].reps[f];
                rep.hw = rep.hw.max(hw).min(rep.log.end_offset());
                rep.aligned_epoch = Some(rep.view.epoch);
                let delay = self.scenario.cluster.follower_delay_ms
                    + self.brokers[broker as usize].slow_extra_ms;
                self.schedule(
                    self.now_ms + delay,
                    Item::FetchWake {
                        partition: p as u32,
                        follower: f,
                        generation,
                    },
                );
            }
            FetchAnswer::Diverging { epoch, end } => {
                self.truncate_follower(p, f, (epoch, end));
                self.send_fetch(p, f);
            }
            FetchAnswer::NotLeader => self.schedule(
                self.now_ms + REPLICA_FETCH_BACKOFF_MS,
                Item::FetchWake {
                    partition: p as u32,
                    follower: f,
                    generation,
                },
            ),
        }
    }

    /// Cuts follower `f`'s log back by the leader's diverging `(epoch, end)`.
    fn truncate_follower(&mut self, p: usize, f: usize, diverging: (u32, u64)) {
        let rep = &mut self.partitions[p].reps[f];
        let from = rep.log.end_offset();
        let cut = rep.log.truncation_for(diverging);
        let removed = rep.log.truncate(cut.to);
        rep.hw = rep.hw.min(rep.log.end_offset());
        if removed.is_empty() {
            return;
        }
        let broker = rep.broker + 1;
        let to = rep.log.end_offset();
        let acknowledged = removed
            .iter()
            .filter(|e| self.ledger.is_lost(e.record))
            .count() as u64;
        self.stats.truncated_records += removed.len() as u64;
        self.tell(EventKind::Truncated {
            partition: p as u32,
            broker,
            from,
            to,
            acknowledged,
        });
    }
}
