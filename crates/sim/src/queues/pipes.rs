//! The lanes of the backpressure and direct comparisons: one producer, one consumer, and
//! what carries records between them.
//!
//! Every lane sees the same records at the same nominal times and the same processing times.
//! What differs is where a record waits and what happens when it cannot:
//!
//! * direct: the consumer's small receive buffer; nothing holds a record while the consumer
//!   is down, so what is sent then is lost (`lost_while_down`);
//! * drop: a small buffer in the consumer's process; a record that finds it full is dropped;
//! * buffer: a large buffer in the consumer's memory that grows while the consumer lags, and
//!   whose contents die with the consumer's process (`lost_on_crash`); optionally it spills
//!   to disk when full, and spilled records survive;
//! * block: a small buffer, and a producer that waits for room (`producer_blocked_ms`): its
//!   own rate falls to the consumer's, and the records it has not sent yet wait upstream;
//! * log and broker: the records are kept on a broker, outside the consumer's process, and the
//!   consumer resumes at its committed offset after a crash; a log deletes what it kept
//!   longer than `retention.ms`, read or not.
//!
//! Processing never fails here (failures are the readers lesson's subject), and a consumer
//! takes one record at a time.

use super::events::{FullAction, PipeKind, QueuesEventKind};
use super::records::{processing_ms, Record};
use super::scenario::{QueuesScenario, SAMPLE_INTERVAL_MS};
use crate::replay::due::earliest;
use serde::Serialize;
use std::collections::VecDeque;

/// One sample of a lane, for its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PipeSample {
    pub at_ms: u64,
    /// Records the producer sent in the last interval, per second.
    pub producer_per_s: u64,
    /// Records the consumer finished in the last interval, per second.
    pub consumer_per_s: u64,
    /// Records waiting between them (buffer, disk or log, and the one in hand).
    pub depth: u64,
    /// Records lost so far, all causes together.
    pub lost: u64,
}

/// Where a lane's records go.
#[derive(Clone, Debug)]
pub struct PipeLane {
    pub kind: PipeKind,
    /// What its in-memory buffer holds at most (`u64::MAX` for a broker's log).
    pub(crate) capacity: u64,
    pub(crate) spill: bool,
    retention_ms: u64,
    /// The next record the producer sends.
    pub cursor: usize,
    blocked_since: Option<u64>,
    blocked_ms: u64,
    /// The consumer's memory (or, for a broker, the unread part of its log).
    pub memory: VecDeque<u32>,
    /// Records spilled to disk, after those in memory.
    pub disk: VecDeque<u32>,
    pub consumer_up: bool,
    down_since: Option<u64>,
    lost_while_down_at_down: u64,
    /// The record in hand and when it is done.
    pub work: Option<(u32, u64)>,
    pub sent: u64,
    pub processed: u64,
    pub dropped: u64,
    pub lost_on_crash: u64,
    pub lost_while_down: u64,
    pub lost_to_retention: u64,
    pub spilled: u64,
    full_told: bool,
    retention_told: bool,
    pub samples: Vec<PipeSample>,
    sampled: (u64, u64),
}

impl PipeLane {
    pub fn new(kind: PipeKind, scenario: &QueuesScenario) -> Self {
        let spec = &scenario.backpressure;
        let capacity = match kind {
            PipeKind::Buffer => u64::from(spec.memory_buffer_records),
            PipeKind::Log | PipeKind::Broker => u64::MAX,
            PipeKind::Direct | PipeKind::Drop | PipeKind::Block => {
                u64::from(spec.small_buffer_records)
            }
        };
        Self {
            kind,
            capacity,
            spill: kind == PipeKind::Buffer && spec.spill_to_disk,
            retention_ms: if kind == PipeKind::Log {
                scenario.topic.retention_ms
            } else {
                u64::MAX
            },
            cursor: 0,
            blocked_since: None,
            blocked_ms: 0,
            memory: VecDeque::new(),
            disk: VecDeque::new(),
            consumer_up: true,
            down_since: None,
            lost_while_down_at_down: 0,
            work: None,
            sent: 0,
            processed: 0,
            dropped: 0,
            lost_on_crash: 0,
            lost_while_down: 0,
            lost_to_retention: 0,
            spilled: 0,
            full_told: false,
            retention_told: false,
            samples: Vec::new(),
            sampled: (0, 0),
        }
    }

    /// How long the producer has waited for room so far, including a wait still going on.
    pub fn blocked_ms(&self, now_ms: u64) -> u64 {
        self.blocked_ms + self.blocked_since.map_or(0, |since| now_ms - since)
    }

