//! The cost meter: what an attempt's settings would cost Inkwell to run, so that "add
//! everything" is not an answer.
//!
//! Three things cost: every consumer (a process to run, busy or idle), every partition (the
//! broker's files, replicas and the coordinator's work per partition) and every megabyte the
//! topic keeps. The prices are the challenge's own round numbers in *credits*, chosen so a
//! consumer costs about as much as the disk that keeps half a minute of Inkwell's events; they
//! are no vendor's price list.
//!
//! What the topic keeps is read off the settings, not the run: once full, a partition holds
//! `retention.ms` of its records plus up to one `log.retention.check.interval.ms` more (the
//! broker deletes at its checks), or `retention.bytes`, whichever is less. A run shorter than
//! the retention never fills the topic, but the settings would: a week of retention costs a
//! week of disk. With neither limit the topic grows for ever and the cost is unbounded.

use super::scenario::{InkwellScenario, RATE_PER_S, RECORD_BYTES, RETENTION_CHECK_INTERVAL_MS};
use serde::Serialize;

/// Credits a consumer costs.
pub const CONSUMER_CREDITS: u64 = 10;
/// Credits a partition costs.
pub const PARTITION_CREDITS: u64 = 2;
/// Credits one megabyte (1 000 000 bytes) of retention costs; a part of one counts whole.
pub const MEGABYTE_CREDITS: u64 = 1;
/// The most an attempt may cost to pass.
pub const BUDGET_CREDITS: u64 = 135;

const MEGABYTE: u64 = 1_000_000;

/// An attempt's cost, item by item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    pub consumers: u64,
    pub partitions: u64,
    /// The most the topic keeps once full; `None` when nothing limits it.
    pub retention_bytes: Option<u64>,
    pub consumer_credits: u64,
    pub partition_credits: u64,
    /// `None` when the retention is unbounded.
    pub retention_credits: Option<u64>,
    /// The sum; `None` when the retention is unbounded.
    pub credits: Option<u64>,
    pub budget_credits: u64,
}

impl Cost {
    pub fn of(scenario: &InkwellScenario) -> Self {
        let consumers = u64::from(scenario.consumers.total());
        let partitions = u64::from(scenario.partitions);
        let retention_bytes = retained_bytes(scenario);
        let consumer_credits = consumers * CONSUMER_CREDITS;
        let partition_credits = partitions * PARTITION_CREDITS;
        let retention_credits = retention_bytes.map(|b| b.div_ceil(MEGABYTE) * MEGABYTE_CREDITS);
        Self {
            consumers,
            partitions,
            retention_bytes,
            consumer_credits,
            partition_credits,
            retention_credits,
            credits: retention_credits.map(|r| consumer_credits + partition_credits + r),
            budget_credits: BUDGET_CREDITS,
        }
    }

    /// Whether the attempt fits the budget.
    pub fn within_budget(&self) -> bool {
        self.credits.is_some_and(|c| c <= self.budget_credits)
    }
}

/// The most the topic holds under `scenario`'s retention at the challenge's produce rate:
/// the smaller of what `retention.ms` (plus one check interval) and `retention.bytes` keep.
pub fn retained_bytes(scenario: &InkwellScenario) -> Option<u64> {
    let record_bytes = u64::from(RECORD_BYTES);
    let by_time = u64::try_from(scenario.retention_ms).ok().map(|ms| {
        let held_ms = ms + u64::from(RETENTION_CHECK_INTERVAL_MS);
        // Whole records: the broker keeps a record or deletes it.
        u64::from(RATE_PER_S) * held_ms / 1000 * record_bytes
    });
    let by_size = u64::try_from(scenario.retention_bytes).ok().map(|bytes| {
        // A partition keeps as many whole records as fit in `retention.bytes`.
        u64::from(scenario.partitions) * (bytes / record_bytes) * record_bytes
    });
    match (by_time, by_size) {
        (Some(t), Some(s)) => Some(t.min(s)),
        (one, other) => one.or(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_keeps_the_time_it_says_plus_one_check_or_the_bytes_it_says() {
        let mut scenario = InkwellScenario::default();
        scenario.retention_ms = 10_000;
        // 15 s of 300 records of 1 000 bytes.
        assert_eq!(retained_bytes(&scenario), Some(4_500_000));
        scenario.retention_bytes = 250_500;
        // Four partitions of 250 whole records each.
        assert_eq!(retained_bytes(&scenario), Some(1_000_000));
        scenario.retention_ms = -1;
        assert_eq!(retained_bytes(&scenario), Some(1_000_000));
        scenario.retention_bytes = -1;
        assert_eq!(retained_bytes(&scenario), None);
    }

    #[test]
    fn every_item_is_priced_and_unbounded_retention_is_never_within_budget() {
        let scenario = InkwellScenario::default();
        let cost = Cost::of(&scenario);
        assert_eq!(cost.consumers, 15);
        // 35 s of events: 10.5 MB, counted as 11.
        assert_eq!(cost.credits, Some(150 + 8 + 11));
        assert!(!cost.within_budget());
        let leaner = InkwellScenario {
            consumers: crate::practice::Consumers {
                recommender: 4,
                ..scenario.consumers.clone()
            },
            ..scenario.clone()
        };
        assert!(Cost::of(&leaner).within_budget());
        let forever = InkwellScenario {
            retention_ms: -1,
            ..scenario
        };
        let cost = Cost::of(&forever);
        assert_eq!(cost.credits, None);
        assert!(!cost.within_budget());
    }
}
