//! The producer: records handed to `send()` at an even rate, round-robin over the partitions,
//! batched per partition and sent to the leader its metadata names, one request in flight per
//! partition; the answer (or its absence for `request.timeout.ms`) settles the batch or sends
//! it again after an exponential back-off, until `retries` or `delivery.timeout.ms` runs out.
//!
//! A batch is a run of one partition's records by their sequence number in that partition, so
//! a retry resends exactly the same records and an idempotent leader can recognise them. With
//! `acks=0` nothing is waited for: a batch is done the moment it leaves.

use super::events::{EventKind, FailCause};
use super::lane::{Item, Lane, Reply, MAX_BATCH_RECORDS};
use super::scenario::{Acks, ReplicationScenario, MAX_PARTITIONS};

/// A batch the producer has sent, or will send again after a back-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Sequence numbers in the partition, `from..to`.
    pub from: u32,
    pub to: u32,
    /// The request now outstanding (a later answer to an earlier one is ignored).
    pub request: u64,
    /// The replica it was last sent to.
    pub to_replica: usize,
    /// Times sent so far.
    pub attempts: u32,
    /// `Some(t)`: waiting to be sent again at `t`; `None`: sent, awaiting its answer.
    pub retry_at: Option<u64>,
    /// When the outstanding request times out (`request.timeout.ms`, or the delivery
    /// deadline if sooner), and that timer's place among the agenda's items due at the same
    /// instant (see [`crate::replay::agenda::Agenda::take_number`]). The timer lives here, not
    /// in the agenda: only the request in flight can time out, where a timer queued per
    /// request left tens of thousands to fall due long after their answers, thousands at a
    /// time copied with every checkpoint.
    pub timeout_at_ms: u64,
    pub timeout_number: u64,
}

/// The producer's state.
#[derive(Clone, Debug)]
pub struct Producer {
    /// The next record the application will hand to `send()`.
    pub next_record: u64,
    /// Per partition, the records waiting in the accumulator (`from..to` by sequence).
    pub waiting: Vec<(u32, u32)>,
    pub in_flight: Vec<Option<Batch>>,
    /// Per partition, the leader (replica index) the producer's metadata names.
    pub leader_view: Vec<Option<usize>>,
}

impl Producer {
    pub fn new(scenario: &ReplicationScenario) -> Self {
        let partitions = scenario.topic.partitions as usize;
        Self {
            next_record: 0,
            waiting: vec![(0, 0); partitions],
            in_flight: vec![None; partitions],
            leader_view: vec![Some(0); partitions],
        }
    }
}

impl Lane {
    /// The application calls `send()` for every record due now.
    pub(crate) fn on_send(&mut self) {
        let partitions = self.scenario.topic.partitions as u64;
        let total = self.scenario.record_count();
        // At most MAX_PARTITIONS, and this runs for every record: no allocation.
        let mut touched = [false; MAX_PARTITIONS as usize];
        while self.producer.next_record < total
            && self.scenario.send_ms(self.producer.next_record) <= self.now_ms
        {
            let p = (self.producer.next_record % partitions) as usize;
            self.producer.waiting[p].1 += 1;
            touched[p] = true;
            self.producer.next_record += 1;
        }
        if self.producer.next_record < total {
            let next = self.scenario.send_ms(self.producer.next_record);
            self.schedule(next, Item::Send);
        }
        for (p, touched) in touched.into_iter().enumerate() {
            if touched {
                self.pump(p);
            }
        }
    }

    /// When `send()` was called for partition `p`'s record `seq`.
    fn sent_at(&self, p: usize, seq: u32) -> u64 {
        self.scenario.send_ms(u64::from(self.record_of(p, seq)))
    }

