//! One running instance of the streaming job (Flink's model): a source reader per input
//! partition, an input channel from each to the keyed counting operator, and the operator
//! with its state, one count per key.
//!
//! A source reads the next record of its partition once it is written and its channel has
//! room. The operator takes one element at a time, the earliest-arrived first among the
//! channels it is not holding back: a record costs the processing time, then its key's count
//! goes up by one and the channel's position moves past it; a barrier costs nothing and is
//! handed to the lane, which decides whether to hold the channel (alignment) or snapshot.

use super::channel::{Channel, Element};
use super::records::Input;
use super::scenario::EosScenario;

/// Whether the instance does anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    /// Stopped without dying, until the given instant.
    Paused {
        until_ms: u64,
    },
    /// Replaced while paused, running again without knowing it, until its next heartbeat.
    Zombie {
        stops_at_ms: u64,
    },
}

/// The record the operator is counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy {
    pub seq: u32,
    pub started_at_ms: u64,
    pub done_at_ms: u64,
}

/// What the operator did that the lane must act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// It counted record `seq`.
    Counted { seq: u32 },
    /// A barrier of `checkpoint` came out of `partition`'s channel.
    Barrier { partition: u32, checkpoint: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub epoch: u32,
    pub status: Status,
    /// Per partition, the next offset its source reads.
    pub source_positions: Vec<u32>,
    /// Per partition, the next offset the operator counts.
    pub positions: Vec<u32>,
    pub channels: Vec<Channel>,
    /// Channels held back until a checkpoint's barriers are aligned.
    pub blocked: Vec<bool>,
    /// Per key, the count.
    pub state: Vec<u64>,
    pub busy: Option<Busy>,
}

impl Instance {
    /// An instance starting at `positions` with `state`.
    pub fn new(epoch: u32, positions: Vec<u32>, state: Vec<u64>) -> Self {
        let partitions = positions.len();
        Self {
            epoch,
            status: Status::Running,
            source_positions: positions.clone(),
            positions,
            channels: vec![Channel::default(); partitions],
            blocked: vec![false; partitions],
            state,
            busy: None,
        }
    }

    /// Whether it is doing work (running, or running as a zombie).
    pub fn is_working(&self) -> bool {
        !matches!(self.status, Status::Paused { .. })
    }

    /// Sources send every written record their channel has room for.
    pub fn read_sources(&mut self, input: &Input, scenario: &EosScenario, now_ms: u64) {
        for (p, log) in input.logs.iter().enumerate() {
            let delay_ms = scenario.channel_delay_ms(p as u32);
            let source = &mut self.source_positions[p];
            while let Some(&seq) = log.get(*source as usize) {
                if input.records[seq as usize].at_ms > now_ms || !self.channels[p].has_room() {
                    break;
                }
                self.channels[p].push_record(seq, now_ms, delay_ms);
                *source += 1;
            }
        }
    }

    /// The operator's next action at `now_ms` that the lane must see, if any. A record it
    /// starts is not one: it is reported when counted.
    pub fn step(&mut self, input: &Input, processing_ms: u64, now_ms: u64) -> Option<Step> {
        if let Some(busy) = self.busy {
            if busy.done_at_ms > now_ms {
                return None;
            }
            self.busy = None;
            let record = input.records[busy.seq as usize];
            self.state[record.key as usize] += 1;
            self.positions[record.partition as usize] += 1;
            return Some(Step::Counted { seq: busy.seq });
        }
        let next = (0..self.channels.len())
            .filter(|&p| !self.blocked[p])
            .filter_map(|p| self.channels[p].ready(now_ms).map(|f| (f.arrives_at_ms, p)))
            .min()?;
        let partition = next.1;
        let taken = self.channels[partition].pop()?;
        match taken.element {
            Element::Barrier { checkpoint } => Some(Step::Barrier {
                partition: partition as u32,
                checkpoint,
            }),
            Element::Record { seq } => {
                self.busy = Some(Busy {
                    seq,
                    started_at_ms: now_ms,
                    done_at_ms: now_ms + processing_ms.max(1),
                });
                None
            }
        }
    }

    /// When the operator next has something to do: its record is done, or an element it may
    /// read arrives.
    pub fn due_ms(&self) -> Option<u64> {
        if let Some(busy) = self.busy {
            return Some(busy.done_at_ms);
        }
        (0..self.channels.len())
            .filter(|&p| !self.blocked[p])
            .filter_map(|p| self.channels[p].next_arrival_ms())
            .min()
    }

    /// Records emitted by the sources and not yet counted.
    pub fn in_flight(&self) -> u64 {
        self.source_positions
            .iter()
            .zip(&self.positions)
            .map(|(&s, &p)| u64::from(s - p))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operator_counts_records_in_offset_order_one_at_a_time() {
        let scenario = EosScenario::default();
        let input = Input::generate(&scenario);
        let mut instance = Instance::new(1, vec![0; 4], vec![0; 8]);
        let mut counted = Vec::new();
        let mut now = 0;
        while now <= 1_000 {
            instance.read_sources(&input, &scenario, now);
            while let Some(step) = instance.step(&input, scenario.processing_ms, now) {
                if let Step::Counted { seq } = step {
                    counted.push(seq);
                }
                instance.read_sources(&input, &scenario, now);
            }
            now += 1;
        }
        // 101 records written by 1 s, each counted 2 ms after it was written.
        assert_eq!(counted.len(), 100);
        assert!(counted.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(instance.state.iter().sum::<u64>(), 100);
        assert_eq!(instance.in_flight(), 1);
    }
}
