//! The input of a run and the instants it fails, drawn once when the world is built and
//! shared by every recovery model, so the three see the same records and the same crashes.
//!
//! The producer writes evenly spaced records whose keys come from the seeded producer
//! stream; a record's partition is Kafka's default partitioner (murmur2 of the key's bytes),
//! so a key lives in one partition and its count is the number of its records a job has
//! consumed there. Random crash instants come from their own stream, with exponential gaps.

use super::scenario::{CrashMode, EosScenario, MAX_CRASHES};
use crate::queues::records::partition_of;
use crate::replay::rng::SimRng;

/// The producer's random stream (keys).
const PRODUCER_STREAM: u64 = 1;
/// The random crashes' stream.
const CRASH_STREAM: u64 = 2;

/// One input record. Its index in the run's list is its sequence number: the order the
/// producer wrote it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// When the producer writes it, in ms.
    pub at_ms: u64,
    pub key: u32,
    pub partition: u32,
    /// Its offset in its partition.
    pub offset: u32,
}

/// The input topic: every record, and each partition's records by offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub records: Vec<Record>,
    /// Per partition, the sequence numbers of its records in offset order.
    pub logs: Vec<Vec<u32>>,
}

impl Input {
    /// Every record of the run, in the order they are written.
    pub fn generate(scenario: &EosScenario) -> Self {
        let spec = &scenario.input;
        let partitions = spec.partitions.max(1);
        let rate = u64::from(spec.records_per_second.max(1));
        let keys = spec.keys.max(1);
        let key_partition: Vec<u32> = (0..keys).map(|k| partition_of(k, partitions)).collect();
        let mut rng = SimRng::for_stream(scenario.seed, PRODUCER_STREAM);
        let mut logs = vec![Vec::new(); partitions as usize];
        let records = (0..scenario.record_count())
            .map(|i| {
                let key = rng.below(u64::from(keys)) as u32;
                let partition = key_partition[key as usize];
                let log = &mut logs[partition as usize];
                log.push(i as u32);
                Record {
                    at_ms: i * 1000 / rate,
                    key,
                    partition,
                    offset: (log.len() - 1) as u32,
                }
            })
            .collect();
        Self { records, logs }
    }

    /// The record at `offset` of `partition`.
    pub fn at(&self, partition: usize, offset: u32) -> &Record {
        &self.records[self.logs[partition][offset as usize] as usize]
    }

    /// Each partition's end offset at `now_ms`: how many of its records exist by then.
    pub fn log_ends(&self, now_ms: u64) -> Vec<u32> {
        self.logs
            .iter()
            .map(|log| {
                log.partition_point(|&seq| self.records[seq as usize].at_ms <= now_ms) as u32
            })
            .collect()
    }

    /// Per key, the records below `positions` (one next offset per partition): the exact
    /// count a job that consumed exactly those records must hold.
    pub fn exact_counts(&self, positions: &[u32], keys: usize) -> Vec<u64> {
        let mut counts = vec![0; keys];
        for (partition, &end) in positions.iter().enumerate() {
            for &seq in &self.logs[partition][..end as usize] {
                counts[self.records[seq as usize].key as usize] += 1;
            }
        }
        counts
    }
}

/// The instants the job fails, in order, before the run's end.
pub fn crash_times(scenario: &EosScenario) -> Vec<u64> {
    let crash = &scenario.crash;
    match crash.mode {
        CrashMode::None => Vec::new(),
        CrashMode::At => vec![crash.at_ms],
        CrashMode::Random => {
            let mut rng = SimRng::for_stream(scenario.seed, CRASH_STREAM);
            let mean = crash.mean_interval_ms.max(1) as f64;
            let mut times = Vec::new();
            let mut at_ms = 0u64;
            while times.len() < MAX_CRASHES {
                // Exponential gaps (a memoryless failure process); at least 1 ms apart.
                let gap = -mean * libm::log(1.0 - rng.unit_f64());
                at_ms += (gap as u64).max(1);
                if at_ms >= scenario.duration_ms {
                    break;
                }
                times.push(at_ms);
            }
            times
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_up_per_partition_and_keys_keep_their_partition() {
        let input = Input::generate(&EosScenario::default());
        assert_eq!(input.records.len(), 6_000);
        for (p, log) in input.logs.iter().enumerate() {
            for (offset, &seq) in log.iter().enumerate() {
                let record = input.records[seq as usize];
                assert_eq!(record.partition as usize, p);
                assert_eq!(record.offset as usize, offset);
                assert_eq!(record.partition, partition_of(record.key, 4));
            }
        }
        assert!(input.logs.iter().all(|log| !log.is_empty()));
    }

    #[test]
    fn exact_counts_add_up_to_the_records_below_the_positions() {
        let input = Input::generate(&EosScenario::default());
        let ends = input.log_ends(10_000);
        assert_eq!(ends.iter().map(|&e| u64::from(e)).sum::<u64>(), 1_001);
        let counts = input.exact_counts(&ends, 8);
        assert_eq!(counts.iter().sum::<u64>(), 1_001);
    }

    #[test]
    fn random_crashes_come_from_the_seed_and_stay_inside_the_run() {
        let mut scenario = EosScenario::default();
        scenario.crash.mode = CrashMode::Random;
        scenario.crash.mean_interval_ms = 10_000;
        let times = crash_times(&scenario);
        assert!(times.len() >= 2, "{times:?}");
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert!(times.iter().all(|&t| t < scenario.duration_ms));
        assert_eq!(times, crash_times(&scenario));
        scenario.seed = 2;
        assert_ne!(times, crash_times(&scenario));
    }
}
