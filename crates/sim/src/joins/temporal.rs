//! A stream enriched from a versioned table, the join Flink SQL writes as
//! `JOIN table FOR SYSTEM_TIME AS OF stream.time`: each left event (an order) is answered by
//! one version of its key's row from the right side, the table's changelog (a customer's
//! tier, where a `None` value deletes the row).
//!
//! * **By event time** (a temporal join): the version valid at the left event's time, the
//!   one with the greatest time `<=` it (equal times: the later arrival). The answer waits
//!   until the watermark W (the smaller of both sides') passes the event's time, so every
//!   version that could still apply has arrived; then it is the same whatever order the two
//!   streams were interleaved in. Events behind W are late and dropped, on either side.
//! * **By processing time**: at once, the version of the key that arrived last before the
//!   event, whatever its time. No watermark and nothing late, but the answer depends on which
//!   stream happened to arrive first: replay the same input in another interleaving and it
//!   changes.
//!
//! Answers released by one step come in order of the left event's time, then arrival. State
//! is pruned as W moves: of a key's versions at or before W only the latest can still answer
//! anything, since every left event still to come (or waiting) is at or after W.

use super::config::{TemporalConfig, TemporalTime};
use super::interval::{check_time, JoinSummary};
use super::two_input::{Side, TwoInputWatermark};
use crate::replay::sorted_map::{SortedMap, SortedSet};
use crate::window::{EventError, Watermark};

/// One version of a table row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version<I, V> {
    pub id: I,
    pub time_ms: i64,
    pub arrival: u64,
    /// `None`: the row was deleted (a tombstone).
    pub value: Option<V>,
}

/// What one step of the temporal join reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemporalOutput<K, I, V> {
    /// An event behind the watermark (event time only), dropped.
    Late {
        side: Side,
        key: K,
        id: I,
        time_ms: i64,
    },
    /// A left event with the version that answers it: `None` when the key had no row then,
    /// or its row had been deleted.
    Answer {
        key: K,
        left: I,
        left_time_ms: i64,
        version: Option<Version<I, V>>,
    },
}

/// A left event waiting for the watermark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting<K, I> {
    pub key: K,
    pub id: I,
    pub time_ms: i64,
    pub arrival: u64,
}

/// The temporal join; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct TemporalJoin<K, I, V> {
    config: TemporalConfig,
    watermark: TwoInputWatermark,
    /// Per key, the versions still useful, by (time, arrival). By processing time only the
    /// last arrival is kept.
    versions: SortedMap<K, Vec<Version<I, V>>>,
    /// Left events waiting for W to pass their time, by (time, arrival).
    waiting: SortedMap<(i64, u64), Waiting<K, I>>,
    /// Keys holding more than one version: the only ones pruning can shrink.
    several: SortedSet<K>,
    /// W when the versions were last pruned.
    pruned_at: Watermark,
    arrivals: u64,
    summary: JoinSummary,
}

impl<K: Ord + Clone, I: Clone, V: Clone> TemporalJoin<K, I, V> {
    /// A join with an empty table and nothing waiting. The config must be valid.
    pub fn new(config: TemporalConfig) -> Self {
        Self {
            config,
            watermark: TwoInputWatermark::new(config.max_out_of_orderness_ms),
            versions: SortedMap::new(),
            waiting: SortedMap::new(),
            several: SortedSet::new(),
            pruned_at: Watermark::MinusInfinity,
            arrivals: 0,
            summary: JoinSummary::default(),
        }
    }

    pub fn config(&self) -> &TemporalConfig {
        &self.config
    }

    pub fn summary(&self) -> JoinSummary {
        self.summary
    }

    /// The join's watermark (minus infinity throughout by processing time).
    pub fn watermark(&self) -> Watermark {
        match self.config.time {
            TemporalTime::Event => self.watermark.current(),
            TemporalTime::Processing => Watermark::MinusInfinity,
        }
    }

