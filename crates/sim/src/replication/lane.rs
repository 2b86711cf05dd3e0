//! One lane: a whole cluster (brokers, controller, the topic's replicas), one producer with
//! one `acks` setting, and a consumer, run on its own event queue.
//!
//! A replication run has three lanes, one per `acks` setting, with the same faults at the same
//! times, so the cost and the safety of each setting are measured on one story. Every message
//! (a produce request, a fetch, their answers) and every timer (a fence, a retry, the ISR
//! check) is an item in the lane's queue, keyed by (time, arrival order); faults come from the
//! scenario's sorted list. At equal times a fault goes first, then queue items in the order
//! they were queued, so a run does not depend on how finely it is advanced.
//!
//! The pieces act on a lane through `impl Lane` blocks in their own files: `producer.rs` (the
//! accumulator, requests, retries), `leader.rs` (the leader's side of produce and fetch, the
//! high watermark), `follower.rs` (the fetch loop and truncation), `controller.rs` (faults,
//! fencing, elections, ISR changes) and `consumer.rs`.

use super::events::{EventKind, ReplicationEvent};
use super::ledger::Ledger;
use super::log::{Entry, ReplicaLog};
use super::scenario::{Acks, Fault, ReplicationScenario};
use crate::replay::agenda::Agenda;
use crate::replay::chunked::ChunkedVec;
use crate::replay::rng::SimRng;
use crate::replay::trace::TraceHasher;
use std::sync::Arc;

/// `replica.fetch.backoff.ms`: how long a follower waits after a fetch that could not reach
/// its leader.
pub const REPLICA_FETCH_BACKOFF_MS: u64 = 1_000;
/// Records in one producer batch: `batch.size` (16 384 bytes) of 100-byte records.
pub const MAX_BATCH_RECORDS: u32 = 160;
/// Records in one fetch response: `replica.fetch.max.bytes` (1 MiB) of 100-byte records.
pub const MAX_FETCH_RECORDS: u64 = 10_000;
/// `metadata.max.age.ms`: the producer refreshes its metadata at least this often.
pub const METADATA_MAX_AGE_MS: u64 = 300_000;
/// How often the consumer reads up to each partition's high watermark.
pub const CONSUMER_POLL_MS: u64 = 100;
/// How often the charts' series are sampled.
pub const SAMPLE_INTERVAL_MS: u64 = 1_000;
/// First random-stream label of the lanes (one stream per lane).
const RNG_STREAM_BASE: u64 = 300;

/// One broker's state, as the world (not the controller) knows it.
#[derive(Clone, Debug, Default)]
pub struct Broker {
    pub up: bool,
    /// Cut off from the other brokers and the controller.
    pub isolated: bool,
    /// Added to each of its follower fetches.
    pub slow_extra_ms: u64,
    /// The controller's view: fenced (no leadership, out of ISRs it is not alone in).
    pub fenced: bool,
    /// Bumped on every crash, restart, isolation and heal, so a fence timer set for an
    /// earlier failure does nothing.
    pub session: u32,
}

/// What a broker believes about a partition (the controller's last word it heard).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub leader: Option<usize>,
    pub epoch: u32,
    pub isr: Vec<usize>,
}

/// What a leader tracks about one follower (Kafka's `Replica` state on the leader).
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// The follower's log end, as its last fetch said; unknown until it fetches.
    pub leo: Option<u64>,
    pub last_caught_up_ms: u64,
    pub last_fetch_leader_leo: u64,
    pub last_fetch_ms: u64,
}

/// A follower fetch the leader holds until it has records (or `replica.fetch.wait.max.ms`).
#[derive(Clone, Copy, Debug)]
pub struct Parked {
    pub follower: usize,
    pub offset: u64,
    pub id: u64,
    /// The follower's fetch generation when it asked.
    pub generation: u32,
}

/// An `acks=all` write waiting for the high watermark.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    pub request: u64,
    /// The offset the high watermark must reach.
    pub required: u64,
    pub expires_ms: u64,
    pub records: u32,
}

/// A replica's state while it leads (lost if its broker crashes).
#[derive(Clone, Debug)]
pub struct LeaderState {
    pub epoch: u32,
    /// Where its epoch began: a follower rejoins the ISR only past it.
    pub epoch_start: u64,
    pub progress: Vec<Progress>,
    pub parked: Vec<Parked>,
    pub pending: Vec<Pending>,
    /// Whether a refused ISR change has been told (once per leadership).
    pub refusal_told: bool,
}

