//! The dual-writes comparison: the same updates kept in a database and a search index four
//! ways, side by side on one seed.
//!
//! Requests for a few products arrive at random and a round-robin load balancer spreads them
//! over the application servers. Every request writes the database first: the write takes a
//! hop to reach it, the database commits it (in arrival order: it serializes writes of one
//! row) and appends it to its change log, and the acknowledgement takes a hop back. Then:
//!
//! * **dual write**: the server sends the new value to the index, another hop. If the index
//!   refuses it, the exception goes to the caller and the value is never written again.
//! * **try/catch**: the same write in a try/catch that sends it again after `@Backoff(delay)`,
//!   up to `maxAttempts` in all, and then swallows the failure.
//! * **CDC**: the server writes only the database; a connector reads the change log and a sink
//!   writes each change to the index in commit order ([`Connector`]).
//! * **outbox**: the server writes the row and an outbox row in one transaction; a connector
//!   with Debezium's outbox router publishes the outbox rows from the log, in commit order.
//!
//! Every hop's length and every failure are decided per message ([`super::draws`]), so the
//! lanes see the same world. Two writes of one product sent by two servers can cross on the
//! way to the index: the index then keeps the older value for good, with no error anywhere.

use super::connector::{Connector, SinkRules};
use super::database::{Database, DerivedStore};
use super::draws::{self, hop_ms, index_write_fails, poisson_arrivals, salt};
use super::events::{DatabasesEventKind, FailureOutcome, Lane};
use super::scenario::{DatabasesScenario, SAMPLE_INTERVAL_MS};
use crate::replay::agenda::Agenda;
use crate::replay::chunked::ChunkedVec;
use crate::replay::due::earliest;
use crate::replay::rng::SimRng;
use crate::replay::slots::SharedSlots;
use crate::replay::trace::TraceHasher;
use serde::Serialize;
use std::sync::Arc;

/// How many writes that land out of order each dual-write lane narrates; the rest are counted.
const RACES_TOLD: u32 = 2;

/// One update of one product.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Request {
    pub at_ms: u64,
    pub key: u32,
    pub server: u32,
}

/// Every request of the run; request `i` writes version `i + 1` of its product.
pub fn requests(scenario: &DatabasesScenario) -> Vec<Request> {
    let w = &scenario.writes;
    let mut keys = SimRng::for_stream(scenario.seed, draws::stream::KEYS);
    poisson_arrivals(scenario.seed, w.per_second, scenario.duration_ms)
        .into_iter()
        .enumerate()
        .map(|(i, at_ms)| Request {
            at_ms,
            key: keys.below(u64::from(w.keys.max(1))) as u32,
            server: i as u32 % w.app_servers.max(1),
        })
        .collect()
}

/// Something a message does when it arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The database write reaches the database.
    Commit { req: u32 },
    /// The commit's acknowledgement reaches the server: the dual-write lanes write the index.
    Acked { req: u32 },
    /// An index write reaches the index.
    Landed { lane: Lane, req: u32, attempt: u32 },
    /// The index's refusal reaches the server.
    Refused { lane: Lane, req: u32, attempt: u32 },
    /// The try/catch sends the write again after its back-off.
    Resend { lane: Lane, req: u32, attempt: u32 },
}

/// What a dual-write lane has done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DualCounts {
    pub exceptions: u64,
    pub lost_writes: u64,
    pub retries: u64,
    /// Index writes that succeeded.
    pub applied: u64,
    /// Index writes sent and not yet applied or given up.
    pub in_flight: u64,
}

/// One write's trip, as the race picture draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WriteTrace {
    pub version: u64,
    pub server: u32,
    pub sent_ms: u64,
    pub committed_ms: u64,
    pub applied_ms: u64,
}

/// The first write a lane applied out of order, and the newer one it overwrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RaceTrace {
    pub lane: Lane,
    pub key: u32,
    pub late: WriteTrace,
    pub overwritten: WriteTrace,
}

/// One lane at one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LaneSample {
    /// Products whose index value differs from the database at the sample.
    pub divergent: u32,
    /// The most that differed at once since the previous sample.
    pub peak: u32,
    /// How long the oldest change not yet in the index has waited (connector lanes).
    pub lag_ms: u64,
}

