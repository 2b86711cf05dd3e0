//! What every recovery model counts the same way: records processed and processed again,
//! records jumped over, failures, and how far the state is from the exact count.
//!
//! The exact count is the ground truth: per key, the records before the job's current
//! positions. It is recounted from the input at every restart (where a wrong restore would
//! show) and moves with the state between restarts (both add one per record processed), so
//! the state's error only ever changes at a restart.

use super::records::{Input, Record};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Records processed, replays included.
    pub processed: u64,
    /// Processings of a record that had been processed before.
    pub reprocessed_records: u64,
    /// Records a restart jumped over: never processed.
    pub skipped_records: u64,
    pub failures: u32,
    pub restarts: u32,
    /// The largest state error found at any restart (0 when every restart was exact).
    pub state_errors: u64,
    /// Per key, the records before the job's current positions.
    pub exact: Vec<u64>,
    /// Per partition, one past the highest offset ever processed.
    processed_high: Vec<u32>,
}

/// What a restart found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restart {
    pub replayed: u64,
    pub skipped: u64,
    pub state_errors: u64,
}

impl Tally {
    pub fn new(keys: usize, partitions: usize) -> Self {
        Self {
            processed: 0,
            reprocessed_records: 0,
            skipped_records: 0,
            failures: 0,
            restarts: 0,
            state_errors: 0,
            exact: vec![0; keys],
            processed_high: vec![0; partitions],
        }
    }

    /// The job counted `record`.
    pub fn processed(&mut self, record: &Record) {
        self.processed += 1;
        self.exact[record.key as usize] += 1;
        let high = &mut self.processed_high[record.partition as usize];
        if record.offset < *high {
            self.reprocessed_records += 1;
        } else {
            *high = record.offset + 1;
        }
    }

    /// Records processed at or past `positions`: the work a restore to them gives up.
    pub fn beyond(&self, positions: &[u32]) -> u64 {
        self.processed_high
            .iter()
            .zip(positions)
            .map(|(&high, &at)| u64::from(high.saturating_sub(at)))
            .sum()
    }

    /// The job restarts at `positions` with `state`: recount the exact state and compare.
    pub fn restarted(&mut self, input: &Input, positions: &[u32], state: &[u64]) -> Restart {
        self.restarts += 1;
        let skipped: u64 = self
            .processed_high
            .iter()
            .zip(positions)
            .map(|(&high, &at)| u64::from(at.saturating_sub(high)))
            .sum();
        // Records jumped over now are behind every later position too: never processed.
        for (high, &at) in self.processed_high.iter_mut().zip(positions) {
            *high = (*high).max(at);
        }
        self.skipped_records += skipped;
        self.exact = input.exact_counts(positions, state.len());
        let state_errors = self
            .exact
            .iter()
            .zip(state)
            .map(|(&exact, &held)| exact.abs_diff(held))
            .sum();
        self.state_errors = self.state_errors.max(state_errors);
        Restart {
            replayed: self.beyond(positions),
            skipped,
            state_errors,
        }
    }
}
