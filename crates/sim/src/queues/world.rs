//! The queues world: the records of one seed flowing into the readers or lanes the scenario's
//! mode runs, one tick per instant something is due.
//!
//! A tick at `t` runs, in this order: the scheduled actions (partitions added, the crash, the
//! restart), members the coordinator removes after their session timed out, the records
//! produced at `t`, expired share-group locks and queue consumer timeouts, the work that ends
//! at `t` (acknowledged, committed, released, requeued), new work started by idle consumers,
//! the late reader's look at the past, backlog thresholds, and at whole seconds the charts'
//! samples. Instants with nothing due are skipped, so the run is the same however finely it
//! is advanced.

use super::consumer_group::ConsumerGroupLane;
use super::events::{InversionCause, PipeKind, QueuesEvent, QueuesEventKind, Reader};
use super::invariants::TickMarks;
use super::kinesis::KinesisLane;
use super::lane_dues::{LaneDues, LaneRuns};
use super::order::Completion;
use super::pipes::PipeLane;
use super::queue::{QueueLane, QueueNews};
use super::records::{generate, partition_of, Record};
use super::scenario::{Mode, QueuesScenario, SAMPLE_INTERVAL_MS};
use super::share_group::{ShareGroupLane, ShareNews};
use crate::family::ScenarioError;
use crate::replay::chunked::ChunkedVec;
use crate::replay::due::earliest;
use crate::replay::trace::TraceHasher;
use serde::Serialize;
use std::sync::Arc;

/// Backlogs that are told when a reader's backlog first passes them.
const BACKLOG_THRESHOLDS: [u64; 4] = [100, 1_000, 10_000, 100_000];

/// What the late reader found when it arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LateReading {
    pub at_ms: u64,
    /// Records produced before it arrived.
    pub produced: u64,
    /// Of those, still in the log (within retention): what a new group reading from the
    /// earliest offset reads.
    pub log_readable: u64,
    /// Messages still ready in the queue: what a new consumer of it could still receive.
    pub queue_readable: u64,
    /// Messages the queue had already deleted (acknowledged or dead-lettered).
    pub queue_deleted: u64,
}

/// One sample of a reader, for its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReaderSample {
    pub at_ms: u64,
    pub reader: Reader,
    /// Records completed in the last interval, per second.
    pub completed_per_s: u64,
    /// Records produced and not finished.
    pub backlog: u64,
}

/// The running folds of the trace hash: every completion (lane, record, instant) and every
/// event's typed fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunTrace {
    pub(crate) completions: TraceHasher,
    pub(crate) events: TraceHasher,
}

/// Lane tags folded with a completion.
pub(crate) mod lane_tag {
    pub const CONSUMER_GROUP: u64 = 1;
    pub const SHARE_GROUP: u64 = 2;
    pub const QUEUE: u64 = 3;
    pub const PIPE_BASE: u64 = 10;
}

pub(crate) fn fold_completion(trace: &mut TraceHasher, lane: u64, seq: u32, at_ms: u64) {
    trace.write_u64(lane);
    trace.write_u64(u64::from(seq));
    trace.write_u64(at_ms);
}

/// One run of a queues scenario.
#[derive(Clone, Debug)]
pub struct QueuesWorld {
    scenario: QueuesScenario,
    records: Arc<[Record]>,
    now_ms: u64,
    /// Records produced so far (readers, partitions and Kinesis modes).
    arrived: usize,
    /// Per partition, the records in it by offset (their sequence numbers), in shared chunks:
    /// every checkpoint of a run clones them.
    logs: Vec<ChunkedVec<u32>>,
    pub(crate) consumer_group: Option<ConsumerGroupLane>,
    pub(crate) share_group: Option<ShareGroupLane>,
    pub(crate) queue: Option<QueueLane>,
    pub(crate) pipes: Vec<PipeLane>,
    pub(crate) kinesis: Option<KinesisLane>,
    /// The reader lanes' own next due times, kept between ticks (see `lane_dues`).
    pub(crate) lane_dues: LaneDues,
    crash_pending: bool,
    restart_at_ms: Option<u64>,
    late_pending: bool,
    repartition_pending: bool,
    late_reading: Option<LateReading>,
    keys_moved: Option<u32>,
    backlog_told: [usize; 3],
    reader_samples: Vec<ReaderSample>,
    sampled_completed: [u64; 3],
    next_sample_ms: u64,
    events: ChunkedVec<QueuesEvent>,
    trace: RunTrace,
    pub(crate) tick: TickMarks,
}