/// Every lane at one instant, for the charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SyncSample {
    pub at_ms: u64,
    pub lanes: [LaneSample; 4],
}

/// The four lanes of one run.
#[derive(Clone, Debug)]
pub struct SyncWorld {
    pub requests: Arc<[Request]>,
    /// Requests arrived so far.
    pub arrived: usize,
    /// Requests whose database commit has been acknowledged.
    pub acked: usize,
    steps: Agenda<Step>,
    pub db: Database,
    /// Each request's LSN once committed (0 before).
    pub commit_lsn: SharedSlots<u64>,
    pub stores: [DerivedStore; 4],
    pub dual: [DualCounts; 2],
    pub connectors: [Connector; 2],
    /// Writes each lane's store received after a newer version of the same product.
    pub out_of_order: [u64; 4],
    pub races: [Option<RaceTrace>; 2],
    pub samples: ChunkedVec<SyncSample>,
    next_sample_ms: u64,
    outage: OutageState,
    told: Told,
}

/// Where the connectors' outage stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OutageState {
    None,
    Pending {
        at_ms: u64,
        back_ms: u64,
    },
    Down {
        since_ms: u64,
        back_ms: u64,
    },
    /// Back; the lanes that have not caught up yet.
    Recovering([bool; 2]),
    Over,
}

/// What has been narrated already, so each story is told once.
#[derive(Clone, Debug, Default)]
struct Told {
    races: [u32; 2],
    failures: [[bool; 3]; 2],
    sink_retry: [bool; 2],
    writes_stopped: bool,
    settled: [bool; 4],
}

impl SyncWorld {
    pub fn new(scenario: &DatabasesScenario) -> Self {
        let requests: Arc<[Request]> = requests(scenario).into();
        let keys = scenario.writes.keys;
        let c = &scenario.connector;
        let delivery = c.pipeline_ms + scenario.network.index_latency_ms;
        let mut phase = SimRng::for_stream(scenario.seed, draws::stream::CONNECTOR_PHASE);
        let mut connector = || {
            let first = 1 + phase.below(c.poll_interval_ms.max(1));
            Connector::new(first, 0, c.poll_interval_ms, delivery)
        };
        let connectors = [connector(), connector()];
        let o = &scenario.outage;
        Self {
            commit_lsn: SharedSlots::filled(requests.len(), 0),
            requests,
            arrived: 0,
            acked: 0,
            steps: Agenda::default(),
            db: Database::new(keys),
            stores: std::array::from_fn(|_| DerivedStore::new(keys, true)),
            dual: Default::default(),
            connectors,
            out_of_order: [0; 4],
            races: [None, None],
            samples: ChunkedVec::default(),
            next_sample_ms: 0,
            outage: if o.enabled {
                OutageState::Pending {
                    at_ms: o.at_ms,
                    back_ms: o.at_ms + o.for_ms,
                }
            } else {
                OutageState::None
            },
            told: Told::default(),
        }
    }

    /// The next instant anything is due.
    pub fn next_due_ms(&self, scenario: &DatabasesScenario) -> Option<u64> {
        let arrival = self.requests.get(self.arrived).map(|r| r.at_ms);
        let step = self.steps.next_at_ms();
        let outage = match self.outage {
            OutageState::Pending { at_ms, .. } => Some(at_ms),
            OutageState::Down { back_ms, .. } => Some(back_ms),
            _ => None,
        };
        let stop = (!self.told.writes_stopped).then_some(scenario.duration_ms);
        let sample = (self.next_sample_ms <= scenario.end_ms()).then_some(self.next_sample_ms);
        let [cdc, outbox] = &self.connectors;
        earliest([
            arrival,
            step,
            outage,
            stop,
            sample,
            cdc.due_ms(),
            outbox.due_ms(),
        ])
    }

