//! Writes to an Amazon Kinesis data stream in provisioned mode: each shard accepts at most
//! 1,000 records and 1 MiB per second; a put beyond either limit is refused with
//! `ProvisionedThroughputExceededException` and counted as throttled.
//!
//! A record goes to the shard whose hash-key range holds its partition key's hash, so all of
//! a key's records land on one shard; the limits are counted per shard over each whole
//! second of simulated time. The producer does not retry here: every refused put is one
//! throttled record (a real producer retries with back-off, which only moves the excess
//! later).

use super::events::{QueuesEventKind, ShardLimit};
use super::records::{shard_of, Record};
use super::scenario::{QueuesScenario, SAMPLE_INTERVAL_MS};
use serde::Serialize;

/// Records a shard accepts per second.
pub const SHARD_RECORDS_PER_S: u32 = 1_000;
/// Bytes a shard accepts per second (1 MiB).
pub const SHARD_BYTES_PER_S: u64 = 1_048_576;

/// One shard's tally.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Shard {
    /// The second being counted (its start, in ms).
    pub second_start_ms: u64,
    pub records_this_second: u32,
    pub bytes_this_second: u64,
    throttle_told: bool,
    pub accepted: u64,
    pub throttled: u64,
}

/// One sample for the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KinesisSample {
    pub at_ms: u64,
    pub accepted_per_s: u64,
    pub throttled_per_s: u64,
}

/// The stream's shards.
#[derive(Clone, Debug)]
pub struct KinesisLane {
    pub shards: Vec<Shard>,
    record_bytes: u64,
    pub throttled_by_records: u64,
    pub throttled_by_bytes: u64,
    pub samples: Vec<KinesisSample>,
    sampled: (u64, u64),
}

impl KinesisLane {
    pub fn new(scenario: &QueuesScenario) -> Self {
        Self {
            shards: vec![Shard::default(); scenario.kinesis.shards as usize],
            record_bytes: u64::from(scenario.producer.record_bytes),
            throttled_by_records: 0,
            throttled_by_bytes: 0,
            samples: Vec::new(),
            sampled: (0, 0),
        }
    }

    /// The producer puts `record`; the event if it is the first refusal of its shard's second.
    pub fn put(&mut self, record: &Record) -> Option<QueuesEventKind> {
        let index = shard_of(record.key, self.shards.len() as u32);
        let shard = &mut self.shards[index as usize];
        let second_start_ms = record.at_ms / 1000 * 1000;
        if second_start_ms != shard.second_start_ms {
            shard.second_start_ms = second_start_ms;
            shard.records_this_second = 0;
            shard.bytes_this_second = 0;
            shard.throttle_told = false;
        }
        let limit = if shard.records_this_second >= SHARD_RECORDS_PER_S {
            Some(ShardLimit::Records)
        } else if shard.bytes_this_second + self.record_bytes > SHARD_BYTES_PER_S {
            Some(ShardLimit::Bytes)
        } else {
            None
        };
        let Some(limit) = limit else {
            shard.records_this_second += 1;
            shard.bytes_this_second += self.record_bytes;
            shard.accepted += 1;
            return None;
        };
        shard.throttled += 1;
        match limit {
            ShardLimit::Records => self.throttled_by_records += 1,
            ShardLimit::Bytes => self.throttled_by_bytes += 1,
        }
        if shard.throttle_told {
            return None;
        }
        shard.throttle_told = true;
        Some(QueuesEventKind::ShardThrottled {
            shard: index,
            second_start_ms,
            accepted_records: shard.records_this_second,
            accepted_bytes: shard.bytes_this_second,
            limit,
        })
    }

    pub fn accepted(&self) -> u64 {
        self.shards.iter().map(|s| s.accepted).sum()
    }

    pub fn throttled(&self) -> u64 {
        self.throttled_by_records + self.throttled_by_bytes
    }

    /// Records a sample at `now_ms`.
    pub fn sample(&mut self, now_ms: u64) {
        let (accepted, throttled) = (self.accepted(), self.throttled());
        let per_s = |count: u64| count * 1000 / SAMPLE_INTERVAL_MS;
        self.samples.push(KinesisSample {
            at_ms: now_ms,
            accepted_per_s: per_s(accepted - self.sampled.0),
            throttled_per_s: per_s(throttled - self.sampled.1),
        });
        self.sampled = (accepted, throttled);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(at_ms: u64, key: u32) -> Record {
        Record {
            at_ms,
            key,
            partition: 0,
        }
    }

    #[test]
    fn a_shard_takes_a_thousand_records_a_second_and_refuses_the_rest() {
        let mut scenario = QueuesScenario::default();
        scenario.kinesis.shards = 1;
        let mut lane = KinesisLane::new(&scenario);
        let told: Vec<_> = (0..1_500)
            .filter_map(|i| lane.put(&record(i * 2 / 3, 7)))
            .collect();
        assert_eq!(lane.accepted(), 1_000);
        assert_eq!(lane.throttled_by_records, 500);
        assert_eq!(told.len(), 1);
        // The next second starts afresh.
        assert!(lane.put(&record(1_000, 7)).is_none());
        assert_eq!(lane.accepted(), 1_001);
    }

    #[test]
    fn large_records_hit_the_byte_limit_first() {
        let mut scenario = QueuesScenario::default();
        scenario.kinesis.shards = 1;
        scenario.producer.record_bytes = 4_096;
        let mut lane = KinesisLane::new(&scenario);
        for i in 0..400 {
            lane.put(&record(i, 1));
        }
        assert_eq!(lane.accepted(), 256);
        assert_eq!(lane.throttled_by_bytes, 144);
    }
}
