//! Flink's interval join (`left.keyBy(..).intervalJoin(right.keyBy(..)).between(lower,
//! upper)`, both bounds inclusive) with the `join` contract's watermark, late events and
//! outer variants: an incremental, deterministic state machine the CLI and the lessons drive
//! one event at a time.
//!
//! # Rules
//!
//! A left event `l` and a right event `r` with equal keys match iff
//! `l.time + lower <= r.time <= l.time + upper`. W is the join's watermark
//! ([`TwoInputWatermark`]: the smaller of the two sides' largest time minus the
//! out-of-orderness).
//!
//! 1. An event with `time < W` (W before it) is late: reported, counted, and otherwise
//!    ignored: it matches nothing and is never reported unmatched.
//! 2. Otherwise it is matched against the other side's held events of its key, one match per
//!    pair, in the order those events arrived; then it is held itself.
//! 3. Then W is updated, and every held event whose expiry time is below W leaves the state,
//!    in order of expiry time, then arrival: a left event at `l.time + upper`, a right one at
//!    `r.time - lower`, the last instants a partner could still have. One that never matched
//!    is reported unmatched when the outer mode asks for its side.
//! 4. [`finish`](IntervalJoin::finish) moves W to plus infinity: everything expires.
//!
//! Rule 1 and rule 3 agree: a held event expires only when every partner it could still
//! meet would be late, so the matches are exactly the pairs among the non-late events, in
//! any arrival order (a test checks it against a batch join).

use super::config::IntervalConfig;
use super::two_input::{Side, TwoInputWatermark};
use crate::window::{EventError, Watermark, MAX_TIME_MS};
use std::collections::BTreeMap;

/// What one step of the join reports, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinOutput<K, I> {
    /// An event behind the watermark, dropped.
    Late {
        side: Side,
        key: K,
        id: I,
        time_ms: i64,
    },
    /// A pair within the interval.
    Match {
        key: K,
        left: I,
        right: I,
        left_time_ms: i64,
        right_time_ms: i64,
    },
    /// An event that expired without a partner (reported only for the sides `outer` asks).
    Unmatched {
        side: Side,
        key: K,
        id: I,
        time_ms: i64,
    },
}

/// Running totals, as the CLI's summary line prints them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JoinSummary {
    /// Every event taken, late ones included.
    pub events: u64,
    pub late: u64,
    /// Match lines (for a temporal join: answers with a version).
    pub matches: u64,
    /// Unmatched lines (for a temporal join: answers without a version).
    pub unmatched: u64,
}

/// An event the join still holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held<I> {
    /// Its position in the input, from 0.
    pub arrival: u64,
    pub id: I,
    pub time_ms: i64,
    /// Whether it has met a partner yet.
    pub matched: bool,
    /// The last instant a partner could have: it leaves the state once W passes this.
    pub expires_ms: i64,
}

/// The interval join; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct IntervalJoin<K, I> {
    config: IntervalConfig,
    watermark: TwoInputWatermark,
    /// Per key, each side's held events in arrival order.
    held: BTreeMap<K, [Vec<Held<I>>; 2]>,
    /// Every held event by (expiry, arrival): the order they leave in.
    expiries: BTreeMap<(i64, u64), (Side, K)>,
    arrivals: u64,
    summary: JoinSummary,
}

impl<K: Ord + Clone, I: Clone> IntervalJoin<K, I> {
    /// A join with nothing held and W at minus infinity. The config must be valid
    /// ([`IntervalConfig::validate`]).
    pub fn new(config: IntervalConfig) -> Self {
        Self {
            config,
            watermark: TwoInputWatermark::new(config.max_out_of_orderness_ms),
            held: BTreeMap::new(),
            expiries: BTreeMap::new(),
            arrivals: 0,
            summary: JoinSummary::default(),
        }
    }

    pub fn config(&self) -> &IntervalConfig {
        &self.config
    }

    pub fn summary(&self) -> JoinSummary {
        self.summary
    }

    pub fn watermark(&self) -> Watermark {
        self.watermark.current()
    }

    pub fn watermarks(&self) -> &TwoInputWatermark {
        &self.watermark
    }

