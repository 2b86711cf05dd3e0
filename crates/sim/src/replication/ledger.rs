//! The ledger: what became of every record the application sent, judged against the log that
//! counts.
//!
//! The log that counts for a partition is its current leader's (the replica the controller
//! last elected, even while it is down and the partition offline: if it comes back, so does
//! its log). A record's *presence* is how many copies of it that log holds. From presence and
//! what the producer was told, the ledger keeps its counts as things happen, never by
//! recounting:
//!
//! * `acknowledged_then_lost`: the producer was told the record was written (its callback
//!   reported success), and the log that counts does not hold it. A record acknowledged by a
//!   leader that has since been replaced without it is lost from the moment of the election;
//!   one acknowledged by a leader that was already replaced is lost when acknowledged.
//! * `duplicates`: copies beyond the first in the log that counts (a retry written twice).
//! * `consumed_then_lost`: the consumer read it, and the log no longer holds it.
//!
//! With `acks=0` the callback reports success as the record leaves the producer; the ledger
//! judges such a record only once it has reached a broker or failed to (it *landed*), so a
//! record still on the wire is not counted lost.

const ACKED: u8 = 1;
const FAILED: u8 = 2;
const LANDED: u8 = 4;
const CONSUMED: u8 = 8;

/// Every record's fate in one lane.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    flags: Vec<u8>,
    presence: Vec<u16>,
    pub acknowledged: u64,
    pub failed: u64,
    pub acknowledged_then_lost: u64,
    pub duplicates: u64,
    pub consumed: u64,
    pub consumed_then_lost: u64,
    /// Acknowledged records by their latency in ms, exact: (latency, records), by latency. A
    /// sorted list rather than a map because every checkpoint clones the ledger, and a list
    /// is copied in one block where a map allocates node by node (most of a clone's cost).
    latencies: Vec<(u64, u64)>,
    /// Scratch for [`Ledger::acknowledge_batch`]: latencies the histogram lacks. Empty between
    /// calls, so a clone copies nothing of it.
    new_latencies: Vec<u64>,
}

impl Ledger {
    pub fn new(records: usize) -> Self {
        Self {
            flags: vec![0; records],
            presence: vec![0; records],
            ..Self::default()
        }
    }

    fn has(&self, record: u32, flag: u8) -> bool {
        self.flags[record as usize] & flag != 0
    }

    /// Whether `record` counts as acknowledged and lost.
    fn lost(&self, record: u32) -> bool {
        self.has(record, ACKED) && self.has(record, LANDED) && self.presence[record as usize] == 0
    }

    fn consumed_lost(&self, record: u32) -> bool {
        self.has(record, CONSUMED) && self.presence[record as usize] == 0
    }

    /// Applies `change` to `record`, keeping the lost counts in step.
    fn update(&mut self, record: u32, change: impl FnOnce(&mut Self)) {
        let (lost, consumed_lost) = (self.lost(record), self.consumed_lost(record));
        change(self);
        let (lost_now, consumed_lost_now) = (self.lost(record), self.consumed_lost(record));
        adjust(&mut self.acknowledged_then_lost, lost, lost_now);
        adjust(
            &mut self.consumed_then_lost,
            consumed_lost,
            consumed_lost_now,
        );
    }

    pub fn is_acked(&self, record: u32) -> bool {
        self.has(record, ACKED)
    }

    pub fn is_settled(&self, record: u32) -> bool {
        self.has(record, ACKED | FAILED)
    }

    pub fn presence(&self, record: u32) -> u16 {
        self.presence[record as usize]
    }

    /// Whether the producer was told `record` was written and the log that counts lacks it.
    pub fn is_lost(&self, record: u32) -> bool {
        self.lost(record)
    }

    /// The producer's callbacks for one batch reported success: each record with its latency
    /// since `send()`. A batch's latencies are new values at once when it waited out a
    /// failover (hundreds, one per record), so they join the histogram in one merge, not one
    /// insertion each.
    pub fn acknowledge_batch(&mut self, acks: impl IntoIterator<Item = (u32, u64)>) {
        let mut new_latencies = std::mem::take(&mut self.new_latencies);
        for (record, latency_ms) in acks {
            if self.is_settled(record) {
                continue;
            }
            self.acknowledged += 1;
            match (self.latencies).binary_search_by_key(&latency_ms, |&(latency_ms, _)| latency_ms)
            {
                Ok(found) => self.latencies[found].1 += 1,
                Err(_) => new_latencies.push(latency_ms),
            }
            self.update(record, |l| l.flags[record as usize] |= ACKED);
        }
        merge_counts(&mut self.latencies, &mut new_latencies);
        new_latencies.clear();
        self.new_latencies = new_latencies;
    }