    /// Everything due at `now`, in a fixed order: arrivals, then messages in the order they
    /// were sent, the outage, the connectors, the end of writes and settled lanes, a sample.
    pub fn tick(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        while let Some(request) = self.requests.get(self.arrived).copied() {
            if request.at_ms > now {
                break;
            }
            let req = self.arrived as u32;
            self.arrived += 1;
            let n = &scenario.network;
            let hop = hop_ms(
                scenario.seed,
                salt::DB_REQUEST,
                u64::from(req),
                1,
                n.db_latency_ms,
                n.jitter_ms,
            );
            self.schedule(now + hop, Step::Commit { req });
        }
        while let Some((_, step)) = self.steps.pop_due(now) {
            self.handle(step, now, scenario, out, trace);
        }
        self.run_outage(now, out);
        self.run_connectors(now, scenario, out, trace);
        self.settle(now, scenario, out);
        if now >= self.next_sample_ms {
            self.sample(now);
            self.next_sample_ms += SAMPLE_INTERVAL_MS;
        }
    }

    fn schedule(&mut self, at_ms: u64, step: Step) {
        self.steps.schedule(at_ms, step);
    }

    fn handle(
        &mut self,
        step: Step,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        let seed = scenario.seed;
        let n = &scenario.network;
        match step {
            Step::Commit { req } => {
                let key = self.requests[req as usize].key;
                let lsn = self.db.commit(key, u64::from(req) + 1, now);
                self.commit_lsn.set(req as usize, lsn);
                for store in &mut self.stores {
                    store.refresh(key, &self.db);
                }
                let hop = hop_ms(
                    seed,
                    salt::DB_ACK,
                    u64::from(req),
                    1,
                    n.db_latency_ms,
                    n.jitter_ms,
                );
                self.schedule(now + hop, Step::Acked { req });
            }
            Step::Acked { req } => {
                self.acked += 1;
                for lane in [Lane::DualWrite, Lane::TryCatch] {
                    self.dual[lane.index()].in_flight += 1;
                    self.send(lane, req, 1, now, scenario);
                }
            }
            Step::Landed { lane, req, attempt } => {
                if index_write_fails(seed, u64::from(req), attempt, n.index_failure_rate) {
                    let hop = hop_ms(
                        seed,
                        salt::INDEX_RESPONSE,
                        u64::from(req),
                        attempt,
                        n.index_latency_ms,
                        n.jitter_ms,
                    );
                    self.schedule(now + hop, Step::Refused { lane, req, attempt });
                } else {
                    let counts = &mut self.dual[lane.index()];
                    counts.in_flight -= 1;
                    counts.applied += 1;
                    let retry = attempt > 1;
                    self.write_store(lane, u64::from(req) + 1, now, retry, out, trace);
                }
            }
            Step::Refused { lane, req, attempt } => {
                let max_attempts = scenario.retry.max_attempts;
                let retries = lane == Lane::TryCatch && attempt < max_attempts;
                let counts = &mut self.dual[lane.index()];
                counts.exceptions += 1;
                let outcome = if retries {
                    counts.retries += 1;
                    FailureOutcome::Retrying
                } else {
                    counts.lost_writes += 1;
                    counts.in_flight -= 1;
                    if lane == Lane::DualWrite {
                        FailureOutcome::Raised
                    } else {
                        FailureOutcome::GaveUp
                    }
                };
                if retries {
                    let next = attempt + 1;
                    self.schedule(
                        now + scenario.retry.backoff_ms,
                        Step::Resend {
                            lane,
                            req,
                            attempt: next,
                        },
                    );
                }
                let told = &mut self.told.failures[lane.index()][outcome as usize];
                if !*told {
                    *told = true;
                    out.push(DatabasesEventKind::IndexWriteFailed {
                        lane,
                        key: self.requests[req as usize].key,
                        version: u64::from(req) + 1,
                        attempt,
                        max_attempts: if lane == Lane::DualWrite {
                            1
                        } else {
                            max_attempts
                        },
                        backoff_ms: scenario.retry.backoff_ms,
                        outcome,
                    });
                }
            }
            Step::Resend { lane, req, attempt } => self.send(lane, req, attempt, now, scenario),
        }
    }