impl QueuesWorld {
    /// Builds the run at time zero, or says which field is out of range.
    pub fn new(scenario: QueuesScenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let records: Arc<[Record]> = generate(&scenario).into();
        let count = records.len();
        let readers = scenario.mode == Mode::Readers;
        let mut world = Self {
            logs: vec![ChunkedVec::default(); scenario.topic.partitions as usize],
            consumer_group: (readers || scenario.mode == Mode::Repartition)
                .then(|| ConsumerGroupLane::new(&scenario, count)),
            share_group: readers.then(|| ShareGroupLane::new(&scenario, count)),
            queue: readers.then(|| QueueLane::new(&scenario, count)),
            pipes: pipe_kinds(scenario.mode)
                .iter()
                .map(|&kind| PipeLane::new(kind, &scenario))
                .collect(),
            kinesis: (scenario.mode == Mode::Kinesis).then(|| KinesisLane::new(&scenario)),
            lane_dues: LaneDues::default(),
            crash_pending: scenario.crash.enabled && scenario.mode != Mode::Kinesis,
            restart_at_ms: None,
            late_pending: readers && scenario.late_reader.enabled,
            repartition_pending: scenario.mode == Mode::Repartition,
            late_reading: None,
            keys_moved: None,
            backlog_told: [0; 3],
            reader_samples: Vec::new(),
            sampled_completed: [0; 3],
            next_sample_ms: SAMPLE_INTERVAL_MS,
            events: ChunkedVec::default(),
            trace: RunTrace::default(),
            tick: TickMarks::default(),
            now_ms: 0,
            arrived: 0,
            records,
            scenario,
        };
        world.assign_at_start();
        world.lane_dues = LaneDues::of(&world);
        Ok(world)
    }