/// One replica of one partition.
#[derive(Clone, Debug)]
pub struct Replica {
    /// Its broker (0-based).
    pub broker: u32,
    pub log: ReplicaLog,
    /// Its high watermark: a leader's own, or what a follower last heard.
    pub hw: u64,
    pub view: View,
    pub lead: Option<LeaderState>,
    /// Bumped whenever its fetch loop starts over, so answers to older fetches are ignored.
    pub fetch_generation: u32,
    /// The leader epoch whose leader last answered this follower with records (its log is
    /// then a prefix of that leader's).
    pub aligned_epoch: Option<u32>,
}

/// One partition: its replicas and the controller's record of it.
#[derive(Clone, Debug)]
pub struct Partition {
    pub id: u32,
    pub reps: Vec<Replica>,
    /// The controller's leader, by replica index.
    pub leader: Option<usize>,
    pub epoch: u32,
    /// The controller's ISR, by replica index, in assignment order.
    pub isr: Vec<usize>,
    /// The replica whose log counts for the ledger: the last leader elected.
    pub source: usize,
    pub offline_since_ms: Option<u64>,
    /// Narration already given in the current run of refusals, failures, deposed acks.
    pub told: Told,
}

/// Which repeated troubles have been told since they last cleared.
#[derive(Clone, Copy, Debug, Default)]
pub struct Told {
    pub not_enough: bool,
    pub after_append: bool,
    pub failed: bool,
    pub deposed: bool,
}

/// The producer's answer from a broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok,
    NotLeader,
    NotEnoughReplicas { isr: u32 },
    NotEnoughReplicasAfterAppend { isr: u32 },
    Disconnected,
}

/// A leader's answer to a fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchAnswer {
    Records {
        from: u64,
        entries: Vec<Entry>,
        hw: u64,
    },
    Diverging {
        epoch: u32,
        end: u64,
    },
    NotLeader,
}

/// A message on the wire or a timer.
#[derive(Clone, Debug)]
pub enum Item {
    /// The application hands the next records to `send()`.
    Send,
    Produce {
        partition: u32,
        to: usize,
        request: u64,
        from_seq: u32,
        to_seq: u32,
    },
    ProduceReply {
        partition: u32,
        from: usize,
        request: u64,
        reply: Reply,
    },
    ProducerWake {
        partition: u32,
    },
    Fetch {
        partition: u32,
        follower: usize,
        leader: usize,
        offset: u64,
        last_epoch: Option<u32>,
        epoch: u32,
        generation: u32,
    },
    FetchReply {
        partition: u32,
        follower: usize,
        generation: u32,
        answer: FetchAnswer,
    },
    FetchWake {
        partition: u32,
        follower: usize,
        generation: u32,
    },
    ParkExpiry {
        partition: u32,
        leader: usize,
        id: u64,
    },
    Fence {
        broker: u32,
        session: u32,
    },
    IsrCheck,
    ConsumerPoll,
    Sample,
    MetadataRefresh,
}

/// Counts a lane keeps beside its ledger.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Records sent again after an error or a timeout.
    pub retries: u64,
    pub not_enough_replicas: u64,
    pub not_enough_replicas_after_append: u64,
    pub request_timeouts: u64,
    pub leader_elections: u64,
    pub unclean_elections: u64,
    pub isr_shrinks: u64,
    pub isr_expands: u64,
    pub truncated_records: u64,
    /// Milliseconds partitions spent without a leader, summed over partitions.
    pub offline_ms: u64,
}

/// One sample of a lane for the charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Sample {
    pub at_ms: u64,
    /// Records acknowledged in the last second.
    pub acknowledged: u64,
    /// The 99th percentile latency of those, if any.
    pub latency_p99_ms: Option<u64>,
    pub acknowledged_then_lost: u64,
    /// Partitions without a leader at the sample.
    pub offline_partitions: u32,
}

