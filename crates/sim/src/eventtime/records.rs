//! Generating the records of a run: when each event truly happens, what the device's clock says,
//! when the device sends it (at once, or later when an offline device reconnects), when the topic
//! receives it after the network delay, and when the processor finally sees it (at once, or after
//! an outage while it catches up). Every random draw comes from its own seeded stream, so turning
//! one knob (say the delay tail) does not reshuffle the event times drawn for another.

use super::scenario::{EventTimeScenario, TimestampSource};
use crate::replay::rng::SimRng;
use libm::log;

/// Labels of this module's random streams (see [`SimRng::for_stream`]); fixed numbers, clear of
/// the labels the rest of the core uses.
pub mod stream {
    /// When events happen and which device produces each.
    pub const EVENT_TIME_ARRIVALS: u64 = 200;
    /// The network delay of each record.
    pub const EVENT_TIME_DELAYS: u64 = 201;
    /// When each offline device goes offline.
    pub const EVENT_TIME_OFFLINE: u64 = 202;
}

/// One event, with every timestamp it collects on its way to the processor. Times are ms;
/// `occurred_ms` and `sent_ms` are on the device's (possibly skewed) clock, the others on the
/// server's clock, which is the true time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Position in true event-time order, 0-based; a stable id for the UI.
    pub index: u32,
    /// The device, which is also the window key.
    pub key: u32,
    pub partition: u32,
    /// Position within its partition, in the order the topic received the records.
    pub offset: u64,
    /// When the event really happened (ground truth; no real system knows this).
    pub true_ms: i64,
    /// When it happened by the device's clock: `true_ms` plus the device's skew.
    pub occurred_ms: i64,
    /// When the device sent it, by the device's clock (later than `occurred_ms` when the device
    /// was offline and buffered it).
    pub sent_ms: i64,
    /// When the topic received it, by the server's clock.
    pub received_ms: i64,
    /// When the stream processor saw it: `received_ms`, or later during an outage and the
    /// catch-up after it.
    pub processed_ms: i64,
}

impl Record {
    /// The "three timestamps" estimate of when the event happened on the server's clock:
    /// `occurred + (received - sent)`. Both device timestamps carry the same skew, so it cancels;
    /// the estimate is late by exactly this record's network delay.
    pub fn corrected_ms(&self) -> i64 {
        self.occurred_ms + (self.received_ms - self.sent_ms)
    }

    /// The event time the pipeline assigns, by the scenario's timestamp choice.
    pub fn event_time_ms(&self, source: TimestampSource) -> i64 {
        match source {
            TimestampSource::Device => self.occurred_ms,
            TimestampSource::Corrected => self.corrected_ms(),
        }
    }
}

/// All records of a validated scenario, in the order the processor sees them (by
/// `processed_ms`, then the order the topic received them).
pub(crate) fn generate(scenario: &EventTimeScenario) -> Vec<Record> {
    let offline_starts = offline_starts_ms(scenario);
    let mut delays = SimRng::for_stream(scenario.seed, stream::EVENT_TIME_DELAYS);
    let mut records: Vec<Record> = event_times(scenario)
        .into_iter()
        .filter_map(|(true_ms, key)| {
            // Drawn before the filter below, so the skew knob does not shift other delays.
            let delay_ms = network_delay_ms(scenario, &mut delays);
            let device = Device::of(scenario, key, &offline_starts);
            let occurred_ms = true_ms + device.skew_ms;
            // A device whose clock is behind produces nothing until its clock reads 0: event
            // times are never negative.
            if occurred_ms < 0 {
                return None;
            }
            let send_true_ms = device.send_time_ms(true_ms);
            Some(Record {
                index: 0,
                key,
                partition: key % scenario.partitions,
                offset: 0,
                true_ms,
                occurred_ms,
                sent_ms: send_true_ms + device.skew_ms,
                received_ms: send_true_ms + delay_ms,
                processed_ms: 0,
            })
        })
        .collect();
    for (index, record) in records.iter_mut().enumerate() {
        record.index = index as u32;
    }
    // The topic appends in arrival order; ties keep event order so the sort is deterministic.
    crate::replay::sort::sort_by_key(&mut records, |record| (record.received_ms, record.index));
    assign_offsets(&mut records, scenario.partitions);
    assign_processing_times(&mut records, scenario);
    crate::replay::sort::sort_by_key(&mut records, |record| {
        (record.processed_ms, record.received_ms, record.index)
    });
    records
}

/// (true time, device) of every event: a Poisson process over all devices, each event's device
/// uniform.
fn event_times(scenario: &EventTimeScenario) -> Vec<(i64, u32)> {
    let mut rng = SimRng::for_stream(scenario.seed, stream::EVENT_TIME_ARRIVALS);
    let mean_gap_ms = 1000.0 / f64::from(scenario.events_per_second);
    let mut clock_ms = 0.0;
    let mut events = Vec::new();
    loop {
        clock_ms += -log(1.0 - rng.unit_f64()) * mean_gap_ms;
        let true_ms = clock_ms as i64;
        if true_ms >= scenario.duration_ms {
            return events;
        }
        let key = rng.below(u64::from(scenario.keys)) as u32;
        events.push((true_ms, key));
    }
}

/// What one device does to its events' timestamps.
struct Device {
    skew_ms: i64,
    /// `[start, end)` in true time, if this device goes offline.
    offline_ms: Option<(i64, i64)>,
}

