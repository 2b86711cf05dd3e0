//! The consumer: every 100 ms it reads each partition from its current leader, up to that
//! leader's high watermark and never past it, since a record above the high watermark may
//! still vanish in a failover. A consumer whose position lies beyond the new leader's log end
//! (only after an unclean election) starts again at the high watermark, as
//! `auto.offset.reset=latest` would.

use super::events::EventKind;
use super::lane::{Item, Lane, CONSUMER_POLL_MS};

impl Lane {
    pub(crate) fn on_consumer_poll(&mut self) {
        for p in 0..self.partitions.len() {
            let part = &self.partitions[p];
            let Some(l) = part.leader else {
                continue;
            };
            let rep = &part.reps[l];
            if !self.brokers[rep.broker as usize].up || rep.lead.is_none() {
                continue;
            }
            let (hw, end) = (rep.hw, rep.log.end_offset());
            let position = self.consumer_positions[p];
            if position > end {
                self.consumer_positions[p] = hw;
                self.tell(EventKind::ConsumerReset {
                    partition: p as u32,
                    from: position,
                    to: hw,
                });
                continue;
            }
            for offset in position..hw {
                let record = self.partitions[p].reps[l]
                    .log
                    .entry(offset)
                    .expect("below the high watermark")
                    .record;
                self.ledger.consume(record);
            }
            self.consumer_positions[p] = position.max(hw);
        }
        self.schedule(self.now_ms + CONSUMER_POLL_MS, Item::ConsumerPoll);
    }
}