/// One lane of a run.
#[derive(Clone, Debug)]
pub struct Lane {
    pub acks: Acks,
    /// `enable.idempotence` as this lane runs it: only with `acks=all`.
    pub idempotent: bool,
    pub(crate) scenario: Arc<ReplicationScenario>,
    pub(crate) faults: Arc<[Fault]>,
    pub(crate) next_fault: usize,
    pub(crate) now_ms: u64,
    queue: Agenda<Item>,
    pub(crate) rng: SimRng,
    pub brokers: Vec<Broker>,
    pub partitions: Vec<Partition>,
    pub producer: super::producer::Producer,
    pub consumer_positions: Vec<u64>,
    pub ledger: Ledger,
    pub stats: Stats,
    pub samples: Vec<Sample>,
    /// Latencies of the records acknowledged since the last sample.
    pub(crate) second: Vec<u64>,
    /// Spans (from, to) when some partition had no leader; the last may be open.
    pub offline_spans: Vec<(u64, Option<u64>)>,
    events: ChunkedVec<ReplicationEvent>,
    pub(crate) trace: TraceHasher,
    pub(crate) next_id: u64,
}

impl Lane {
    /// The lane of `acks` for `scenario` (already validated), at time zero.
    pub fn new(scenario: Arc<ReplicationScenario>, faults: Arc<[Fault]>, acks: Acks) -> Self {
        let brokers = vec![
            Broker {
                up: true,
                ..Broker::default()
            };
            scenario.cluster.brokers as usize
        ];
        let partitions = (0..scenario.topic.partitions)
            .map(|p| new_partition(&scenario, p))
            .collect();
        let lane_index = Acks::ALL_SETTINGS
            .iter()
            .position(|&a| a == acks)
            .unwrap_or(0);
        let mut lane = Self {
            acks,
            idempotent: scenario.producer.enable_idempotence && acks == Acks::All,
            producer: super::producer::Producer::new(&scenario),
            consumer_positions: vec![0; scenario.topic.partitions as usize],
            ledger: Ledger::new(scenario.record_count() as usize),
            rng: SimRng::for_stream(scenario.seed, RNG_STREAM_BASE + lane_index as u64),
            faults,
            next_fault: 0,
            now_ms: 0,
            queue: Agenda::default(),
            brokers,
            partitions,
            stats: Stats::default(),
            samples: Vec::new(),
            second: Vec::new(),
            offline_spans: Vec::new(),
            events: ChunkedVec::default(),
            trace: TraceHasher::default(),
            next_id: 0,
            scenario,
        };
        lane.start();
        lane
    }