    /// Records lost, every cause together.
    pub fn lost(&self) -> u64 {
        self.dropped + self.lost_on_crash + self.lost_while_down + self.lost_to_retention
    }

    /// Records waiting between producer and consumer, and the one in hand.
    pub fn depth(&self) -> u64 {
        (self.memory.len() + self.disk.len()) as u64 + u64::from(self.work.is_some())
    }

    /// The next instant this lane has something to do by itself.
    pub fn due_ms(&self, records: &[Record]) -> Option<u64> {
        let next_send = records
            .get(self.cursor)
            .map(|r| r.at_ms)
            .filter(|_| self.blocked_since.is_none());
        let work = self.work.map(|(_, done)| done).filter(|_| self.consumer_up);
        let expiry = self
            .memory
            .front()
            .filter(|_| self.retention_ms != u64::MAX)
            .map(|&seq| {
                records[seq as usize]
                    .at_ms
                    .saturating_add(self.retention_ms)
            });
        earliest([next_send, work, expiry])
    }

    /// Everything due at `now_ms`: retention, the record in hand, the producer's sends and the
    /// consumer's next record.
    pub fn tick(
        &mut self,
        now_ms: u64,
        scenario: &QueuesScenario,
        records: &[Record],
        events: &mut Vec<QueuesEventKind>,
        trace: &mut impl FnMut(u32),
    ) {
        self.expire(now_ms, records, events);
        if let Some((seq, _)) = self.work.filter(|&(_, done)| done <= now_ms) {
            self.work = None;
            self.processed += 1;
            trace(seq);
        }
        self.send_due(now_ms, records, events);
        self.start(now_ms, scenario);
        // Taking a record may have made room for a waiting producer.
        self.send_due(now_ms, records, events);
    }

    /// The consumer's process dies: what was in its memory is lost, unless the records live
    /// on a broker.
    pub fn crash(&mut self, now_ms: u64) -> QueuesEventKind {
        self.consumer_up = false;
        self.down_since = Some(now_ms);
        self.lost_while_down_at_down = self.lost_while_down;
        let (lost, kept) = if self.kind.is_durable() {
            // The record in hand was never committed: it is read again on return.
            if let Some((seq, _)) = self.work.take() {
                self.memory.push_front(seq);
            }
            (0, self.memory.len() as u64)
        } else {
            let lost = self.memory.len() as u64 + u64::from(self.work.is_some());
            self.memory.clear();
            self.work = None;
            self.lost_on_crash += lost;
            (lost, self.disk.len() as u64)
        };
        QueuesEventKind::PipeConsumerDown {
            lane: self.kind,
            lost,
            kept,
        }
    }

    /// The consumer's process is back.
    pub fn restart(&mut self, now_ms: u64) -> QueuesEventKind {
        self.consumer_up = true;
        let down_ms = self.down_since.take().map_or(0, |since| now_ms - since);
        QueuesEventKind::PipeConsumerUp {
            lane: self.kind,
            lost_while_down: self.lost_while_down - self.lost_while_down_at_down,
            down_ms,
        }
    }

    /// Records a sample at `now_ms` (a multiple of the sample interval).
    pub fn sample(&mut self, now_ms: u64) {
        let per_s = |count: u64| count * 1000 / SAMPLE_INTERVAL_MS;
        self.samples.push(PipeSample {
            at_ms: now_ms,
            producer_per_s: per_s(self.sent - self.sampled.0),
            consumer_per_s: per_s(self.processed - self.sampled.1),
            depth: self.depth(),
            lost: self.lost(),
        });
        self.sampled = (self.sent, self.processed);
    }

    /// A log deletes unread records older than its retention.
    fn expire(&mut self, now_ms: u64, records: &[Record], events: &mut Vec<QueuesEventKind>) {
        if self.retention_ms == u64::MAX {
            return;
        }
        let before = self.lost_to_retention;
        while let Some(&seq) = self.memory.front() {
            if records[seq as usize]
                .at_ms
                .saturating_add(self.retention_ms)
                > now_ms
            {
                break;
            }
            self.memory.pop_front();
            self.lost_to_retention += 1;
        }
        if self.lost_to_retention > before && !self.retention_told {
            self.retention_told = true;
            events.push(QueuesEventKind::RetentionDeleted {
                lane: self.kind,
                records: self.lost_to_retention - before,
                retention_ms: self.retention_ms,
            });
        }
    }