    /// Takes one event in arrival order and appends what it causes: its late report, or its
    /// matches; then the expiries of the watermark's move.
    pub fn push(
        &mut self,
        side: Side,
        key: K,
        id: I,
        time_ms: i64,
        out: &mut Vec<JoinOutput<K, I>>,
    ) -> Result<(), EventError> {
        check_time(&self.watermark, time_ms)?;
        let arrival = self.arrivals;
        self.arrivals += 1;
        self.summary.events += 1;
        if Watermark::At(time_ms) < self.watermark.current() {
            self.summary.late += 1;
            out.push(JoinOutput::Late {
                side,
                key,
                id,
                time_ms,
            });
            // A late event cannot raise its side's largest time: it is below W, which is at
            // most that side's watermark. So nothing else changes.
            return Ok(());
        }
        let matched = self.match_against(side, &key, &id, time_ms, out);
        let expires_ms = match side {
            Side::Left => time_ms + self.config.upper_ms,
            Side::Right => time_ms - self.config.lower_ms,
        };
        self.held.entry(key.clone()).or_default()[side.index()].push(Held {
            arrival,
            id,
            time_ms,
            matched,
            expires_ms,
        });
        self.expiries.insert((expires_ms, arrival), (side, key));
        self.watermark.observe(side, time_ms);
        self.expire(out);
        Ok(())
    }

    /// Ends the input: W becomes plus infinity and every held event expires.
    pub fn finish(&mut self, out: &mut Vec<JoinOutput<K, I>>) {
        self.watermark.finish();
        self.expire(out);
    }

    /// Every held event with its side and key, by key, then side, then arrival.
    pub fn held(&self) -> impl Iterator<Item = (Side, &K, &Held<I>)> + '_ {
        self.held.iter().flat_map(|(key, sides)| {
            Side::BOTH
                .into_iter()
                .flat_map(move |side| sides[side.index()].iter().map(move |h| (side, key, h)))
        })
    }

    /// How many events each side holds.
    pub fn held_counts(&self) -> [usize; 2] {
        let mut counts = [0; 2];
        for (side, _) in self.expiries.values() {
            counts[side.index()] += 1;
        }
        counts
    }

    fn match_against(
        &mut self,
        side: Side,
        key: &K,
        id: &I,
        time_ms: i64,
        out: &mut Vec<JoinOutput<K, I>>,
    ) -> bool {
        let Some(sides) = self.held.get_mut(key) else {
            return false;
        };
        let (lower, upper) = (self.config.lower_ms, self.config.upper_ms);
        let mut matched = false;
        for partner in &mut sides[side.other().index()] {
            let (left_time_ms, right_time_ms) = match side {
                Side::Left => (time_ms, partner.time_ms),
                Side::Right => (partner.time_ms, time_ms),
            };
            if left_time_ms + lower <= right_time_ms && right_time_ms <= left_time_ms + upper {
                matched = true;
                partner.matched = true;
                let (left, right) = match side {
                    Side::Left => (id.clone(), partner.id.clone()),
                    Side::Right => (partner.id.clone(), id.clone()),
                };
                self.summary.matches += 1;
                out.push(JoinOutput::Match {
                    key: key.clone(),
                    left,
                    right,
                    left_time_ms,
                    right_time_ms,
                });
            }
        }
        matched
    }

    /// Removes every held event whose expiry is below W, in order of expiry, then arrival.
    fn expire(&mut self, out: &mut Vec<JoinOutput<K, I>>) {
        let watermark = self.watermark.current();
        while let Some(entry) = self.expiries.first_entry() {
            let &(expires_ms, arrival) = entry.key();
            if watermark <= Watermark::At(expires_ms) {
                break;
            }
            let (side, key) = entry.remove();
            let sides = self.held.get_mut(&key).expect("an expiry names a held key");
            let events = &mut sides[side.index()];
            let at = events
                .binary_search_by_key(&arrival, |h| h.arrival)
                .expect("an expiry names a held event");
            let gone = events.remove(at);
            if sides.iter().all(Vec::is_empty) {
                self.held.remove(&key);
            }
            if !gone.matched && self.config.outer.reports(side) {
                self.summary.unmatched += 1;
                out.push(JoinOutput::Unmatched {
                    side,
                    key,
                    id: gone.id,
                    time_ms: gone.time_ms,
                });
            }
        }
    }
}

/// The contract's limits on an event time, and no event after the end of the input.
pub(crate) fn check_time(watermark: &TwoInputWatermark, time_ms: i64) -> Result<(), EventError> {
    if watermark.is_finished() {
        Err(EventError::Finished)
    } else if time_ms < 0 {
        Err(EventError::NegativeTime { time_ms })
    } else if time_ms > MAX_TIME_MS {
        Err(EventError::TimeTooLarge { time_ms })
    } else {
        Ok(())
    }
}
