//! A classic queue broker in the AMQP 0-9-1 style, modelled on a RabbitMQ quorum queue.
//!
//! Every record is one message in one queue. The broker pushes ready messages, head first,
//! round-robin to the consumers that have room under their `basic.qos` `prefetch_count`
//! (unacknowledged deliveries per consumer; 0 is no limit). A consumer works through its
//! deliveries in order: `basic.ack` deletes a message for good; a failed one is
//! `basic.nack`ed with requeue and goes back to its place near the head of the queue. When a
//! consumer's process dies its connection closes and the broker takes back all it had not
//! acknowledged; a delivery left unacknowledged past `consumer_timeout` closes the channel
//! the same way. Each message counts its returns, and one returned more than the quorum
//! queue's `x-delivery-limit` goes to the dead-letter queue instead. Redeliveries, and
//! consumers working side by side, are what break per-key order here.

use super::events::QueuesEventKind;
use super::order::{Completion, KeyOrder};
use super::records::{fails, processing_ms, Record};
use super::scenario::QueuesScenario;
use crate::replay::slots::SharedSlots;
use std::collections::{BTreeSet, VecDeque};

/// One delivery a consumer has not acknowledged.
#[derive(Clone, Copy, Debug)]
pub struct Delivery {
    pub seq: u32,
    pub delivered_ms: u64,
    /// The broker's `redelivered` flag: the message was delivered before.
    pub redelivered: bool,
}

/// One consumer (one channel, one `basic.consume`).
#[derive(Clone, Debug, Default)]
pub struct QueueConsumer {
    pub alive: bool,
    /// Its unacknowledged deliveries, oldest first; it processes the front one.
    pub unacked: VecDeque<Delivery>,
    /// When processing of the front delivery ends, if it has started.
    pub done_ms: Option<u64>,
}

/// The queue and its consumers.
#[derive(Clone, Debug)]
pub struct QueueLane {
    /// Messages ready for delivery, by their original position (the order they were
    /// published), so a requeued message goes back near the head.
    pub ready: BTreeSet<u32>,
    /// Per message: deliveries so far and returns so far, in shared chunks (every checkpoint
    /// of a run clones them, and only the chunks near the run's frontier change).
    deliveries: SharedSlots<u32>,
    returns: SharedSlots<u32>,
    pub consumers: Vec<QueueConsumer>,
    /// The consumer the next dispatch tries first.
    next: usize,
    pub order: KeyOrder,
    pub acked: u64,
    pub dead_lettered: u64,
    /// Deliveries with the redelivered flag set.
    pub redelivered: u64,
}

/// What one tick of the queue wants told.
#[derive(Default)]
pub struct QueueNews {
    pub events: Vec<QueuesEventKind>,
    pub first_inversion: Option<(u32, Completion, bool)>,
}

impl QueueLane {
    pub fn new(scenario: &QueuesScenario, records: usize) -> Self {
        let consumer = QueueConsumer {
            alive: true,
            ..QueueConsumer::default()
        };
        Self {
            ready: BTreeSet::new(),
            deliveries: SharedSlots::filled(records, 0),
            returns: SharedSlots::filled(records, 0),
            consumers: vec![consumer; scenario.consumers as usize],
            next: 0,
            order: KeyOrder::new(scenario.producer.keys, records),
            acked: 0,
            dead_lettered: 0,
            redelivered: 0,
        }
    }

    /// A message is published to the queue.
    pub fn publish(&mut self, seq: u32) {
        self.ready.insert(seq);
    }

    /// Consumer `id` dies: the broker takes back its unacknowledged messages. Returns how
    /// many it held, and the event telling the return.
    pub fn crash(
        &mut self,
        id: u32,
        scenario: &QueuesScenario,
        records: &[Record],
    ) -> (u32, QueueNews) {
        let consumer = &mut self.consumers[id as usize];
        consumer.alive = false;
        let holding = consumer.unacked.len() as u32;
        let mut news = QueueNews::default();
        self.take_back(
            id,
            super::events::ReturnCause::ConsumerDied,
            scenario,
            records,
            &mut news,
        );
        (holding, news)
    }

    /// Consumer `id` is back and consumes again.
    pub fn restart(&mut self, id: u32) {
        self.consumers[id as usize].alive = true;
    }

    /// The next instant this queue has something to do by itself.
    pub fn due_ms(&self, consumer_timeout_ms: u64) -> Option<u64> {
        self.consumers
            .iter()
            .filter(|c| c.alive)
            .flat_map(|c| {
                let timeout = c
                    .unacked
                    .front()
                    .map(|d| d.delivered_ms + consumer_timeout_ms);
                c.done_ms.into_iter().chain(timeout)
            })
            .min()
    }

    /// Closes the channels whose oldest delivery passed `consumer_timeout` by `now_ms`.
    pub fn check_timeouts(
        &mut self,
        now_ms: u64,
        scenario: &QueuesScenario,
        records: &[Record],
        news: &mut QueueNews,
    ) {
        let timeout = scenario.queue.consumer_timeout_ms;
        for id in 0..self.consumers.len() {
            let consumer = &self.consumers[id];
            let expired = consumer.alive
                && consumer
                    .unacked
                    .front()
                    .is_some_and(|d| d.delivered_ms + timeout <= now_ms);
            if expired {
                self.take_back(
                    id as u32,
                    super::events::ReturnCause::ConsumerTimeout,
                    scenario,
                    records,
                    news,
                );
            }
        }
    }

