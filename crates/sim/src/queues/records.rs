//! The records a run produces, and what a record costs to process.
//!
//! The producer sends evenly spaced records (`records_per_second`) whose keys are drawn
//! from the seeded producer stream; every record's partition is Kafka's default
//! partitioner (murmur2 of the key's bytes, modulo the partition count at the instant it is
//! produced), so adding partitions moves keys exactly as a real topic does. All records are
//! drawn when the world is built and shared between its clones.
//!
//! How long an attempt at a record takes, and whether it fails, depend only on the seed, the
//! record and the attempt number (a hash, not a stream), so every reader of the same record
//! pays the same price and a knob of one reader cannot shift another's draws.

use super::scenario::QueuesScenario;
use crate::kafka::partitioner::partition_for_key;
use crate::replay::rng::{unit_hash, SimRng};

/// The producer's random stream (keys).
const PRODUCER_STREAM: u64 = 1;
/// Salts that keep the per-attempt hashes apart.
const PROCESSING_SALT: u64 = 0x51;
const FAILURE_SALT: u64 = 0xFA;
const SHARD_SALT: u64 = 0x5D;

/// One produced record. Its index in the run's record list is its sequence number: the
/// order the producer sent it in, which is also the order of its key's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// When the producer sends it, in ms.
    pub at_ms: u64,
    pub key: u32,
    /// The partition Kafka's partitioner gives it when it is produced.
    pub partition: u32,
}

/// The key's bytes, as the partitioner hashes them: `key-7`.
pub fn key_name(key: u32) -> String {
    format!("key-{key}")
}

/// The partition of `key` among `partitions` (Kafka's murmur2 partitioner).
pub fn partition_of(key: u32, partitions: u32) -> u32 {
    partition_for_key(key_name(key).as_bytes(), partitions)
}

/// Every record of the run, in the order they are sent.
pub fn generate(scenario: &QueuesScenario) -> Vec<Record> {
    let count = scenario.record_count();
    let rate = u64::from(scenario.producer.records_per_second.max(1));
    let keys = scenario.producer.keys.max(1);
    // Each key's partition under both counts, hashed once rather than once per record.
    let before: Vec<u32> = (0..keys)
        .map(|k| partition_of(k, scenario.topic.partitions.max(1)))
        .collect();
    let after: Vec<u32> = (0..keys)
        .map(|k| partition_of(k, scenario.max_partitions().max(1)))
        .collect();
    let mut rng = SimRng::for_stream(scenario.seed, PRODUCER_STREAM);
    (0..count)
        .map(|i| {
            let at_ms = i * 1000 / rate;
            let key = rng.below(u64::from(keys)) as u32;
            let grown = scenario.partitions_at(at_ms) != scenario.topic.partitions;
            let partition = if grown { &after } else { &before }[key as usize];
            Record {
                at_ms,
                key,
                partition,
            }
        })
        .collect()
}

/// How long attempt `attempt` (1 = the first delivery) at record `seq` takes, in ms: the
/// mean plus or minus up to the spread, at least 1 ms.
pub fn processing_ms(scenario: &QueuesScenario, seq: u32, attempt: u32) -> u64 {
    let spec = &scenario.processing;
    let draw = unit_hash(
        scenario.seed,
        u64::from(seq),
        salted(attempt, PROCESSING_SALT),
    );
    // Uniform over the 2·spread + 1 whole milliseconds around the mean.
    let width = 2 * spec.spread_ms + 1;
    let offset = (draw * width as f64) as u64;
    (spec.mean_ms + offset)
        .saturating_sub(spec.spread_ms)
        .max(1)
}

/// Whether attempt `attempt` at record `seq` fails.
pub fn fails(scenario: &QueuesScenario, seq: u32, attempt: u32) -> bool {
    let rate = scenario.processing.failure_rate;
    rate > 0.0 && unit_hash(scenario.seed, u64::from(seq), salted(attempt, FAILURE_SALT)) < rate
}

/// The Kinesis shard a key's records go to among `shards` evenly split shards. Kinesis hashes
/// the partition key with MD5 into a 128-bit hash key and each shard owns a contiguous range
/// of it; a seeded stand-in hash spreads the keys here (see the module's simplifications).
pub fn shard_of(key: u32, shards: u32) -> u32 {
    let position = unit_hash(0, u64::from(key), SHARD_SALT);
    ((position * f64::from(shards)) as u32).min(shards.saturating_sub(1))
}

fn salted(attempt: u32, salt: u64) -> u64 {
    (u64::from(attempt) << 8) | salt
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queues::scenario::Mode;

    #[test]
    fn records_are_evenly_spaced_and_keyed_by_the_seed() {
        let scenario = QueuesScenario::default();
        let records = generate(&scenario);
        assert_eq!(records.len() as u64, scenario.record_count());
        assert_eq!(records[1].at_ms, 5);
        assert!(records.iter().all(|r| r.key < scenario.producer.keys));
        assert_eq!(records, generate(&scenario));
        let mut other = scenario.clone();
        other.seed = 2;
        assert_ne!(records, generate(&other));
    }

    #[test]
    fn a_records_partition_is_kafkas_for_its_key_and_follows_added_partitions() {
        let mut scenario = QueuesScenario::default();
        scenario.mode = Mode::Repartition;
        scenario.repartition.at_ms = 10_000;
        scenario.repartition.new_partitions = 6;
        for record in generate(&scenario) {
            let count = if record.at_ms < 10_000 { 3 } else { 6 };
            assert_eq!(record.partition, partition_of(record.key, count));
        }
    }

    #[test]
    fn processing_times_stay_within_the_spread_and_repeat_per_attempt() {
        let scenario = QueuesScenario::default();
        for seq in 0..2_000 {
            let ms = processing_ms(&scenario, seq, 1);
            assert!((10..=30).contains(&ms), "{ms}");
            assert_eq!(ms, processing_ms(&scenario, seq, 1));
        }
        let mut fast = scenario.clone();
        fast.processing.mean_ms = 1;
        fast.processing.spread_ms = 5;
        assert!((0..500).all(|seq| processing_ms(&fast, seq, 1) >= 1));
    }

    #[test]
    fn failures_follow_the_rate() {
        let mut scenario = QueuesScenario::default();
        assert!(!(0..1_000).any(|seq| fails(&scenario, seq, 1)));
        scenario.processing.failure_rate = 0.25;
        let failed = (0..10_000).filter(|&seq| fails(&scenario, seq, 1)).count();
        assert!((2_200..2_800).contains(&failed), "{failed}");
    }

    #[test]
    fn keys_spread_over_every_shard() {
        let mut seen = [0u32; 4];
        for key in 0..400 {
            seen[shard_of(key, 4) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
    }
}