    /// Sends what partition `p` can send now: a batch due for a retry, or the next batch.
    pub(crate) fn pump(&mut self, p: usize) {
        loop {
            match self.producer.in_flight[p] {
                Some(Batch { retry_at: None, .. }) => return,
                Some(Batch {
                    retry_at: Some(at), ..
                }) if at > self.now_ms => return,
                Some(batch) => {
                    if self.expired(p, batch.from) {
                        self.give_up(p, batch, FailCause::DeliveryTimeout);
                        continue;
                    }
                    self.transmit(p, batch);
                    return;
                }
                None => {
                    self.expire_waiting(p);
                    let (from, to) = self.producer.waiting[p];
                    if from == to {
                        return;
                    }
                    let end = to.min(from + MAX_BATCH_RECORDS);
                    self.producer.waiting[p].0 = end;
                    let batch = Batch {
                        from,
                        to: end,
                        request: 0,
                        to_replica: 0,
                        attempts: 0,
                        retry_at: None,
                        timeout_at_ms: 0,
                        timeout_number: 0,
                    };
                    self.transmit(p, batch);
                    if self.acks != Acks::Zero || self.producer.in_flight[p].is_some() {
                        return;
                    }
                }
            }
        }
    }

    /// Whether a batch starting at `seq` has passed `delivery.timeout.ms`.
    fn expired(&self, p: usize, seq: u32) -> bool {
        self.sent_at(p, seq) + self.scenario.producer.delivery_timeout_ms <= self.now_ms
    }

    /// Fails the records that waited in the accumulator past `delivery.timeout.ms`.
    fn expire_waiting(&mut self, p: usize) {
        let (from, to) = self.producer.waiting[p];
        let mut cut = from;
        while cut < to && self.expired(p, cut) {
            let record = self.record_of(p, cut);
            self.ledger.fail(record);
            cut += 1;
        }
        if cut > from {
            self.producer.waiting[p].0 = cut;
            self.tell_failed(p, cut - from, FailCause::DeliveryTimeout);
        }
    }

    /// Sends `batch` to the leader the producer believes in, or waits for one.
    fn transmit(&mut self, p: usize, mut batch: Batch) {
        let target = self.producer.leader_view[p].filter(|&r| {
            // The connection to a dead broker's process is refused at once: the producer
            // knows it cannot send there, and asks for metadata.
            self.brokers[self.partitions[p].reps[r].broker as usize].up
        });
        let target = target.or_else(|| {
            self.producer.leader_view[p] = self.partitions[p].leader;
            self.producer.leader_view[p]
                .filter(|&r| self.brokers[self.partitions[p].reps[r].broker as usize].up)
        });
        let Some(to) = target else {
            // No live leader known: the batch waits in the accumulator (nothing was sent, so
            // it is no retry), and the producer asks again after a back-off.
            let at = self.now_ms + self.scenario.producer.retry_backoff_ms.max(1);
            self.hold_until(p, batch, at);
            return;
        };
        if batch.attempts > 0 {
            self.stats.retries += u64::from(batch.to - batch.from);
        }
        batch.attempts += 1;
        batch.request = self.fresh_id();
        batch.to_replica = to;
        batch.retry_at = None;
        let arrive = self.hop_ms();
        self.schedule(
            arrive,
            Item::Produce {
                partition: p as u32,
                to,
                request: batch.request,
                from_seq: batch.from,
                to_seq: batch.to,
            },
        );
        if self.acks == Acks::Zero {
            // The callback fires as the request leaves; no answer will come.
            self.settle(p, batch, true);
            self.producer.in_flight[p] = None;
            return;
        }
        batch.timeout_at_ms = (self.now_ms + self.scenario.producer.request_timeout_ms)
            .min(self.sent_at(p, batch.from) + self.scenario.producer.delivery_timeout_ms);
        batch.timeout_number = self.take_agenda_number();
        self.producer.in_flight[p] = Some(batch);
    }

    /// The earliest request timeout due, as ((due time, number), partition): that of a
    /// request in flight and unanswered (a batch held for a retry has none).
    pub(crate) fn next_request_timeout(&self) -> Option<((u64, u64), usize)> {
        let mut next: Option<((u64, u64), usize)> = None;
        for (p, batch) in self.producer.in_flight.iter().enumerate() {
            if let Some(batch @ Batch { retry_at: None, .. }) = batch {
                let key = (batch.timeout_at_ms, batch.timeout_number);
                if next.is_none_or(|(earliest, _)| key < earliest) {
                    next = Some((key, p));
                }
            }
        }
        next
    }