    /// The producer sends every record due by `now_ms` that it can.
    fn send_due(&mut self, now_ms: u64, records: &[Record], events: &mut Vec<QueuesEventKind>) {
        while let Some(record) = records.get(self.cursor) {
            if record.at_ms > now_ms {
                break;
            }
            let seq = self.cursor as u32;
            if self.kind == PipeKind::Block {
                let room = self.consumer_up && (self.memory.len() as u64) < self.capacity;
                if !room {
                    if self.blocked_since.is_none() {
                        self.blocked_since = Some(now_ms);
                        self.tell_full(FullAction::Block, events);
                    }
                    break;
                }
                if let Some(since) = self.blocked_since.take() {
                    self.blocked_ms += now_ms - since;
                }
            }
            self.cursor += 1;
            self.sent += 1;
            self.receive(seq, events);
        }
    }

    /// A record reaches the consumer's side.
    fn receive(&mut self, seq: u32, events: &mut Vec<QueuesEventKind>) {
        if self.kind.is_durable() {
            self.memory.push_back(seq);
            return;
        }
        if !self.consumer_up {
            self.lost_while_down += 1;
            return;
        }
        let full = !self.disk.is_empty() || self.memory.len() as u64 >= self.capacity;
        if !full {
            self.memory.push_back(seq);
        } else if self.spill {
            self.tell_full(FullAction::Spill, events);
            self.disk.push_back(seq);
            self.spilled += 1;
        } else {
            self.tell_full(FullAction::Drop, events);
            self.dropped += 1;
        }
    }

    /// An idle, live consumer takes the oldest waiting record.
    fn start(&mut self, now_ms: u64, scenario: &QueuesScenario) {
        if !self.consumer_up || self.work.is_some() {
            return;
        }
        if let Some(seq) = self.memory.pop_front() {
            self.work = Some((seq, now_ms + processing_ms(scenario, seq, 1)));
        }
        // Memory has room again: read spilled records back, oldest first.
        while (self.memory.len() as u64) < self.capacity {
            match self.disk.pop_front() {
                Some(seq) => self.memory.push_back(seq),
                None => break,
            }
        }
    }

    fn tell_full(&mut self, action: FullAction, events: &mut Vec<QueuesEventKind>) {
        if !self.full_told {
            self.full_told = true;
            events.push(QueuesEventKind::BufferFull {
                lane: self.kind,
                capacity: self.capacity,
                action,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queues::records::generate;

    fn run(kind: PipeKind, scenario: &QueuesScenario, crash_at: Option<u64>) -> PipeLane {
        let records = generate(scenario);
        let mut lane = PipeLane::new(kind, scenario);
        let mut events = Vec::new();
        for now in 0..scenario.duration_ms {
            if Some(now) == crash_at {
                lane.crash(now);
            }
            lane.tick(now, scenario, &records, &mut events, &mut |_| {});
        }
        lane
    }

    fn faster_producer() -> QueuesScenario {
        let mut scenario = QueuesScenario::default();
        scenario.duration_ms = 5_000;
        scenario.producer.records_per_second = 200;
        scenario.processing.mean_ms = 10;
        scenario.processing.spread_ms = 0;
        scenario.backpressure.small_buffer_records = 20;
        scenario
    }

    #[test]
    fn a_full_small_buffer_drops_and_a_blocked_producer_slows_down() {
        let scenario = faster_producer();
        let drop = run(PipeKind::Drop, &scenario, None);
        assert!(drop.dropped > 300, "{}", drop.dropped);
        assert_eq!(drop.sent, 1_000);
        let block = run(PipeKind::Block, &scenario, None);
        assert_eq!(block.lost(), 0);
        assert!(
            block.blocked_ms(5_000) > 2_000,
            "{}",
            block.blocked_ms(5_000)
        );
        assert!(block.sent < 600, "{}", block.sent);
    }

    #[test]
    fn a_crash_empties_memory_but_not_a_log() {
        let scenario = faster_producer();
        let buffer = run(PipeKind::Buffer, &scenario, Some(3_000));
        assert!(buffer.lost_on_crash > 200, "{}", buffer.lost_on_crash);
        let log = run(PipeKind::Log, &scenario, Some(3_000));
        assert_eq!(log.lost(), 0);
        assert_eq!(log.sent, log.processed + log.depth());
    }

    #[test]
    fn spilled_records_survive_a_crash() {
        let mut scenario = faster_producer();
        scenario.backpressure.memory_buffer_records = 50;
        scenario.backpressure.spill_to_disk = true;
        let lane = run(PipeKind::Buffer, &scenario, Some(3_000));
        assert!(lane.spilled > 0);
        assert!(lane.lost_on_crash <= 51, "{}", lane.lost_on_crash);
        assert_eq!(lane.dropped, 0);
    }
}
