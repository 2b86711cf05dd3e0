//! The stream–table lane: orders enriched with their customer's tier from the customer
//! table's changelog, four ways: by processing time and by event time ([`TemporalJoin`]),
//! each in two runs over the same events that differ only in the order they arrive (the
//! first run's interleaving and the rerun's). The lesson's point is counted here: by
//! processing time an order takes whatever version happened to arrive first, so the rerun
//! answers some orders differently; by event time it takes the version valid when the order
//! was placed, and the two runs agree (as long as nothing arrives behind the watermark).

use super::config::{TemporalConfig, TemporalTime};
use super::events::{JoinsEventKind, Run};
use super::inputs::{EnrichInput, Order, TierChange};
use super::scenario::JoinsScenario;
use super::temporal::{TemporalJoin, TemporalOutput};
use super::two_input::Side;
use crate::invariant::Surely;
use serde::Serialize;
use std::sync::Arc;

/// An order's answer: not yet, or the change (by index) whose tier it got, or no row.
pub type Answer = Option<Option<u32>>;

/// One run: an arrival order and the two joins it feeds.
#[derive(Clone, Debug)]
pub struct EnrichRun {
    pub arrivals: Arc<[(u64, EnrichInput)]>,
    next: usize,
    /// Indexed by [`Clock`].
    pub joins: [TemporalJoin<u32, u32, u8>; 2],
    /// Per clock, per order: its answer.
    pub answers: [Vec<Answer>; 2],
    /// Per clock: orders answered, and late orders and changes (event time only).
    pub answered: [u32; 2],
    pub late_orders: u32,
    pub late_changes: u32,
    /// Orders and changes arrived.
    pub orders_arrived: u32,
}

/// Which clock a join follows: its index in per-clock arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Clock {
    Processing = 0,
    Event = 1,
}

impl Clock {
    pub const BOTH: [Clock; 2] = [Clock::Processing, Clock::Event];
}

/// One sample of the lane, for its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EnrichSample {
    pub at_ms: u64,
    /// Orders answered in both runs, and of those enriched differently, per clock.
    pub compared: [u32; 2],
    pub differing: [u32; 2],
}

/// Both runs and the comparison between them.
#[derive(Clone, Debug)]
pub struct EnrichmentLane {
    pub orders: Arc<[Order]>,
    pub changes: Arc<[TierChange]>,
    /// The first run and the rerun.
    pub runs: [EnrichRun; 2],
    /// Per order, the change valid at its time (the ground truth), if any.
    pub valid: Vec<Option<u32>>,
    /// Per clock: orders answered in both runs, and of those answered differently.
    pub compared: [u32; 2],
    pub differing: [u32; 2],
    /// Processing-time answers (first run) that differ from the version valid at the
    /// order's time.
    pub stale_first_run: u32,
    /// Event-time answers (either run) that differ from the valid version.
    pub event_time_wrong: u32,
    told_compared: bool,
    pub samples: Vec<EnrichSample>,
}

impl EnrichRun {
    fn new(scenario: &JoinsScenario, arrivals: Vec<(u64, EnrichInput)>, orders: usize) -> Self {
        let join = |time| {
            TemporalJoin::new(TemporalConfig {
                time,
                max_out_of_orderness_ms: scenario.max_out_of_orderness_ms as i64,
            })
        };
        Self {
            arrivals: arrivals.into(),
            next: 0,
            joins: [join(TemporalTime::Processing), join(TemporalTime::Event)],
            answers: [vec![None; orders], vec![None; orders]],
            answered: [0; 2],
            late_orders: 0,
            late_changes: 0,
            orders_arrived: 0,
        }
    }

    fn due_ms(&self) -> Option<u64> {
        self.arrivals.get(self.next).map(|a| a.0)
    }

    pub fn waiting(&self) -> usize {
        self.joins[Clock::Event as usize].waiting().count()
    }
}

impl EnrichmentLane {
    pub fn new(scenario: &JoinsScenario, orders: Vec<Order>, changes: Vec<TierChange>) -> Self {
        use super::inputs::interleaving;
        let first = interleaving(scenario, &orders, &changes, 0);
        let rerun = interleaving(
            scenario,
            &orders,
            &changes,
            scenario.enrichment.replay_interleaving,
        );
        // Changes are in time order, so per customer the last one at or before the order
        // wins: a binary search in that customer's changes, not a scan of all of them.
        let mut by_customer: crate::replay::sorted_map::SortedMap<u32, Vec<u32>> =
            Default::default();
        for (i, c) in changes.iter().enumerate() {
            by_customer.entry(c.customer).or_default().push(i as u32);
        }
        let valid = orders
            .iter()
            .map(|o| {
                let own = by_customer.get(&o.customer)?;
                let after = own.partition_point(|&i| changes[i as usize].at_ms <= o.at_ms);
                after.checked_sub(1).map(|at| own[at])
            })
            .collect();
        let count = orders.len();
        Self {
            runs: [
                EnrichRun::new(scenario, first, count),
                EnrichRun::new(scenario, rerun, count),
            ],
            orders: orders.into(),
            changes: changes.into(),
            valid,
            compared: [0; 2],
            differing: [0; 2],
            stale_first_run: 0,
            event_time_wrong: 0,
            told_compared: false,
            samples: Vec::new(),
        }
    }

