//! The producer: when records are sent, which key each carries, and which partition it lands in.
//!
//! A sent record waits `linger.ms` in the producer's buffer (it is "in flight", drawn between
//! the producer and its partition) and is then appended. Sends are evenly spaced at `rate_per_s` (record `i` is sent at `i * 1000 / rate` ms, exact
//! integer math). Keys follow a Zipf law over `key_count` keys so one hot key can dominate; a
//! keyed record goes where Kafka's default partitioner sends it (murmur2 of the key bytes,
//! positive, modulo the partition count). Null-key records follow a simplified version of
//! Kafka's uniform sticky partitioner (KIP-794): a run of records sticks to one partition, then
//! a seeded random pick chooses the next one. Kafka switches after `batch.size` bytes; the
//! playground switches after [`NULL_KEY_BATCH_RECORDS`] records, and the UI says so.

use crate::kafka::key_draw::KeyDraw;
use crate::kafka::partitioner::partition_for_key;
use crate::kafka::scenario::ProducerConfig;
use crate::kafka::topic::{Record, Topic, NULL_KEY};
use crate::replay::rng::{stream, SimRng};
use std::collections::VecDeque;
use std::sync::Arc;

/// How many null-key records go to one partition before the sticky partitioner moves on.
pub const NULL_KEY_BATCH_RECORDS: u32 = 16;

/// The bytes of key number `index`, as the partitioner hashes them.
pub fn key_bytes(index: u32) -> Vec<u8> {
    format!("key-{index}").into_bytes()
}

/// The producer's state between steps.
#[derive(Clone, Debug)]
pub struct Producer {
    rate_per_s: u32,
    linger_ms: u32,
    /// Records sent so far; record `sent` is the next one.
    sent: u64,
    /// The Zipf law's key draw.
    keys: KeyDraw,
    /// The partition of every key, computed once and shared by every clone.
    key_partition: Arc<[u32]>,
    partition_count: u32,
    sticky_partition: u32,
    sticky_left: u32,
    /// Sent records waiting out `linger.ms`, oldest first, with their partition.
    in_flight: VecDeque<(u32, Record)>,
    rng: SimRng,
}

impl Producer {
    pub fn new(config: &ProducerConfig, partition_count: u32, seed: u64) -> Self {
        let key_partition = (0..config.key_count)
            .map(|k| partition_for_key(&key_bytes(k), partition_count))
            .collect();
        Self {
            rate_per_s: config.rate_per_s,
            linger_ms: config.linger_ms,
            sent: 0,
            keys: KeyDraw::new(zipf_cdf(config.key_count, config.key_skew)),
            key_partition,
            partition_count,
            sticky_partition: 0,
            sticky_left: 0,
            in_flight: VecDeque::new(),
            rng: SimRng::for_stream(seed, stream::PRODUCER),
        }
    }

    /// Records sent so far.
    pub fn sent(&self) -> u64 {
        self.sent
    }

    pub fn rate_per_s(&self) -> u32 {
        self.rate_per_s
    }

    /// When the next record will be sent, or `u64::MAX` if the producer is silent.
    pub fn next_send_ms(&self) -> u64 {
        send_time_ms(self.sent, self.rate_per_s)
    }

    /// Sent records not yet appended, oldest first, with their partition.
    pub fn in_flight(&self) -> impl Iterator<Item = &(u32, Record)> {
        self.in_flight.iter()
    }

    /// When the next buffered record is due to be appended, or `u64::MAX`.
    pub fn next_append_ms(&self) -> u64 {
        self.in_flight
            .front()
            .map_or(u64::MAX, |(_, r)| r.append_ms())
    }

    /// Sends every record due at or before `now_ms` into the buffer.
    pub fn send_due(&mut self, now_ms: u64) {
        loop {
            let send_ms = self.next_send_ms();
            if send_ms > now_ms {
                break;
            }
            let key = self.draw_key();
            let partition = self.partition_of(key);
            let record = Record {
                key,
                send_ms,
                linger_ms: self.linger_ms,
            };
            self.in_flight.push_back((partition, record));
            self.sent += 1;
        }
    }

    /// Appends every buffered record due at or before `now_ms` to its partition;
    /// `on_append(partition, offset, key)` sees each one (the trace folds them in).
    pub fn append_due(
        &mut self,
        now_ms: u64,
        topic: &mut Topic,
        mut on_append: impl FnMut(u32, u64, u32),
    ) {
        // Linger is the same for every record, so the buffer is already in append order.
        while let Some(&(partition, record)) = self.in_flight.front() {
            if record.append_ms() > now_ms {
                break;
            }
            self.in_flight.pop_front();
            let offset = topic.partitions[partition as usize].append(record);
            on_append(partition, offset, record.key);
        }
    }