    /// The producer's callback reported an error.
    pub fn fail(&mut self, record: u32) {
        if self.is_settled(record) {
            return;
        }
        self.failed += 1;
        self.flags[record as usize] |= FAILED;
    }

    /// The record reached a broker, or was refused by one, or died on the way.
    pub fn land(&mut self, record: u32) {
        self.update(record, |l| l.flags[record as usize] |= LANDED);
    }

    /// The consumer read it.
    pub fn consume(&mut self, record: u32) {
        if self.has(record, CONSUMED) {
            return;
        }
        self.consumed += 1;
        self.update(record, |l| l.flags[record as usize] |= CONSUMED);
    }

    /// One more copy of `record` in the log that counts.
    pub fn add_copy(&mut self, record: u32) {
        if self.presence[record as usize] >= 1 {
            self.duplicates += 1;
        }
        self.update(record, |l| l.presence[record as usize] += 1);
    }

    /// One copy fewer.
    pub fn remove_copy(&mut self, record: u32) {
        if self.presence[record as usize] >= 2 {
            self.duplicates -= 1;
        }
        self.update(record, |l| l.presence[record as usize] -= 1);
    }

    /// The latency below which `per_mille`/1000 of the acknowledged records fall (the
    /// nearest-rank percentile), 0 when none is acknowledged.
    pub fn latency_percentile_ms(&self, per_mille: u64) -> u64 {
        percentile(&self.latencies, self.acknowledged, per_mille)
    }

    pub fn latency_max_ms(&self) -> u64 {
        self.latencies
            .last()
            .map_or(0, |&(latency_ms, _)| latency_ms)
    }

    /// The latency histogram: (latency in ms, records), by latency.
    pub fn latency_histogram(&self) -> Vec<(u64, u64)> {
        self.latencies.clone()
    }

    /// Counts recomputed from the flags and presences (for tests): acknowledged, lost,
    /// duplicates, consumed and lost.
    pub fn recount(&self) -> (u64, u64, u64, u64) {
        let records = 0..self.flags.len() as u32;
        let acked = records.clone().filter(|&r| self.has(r, ACKED)).count() as u64;
        let lost = records.clone().filter(|&r| self.lost(r)).count() as u64;
        let duplicates = self
            .presence
            .iter()
            .map(|&p| u64::from(p.saturating_sub(1)))
            .sum();
        let consumed_lost = records.filter(|&r| self.consumed_lost(r)).count() as u64;
        (acked, lost, duplicates, consumed_lost)
    }

    /// Bytes this ledger holds, roughly.
    pub fn size_hint_bytes(&self) -> usize {
        self.flags.len() * 3 + self.latencies.len() * 32
    }
}

/// Adds `values` (none of them in `histogram`, in any order, repeats allowed) to `histogram`,
/// a list of (value, count) by value, in one pass from its end.
fn merge_counts(histogram: &mut Vec<(u64, u64)>, values: &mut [u64]) {
    if values.is_empty() {
        return;
    }
    // A batch's latencies fall record by record (each later record waited less), so the
    // values usually come largest first.
    values.reverse();
    if !values.is_sorted() {
        crate::replay::sort::sort(values);
    }
    let mut runs: Vec<(u64, u64)> = Vec::with_capacity(values.len());
    for &value in values.iter() {
        match runs.last_mut() {
            Some((last, count)) if *last == value => *count += 1,
            _ => runs.push((value, 1)),
        }
    }
    let mut kept = histogram.len();
    histogram.resize(kept + runs.len(), (0, 0));
    for write in (0..histogram.len()).rev() {
        let Some(&run) = runs.last() else { break };
        if kept > 0 && histogram[kept - 1].0 > run.0 {
            kept -= 1;
            histogram[write] = histogram[kept];
        } else {
            histogram[write] = run;
            runs.pop();
        }
    }
}

fn adjust(count: &mut u64, before: bool, after: bool) {
    match (before, after) {
        (false, true) => *count += 1,
        (true, false) => *count -= 1,
        _ => {}
    }
}

