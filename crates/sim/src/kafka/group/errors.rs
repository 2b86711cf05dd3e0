//! A record the application cannot process: the error handler retries it after a back-off
//! (a transient failure may pass on a later attempt), then gives up and publishes it to the dead-letter topic (or skips it). The record stays in
//! the member's hands the whole time, so its partition, and every other partition that member
//! reads, stands still: head-of-line blocking. Modelled on Spring Kafka's `DefaultErrorHandler`
//! with a `FixedBackOff` and a `DeadLetterPublishingRecoverer`.

use super::poll_loop::draw_processing_ms;
use super::{Activity, Group, StepSink};
use crate::kafka::events::{Event, EventKind};

impl Group {
    /// One failed attempt at `partition`/`offset`. Returns true when the attempts are used up
    /// (the record has been dead-lettered or skipped and the partition moves on), false when
    /// it will be tried again after the back-off.
    pub(crate) fn give_up_or_retry(
        &mut self,
        m: usize,
        partition: u32,
        offset: u64,
        key: Option<u32>,
        now_ms: u64,
        sink: &mut StepSink,
    ) -> bool {
        let errors = &self.config.errors;
        let member = &mut self.members[m];
        member.attempts += 1;
        self.failed_attempts_total += 1;
        let attempts = member.attempts;
        let event = |kind| Event {
            at_ms: now_ms,
            kind,
        };
        if attempts < errors.max_attempts {
            if attempts == 1 {
                sink.push(event(EventKind::RecordFailed {
                    group_id: self.id.clone(),
                    member_id: member.id.clone(),
                    partition,
                    offset,
                    max_attempts: errors.max_attempts,
                    backoff_ms: errors.backoff_ms,
                }));
            }
            let retry_ms = now_ms + errors.backoff_ms;
            let work_ms = draw_processing_ms(&self.config.processing, &mut self.rng);
            member.activity = Activity::Processing {
                partition,
                offset,
                started_ms: retry_ms,
                done_ms: retry_ms + work_ms.max(1),
            };
            return false;
        }
        member.attempts = 0;
        let topic = errors.dead_letter_topic.clone();
        if !topic.is_empty() {
            self.sink.dead_letter(now_ms, partition, offset, key);
        }
        sink.push(event(EventKind::DeadLettered {
            group_id: self.id.clone(),
            member_id: self.members[m].id.clone(),
            partition,
            offset,
            attempts,
            topic,
        }));
        true
    }

    /// Attempt `attempt` at `partition`/`offset` succeeded after earlier ones failed: the
    /// record is written once, nothing goes to the dead-letter topic, and the line moves on.
    pub(crate) fn recovered(
        &mut self,
        m: usize,
        partition: u32,
        offset: u64,
        attempt: u32,
        now_ms: u64,
        sink: &mut StepSink,
    ) {
        let member = &mut self.members[m];
        member.attempts = 0;
        sink.push(Event {
            at_ms: now_ms,
            kind: EventKind::RecordRecovered {
                group_id: self.id.clone(),
                member_id: member.id.clone(),
                partition,
                offset,
                attempts: attempt,
            },
        });
    }
}