    /// Sends attempt `attempt` of request `req`'s index write.
    fn send(&mut self, lane: Lane, req: u32, attempt: u32, now: u64, scenario: &DatabasesScenario) {
        let n = &scenario.network;
        let hop = hop_ms(
            scenario.seed,
            salt::INDEX_REQUEST,
            u64::from(req),
            attempt,
            n.index_latency_ms,
            n.jitter_ms,
        );
        self.schedule(now + hop, Step::Landed { lane, req, attempt });
    }

    /// Writes `version` into `lane`'s store, noting a write that lands after a newer one.
    fn write_store(
        &mut self,
        lane: Lane,
        version: u64,
        now: u64,
        retry: bool,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        trace.write_u64(lane.index() as u64);
        trace.write_u64(version);
        trace.write_u64(now);
        let req = (version - 1) as usize;
        let key = self.requests[req].key;
        let store = &mut self.stores[lane.index()];
        let held = store.rows[key as usize].unwrap_or(0);
        let held_written_ms = store.written_ms[key as usize];
        store.write(key, version, now, &self.db);
        let lsn_of = |v: u64| {
            if v == 0 {
                0
            } else {
                self.commit_lsn[(v - 1) as usize]
            }
        };
        if lsn_of(version) >= lsn_of(held) {
            return;
        }
        self.out_of_order[lane.index()] += 1;
        if lane.is_connector() {
            return;
        }
        let i = lane.index();
        if self.races[i].is_none() {
            self.races[i] = Some(RaceTrace {
                lane,
                key,
                late: self.trace_of(version, now),
                overwritten: self.trace_of(held, held_written_ms),
            });
        }
        if self.told.races[i] < RACES_TOLD {
            self.told.races[i] += 1;
            let server = |v: u64| {
                if v == 0 {
                    0
                } else {
                    self.requests[(v - 1) as usize].server
                }
            };
            out.push(DatabasesEventKind::OutOfOrder {
                lane,
                key,
                applied_version: version,
                over_version: held,
                applied_server: server(version),
                over_server: server(held),
                retry,
            });
        }
    }

    fn trace_of(&self, version: u64, applied_ms: u64) -> WriteTrace {
        if version == 0 {
            return WriteTrace {
                version,
                server: 0,
                sent_ms: 0,
                committed_ms: 0,
                applied_ms,
            };
        }
        let req = (version - 1) as usize;
        let request = self.requests[req];
        WriteTrace {
            version,
            server: request.server,
            sent_ms: request.at_ms,
            committed_ms: self.db.change(self.commit_lsn[req]).commit_ms,
            applied_ms,
        }
    }

    /// Stops the connectors when the outage begins and restarts them when it ends; an outage
    /// of 0 ms does both in the same tick (its end is due at the instant it began).
    fn run_outage(&mut self, now: u64, out: &mut Vec<DatabasesEventKind>) {
        if let OutageState::Pending { at_ms, back_ms } = self.outage {
            if now >= at_ms {
                for (c, lane) in self.connectors.iter_mut().zip([Lane::Cdc, Lane::Outbox]) {
                    c.stop();
                    out.push(DatabasesEventKind::ConnectorStopped {
                        lane,
                        behind: c.behind(&self.db),
                    });
                }
                self.outage = OutageState::Down {
                    since_ms: at_ms,
                    back_ms,
                };
            }
        }
        if let OutageState::Down { since_ms, back_ms } = self.outage {
            if now >= back_ms {
                for (c, lane) in self.connectors.iter_mut().zip([Lane::Cdc, Lane::Outbox]) {
                    c.restart(now);
                    out.push(DatabasesEventKind::ConnectorRestarted {
                        lane,
                        behind: c.behind(&self.db),
                        down_ms: now - since_ms,
                    });
                }
                self.outage = OutageState::Recovering([true, true]);
            }
        }
    }