    /// Acknowledges (or fails) every record of `batch`.
    fn settle(&mut self, p: usize, batch: Batch, ok: bool) {
        if !ok {
            for seq in batch.from..batch.to {
                let record = self.record_of(p, seq);
                self.ledger.fail(record);
            }
            return;
        }
        let (now, scenario) = (self.now_ms, &self.scenario);
        let acks = (batch.from..batch.to).map(|seq| {
            let record = scenario.record_of(p, seq);
            (record, now - scenario.send_ms(u64::from(record)))
        });
        self.ledger.acknowledge_batch(acks.clone());
        for (record, latency) in acks {
            self.second.push(latency);
            self.trace.write_u64(u64::from(record));
            self.trace.write_u64(now);
        }
    }

    /// The answer to request `request` on partition `p`, from replica `from`.
    pub(crate) fn on_produce_reply(&mut self, p: usize, from: usize, request: u64, reply: Reply) {
        let Some(batch) = self.producer.in_flight[p].filter(|b| b.request == request) else {
            return;
        };
        if batch.retry_at.is_some() {
            return;
        }
        match reply {
            Reply::Ok => {
                self.settle(p, batch, true);
                self.producer.in_flight[p] = None;
                let part = &mut self.partitions[p];
                if from != part.source && !part.told.deposed {
                    part.told.deposed = true;
                    let broker = part.reps[from].broker + 1;
                    self.tell(EventKind::AckedByDeposedLeader {
                        partition: p as u32,
                        broker,
                        records: batch.to - batch.from,
                    });
                }
                let told = &mut self.partitions[p].told;
                (told.not_enough, told.after_append, told.failed) = (false, false, false);
                self.pump(p);
            }
            Reply::NotEnoughReplicas { .. }
            | Reply::NotEnoughReplicasAfterAppend { .. }
            | Reply::NotLeader
            | Reply::Disconnected => self.retry_or_fail(p, batch),
        }
    }

    /// No answer to partition `p`'s request in flight within `request.timeout.ms` (or the
    /// delivery deadline came first).
    pub(crate) fn on_produce_timeout(&mut self, p: usize) {
        let Some(batch) = self.producer.in_flight[p].filter(|b| b.retry_at.is_none()) else {
            return;
        };
        if !self.expired(p, batch.from) {
            self.stats.request_timeouts += u64::from(batch.to - batch.from);
            self.tell(EventKind::RequestTimedOut {
                partition: p as u32,
                records: batch.to - batch.from,
                request_timeout_ms: self.scenario.producer.request_timeout_ms,
            });
        }
        self.retry_or_fail(p, batch);
    }

    /// After a failed attempt: back off and send again, or give the batch up.
    fn retry_or_fail(&mut self, p: usize, batch: Batch) {
        if self.expired(p, batch.from) {
            self.give_up(p, batch, FailCause::DeliveryTimeout);
            self.pump(p);
            return;
        }
        if batch.attempts > self.scenario.producer.retries {
            self.give_up(p, batch, FailCause::RetriesExhausted);
            self.pump(p);
            return;
        }
        // A failed request makes the producer refresh its metadata.
        self.producer.leader_view[p] = self.partitions[p].leader;
        let at = self.now_ms + self.backoff_ms(batch.attempts);
        self.hold_until(p, batch, at);
    }

    /// Keeps `batch` in partition `p`'s slot, unsent, and wakes the producer for it at `at`.
    fn hold_until(&mut self, p: usize, mut batch: Batch, at: u64) {
        batch.retry_at = Some(at);
        self.producer.in_flight[p] = Some(batch);
        self.schedule(
            at,
            Item::ProducerWake {
                partition: p as u32,
            },
        );
    }