    pub fn scenario(&self) -> &QueuesScenario {
        &self.scenario
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    pub fn events(&self) -> &ChunkedVec<QueuesEvent> {
        &self.events
    }

    /// Records produced so far into the topic (readers, partitions and Kinesis modes).
    pub fn arrived(&self) -> u64 {
        self.arrived as u64
    }

    /// Records the producer meant to send by now (every mode).
    pub fn offered(&self) -> u64 {
        self.records.partition_point(|r| r.at_ms <= self.now_ms) as u64
    }

    /// The consumer group, in the readers and partitions modes.
    pub fn consumer_group(&self) -> Option<&ConsumerGroupLane> {
        self.consumer_group.as_ref()
    }

    /// The share group, in the readers mode.
    pub fn share_group(&self) -> Option<&ShareGroupLane> {
        self.share_group.as_ref()
    }

    /// The queue, in the readers mode.
    pub fn queue(&self) -> Option<&QueueLane> {
        self.queue.as_ref()
    }

    /// The lanes of the backpressure and direct modes.
    pub fn pipes(&self) -> &[PipeLane] {
        &self.pipes
    }

    /// The Kinesis stream, in the Kinesis mode.
    pub fn kinesis(&self) -> Option<&KinesisLane> {
        self.kinesis.as_ref()
    }

    pub fn logs(&self) -> &[ChunkedVec<u32>] {
        &self.logs
    }

    /// Roughly the bytes of the run's per-record tables (the logs, each reader's completions,
    /// the queue's counters) that a clone holds of its own, and those the clones of one run
    /// share: all but the chunks near the run's frontier.
    pub(crate) fn history_size_hint_bytes(&self) -> (usize, usize) {
        let logs = self
            .logs
            .iter()
            .map(|log| (log.own_size_hint_bytes(), log.shared_size_hint_bytes()));
        let orders = [
            self.consumer_group
                .as_ref()
                .map(|g| g.order.size_hint_bytes()),
            self.share_group.as_ref().map(|g| g.order.size_hint_bytes()),
            self.queue.as_ref().map(QueueLane::size_hint_bytes),
        ];
        logs.chain(orders.into_iter().flatten())
            .fold((0, 0), |(own, shared), (o, s)| (own + o, shared + s))
    }

    pub fn late_reading(&self) -> Option<LateReading> {
        self.late_reading
    }

    /// Keys that moved to another partition when partitions were added.
    pub fn keys_moved(&self) -> Option<u32> {
        self.keys_moved
    }

    pub fn reader_samples(&self) -> &[ReaderSample] {
        &self.reader_samples
    }

    /// The records, shared between clones of the run.
    pub(crate) fn shared_records(&self) -> &Arc<[Record]> {
        &self.records
    }

    /// The fingerprint of the run so far.
    pub fn trace_hash(&self) -> TraceHasher {
        let mut hash = TraceHasher::default();
        for part in [
            self.trace.completions.finish(),
            self.trace.events.finish(),
            self.now_ms,
        ] {
            hash.write_u64(part);
        }
        hash
    }

    /// Runs everything due up to and including `target_ms`.
    pub fn advance_to(&mut self, target_ms: u64) {
        while let Some(due) = self.next_due_ms().filter(|&due| due <= target_ms) {
            self.now_ms = self.now_ms.max(due);
            self.run_tick();
            crate::family::debug_check(self);
        }
        self.now_ms = self.now_ms.max(target_ms);
    }

    /// The next instant anything is due, if anything ever is.
    pub(crate) fn next_due_ms(&self) -> Option<u64> {
        let s = &self.scenario;
        let arrival = self
            .records
            .get(self.arrived)
            .filter(|_| self.pipes.is_empty())
            .map(|r| r.at_ms);
        let repartition = self.repartition_pending.then_some(s.repartition.at_ms);
        let crash = self.crash_pending.then_some(s.crash.at_ms);
        let late = self.late_pending.then_some(s.late_reader.start_ms);
        let lanes = self.lane_dues.as_array();
        let pipes = self
            .pipes
            .iter()
            .filter_map(|p| p.due_ms(&self.records))
            .min();
        let sample = (self.next_sample_ms <= s.duration_ms).then_some(self.next_sample_ms);
        let [consumer_group, share_group, queue] = lanes;
        earliest([
            arrival,
            repartition,
            crash,
            self.restart_at_ms,
            late,
            pipes,
            sample,
            consumer_group,
            share_group,
            queue,
        ])
    }

    fn run_tick(&mut self) {
        let now = self.now_ms;
        self.tick = TickMarks::at_start_of(self);
        // A lane's timers, removals and completions wait only on time and on the scheduled
        // actions; an arriving record can only give its idle consumers something to start.
        let scheduled = self.scheduled(now);
        let due = self.lane_dues.runs_at(now, scheduled);
        self.remove_expired_members(now, due);
        let arrived = self.produce(now);
        let runs = self.lane_dues.runs_at(now, scheduled || arrived);
        self.timers(now, due);
        self.complete(now, due);
        self.start(now, runs);
        self.lane_dues = LaneDues::of_lanes(self, runs, self.lane_dues);
        self.tick_pipes(now);
        self.look_back(now);
        self.watch_backlogs();
        if now == self.next_sample_ms && now <= self.scenario.duration_ms {
            self.sample(now);
            self.next_sample_ms += SAMPLE_INTERVAL_MS;
        }
    }

    fn tell(&mut self, kind: QueuesEventKind) {
        let event = QueuesEvent {
            at_ms: self.now_ms,
            kind,
        };
        self.trace.events.write_json(&event);
        self.events.push(event);
    }

    fn assign_at_start(&mut self) {
        if let Some(event) = self.consumer_group.as_mut().map(|g| g.assign()) {
            self.tell(event);
        }
        if let Some(event) = self.share_group.as_mut().map(|g| g.assign()) {
            self.tell(event);
        }
    }

    /// Partitions added, the crash and the restart, when their time comes. Returns whether
    /// any of them applied (every reader lane then runs all its steps).
    fn scheduled(&mut self, now: u64) -> bool {
        let mut applied = false;
        if self.repartition_pending && now >= self.scenario.repartition.at_ms {
            self.repartition_pending = false;
            self.add_partitions();
            applied = true;
        }
        if self.crash_pending && now >= self.scenario.crash.at_ms {
            self.crash_pending = false;
            self.crash(now);
            applied = true;
        }
        if self.restart_at_ms.is_some_and(|at| at <= now) {
            self.restart_at_ms = None;
            self.restart(now);
            applied = true;
        }
        applied
    }

    fn add_partitions(&mut self) {
        let (from, to) = (
            self.scenario.topic.partitions,
            self.scenario.repartition.new_partitions,
        );
        self.logs.resize(to as usize, ChunkedVec::default());
        let keys = self.scenario.producer.keys;
        let moved = (0..keys)
            .filter(|&k| partition_of(k, from) != partition_of(k, to))
            .count() as u32;
        self.keys_moved = Some(moved);
        self.tell(QueuesEventKind::PartitionsAdded {
            from,
            to,
            keys,
            keys_moved: moved,
        });
        if let Some(event) = self.consumer_group.as_mut().map(|g| g.add_partitions(to)) {
            self.tell(event);
        }
    }

    fn crash(&mut self, now: u64) {
        let id = self.scenario.crash.consumer;
        let session = self.scenario.session_timeout_ms;
        if self.scenario.crash.restart_after_ms > 0 {
            self.restart_at_ms = Some(now + self.scenario.crash.restart_after_ms);
        }
        if let Some(holding) = self
            .consumer_group
            .as_mut()
            .map(|g| g.crash(id, now, session))
        {
            self.tell(QueuesEventKind::ConsumerCrashed {
                reader: Reader::ConsumerGroup,
                consumer: id,
                holding,
            });
        }
        if let Some(holding) = self.share_group.as_mut().map(|g| g.crash(id, now, session)) {
            self.tell(QueuesEventKind::ConsumerCrashed {
                reader: Reader::ShareGroup,
                consumer: id,
                holding,
            });
        }
        let records = Arc::clone(&self.records);
        if let Some((holding, news)) = self
            .queue
            .as_mut()
            .map(|q| q.crash(id, &self.scenario, &records))
        {
            self.tell(QueuesEventKind::ConsumerCrashed {
                reader: Reader::Queue,
                consumer: id,
                holding,
            });
            self.tell_queue_news(news);
        }
        let downs: Vec<QueuesEventKind> = self.pipes.iter_mut().map(|p| p.crash(now)).collect();
        for event in downs {
            self.tell(event);
        }
    }

    fn restart(&mut self, now: u64) {
        let id = self.scenario.crash.consumer;
        if let Some(event) = self.consumer_group.as_mut().map(|g| g.restart(id)) {
            self.tell(QueuesEventKind::ConsumerRestarted {
                reader: Reader::ConsumerGroup,
                consumer: id,
            });
            self.tell(event);
        }
        let records = Arc::clone(&self.records);
        if let Some(news) = self
            .share_group
            .as_mut()
            .map(|g| g.restart(id, &self.scenario, &records, &self.logs))
        {
            self.tell(QueuesEventKind::ConsumerRestarted {
                reader: Reader::ShareGroup,
                consumer: id,
            });
            self.tell_share_news(news);
        }
        if let Some(queue) = self.queue.as_mut() {
            queue.restart(id);
            self.tell(QueuesEventKind::ConsumerRestarted {
                reader: Reader::Queue,
                consumer: id,
            });
        }
        let ups: Vec<QueuesEventKind> = self.pipes.iter_mut().map(|p| p.restart(now)).collect();
        for event in ups {
            self.tell(event);
        }
    }

    fn remove_expired_members(&mut self, now: u64, runs: LaneRuns) {
        let session_timeout_ms = self.scenario.session_timeout_ms;
        if let Some(group) = self.consumer_group.as_mut().filter(|_| runs.consumer_group) {
            let removed = group.remove_expired(now);
            let assigned = (!removed.is_empty()).then(|| group.assign());
            for consumer in removed {
                self.tell(QueuesEventKind::MemberRemoved {
                    reader: Reader::ConsumerGroup,
                    consumer,
                    session_timeout_ms,
                });
            }
            if let Some(event) = assigned {
                self.tell(event);
            }
        }
        let records = Arc::clone(&self.records);
        if let Some(group) = self.share_group.as_mut().filter(|_| runs.share_group) {
            let (removed, news) = group.remove_expired(now, &self.scenario, &records, &self.logs);
            let assigned = (!removed.is_empty()).then(|| group.assign());
            for consumer in removed {
                self.tell(QueuesEventKind::MemberRemoved {
                    reader: Reader::ShareGroup,
                    consumer,
                    session_timeout_ms,
                });
            }
            self.tell_share_news(news);
            if let Some(event) = assigned {
                self.tell(event);
            }
        }
    }

    /// The records produced by `now` go into the topic, the queue or the stream.
    /// Returns whether any record arrived.
    fn produce(&mut self, now: u64) -> bool {
        if !self.pipes.is_empty() {
            return false;
        }
        let before = self.arrived;
        while let Some(record) = self.records.get(self.arrived).copied() {
            if record.at_ms > now {
                break;
            }
            let seq = self.arrived as u32;
            self.arrived += 1;
            if let Some(kinesis) = self.kinesis.as_mut() {
                if let Some(event) = kinesis.put(&record) {
                    self.tell(event);
                }
                continue;
            }
            self.logs[record.partition as usize].push(seq);
            if let Some(queue) = self.queue.as_mut() {
                queue.publish(seq);
            }
        }
        self.arrived > before
    }

    /// Share-group locks that ran out, queue deliveries past `consumer_timeout`.
    fn timers(&mut self, now: u64, runs: LaneRuns) {
        let records = Arc::clone(&self.records);
        if let Some(group) = self.share_group.as_mut().filter(|_| runs.share_group) {
            let mut news = ShareNews::default();
            group.expire_locks(now, &self.scenario, &records, &self.logs, &mut news);
            self.tell_share_news(news);
        }
        if let Some(queue) = self.queue.as_mut().filter(|_| runs.queue) {
            let mut news = QueueNews::default();
            queue.check_timeouts(now, &self.scenario, &records, &mut news);
            self.tell_queue_news(news);
        }
    }

    /// The work that ends at `now`.
    fn complete(&mut self, now: u64, runs: LaneRuns) {
        let records = Arc::clone(&self.records);
        let trace = &mut self.trace.completions;
        if let Some(group) = self.consumer_group.as_mut().filter(|_| runs.consumer_group) {
            let mut fold = |seq| fold_completion(trace, lane_tag::CONSUMER_GROUP, seq, now);
            if let Some(first) = group.complete(now, &self.scenario, &records, &mut fold) {
                self.tell_inversion(Reader::ConsumerGroup, first);
            }
        }
        let trace = &mut self.trace.completions;
        if let Some(group) = self.share_group.as_mut().filter(|_| runs.share_group) {
            let mut news = ShareNews::default();
            let mut fold = |seq| fold_completion(trace, lane_tag::SHARE_GROUP, seq, now);
            group.complete(
                now,
                &self.scenario,
                &records,
                &self.logs,
                &mut news,
                &mut fold,
            );
            self.tell_share_news(news);
        }
        let trace = &mut self.trace.completions;
        if let Some(queue) = self.queue.as_mut().filter(|_| runs.queue) {
            let mut news = QueueNews::default();
            let mut fold = |seq| fold_completion(trace, lane_tag::QUEUE, seq, now);
            queue.complete(now, &self.scenario, &records, &mut news, &mut fold);
            self.tell_queue_news(news);
        }
    }

    /// Idle consumers take new work.
    fn start(&mut self, now: u64, runs: LaneRuns) {
        if let Some(group) = self.consumer_group.as_mut().filter(|_| runs.consumer_group) {
            group.start(now, &self.scenario, &self.logs);
        }
        if let Some(group) = self.share_group.as_mut().filter(|_| runs.share_group) {
            group.start(now, &self.scenario, &self.logs);
        }
        if let Some(queue) = self.queue.as_mut().filter(|_| runs.queue) {
            queue.dispatch_and_start(now, &self.scenario);
        }
    }

    fn tick_pipes(&mut self, now: u64) {
        let mut told = Vec::new();
        for (i, pipe) in self.pipes.iter_mut().enumerate() {
            let trace = &mut self.trace.completions;
            let tag = lane_tag::PIPE_BASE + i as u64;
            let mut fold = |seq| fold_completion(trace, tag, seq, now);
            pipe.tick(now, &self.scenario, &self.records, &mut told, &mut fold);
        }
        for event in told {
            self.tell(event);
        }
    }

    /// The late reader arrives and looks at what is left of the past.
    fn look_back(&mut self, now: u64) {
        if !self.late_pending || now < self.scenario.late_reader.start_ms {
            return;
        }
        self.late_pending = false;
        let produced = self.arrived as u64;
        let oldest_kept_ms = now.saturating_sub(self.scenario.topic.retention_ms);
        let expired = self.records[..self.arrived].partition_point(|r| r.at_ms < oldest_kept_ms);
        let (queue_readable, queue_deleted) = self.queue.as_ref().map_or((0, 0), |q| {
            (q.ready.len() as u64, q.acked + q.dead_lettered)
        });
        let reading = LateReading {
            at_ms: now,
            produced,
            log_readable: produced - expired as u64,
            queue_readable,
            queue_deleted,
        };
        self.late_reading = Some(reading);
        self.tell(QueuesEventKind::LateReaderJoined {
            produced,
            log_readable: reading.log_readable,
            queue_readable,
            queue_deleted,
            retention_ms: self.scenario.topic.retention_ms,
        });
    }

    /// Tells each reader's backlog passing a threshold, once per threshold.
    fn watch_backlogs(&mut self) {
        for (i, reader) in Reader::ALL.into_iter().enumerate() {
            // Checked every tick: the cheap tests come first, the counts only for an event.
            let Some(&threshold) = BACKLOG_THRESHOLDS.get(self.backlog_told[i]) else {
                continue;
            };
            let Some(backlog) = self.backlog_of(reader) else {
                continue;
            };
            if backlog >= threshold {
                let (reading, alive) = self.reading(reader);
                self.backlog_told[i] += 1;
                self.tell(QueuesEventKind::BacklogRising {
                    reader,
                    threshold,
                    backlog,
                    busy: self.busy_of(reader),
                    reading,
                    alive,
                    consumers: self.scenario.consumers,
                    partitions: self.logs.len() as u32,
                });
            }
        }
    }

    /// A reader's backlog, if the run has that reader.
    pub fn backlog_of(&self, reader: Reader) -> Option<u64> {
        let arrived = self.arrived as u64;
        match reader {
            Reader::ConsumerGroup => self.consumer_group.as_ref().map(|g| g.backlog(arrived)),
            Reader::ShareGroup => self.share_group.as_ref().map(|g| g.backlog(arrived)),
            Reader::Queue => self.queue.as_ref().map(|q| q.backlog(arrived)),
        }
    }

    /// A reader's consumers processing a record now (none if the run has no such reader):
    /// counted over every consumer, so only for an event that tells it, not at every tick.
    fn busy_of(&self, reader: Reader) -> u32 {
        match reader {
            Reader::ConsumerGroup => self.consumer_group.as_ref().map_or(0, |g| g.busy()),
            Reader::ShareGroup => self.share_group.as_ref().map_or(0, |g| g.busy()),
            Reader::Queue => self.queue.as_ref().map_or(0, |q| q.busy()),
        }
    }

    /// Live consumers of a reader that have something they may read (for a group, the
    /// members with a partition), and live consumers.
    fn reading(&self, reader: Reader) -> (u32, u32) {
        let count = |alive: &mut dyn Iterator<Item = bool>| {
            let (mut reading, mut live) = (0, 0);
            for has_work in alive {
                live += 1;
                reading += u32::from(has_work);
            }
            (reading, live)
        };
        match reader {
            Reader::ConsumerGroup => self.consumer_group.as_ref().map_or((0, 0), |g| {
                count(
                    &mut g
                        .members
                        .iter()
                        .filter(|m| m.alive)
                        .map(|m| !m.partitions.is_empty()),
                )
            }),
            Reader::ShareGroup => self.share_group.as_ref().map_or((0, 0), |g| {
                count(
                    &mut g
                        .members
                        .iter()
                        .filter(|m| m.alive)
                        .map(|m| !m.partitions.is_empty()),
                )
            }),
            Reader::Queue => self.queue.as_ref().map_or((0, 0), |q| {
                count(&mut q.consumers.iter().filter(|c| c.alive).map(|_| true))
            }),
        }
    }

    /// Records a reader has completed, if the run has that reader.
    pub fn completed_by(&self, reader: Reader) -> Option<u64> {
        match reader {
            Reader::ConsumerGroup => self
                .consumer_group
                .as_ref()
                .map(|g| g.order.completed_count),
            Reader::ShareGroup => self.share_group.as_ref().map(|g| g.order.completed_count),
            Reader::Queue => self.queue.as_ref().map(|q| q.order.completed_count),
        }
    }

    fn sample(&mut self, now: u64) {
        for (i, reader) in Reader::ALL.into_iter().enumerate() {
            let (Some(completed), Some(backlog)) =
                (self.completed_by(reader), self.backlog_of(reader))
            else {
                continue;
            };
            self.reader_samples.push(ReaderSample {
                at_ms: now,
                reader,
                completed_per_s: (completed - self.sampled_completed[i]) * 1000
                    / SAMPLE_INTERVAL_MS,
                backlog,
            });
            self.sampled_completed[i] = completed;
        }
        for pipe in &mut self.pipes {
            pipe.sample(now);
        }
        if let Some(kinesis) = self.kinesis.as_mut() {
            kinesis.sample(now);
        }
    }

    fn tell_inversion(
        &mut self,
        reader: Reader,
        (seq, completion, redelivered): (u32, Completion, bool),
    ) {
        if let Completion::Inverted { after_seq } = completion {
            let cause = if reader == Reader::ConsumerGroup {
                // One member at a time per partition, replays in order: only a key that
                // changed partition can come out of order.
                InversionCause::KeyMoved
            } else if redelivered {
                InversionCause::Redelivery
            } else {
                InversionCause::ParallelConsumers
            };
            self.tell(QueuesEventKind::FirstInversion {
                reader,
                key: self.records[seq as usize].key,
                seq,
                after_seq,
                cause,
            });
        }
    }

    fn tell_share_news(&mut self, news: ShareNews) {
        for event in news.events {
            self.tell(event);
        }
        if let Some(first) = news.first_inversion {
            self.tell_inversion(Reader::ShareGroup, first);
        }
    }

    fn tell_queue_news(&mut self, news: QueueNews) {
        for event in news.events {
            self.tell(event);
        }
        if let Some(first) = news.first_inversion {
            self.tell_inversion(Reader::Queue, first);
        }
    }
}

/// The lanes each mode runs, in the order the figures and the pictures list them.
pub fn pipe_kinds(mode: Mode) -> &'static [PipeKind] {
    match mode {
        Mode::Backpressure => &[
            PipeKind::Drop,
            PipeKind::Buffer,
            PipeKind::Block,
            PipeKind::Log,
        ],
        Mode::Direct => &[PipeKind::Direct, PipeKind::Broker],
        Mode::Readers | Mode::Repartition | Mode::Kinesis => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queues::presets::{queue_redelivery_reorders, share_group_scales_past_partitions};

    /// Every reader finishes a record at the very instant its processing ends, though nothing
    /// else happens then (the next record arrives a second later): the world ticks at each
    /// lane's own due time, not only when records arrive.
    #[test]
    fn each_reader_completes_a_record_the_instant_its_processing_ends() {
        let mut scenario = QueuesScenario::default();
        scenario.producer.records_per_second = 1;
        scenario.consumers = 1;
        let mut world = QueuesWorld::new(scenario.clone()).expect("a valid scenario");
        let first = world.records()[0];
        let done_ms = first.at_ms + super::super::records::processing_ms(&scenario, 0, 1);
        assert!(done_ms % 1_000 != 0, "not on a sample's instant: {done_ms}");
        let completed = |world: &QueuesWorld| Reader::ALL.map(|r| world.completed_by(r));
        world.advance_to(done_ms - 1);
        assert_eq!(completed(&world), [Some(0); 3]);
        world.advance_to(done_ms);
        assert_eq!(completed(&world), [Some(1); 3]);
    }

    /// The queue acts on the crash and the restart at their very instant, though no record
    /// arrives then and no consumer's work ends: the crashed consumer's messages go out to the
    /// other at once (no prefetch limit), and the restarted one is sent its prefetch's worth.
    #[test]
    fn the_queue_redelivers_at_the_instants_of_a_crash_and_a_restart() {
        let mut scenario = QueuesScenario::default();
        scenario.producer.records_per_second = 100;
        scenario.consumers = 2;
        scenario.processing.mean_ms = 200;
        scenario.processing.spread_ms = 0;
        scenario.crash.enabled = true;
        // Records arrive every 10 ms and work ends on the same grid: both instants are quiet.
        scenario.crash.at_ms = 1_001;
        scenario.crash.restart_after_ms = 500;
        let run_to = |scenario: &QueuesScenario, at_ms| {
            let mut world = QueuesWorld::new(scenario.clone()).expect("a valid scenario");
            world.advance_to(at_ms);
            world.queue.expect("the readers mode has a queue")
        };
        scenario.queue.prefetch_count = 0;
        let before = run_to(&scenario, 1_000);
        assert!(
            !before.consumers[0].unacked.is_empty(),
            "the crashed one held messages"
        );
        let crashed = run_to(&scenario, 1_001);
        assert!(
            crashed.ready.is_empty(),
            "{} messages wait",
            crashed.ready.len()
        );
        scenario.queue.prefetch_count = 5;
        let down = run_to(&scenario, 1_500);
        assert!(down.consumers[0].unacked.is_empty() && !down.ready.is_empty());
        let restarted = run_to(&scenario, 1_501);
        assert_eq!(restarted.consumers[0].unacked.len(), 5);
    }

    /// The busy consumers a backlog event names are counted only when it is told, not at
    /// every tick: stepping the run a millisecond at a time, each event's count is the
    /// reader's at that instant.
    #[test]
    fn a_backlog_event_counts_the_consumers_busy_at_its_instant() {
        let mut world = QueuesWorld::new(queue_redelivery_reorders()).expect("a valid preset");
        let mut counts = Vec::new();
        for now_ms in 0..=world.scenario.duration_ms {
            let seen = world.events().len();
            world.advance_to(now_ms);
            for event in world.events().iter_from(seen) {
                let QueuesEventKind::BacklogRising { reader, busy, .. } = event.kind else {
                    continue;
                };
                let lane_busy = match reader {
                    Reader::ConsumerGroup => world.consumer_group.as_ref().map(|g| g.busy()),
                    Reader::ShareGroup => world.share_group.as_ref().map(|g| g.busy()),
                    Reader::Queue => world.queue.as_ref().map(|q| q.busy()),
                };
                assert_eq!(Some(busy), lane_busy, "{reader:?} at {now_ms} ms");
                counts.push(busy);
            }
        }
        counts.sort_unstable();
        counts.dedup();
        assert!(
            counts.len() > 1,
            "the preset's events name different counts: {counts:?}"
        );
    }

    /// A share-group member that has settled its batch and has nothing new to acquire skips
    /// its poll, yet the broker forgets its settled lock batch as when it polled: after every
    /// tick, no live member left idle holds one.
    #[test]
    fn an_idle_share_member_holds_no_lock_batch() {
        let mut world =
            QueuesWorld::new(share_group_scales_past_partitions()).expect("a valid preset");
        let mut idle_seen = 0;
        for now_ms in 0..=world.scenario.duration_ms {
            world.advance_to(now_ms);
            let group = world
                .share_group
                .as_ref()
                .expect("the preset has a share group");
            for (id, member) in group.members.iter().enumerate() {
                let idle = member.alive && member.in_group && member.work.is_none();
                if !idle {
                    continue;
                }
                idle_seen += 1;
                assert!(
                    group.locks.iter().all(|l| l.member != id as u32),
                    "member {id} idle at {now_ms} ms with a lock batch"
                );
            }
        }
        assert!(
            idle_seen > 1_000,
            "members wait for records often: {idle_seen}"
        );
    }

    /// One attempt in fifty fails and the share group releases the record, so about one
    /// acquisition in fifty is a redelivery: counted as such, and first deliveries are not.
    #[test]
    fn the_share_group_counts_redeliveries_alone() {
        let mut world =
            QueuesWorld::new(share_group_scales_past_partitions()).expect("a valid preset");
        world.advance_to(world.scenario.duration_ms);
        let group = world
            .share_group
            .as_ref()
            .expect("the preset has a share group");
        let completed = group.order.completed_count;
        assert!(group.redelivered > 0, "released records come back");
        assert!(
            group.redelivered * 25 < completed,
            "{} redeliveries for {completed} records completed",
            group.redelivered
        );
    }

    /// A share member that dies holding records gives them back when its acquisition lock
    /// runs out (`group.share.record.lock.duration.ms` after the poll that took them), before
    /// the session timeout would remove it: here within 30 s of the crash at 15 s.
    #[test]
    fn a_dead_share_members_records_come_back_when_its_lock_runs_out() {
        let scenario = queue_redelivery_reorders();
        let (crash_ms, lock_ms) = (scenario.crash.at_ms, scenario.share.record_lock_duration_ms);
        let mut world = QueuesWorld::new(scenario).expect("a valid preset");
        world.advance_to(world.scenario.duration_ms);
        let expired: Vec<u64> = (world.events().iter())
            .filter(|e| {
                matches!(e.kind, QueuesEventKind::LocksExpired { consumer: 0, records, .. } if records > 0)
            })
            .map(|e| e.at_ms)
            .collect();
        assert!(!expired.is_empty(), "the dead member's locks run out");
        assert!(
            expired
                .iter()
                .all(|&at| at > crash_ms && at <= crash_ms + lock_ms),
            "expired at {expired:?}, crash at {crash_ms} ms, locks of {lock_ms} ms"
        );
    }
}