    pub fn due_ms(&self) -> Option<u64> {
        self.runs.iter().filter_map(EnrichRun::due_ms).min()
    }

    pub fn last_arrival_ms(&self) -> u64 {
        self.runs
            .iter()
            .filter_map(|r| r.arrivals.last().map(|a| a.0))
            .max()
            .unwrap_or(0)
    }

    /// Feeds both runs every input that arrives by `now`.
    pub fn arrive(&mut self, now: u64, tell: &mut Vec<JoinsEventKind>, fold: &mut impl FnMut(u64)) {
        for run in [Run::First, Run::Rerun] {
            let r = run as usize;
            let mut outputs = [Vec::new(), Vec::new()];
            while let Some(&(at_ms, input)) = self.runs[r].arrivals.get(self.runs[r].next) {
                if at_ms > now {
                    break;
                }
                fold((r as u64) << 32 | self.runs[r].next as u64);
                self.runs[r].next += 1;
                let (side, key, id, time_ms, value) = match input {
                    EnrichInput::Order(i) => {
                        self.runs[r].orders_arrived += 1;
                        let o = self.orders[i as usize];
                        (Side::Left, o.customer, i, o.at_ms, None)
                    }
                    EnrichInput::Change(i) => {
                        let c = self.changes[i as usize];
                        (Side::Right, c.customer, i, c.at_ms, Some(c.tier))
                    }
                };
                for clock in Clock::BOTH {
                    self.runs[r].joins[clock as usize]
                        .push(
                            side,
                            key,
                            id,
                            time_ms as i64,
                            value,
                            &mut outputs[clock as usize],
                        )
                        .surely("generated times are valid");
                    self.record(run, clock, &mut outputs[clock as usize], tell);
                }
            }
        }
    }

    /// The end of both inputs: every waiting order is answered.
    pub fn finish(&mut self, tell: &mut Vec<JoinsEventKind>) {
        for run in [Run::First, Run::Rerun] {
            for clock in Clock::BOTH {
                let mut out = Vec::new();
                self.runs[run as usize].joins[clock as usize].finish(&mut out);
                self.record(run, clock, &mut out, tell);
            }
        }
        if !self.told_compared {
            self.told_compared = true;
            tell.push(JoinsEventKind::ReplayCompared {
                orders: self.orders.len() as u32,
                processing_differing: self.differing[Clock::Processing as usize],
                event_differing: self.differing[Clock::Event as usize],
            });
        }
    }

    fn record(
        &mut self,
        run: Run,
        clock: Clock,
        out: &mut Vec<TemporalOutput<u32, u32, u8>>,
        tell: &mut Vec<JoinsEventKind>,
    ) {
        let (r, c) = (run as usize, clock as usize);
        for output in out.drain(..) {
            match output {
                TemporalOutput::Late {
                    side, id, time_ms, ..
                } => {
                    let watermark_ms =
                        super::search_click::watermark_ms(self.runs[r].joins[c].watermark());
                    let (order, change) = match side {
                        Side::Left => {
                            self.runs[r].late_orders += 1;
                            (Some(id), None)
                        }
                        Side::Right => {
                            self.runs[r].late_changes += 1;
                            (None, Some(id))
                        }
                    };
                    tell.push(JoinsEventKind::EnrichmentLate {
                        run,
                        order,
                        change,
                        time_ms: time_ms as u64,
                        watermark_ms,
                    });
                }
                TemporalOutput::Answer { left, version, .. } => {
                    let answer = version.map(|v| v.id);
                    self.runs[r].answers[c][left as usize] = Some(answer);
                    self.runs[r].answered[c] += 1;
                    let valid = self.valid[left as usize];
                    match clock {
                        Clock::Processing if run == Run::First && answer != valid => {
                            self.stale_first_run += 1
                        }
                        Clock::Event if answer != valid => self.event_time_wrong += 1,
                        _ => {}
                    }
                    let other = self.runs[1 - r].answers[c][left as usize];
                    if let Some(other) = other {
                        self.compare(clock, left, answer, other, tell);
                    }
                }
            }
        }
    }

    /// Both runs have answered `order` by `clock`.
    fn compare(
        &mut self,
        clock: Clock,
        order: u32,
        answer: Option<u32>,
        other: Option<u32>,
        tell: &mut Vec<JoinsEventKind>,
    ) {
        let c = clock as usize;
        self.compared[c] += 1;
        if answer == other {
            return;
        }
        self.differing[c] += 1;
        if clock == Clock::Processing {
            let tier = |change: Option<u32>| change.map(|i| self.changes[i as usize].tier);
            let (first, rerun) = (
                self.runs[0].answers[c][order as usize].flatten(),
                self.runs[1].answers[c][order as usize].flatten(),
            );
            let o = self.orders[order as usize];
            tell.push(JoinsEventKind::EnrichmentDiffers {
                order,
                customer: o.customer,
                order_ms: o.at_ms,
                first_tier: tier(first),
                rerun_tier: tier(rerun),
                valid_tier: tier(self.valid[order as usize]),
            });
        }
    }

    pub fn sample(&mut self, at_ms: u64) {
        self.samples.push(EnrichSample {
            at_ms,
            compared: self.compared,
            differing: self.differing,
        });
    }
}