    /// `retry.backoff.ms` doubled per failed attempt up to `retry.backoff.max.ms`, with
    /// Kafka's 20 % jitter either way (KIP-580).
    fn backoff_ms(&mut self, attempts: u32) -> u64 {
        let producer = &self.scenario.producer;
        let max = producer.retry_backoff_max_ms.max(1);
        let base = producer
            .retry_backoff_ms
            .checked_shl(attempts.saturating_sub(1).min(32))
            .unwrap_or(u64::MAX)
            .min(max);
        let jittered = base * (80 + self.rng.below(41)) / 100;
        jittered.max(1)
    }

    fn give_up(&mut self, p: usize, batch: Batch, cause: FailCause) {
        self.settle(p, batch, false);
        self.producer.in_flight[p] = None;
        self.tell_failed(p, batch.to - batch.from, cause);
    }

    fn tell_failed(&mut self, p: usize, records: u32, cause: FailCause) {
        if !self.partitions[p].told.failed {
            self.partitions[p].told.failed = true;
            self.tell(EventKind::DeliveryFailed {
                partition: p as u32,
                records,
                cause,
            });
        }
    }

    /// Broker `b`'s process died: the connections to it close, and every request the
    /// producer had in flight to it fails as disconnected (it is retried).
    pub(crate) fn disconnect_requests_to(&mut self, b: u32) {
        for p in 0..self.partitions.len() {
            let Some(batch) = self.producer.in_flight[p] else {
                continue;
            };
            if batch.retry_at.is_none() && self.partitions[p].reps[batch.to_replica].broker == b {
                let at = self.hop_ms();
                self.schedule(
                    at,
                    Item::ProduceReply {
                        partition: p as u32,
                        from: batch.to_replica,
                        request: batch.request,
                        reply: Reply::Disconnected,
                    },
                );
            }
        }
    }

    /// `metadata.max.age.ms` passed: the producer learns every partition's leader again.
    pub(crate) fn refresh_all_metadata(&mut self) {
        for p in 0..self.partitions.len() {
            self.producer.leader_view[p] = self.partitions[p].leader;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Batch;
    use crate::replication::lane::Lane;
    use crate::replication::{lesson_default, Acks};
    use std::sync::Arc;

    fn batch(timeout_at_ms: u64, timeout_number: u64, retry_at: Option<u64>) -> Option<Batch> {
        Some(Batch {
            from: 0,
            to: 1,
            request: 1,
            to_replica: 0,
            attempts: 1,
            retry_at,
            timeout_at_ms,
            timeout_number,
        })
    }

    fn lane_with(in_flight: [Option<Batch>; 3]) -> Lane {
        let mut scenario = lesson_default();
        scenario.topic.partitions = 3;
        let mut lane = Lane::new(Arc::new(scenario), Arc::from(Vec::new()), Acks::All);
        lane.producer.in_flight = in_flight.to_vec();
        lane
    }

    /// The timeout that fires next is the soonest of the requests awaiting an answer; a batch
    /// waiting to be sent again has no request out, so its old timer cannot fire.
    #[test]
    fn the_next_timeout_is_the_soonest_unanswered_request() {
        let lane = lane_with([
            batch(500, 7, None),
            batch(300, 9, None),
            batch(100, 2, Some(90)),
        ]);
        assert_eq!(lane.next_request_timeout(), Some(((300, 9), 1)));
        let lane = lane_with([batch(300, 4, None), batch(500, 1, None), None]);
        assert_eq!(lane.next_request_timeout(), Some(((300, 4), 0)));
    }

    /// Two timers due at the same instant fire in the order they were set.
    #[test]
    fn timeouts_at_one_instant_fire_in_the_order_they_were_set() {
        let lane = lane_with([None, batch(300, 9, None), batch(300, 5, None)]);
        assert_eq!(lane.next_request_timeout(), Some(((300, 5), 2)));
    }

    #[test]
    fn nothing_in_flight_means_no_timeout() {
        let lane = lane_with([None, batch(100, 2, Some(90)), None]);
        assert_eq!(lane.next_request_timeout(), None);
    }
}