    /// A left event (`value` ignored) or a version of the right side's row.
    pub fn push(
        &mut self,
        side: Side,
        key: K,
        id: I,
        time_ms: i64,
        value: Option<V>,
        out: &mut Vec<TemporalOutput<K, I, V>>,
    ) -> Result<(), EventError> {
        check_time(&self.watermark, time_ms)?;
        let arrival = self.arrivals;
        self.arrivals += 1;
        self.summary.events += 1;
        match self.config.time {
            TemporalTime::Processing => {
                match side {
                    Side::Left => {
                        let version = self.versions.get(&key).and_then(|v| v.last()).cloned();
                        self.answer(key, id, time_ms, version, out);
                    }
                    Side::Right => {
                        let version = Version {
                            id,
                            time_ms,
                            arrival,
                            value,
                        };
                        self.versions.insert(key, vec![version]);
                    }
                }
                Ok(())
            }
            TemporalTime::Event => {
                if Watermark::At(time_ms) < self.watermark.current() {
                    self.summary.late += 1;
                    out.push(TemporalOutput::Late {
                        side,
                        key,
                        id,
                        time_ms,
                    });
                    return Ok(());
                }
                match side {
                    Side::Left => {
                        let waiting = Waiting {
                            key,
                            id,
                            time_ms,
                            arrival,
                        };
                        self.waiting.insert((time_ms, arrival), waiting);
                    }
                    Side::Right => {
                        let versions = self.versions.entry(key.clone()).or_default();
                        // Arrivals only grow, so the new version goes after every version
                        // at or before its time.
                        let at = versions.partition_point(|v| v.time_ms <= time_ms);
                        versions.insert(
                            at,
                            Version {
                                id,
                                time_ms,
                                arrival,
                                value,
                            },
                        );
                        if versions.len() > 1 {
                            self.several.insert(key);
                        }
                    }
                }
                self.watermark.observe(side, time_ms);
                self.release(out);
                Ok(())
            }
        }
    }

    /// Ends the input: W becomes plus infinity and every waiting left event is answered.
    pub fn finish(&mut self, out: &mut Vec<TemporalOutput<K, I, V>>) {
        self.watermark.finish();
        self.release(out);
    }

    /// The versions each key still holds.
    pub fn versions(&self) -> &SortedMap<K, Vec<Version<I, V>>> {
        &self.versions
    }

    /// Left events waiting for the watermark, by time then arrival.
    pub fn waiting(&self) -> impl Iterator<Item = &Waiting<K, I>> + '_ {
        self.waiting.values()
    }

    /// The version of `key` valid at `time_ms` among those held.
    fn valid_at(&self, key: &K, time_ms: i64) -> Option<Version<I, V>> {
        let versions = self.versions.get(key)?;
        let after = versions.partition_point(|v| v.time_ms <= time_ms);
        after.checked_sub(1).map(|at| versions[at].clone())
    }

    /// Answers every waiting event that W has passed, then prunes what no answer can need.
    fn release(&mut self, out: &mut Vec<TemporalOutput<K, I, V>>) {
        let watermark = self.watermark.current();
        while let Some((&(time_ms, _), _)) = self.waiting.first_key_value() {
            if watermark <= Watermark::At(time_ms) {
                break;
            }
            let (_, waiting) = self.waiting.pop_first().expect("it has a first entry");
            let version = self.valid_at(&waiting.key, waiting.time_ms);
            self.answer(waiting.key, waiting.id, waiting.time_ms, version, out);
        }
        self.prune(watermark);
    }

    fn answer(
        &mut self,
        key: K,
        left: I,
        left_time_ms: i64,
        version: Option<Version<I, V>>,
        out: &mut Vec<TemporalOutput<K, I, V>>,
    ) {
        let version = version.filter(|v| v.value.is_some());
        if version.is_some() {
            self.summary.matches += 1;
        } else {
            self.summary.unmatched += 1;
        }
        out.push(TemporalOutput::Answer {
            key,
            left,
            left_time_ms,
            version,
        });
    }

    /// Drops, for every key, the versions before its latest one at or before W (when W has
    /// moved since the last time).
    fn prune(&mut self, watermark: Watermark) {
        if watermark == self.pruned_at {
            return;
        }
        self.pruned_at = watermark;
        let Watermark::At(watermark_ms) = watermark else {
            if watermark == Watermark::PlusInfinity {
                self.versions.clear();
                self.several.clear();
            }
            return;
        };
        let versions = &mut self.versions;
        self.several.retain(|key| {
            let Some(versions) = versions.get_mut(key) else {
                return false;
            };
            let at_or_before = versions.partition_point(|v| v.time_ms <= watermark_ms);
            if at_or_before > 1 {
                versions.drain(..at_or_before - 1);
            }
            versions.len() > 1
        });
    }
}