    fn run_connectors(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
        trace: &mut TraceHasher,
    ) {
        let rules = SinkRules {
            seed: scenario.seed,
            failure_rate: scenario.network.index_failure_rate,
            retry_backoff_ms: scenario.connector.retry_backoff_ms,
        };
        for (i, lane) in [Lane::Cdc, Lane::Outbox].into_iter().enumerate() {
            let (landed, retry, caught_up, max_lag_ms) = {
                let connector = &mut self.connectors[i];
                let db = &self.db;
                connector.poll(now, db);
                let mut landed = Vec::new();
                // A change's message is the request that made it, so the sink fails where
                // the dual write failed.
                let retry = connector.sink(
                    now,
                    db,
                    rules,
                    |lsn| db.change(lsn).version - 1,
                    |lsn| landed.push(lsn),
                );
                (
                    landed,
                    retry,
                    connector.caught_up(db),
                    connector.max_applied_lag_ms,
                )
            };
            for lsn in landed {
                let version = self.db.change(lsn).version;
                self.write_store(lane, version, now, false, out, trace);
            }
            if let Some(retry) = retry.filter(|_| !self.told.sink_retry[i]) {
                self.told.sink_retry[i] = true;
                let change = self.db.change(retry.lsn);
                out.push(DatabasesEventKind::SinkRetried {
                    lane,
                    key: change.key,
                    version: change.version,
                    attempt: retry.attempt,
                    wait_ms: retry.wait_ms,
                });
            }
            if let OutageState::Recovering(mut waiting) = self.outage {
                if waiting[i] && caught_up {
                    waiting[i] = false;
                    out.push(DatabasesEventKind::ConnectorCaughtUp { lane, max_lag_ms });
                    self.outage = if waiting.iter().any(|&w| w) {
                        OutageState::Recovering(waiting)
                    } else {
                        OutageState::Over
                    };
                }
            }
        }
    }

    /// Tells the end of writes, then each lane once nothing of it is in flight.
    fn settle(
        &mut self,
        now: u64,
        scenario: &DatabasesScenario,
        out: &mut Vec<DatabasesEventKind>,
    ) {
        if now < scenario.duration_ms {
            return;
        }
        if !self.told.writes_stopped {
            self.told.writes_stopped = true;
            out.push(DatabasesEventKind::WritesStopped {
                writes: self.requests.len() as u64,
                keys: scenario.writes.keys,
            });
        }
        for lane in Lane::ALL {
            if self.told.settled[lane.index()] || !self.lane_idle(lane) {
                continue;
            }
            self.told.settled[lane.index()] = true;
            let (lost_writes, exceptions) = match lane {
                Lane::DualWrite | Lane::TryCatch => {
                    let d = &self.dual[lane.index()];
                    (d.lost_writes, d.exceptions)
                }
                Lane::Cdc | Lane::Outbox => (0, 0),
            };
            out.push(DatabasesEventKind::LaneSettled {
                lane,
                divergent_keys: self.stores[lane.index()].divergent,
                keys: scenario.writes.keys,
                lost_writes,
                exceptions,
                out_of_order: self.out_of_order[lane.index()],
            });
        }
    }

    /// Whether every request has arrived and the lane has nothing left in flight.
    pub fn lane_idle(&self, lane: Lane) -> bool {
        if self.arrived < self.requests.len() || self.db.log.len() < self.requests.len() {
            return false;
        }
        match lane {
            Lane::DualWrite | Lane::TryCatch => {
                self.acked == self.requests.len() && self.dual[lane.index()].in_flight == 0
            }
            Lane::Cdc | Lane::Outbox => self.connector(lane).caught_up(&self.db),
        }
    }

    /// The connector of a connector lane.
    pub fn connector(&self, lane: Lane) -> &Connector {
        &self.connectors[lane.index() - Lane::Cdc.index()]
    }

    fn sample(&mut self, now: u64) {
        let mut lanes = [LaneSample::default(); 4];
        for lane in Lane::ALL {
            let i = lane.index();
            let lag_ms = if lane.is_connector() {
                self.connector(lane).lag_ms(now, &self.db)
            } else {
                0
            };
            let store = &mut self.stores[i];
            lanes[i] = LaneSample {
                divergent: store.divergent,
                peak: store.take_peak(),
                lag_ms,
            };
        }
        self.samples.push(SyncSample { at_ms: now, lanes });
    }

    /// Messages still on their way (for the invariants and the picture).
    pub fn steps_pending(&self) -> usize {
        self.steps.len()
    }
}