    fn start(&mut self) {
        for p in 0..self.partitions.len() {
            self.become_leader(p, 0);
            self.push_views(p);
        }
        if self.scenario.record_count() > 0 {
            self.schedule(0, Item::Send);
        }
        let check = (self.scenario.cluster.replica_lag_time_max_ms / 2).max(1);
        self.schedule(check, Item::IsrCheck);
        self.schedule(CONSUMER_POLL_MS, Item::ConsumerPoll);
        self.schedule(SAMPLE_INTERVAL_MS, Item::Sample);
        self.schedule(METADATA_MAX_AGE_MS, Item::MetadataRefresh);
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn events(&self) -> &ChunkedVec<ReplicationEvent> {
        &self.events
    }

    pub fn scenario(&self) -> &ReplicationScenario {
        &self.scenario
    }

    /// Records handed to `send()` so far.
    pub fn sent(&self) -> u64 {
        self.producer.next_record
    }

    /// The next instant something is due, if anything ever is.
    pub fn next_due_ms(&self) -> Option<u64> {
        let fault = self.faults.get(self.next_fault).map(|f| f.at_ms);
        let message = self.next_message().map(|((at_ms, _), _)| at_ms);
        fault.into_iter().chain(message).min()
    }

    /// The earliest of the agenda's items and the request timeouts, by (due time, number):
    /// `None` for an item of the agenda, `Some(p)` for partition `p`'s timeout.
    fn next_message(&self) -> Option<((u64, u64), Option<usize>)> {
        let item = self.queue.next_key().map(|key| (key, None));
        let timeout = self.next_request_timeout().map(|(key, p)| (key, Some(p)));
        item.into_iter().chain(timeout).min()
    }

    /// Runs everything due up to and including `target_ms`.
    pub fn run_until(&mut self, target_ms: u64) {
        loop {
            let fault = self
                .faults
                .get(self.next_fault)
                .copied()
                .filter(|f| f.at_ms <= target_ms);
            let message = self.next_message().filter(|&((at, _), _)| at <= target_ms);
            match (fault, message) {
                (Some(fault), message) if message.is_none_or(|((at, _), _)| fault.at_ms <= at) => {
                    self.now_ms = self.now_ms.max(fault.at_ms);
                    self.next_fault += 1;
                    self.apply_fault(fault);
                }
                (_, Some(((at, _), timeout))) => {
                    self.now_ms = self.now_ms.max(at);
                    match timeout {
                        Some(p) => self.on_produce_timeout(p),
                        None => {
                            let (_, item) = self.queue.pop_due(target_ms).expect("an item is due");
                            self.handle(item);
                        }
                    }
                }
                _ => break,
            }
        }
        self.now_ms = self.now_ms.max(target_ms);
    }

    fn handle(&mut self, item: Item) {
        match item {
            Item::Send => self.on_send(),
            Item::Produce {
                partition,
                to,
                request,
                from_seq,
                to_seq,
            } => self.on_produce(partition as usize, to, request, (from_seq, to_seq)),
            Item::ProduceReply {
                partition,
                from,
                request,
                reply,
            } => self.on_produce_reply(partition as usize, from, request, reply),
            Item::ProducerWake { partition } => self.pump(partition as usize),
            Item::Fetch {
                partition,
                follower,
                leader,
                offset,
                last_epoch,
                epoch,
                generation,
            } => self.on_fetch(
                partition as usize,
                super::leader::FetchRequest {
                    follower,
                    leader,
                    offset,
                    last_epoch,
                    epoch,
                    generation,
                },
            ),
            Item::FetchReply {
                partition,
                follower,
                generation,
                answer,
            } => self.on_fetch_reply(partition as usize, follower, generation, answer),
            Item::FetchWake {
                partition,
                follower,
                generation,
            } => {
                if self.partitions[partition as usize].reps[follower].fetch_generation == generation
                {
                    self.send_fetch(partition as usize, follower);
                }
            }
            Item::ParkExpiry {
                partition,
                leader,
                id,
            } => self.on_park_expiry(partition as usize, leader, id),
            Item::Fence { broker, session } => self.on_fence_timer(broker, session),
            Item::IsrCheck => self.on_isr_check(),
            Item::ConsumerPoll => self.on_consumer_poll(),
            Item::Sample => self.on_sample(),
            Item::MetadataRefresh => {
                self.refresh_all_metadata();
                self.schedule(self.now_ms + METADATA_MAX_AGE_MS, Item::MetadataRefresh);
            }
        }
    }

    /// Queues `item` for `at_ms`.
    pub(crate) fn schedule(&mut self, at_ms: u64, item: Item) {
        self.queue.schedule(at_ms, item);
    }

    /// A place in the agenda's order for a timer kept beside it (see [`Agenda::take_number`]).
    pub(crate) fn take_agenda_number(&mut self) -> u64 {
        self.queue.take_number()
    }

    /// One network hop from now: between the delay and twice it, as the seed decides.
    pub(crate) fn hop_ms(&mut self) -> u64 {
        let delay = self.scenario.cluster.network_delay_ms;
        self.now_ms + delay + self.rng.below(delay + 1)
    }

    /// Whether brokers `a` and `b` (0-based) can talk: both up, neither cut off.
    pub(crate) fn reachable(&self, a: u32, b: u32) -> bool {
        let (x, y) = (&self.brokers[a as usize], &self.brokers[b as usize]);
        x.up && y.up && (a == b || (!x.isolated && !y.isolated))
    }

    /// Whether broker `b` can talk to the controller.
    pub(crate) fn connected(&self, b: u32) -> bool {
        let broker = &self.brokers[b as usize];
        broker.up && !broker.isolated
    }

    pub(crate) fn tell(&mut self, kind: EventKind) {
        let event = ReplicationEvent {
            at_ms: self.now_ms,
            kind,
        };
        self.trace.write_json(&event);
        self.events.push(event);
    }

    pub(crate) fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The fingerprint of this lane so far.
    pub fn trace_hash(&self) -> TraceHasher {
        let mut hash = self.trace;
        hash.write_u64(self.now_ms);
        hash
    }

    /// Replaces the faults still to come (the caller checked the past is unchanged).
    pub(crate) fn set_faults(&mut self, faults: Arc<[Fault]>, scenario: Arc<ReplicationScenario>) {
        self.faults = faults;
        self.scenario = scenario;
    }

    /// The record the producer sent as partition `partition`'s `seq`-th.
    pub fn record_of(&self, partition: usize, seq: u32) -> u32 {
        self.scenario.record_of(partition, seq)
    }

    /// Partitions without a leader right now.
    pub fn offline_partitions(&self) -> u32 {
        self.partitions
            .iter()
            .filter(|p| p.leader.is_none())
            .count() as u32
    }

    fn on_sample(&mut self) {
        let mut second = std::mem::take(&mut self.second);
        // The standard library's sort for plain integers, not the site's shared routine:
        // this sorts every acknowledgement of a run once, and in WebAssembly the shared
        // routine (a merge sort through a comparator object) made it a tenth of the run.
        second.sort_unstable();
        let p99 = (!second.is_empty()).then(|| {
            let rank = (second.len() * 99).div_ceil(100).max(1);
            second[rank - 1]
        });
        self.samples.push(Sample {
            at_ms: self.now_ms,
            acknowledged: second.len() as u64,
            latency_p99_ms: p99,
            acknowledged_then_lost: self.ledger.acknowledged_then_lost,
            offline_partitions: self.offline_partitions(),
        });
        second.clear();
        self.second = second;
        if self.now_ms + SAMPLE_INTERVAL_MS <= self.scenario.duration_ms {
            self.schedule(self.now_ms + SAMPLE_INTERVAL_MS, Item::Sample);
        }
    }

    /// Opens or closes the offline span as partitions lose or regain their leader.
    pub(crate) fn note_offline(&mut self, partition: usize) {
        let now = self.now_ms;
        let part = &mut self.partitions[partition];
        match (part.leader, part.offline_since_ms) {
            (None, None) => part.offline_since_ms = Some(now),
            (Some(_), Some(since)) => {
                part.offline_since_ms = None;
                self.stats.offline_ms += now - since;
            }
            _ => {}
        }
        let offline = self.offline_partitions() > 0;
        match self.offline_spans.last_mut() {
            Some((_, end @ None)) if !offline => *end = Some(now),
            Some((_, None)) => {}
            _ if offline => self.offline_spans.push((now, None)),
            _ => {}
        }
    }

    /// Milliseconds partitions have spent without a leader by now.
    pub fn offline_ms(&self) -> u64 {
        let open: u64 = self
            .partitions
            .iter()
            .filter_map(|p| p.offline_since_ms)
            .map(|since| self.now_ms - since)
            .sum();
        self.stats.offline_ms + open
    }

    /// The replica logs' entries in shared chunks, which every checkpoint of a run shares:
    /// counted once per run (by the last checkpoint, which holds the most).
    pub fn shared_size_hint_bytes(&self) -> usize {
        let entries: usize = (self.partitions.iter())
            .flat_map(|p| &p.reps)
            .map(|r| r.log.shared_entries())
            .sum();
        entries * std::mem::size_of::<Entry>() + self.events.shared_size_hint_bytes()
    }

    /// Bytes the lane holds of its own, roughly (its replica logs' open chunks, not the
    /// shared ones).
    pub fn size_hint_bytes(&self) -> usize {
        let logs: usize = self
            .partitions
            .iter()
            .flat_map(|p| &p.reps)
            .map(|r| r.log.unshared_entries() * std::mem::size_of::<Entry>())
            .sum();
        logs + self.ledger.size_hint_bytes()
            + self.events.own_size_hint_bytes()
            + self.samples.len() * std::mem::size_of::<Sample>()
            + self.queue.len() * 96
    }
}

fn new_partition(scenario: &ReplicationScenario, p: u32) -> Partition {
    let reps: Vec<Replica> = scenario
        .replicas_of(p)
        .into_iter()
        .map(|broker| Replica {
            broker,
            log: ReplicaLog::default(),
            hw: 0,
            view: View::default(),
            lead: None,
            fetch_generation: 0,
            aligned_epoch: None,
        })
        .collect();
    Partition {
        id: p,
        isr: (0..reps.len()).collect(),
        reps,
        leader: Some(0),
        epoch: 0,
        source: 0,
        offline_since_ms: None,
        told: Told::default(),
    }
}