/// The nearest-rank percentile of a histogram of (value, count) by value, holding `total`
/// values.
pub fn percentile(histogram: &[(u64, u64)], total: u64, per_mille: u64) -> u64 {
    if total == 0 {
        return 0;
    }
    let rank = (total * per_mille).div_ceil(1000).max(1);
    let mut seen = 0;
    for &(value, count) in histogram {
        seen += count;
        if seen >= rank {
            return value;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_acknowledged_then_missing_from_the_log_counts_as_lost() {
        let mut ledger = Ledger::new(3);
        ledger.add_copy(0);
        ledger.land(0);
        ledger.acknowledge_batch([(0, 4)]);
        assert_eq!(ledger.acknowledged_then_lost, 0);
        // A new leader without it.
        ledger.remove_copy(0);
        assert_eq!(ledger.acknowledged_then_lost, 1);
        // An acknowledgement from a leader that no longer counts: lost at once.
        ledger.land(1);
        ledger.acknowledge_batch([(1, 2)]);
        assert_eq!(ledger.acknowledged_then_lost, 2);
        assert_eq!(ledger.recount(), (2, 2, 0, 0));
    }

    #[test]
    fn an_unlanded_acks_0_record_is_not_yet_judged() {
        let mut ledger = Ledger::new(1);
        ledger.acknowledge_batch([(0, 0)]);
        assert_eq!(ledger.acknowledged_then_lost, 0);
        ledger.land(0);
        assert_eq!(ledger.acknowledged_then_lost, 1, "it reached a dead broker");
    }

    #[test]
    fn copies_beyond_the_first_are_duplicates() {
        let mut ledger = Ledger::new(2);
        ledger.add_copy(1);
        ledger.add_copy(1);
        ledger.add_copy(1);
        assert_eq!(ledger.duplicates, 2);
        ledger.remove_copy(1);
        assert_eq!(ledger.duplicates, 1);
        ledger.consume(1);
        ledger.remove_copy(1);
        ledger.remove_copy(1);
        assert_eq!(ledger.consumed_then_lost, 1);
        assert_eq!(ledger.recount(), (0, 0, 0, 1));
    }

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let mut ledger = Ledger::new(100);
        for r in 0..100 {
            ledger.acknowledge_batch([(r, u64::from(r) + 1)]);
        }
        assert_eq!(ledger.latency_percentile_ms(500), 50);
        assert_eq!(ledger.latency_percentile_ms(990), 99);
        assert_eq!(ledger.latency_max_ms(), 100);
        assert_eq!(Ledger::new(0).latency_percentile_ms(990), 0);
    }

    #[test]
    fn latencies_acknowledged_in_any_order_make_one_sorted_histogram() {
        let mut ledger = Ledger::new(8);
        for (record, latency_ms) in [(0, 40), (1, 7), (2, 40), (3, 900), (4, 7), (5, 12), (6, 7)] {
            ledger.acknowledge_batch([(record, latency_ms)]);
        }
        assert_eq!(
            ledger.latency_histogram(),
            [(7, 3), (12, 1), (40, 2), (900, 1)]
        );
        assert_eq!(ledger.latency_percentile_ms(500), 12);
        assert_eq!(ledger.latency_percentile_ms(1000), 900);
        assert_eq!(ledger.latency_max_ms(), 900);
    }

    /// A failover's batch brings many new latencies at once, newest record (shortest wait)
    /// last, some equal, some already counted, some between counted ones: the histogram is
    /// what counting every latency so far gives.
    #[test]
    fn a_batch_of_latencies_makes_the_histogram_a_recount_makes() {
        let batches: [&[u64]; 4] = [
            &[40, 12, 12, 7],
            &[900, 41, 40, 39, 12, 6, 6],
            &[5, 950, 3, 41],
            &[1_000, 999, 905, 903, 901, 899, 41, 2],
        ];
        let mut by_batch = Ledger::new(32);
        let mut counted = std::collections::BTreeMap::<u64, u64>::new();
        let mut record = 0;
        for batch in batches {
            let acks: Vec<(u32, u64)> = batch
                .iter()
                .map(|&latency| {
                    record += 1;
                    (record, latency)
                })
                .collect();
            for &latency in batch {
                *counted.entry(latency).or_default() += 1;
            }
            by_batch.acknowledge_batch(acks);
            let expected: Vec<(u64, u64)> = counted.iter().map(|(&l, &n)| (l, n)).collect();
            assert_eq!(by_batch.latency_histogram(), expected);
        }
        assert_eq!(
            by_batch.latency_histogram(),
            [
                (2, 1),
                (3, 1),
                (5, 1),
                (6, 2),
                (7, 1),
                (12, 3),
                (39, 1),
                (40, 2),
                (41, 3),
                (899, 1),
                (900, 1),
                (901, 1),
                (903, 1),
                (905, 1),
                (950, 1),
                (999, 1),
                (1_000, 1)
            ]
        );
        assert_eq!(by_batch.acknowledged, 23);
    }

    #[test]
    fn a_settled_record_is_not_settled_again() {
        let mut ledger = Ledger::new(1);
        ledger.fail(0);
        ledger.acknowledge_batch([(0, 3)]);
        assert_eq!((ledger.failed, ledger.acknowledged), (1, 0));
    }
}