impl Device {
    fn of(scenario: &EventTimeScenario, key: u32, offline_starts_ms: &[i64]) -> Self {
        let offline_ms = offline_starts_ms
            .get(key as usize)
            .map(|&start_ms| (start_ms, start_ms + scenario.offline.duration_ms));
        Self {
            skew_ms: skew_of(scenario, key),
            offline_ms,
        }
    }

    /// When, in true time, the device sends an event that happened at `true_ms`: at once, or
    /// when it comes back online if it was offline then.
    fn send_time_ms(&self, true_ms: i64) -> i64 {
        match self.offline_ms {
            Some((start_ms, end_ms)) if (start_ms..end_ms).contains(&true_ms) => end_ms,
            _ => true_ms,
        }
    }
}

/// The skewed devices are the highest ids, so they do not coincide with the offline devices
/// (the lowest ids) unless the knobs cover most devices.
fn skew_of(scenario: &EventTimeScenario, key: u32) -> i64 {
    if key >= scenario.keys - scenario.skew.devices {
        scenario.skew.clock_skew_ms
    } else {
        0
    }
}

/// The start of each offline device's offline period, uniform so the whole period fits in the
/// run.
fn offline_starts_ms(scenario: &EventTimeScenario) -> Vec<i64> {
    let mut rng = SimRng::for_stream(scenario.seed, stream::EVENT_TIME_OFFLINE);
    let latest_start_ms = scenario.duration_ms - scenario.offline.duration_ms;
    (0..scenario.offline.devices)
        .map(|_| rng.below(latest_start_ms as u64 + 1) as i64)
        .collect()
}

/// Constant delay, uniform jitter and, for a fraction of records, an exponential tail capped at
/// ten means. Every record draws the same number of values so one record's luck does not shift
/// the next record's draws.
fn network_delay_ms(scenario: &EventTimeScenario, rng: &mut SimRng) -> i64 {
    let spec = &scenario.delay;
    let jitter_ms = rng.below(spec.jitter_ms as u64 + 1) as i64;
    let is_straggler = rng.unit_f64() < spec.tail_probability;
    let tail_draw_ms = -log(1.0 - rng.unit_f64()) * spec.tail_mean_ms as f64;
    let tail_ms = if is_straggler {
        (tail_draw_ms as i64).min(10 * spec.tail_mean_ms)
    } else {
        0
    };
    spec.network_ms + jitter_ms + tail_ms
}

fn assign_offsets(records_by_arrival: &mut [Record], partitions: u32) {
    let mut next_offsets = vec![0u64; partitions as usize];
    for record in records_by_arrival {
        let next = &mut next_offsets[record.partition as usize];
        record.offset = *next;
        *next += 1;
    }
}

/// The processor handles records in arrival order. Normally it keeps up and sees each record
/// the moment it arrives. It stops for the outage; afterwards it works through the backlog at
/// the catch-up rate (counted in µs so the rate needs no floats), and once a record arrives
/// after the processor got through everything before it, it is caught up again.
fn assign_processing_times(records_by_arrival: &mut [Record], scenario: &EventTimeScenario) {
    let outage = &scenario.outage;
    if outage.duration_ms == 0 {
        for record in records_by_arrival {
            record.processed_ms = record.received_ms;
        }
        return;
    }
    let interval_us = 1_000_000 / i64::from(outage.catch_up_records_per_second);
    let mut free_at_us = (outage.start_ms + outage.duration_ms) * 1000;
    for record in records_by_arrival {
        let arrived_us = record.received_ms * 1000;
        let is_backlogged = record.received_ms >= outage.start_ms && free_at_us > arrived_us;
        record.processed_ms = if is_backlogged {
            let processed_us = free_at_us;
            free_at_us += interval_us;
            // Round up: the processor cannot see a record before it has processed it.
            (processed_us + 999) / 1000
        } else {
            record.received_ms
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received_at(times_ms: &[i64]) -> Vec<Record> {
        times_ms
            .iter()
            .enumerate()
            .map(|(index, &received_ms)| Record {
                index: index as u32,
                key: 0,
                partition: 0,
                offset: index as u64,
                true_ms: received_ms,
                occurred_ms: received_ms,
                sent_ms: received_ms,
                received_ms,
                processed_ms: 0,
            })
            .collect()
    }

    #[test]
    fn the_backlog_drains_at_the_catch_up_rate_and_then_the_processor_keeps_up_again() {
        let mut scenario = EventTimeScenario::default();
        scenario.outage.start_ms = 1_000;
        scenario.outage.duration_ms = 1_000;
        scenario.outage.catch_up_records_per_second = 100;
        // Before, during (three), just after (queued behind the backlog), and well after.
        let mut records = received_at(&[500, 1_100, 1_200, 1_900, 2_005, 5_000]);
        assign_processing_times(&mut records, &scenario);
        let processed: Vec<i64> = records.iter().map(|record| record.processed_ms).collect();
        assert_eq!(processed, vec![500, 2_000, 2_010, 2_020, 2_030, 5_000]);
    }

    #[test]
    fn the_corrected_timestamp_is_off_by_the_network_delay_only() {
        let skewed = Record {
            index: 0,
            key: 0,
            partition: 0,
            offset: 0,
            true_ms: 10_000,
            occurred_ms: 4_000,
            sent_ms: 9_000,
            received_ms: 15_250,
            processed_ms: 15_250,
        };
        // Clock 6 s behind, buffered 5 s offline, then 250 ms on the network.
        assert_eq!(skewed.corrected_ms(), 10_250);
    }
}