    fn draw_key(&mut self) -> u32 {
        if self.keys.is_empty() {
            return NULL_KEY;
        }
        self.keys.key_for(self.rng.unit_f64())
    }

    fn partition_of(&mut self, key: u32) -> u32 {
        if key != NULL_KEY {
            return self.key_partition[key as usize];
        }
        if self.sticky_left == 0 {
            self.sticky_partition = self.rng.below(u64::from(self.partition_count)) as u32;
            self.sticky_left = NULL_KEY_BATCH_RECORDS;
        }
        self.sticky_left -= 1;
        self.sticky_partition
    }
}

/// When record number `index` is sent at `rate_per_s`; `u64::MAX` for a silent producer.
fn send_time_ms(index: u64, rate_per_s: u32) -> u64 {
    if rate_per_s == 0 {
        return u64::MAX;
    }
    index * 1000 / u64::from(rate_per_s)
}

/// Cumulative probabilities of a Zipf law with exponent `skew` over `key_count` keys: key `i`
/// has weight `1 / (i + 1)^skew`. `libm::pow` keeps the table identical on every platform.
pub fn zipf_cdf(key_count: u32, skew: f64) -> Vec<f64> {
    let weights: Vec<f64> = (0..key_count)
        .map(|i| 1.0 / libm::pow(f64::from(i) + 1.0, skew))
        .collect();
    let total: f64 = weights.iter().sum();
    let mut running = 0.0;
    weights
        .iter()
        .map(|w| {
            running += w / total;
            running
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn producer(rate_per_s: u32, key_count: u32, key_skew: f64) -> Producer {
        let config = ProducerConfig {
            rate_per_s,
            key_count,
            key_skew,
            linger_ms: 5,
        };
        Producer::new(&config, 6, 1)
    }

    #[test]
    fn sends_are_evenly_spaced_at_the_rate() {
        let mut p = producer(200, 10, 0.0);
        let mut topic = Topic::new("t", 6);
        p.send_due(999);
        p.append_due(999, &mut topic, |_, _, _| {});
        assert_eq!(p.sent(), 200);
        // The last record was sent at 995 ms and waits for linger.ms = 5 until 1000 ms.
        assert_eq!(topic.total_records(), 199);
        assert_eq!(p.next_append_ms(), 1000);
        assert_eq!(p.next_send_ms(), 1000);
    }

    #[test]
    fn a_keyed_record_goes_to_its_keys_partition_after_linger() {
        let mut p = producer(1000, 5, 0.0);
        let mut topic = Topic::new("t", 6);
        let mut seen = Vec::new();
        p.send_due(50);
        p.append_due(60, &mut topic, |partition, offset, key| {
            seen.push((partition, offset, key))
        });
        for (partition, offset, key) in seen {
            assert_eq!(partition, partition_for_key(&key_bytes(key), 6));
            let record = topic.partitions[partition as usize].get(offset).unwrap();
            assert_eq!(record.append_ms(), record.send_ms + 5);
        }
    }

    #[test]
    fn high_skew_makes_the_first_key_dominate() {
        let mut p = producer(10_000, 50, 2.0);
        let mut topic = Topic::new("t", 6);
        let mut hot = 0;
        p.send_due(999);
        p.append_due(2000, &mut topic, |_, _, key| hot += u32::from(key == 0));
        // Zipf(2) over 50 keys gives key 0 about 62% of records.
        assert!((5_500..7_000).contains(&hot), "hot key got {hot} of 10000");
    }

    #[test]
    fn null_keys_stick_to_a_partition_for_a_batch() {
        let mut p = producer(1000, 0, 0.0);
        let mut topic = Topic::new("t", 6);
        let mut partitions = Vec::new();
        p.send_due(999);
        p.append_due(2000, &mut topic, |partition, _, key| {
            assert_eq!(key, NULL_KEY);
            partitions.push(partition);
        });
        for batch in partitions.chunks(NULL_KEY_BATCH_RECORDS as usize) {
            assert!(batch.iter().all(|&q| q == batch[0]));
        }
        let used = (0..6).filter(|q| partitions.contains(q)).count();
        assert_eq!(used, 6, "over 62 batches every partition gets some");
    }
}