    /// Roughly the bytes of the per-message tables a clone holds of its own, and those every
    /// clone of the run shares.
    pub fn size_hint_bytes(&self) -> (usize, usize) {
        let (order_own, order_shared) = self.order.size_hint_bytes();
        (
            order_own + self.deliveries.own_size_hint_bytes() * 2,
            order_shared + self.deliveries.shared_size_hint_bytes() * 2,
        )
    }

    /// Finishes the deliveries whose processing ends at `now_ms`: ack, or nack with requeue.
    pub fn complete(
        &mut self,
        now_ms: u64,
        scenario: &QueuesScenario,
        records: &[Record],
        news: &mut QueueNews,
        trace: &mut impl FnMut(u32),
    ) {
        for id in 0..self.consumers.len() {
            let consumer = &mut self.consumers[id];
            if !consumer.alive || consumer.done_ms.is_none_or(|done| done > now_ms) {
                continue;
            }
            consumer.done_ms = None;
            let delivery = consumer
                .unacked
                .pop_front()
                .expect("work is the front delivery");
            let seq = delivery.seq;
            if fails(scenario, seq, self.deliveries[seq as usize]) {
                if let Some(event) = self.give_back(seq, scenario, records) {
                    news.events.push(event);
                }
                continue;
            }
            self.acked += 1;
            let key = records[seq as usize].key;
            let completion = self.order.complete(seq, key, delivery.redelivered);
            trace(seq);
            if matches!(completion, Completion::Inverted { .. }) && self.order.inversions == 1 {
                news.first_inversion = Some((seq, completion, delivery.redelivered));
            }
        }
    }

    /// Pushes ready messages to consumers with room, then starts idle consumers on their
    /// oldest delivery.
    pub fn dispatch_and_start(&mut self, now_ms: u64, scenario: &QueuesScenario) {
        let prefetch = scenario.queue.prefetch_count as usize;
        let count = self.consumers.len();
        while let Some(&seq) = self.ready.first() {
            let has_room =
                |c: &QueueConsumer| c.alive && (prefetch == 0 || c.unacked.len() < prefetch);
            let Some(id) = (0..count)
                .map(|step| (self.next + step) % count)
                .find(|&id| has_room(&self.consumers[id]))
            else {
                break;
            };
            self.ready.remove(&seq);
            let deliveries = self.deliveries[seq as usize] + 1;
            self.deliveries.set(seq as usize, deliveries);
            let redelivered = deliveries > 1;
            if redelivered {
                self.redelivered += 1;
            }
            self.consumers[id].unacked.push_back(Delivery {
                seq,
                delivered_ms: now_ms,
                redelivered,
            });
            self.next = (id + 1) % count;
        }
        for consumer in &mut self.consumers {
            if consumer.alive && consumer.done_ms.is_none() {
                if let Some(front) = consumer.unacked.front() {
                    let attempt = self.deliveries[front.seq as usize];
                    consumer.done_ms = Some(now_ms + processing_ms(scenario, front.seq, attempt));
                }
            }
        }
    }

    /// Messages delivered and not acknowledged, over all consumers.
    pub fn unacked(&self) -> u64 {
        self.consumers.iter().map(|c| c.unacked.len() as u64).sum()
    }

    /// Consumers processing a message now.
    pub fn busy(&self) -> u32 {
        self.consumers
            .iter()
            .filter(|c| c.done_ms.is_some())
            .count() as u32
    }

    /// Messages published and neither acknowledged nor dead-lettered.
    pub fn backlog(&self, arrived: u64) -> u64 {
        arrived - self.acked - self.dead_lettered
    }

    /// The broker takes back every delivery consumer `id` has not acknowledged.
    fn take_back(
        &mut self,
        id: u32,
        cause: super::events::ReturnCause,
        scenario: &QueuesScenario,
        records: &[Record],
        news: &mut QueueNews,
    ) {
        let consumer = &mut self.consumers[id as usize];
        consumer.done_ms = None;
        let taken: Vec<Delivery> = consumer.unacked.drain(..).collect();
        if taken.is_empty() {
            return;
        }
        let mut dead = Vec::new();
        for delivery in &taken {
            if let Some(event) = self.give_back(delivery.seq, scenario, records) {
                dead.push(event);
            }
        }
        news.events.push(QueuesEventKind::MessagesReturned {
            consumer: id,
            messages: taken.len() as u32,
            dead_lettered: dead.len() as u32,
            cause,
            consumer_timeout_ms: scenario.queue.consumer_timeout_ms,
        });
    }

    /// A message comes back to the broker: requeued, or dead-lettered once it has been
    /// returned more than `x-delivery-limit` times (the event says so).
    fn give_back(
        &mut self,
        seq: u32,
        scenario: &QueuesScenario,
        records: &[Record],
    ) -> Option<QueuesEventKind> {
        let returns = self.returns[seq as usize] + 1;
        self.returns.set(seq as usize, returns);
        let limit = scenario.queue.delivery_limit;
        if returns > limit {
            self.dead_lettered += 1;
            Some(QueuesEventKind::MessageDeadLettered {
                seq,
                key: records[seq as usize].key,
                returns,
                delivery_limit: limit,
            })
        } else {
            self.ready.insert(seq);
            None
        }
    }
}
