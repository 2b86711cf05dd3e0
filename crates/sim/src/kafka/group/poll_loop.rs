//! The consumer loop each member runs: `poll()`, process the batch one record at a time, repeat.
//!
//! `poll()` is also where a member acts on the group protocol, as the Java client does: it
//! rejoins a rebalance it heard about from a heartbeat (an eager member first commits, if
//! auto-commit or a rebalance listener says so, and gives up every partition), it finds out it
//! was removed from the group and joins again, and it auto-commits when
//! `auto.commit.interval.ms` has passed. An empty poll waits up to `fetch.max.wait.ms`, or
//! less if a record arrives.

use super::offsets::commit_processed;
use super::{Activity, FetchedRange, Group, GroupState, Liveness, StepSink};
use crate::kafka::events::{CommitCause, CommittedOffsets, Event, EventKind};
use crate::kafka::scenario::{Distribution, ManualCommit, ProcessingConfig};
use crate::kafka::topic::{Topic, NULL_KEY};
use crate::replay::rng::SimRng;

impl Group {
    /// When the member's processing thread next has work (its protocol timers are the
    /// coordinator's business: see `membership_due_ms`).
    pub(crate) fn member_next_activity_ms(&self, m: usize) -> u64 {
        let member = &self.members[m];
        match member.liveness {
            Liveness::Running => match member.activity {
                Activity::Ready => 0,
                Activity::Processing { done_ms, .. } => done_ms,
                // New records wake a waiting member at the tick they are appended, and
                // appends are activities of their own; only the timeout needs scheduling.
                Activity::Waiting { until_ms } => until_ms,
            },
            Liveness::Paused { .. } | Liveness::Crashed | Liveness::Stopped => u64::MAX,
        }
    }

    /// Until when member `m`'s loop is sure to do nothing as things stand: the end of the
    /// record in hand, the end of a wait for an assignment only a rebalance's end can bring,
    /// `u64::MAX` while it is not running, or 0 (look at it every tick). What can cut one of
    /// these short (an action, the end of a pause, a rebalance starting or ending) wakes the
    /// members it concerns (see `busy_until_ms`).
    pub(crate) fn asleep_until_ms(&self, m: usize) -> u64 {
        let member = &self.members[m];
        if !member.is_running() {
            return u64::MAX;
        }
        match member.activity {
            Activity::Processing { done_ms, .. } => done_ms,
            Activity::Waiting { until_ms }
                if !member.must_rejoin() && self.eager_member_waits_for_assignment(m) =>
            {
                until_ms
            }
            Activity::Ready | Activity::Waiting { .. } => 0,
        }
    }

    /// When member `m`'s protocol timers next need the coordinator: its next heartbeat, its
    /// poll deadline, the end of a pause, or its session timeout.
    pub(crate) fn member_timers_ms(&self, m: usize) -> u64 {
        let member = &self.members[m];
        let heartbeat = if member.is_running() && !member.static_rejoin_pending {
            member.last_heartbeat_ms + u64::from(self.config.heartbeat_interval_ms)
        } else {
            u64::MAX
        };
        let silence = if member.in_group && !member.is_running() {
            member.last_heartbeat_ms + u64::from(self.config.session_timeout_ms) + 1
        } else {
            u64::MAX
        };
        let pause_end = match member.liveness {
            Liveness::Paused { until_ms, .. } => until_ms,
            _ => u64::MAX,
        };
        heartbeat
            .min(silence)
            .min(pause_end)
            .min(self.poll_deadline_ms(m))
    }

    /// When the member is removed for not polling, if it is at risk of that.
    pub(crate) fn poll_deadline_ms(&self, m: usize) -> u64 {
        let member = &self.members[m];
        match member.activity {
            Activity::Processing { .. }
                if member.in_group && member.is_running() && !member.static_rejoin_pending =>
            {
                member.last_poll_ms + u64::from(self.config.max_poll_interval_ms) + 1
            }
            _ => u64::MAX,
        }
    }

    pub(crate) fn run_member(&mut self, m: usize, now_ms: u64, topic: &Topic, sink: &mut StepSink) {
        if !self.members[m].is_running() {
            return;
        }
        loop {
            match self.members[m].activity {
                Activity::Processing { done_ms, .. } if done_ms > now_ms => return,
                Activity::Processing {
                    partition, offset, ..
                } => {
                    if self.complete(m, partition, offset, now_ms, topic, sink) {
                        self.members[m].activity = Activity::Ready;
                    }
                }
                Activity::Waiting { until_ms } => {
                    if until_ms > now_ms && !self.has_reason_to_wake(m, topic) {
                        return;
                    }
                    self.members[m].activity = Activity::Ready;
                }
                Activity::Ready => {
                    if let Some((partition, offset)) = self.members[m].next_in_batch() {
                        self.start(m, partition, offset, now_ms);
                    } else if !self.poll(m, now_ms, topic, sink) {
                        let wait_ms = u64::from(self.config.fetch_max_wait_ms).max(1);
                        self.members[m].activity = Activity::Waiting {
                            until_ms: now_ms + wait_ms,
                        };
                        return;
                    }
                }
            }
        }
    }

    /// A member blocked in `poll()` wakes for new records, or to rejoin a rebalance
    /// (`asleep_until_ms` knows when neither can happen).
    fn has_reason_to_wake(&self, m: usize, topic: &Topic) -> bool {
        let member = &self.members[m];
        if member.must_rejoin() {
            return true;
        }
        if self.eager_member_waits_for_assignment(m) {
            return false;
        }
        member.assigned.iter().any(|&p| {
            self.partitions[p as usize].position < topic.partitions[p as usize].log_end_offset()
        })
    }

    /// Under an eager assignor a member that has rejoined holds nothing until the new
    /// assignment arrives.
    fn eager_member_waits_for_assignment(&self, m: usize) -> bool {
        let member = &self.members[m];
        let in_rebalance = matches!(
            self.state,
            GroupState::PreparingRebalance | GroupState::CompletingRebalance
        );
        !member.in_group || (in_rebalance && member.joined && !self.strategy().is_cooperative())
    }

    fn start(&mut self, m: usize, partition: u32, offset: u64, now_ms: u64) {
        let drawn_ms = draw_processing_ms(&self.config.processing, &mut self.rng);
        let duration_ms = drawn_ms * self.members[m].slowdown_at(now_ms);
        self.members[m].activity = Activity::Processing {
            partition,
            offset,
            started_ms: now_ms,
            done_ms: now_ms + duration_ms,
        };
    }

    /// The record's write reaches the sink (or, for a fenced member in a transaction, aborts),
    /// and the offsets that follow from the commit strategy move. Returns false when the record
    /// failed and will be tried again (the member keeps it in hand).
    fn complete(
        &mut self,
        m: usize,
        partition: u32,
        offset: u64,
        now_ms: u64,
        topic: &Topic,
        sink: &mut StepSink,
    ) -> bool {
        let record = topic.partitions[partition as usize].get(offset);
        let send_ms = record.map(|r| r.send_ms);
        let key = record.map(|r| r.key).filter(|&k| k != NULL_KEY);
        let attempt = self.members[m].attempts + 1;
        let errors = &self.config.errors;
        let failed = errors.attempt_fails(self.seed, partition, offset, attempt);
        if failed && !self.give_up_or_retry(m, partition, offset, key, now_ms, sink) {
            return false;
        }
        if !failed && attempt > 1 {
            self.recovered(m, partition, offset, attempt, now_ms, sink);
        }
        let member = &mut self.members[m];
        member.batch_next = offset + 1;
        let owner = member.owns(partition);
        let manual = self.config.manual_commit;
        if manual == ManualCommit::Transactional && !owner {
            // A removed member's transaction is fenced by the new generation: nothing lands.
            self.aborted_total += 1;
            return true;
        }
        if !failed {
            member.processed_total += 1;
            self.processed_total += 1;
            self.note_produced_order(send_ms);
            if self.sink.write(now_ms, partition, offset, key) > 0 {
                self.duplicates_total += 1;
            }
        }
        let progress = &mut self.partitions[partition as usize];
        if !failed {
            progress.high_water = progress.high_water.max(offset + 1);
        }
        // A removed member finishing its old batch has an effect, but moves nobody's offsets;
        // nor does a record that was in hand when the group's offsets were reset behind it.
        if owner && progress.processed == offset && offset < progress.position {
            progress.processed = offset + 1;
            if matches!(
                manual,
                ManualCommit::AfterEachRecord | ManualCommit::Transactional
            ) {
                // One commit per record: too many for the event stream, so no event; the
                // committed marker shows it.
                progress.committed = progress.committed.max(offset + 1);
                progress.has_committed = true;
            }
        }
        true
    }

    /// Counts a record processed after one the producer sent later (a record retention
    /// deleted while it was in hand has no send time left to compare).
    fn note_produced_order(&mut self, send_ms: Option<u64>) {
        let Some(send_ms) = send_ms else { return };
        if send_ms < self.newest_send_ms_processed {
            self.out_of_produced_order += 1;
        }
        self.newest_send_ms_processed = self.newest_send_ms_processed.max(send_ms);
    }

    /// One `poll()`. Returns whether any record came back.
    fn poll(&mut self, m: usize, now_ms: u64, topic: &Topic, sink: &mut StepSink) -> bool {
        if self.config.manual_commit == ManualCommit::AfterBatch {
            // The application's commitSync() after its loop over the last poll's records.
            let batch = self.members[m].batch.iter().map(|r| r.partition);
            let offsets = commit_processed(&self.members[m], &mut self.partitions, batch);
            self.push_commit_event(m, offsets, now_ms, CommitCause::AfterBatch, sink);
        }
        let counters = &mut self.client_counters;
        counters.polls_total += 1;
        counters.poll_gaps_ms_total += now_ms.saturating_sub(self.members[m].last_poll_ms);
        self.members[m].last_poll_ms = now_ms;
        // A batch fetched now must end before this deadline.
        let deadline_ms = now_ms + u64::from(self.config.max_poll_interval_ms) + 1;
        self.membership_due_ms = self.membership_due_ms.min(deadline_ms);
        if !self.members[m].in_group {
            self.rejoin_after_removal(m, now_ms, sink);
            return false;
        }
        if !self.members[m].pending_revocation.is_empty() {
            self.revoke_and_follow_up(m, now_ms, sink);
        }
        if self.members[m].static_rejoin_pending {
            self.members[m].static_rejoin_pending = false;
            self.members[m].last_heartbeat_ms = now_ms;
            // Its heartbeats start again.
            self.membership_due_ms = 0;
            self.rejoin_static(m, now_ms, sink);
        }
        if self.members[m].must_rejoin() {
            self.join_rebalance(m, now_ms, sink);
        }
        if self.eager_member_waits_for_assignment(m) {
            return false;
        }
        self.maybe_auto_commit(m, now_ms, sink);
        let fetched = self.fetch(m, now_ms, topic, sink);
        if fetched && self.config.manual_commit == ManualCommit::BeforeProcessing {
            self.commit_fetched(m, now_ms, sink);
        }
        fetched
    }

    fn maybe_auto_commit(&mut self, m: usize, now_ms: u64, sink: &mut StepSink) {
        let interval_ms = u64::from(self.config.auto_commit_interval_ms);
        let member = &mut self.members[m];
        if !self.config.enable_auto_commit || now_ms < member.last_auto_commit_ms + interval_ms {
            return;
        }
        member.last_auto_commit_ms = now_ms;
        let member = &self.members[m];
        let assigned = member.assigned.iter().copied();
        let offsets = commit_processed(member, &mut self.partitions, assigned);
        self.push_commit_event(m, offsets, now_ms, CommitCause::AutoCommit, sink);
    }

    /// Commits how far the owner has processed in `partitions`. Inside `poll()` that equals
    /// the position (the loop finished its batch first); a clean shutdown mid-batch commits only
    /// what it finished, as a shutdown hook that commits processed offsets would.
    pub(crate) fn commit_positions(
        &mut self,
        m: usize,
        partitions: &[u32],
        now_ms: u64,
        cause: CommitCause,
        sink: &mut StepSink,
    ) {
        let owned = partitions.iter().copied();
        let offsets = commit_processed(&self.members[m], &mut self.partitions, owned);
        self.push_commit_event(m, offsets, now_ms, cause, sink);
    }

    pub(crate) fn push_commit_event(
        &mut self,
        m: usize,
        offsets: CommittedOffsets,
        now_ms: u64,
        cause: CommitCause,
        sink: &mut StepSink,
    ) {
        if offsets.is_empty() {
            return;
        }
        self.client_counters.commits_total += 1;
        let event = Event {
            at_ms: now_ms,
            kind: EventKind::OffsetsCommitted {
                group_id: self.id.clone(),
                member_id: self.members[m].id.clone(),
                offsets,
                cause,
            },
        };
        sink.push(event);
    }

    fn fetch(&mut self, m: usize, now_ms: u64, topic: &Topic, sink: &mut StepSink) -> bool {
        let member = &mut self.members[m];
        member.clear_batch();
        let owned = member.assigned.len();
        if owned == 0 {
            return false;
        }
        let mut room = u64::from(self.config.max_poll_records);
        let start = member.poll_cursor % owned;
        member.poll_cursor = (start + 1) % owned;
        // Round the owned partitions from `start`, wrapping without a division per step.
        let mut next = start;
        for _ in 0..owned {
            let partition = member.assigned[next];
            next = if next + 1 == owned { 0 } else { next + 1 };
            let progress = &mut self.partitions[partition as usize];
            let log = &topic.partitions[partition as usize];
            let was_stopped = progress.out_of_range;
            let committed =
                (progress.has_committed || progress.started).then_some(progress.position);
            if !progress.has_committed && !progress.started {
                super::offsets::start_without_commit(progress, self.config.auto_offset_reset, log);
            }
            if progress.position < log.log_start_offset() {
                super::offsets::reset_out_of_range(progress, self.config.auto_offset_reset, log);
            }
            if progress.out_of_range {
                if !was_stopped {
                    let event = EventKind::OffsetOutOfRange {
                        group_id: self.id.clone(),
                        member_id: member.id.clone(),
                        partition,
                        position: committed,
                        log_start: log.log_start_offset(),
                    };
                    sink.push(Event {
                        at_ms: now_ms,
                        kind: event,
                    });
                }
                continue;
            }
            let log_end = log.log_end_offset();
            let take = (log_end - progress.position).min(room);
            if take == 0 {
                continue;
            }
            let range = FetchedRange {
                partition,
                from: progress.position,
                to: progress.position + take,
            };
            progress.position = range.to;
            member.batch.push(range);
            for value in [
                now_ms,
                self.index,
                m as u64,
                u64::from(partition),
                range.from,
                range.to,
            ] {
                sink.trace.write_u64(value);
            }
            room -= take;
            self.client_counters.records_consumed_total += take;
            if room == 0 {
                break;
            }
        }
        if member.batch.is_empty() {
            return false;
        }
        member.batch_next = member.batch[0].from;
        member.last_fetch_ms = now_ms;
        true
    }
}

/// One processing time in whole ms, drawn around the configured mean. Fractional draws are
/// rounded up or down at random in proportion, so the mean is kept exactly on average.
pub fn draw_processing_ms(config: &ProcessingConfig, rng: &mut SimRng) -> u64 {
    let mean_ms = f64::from(config.time_ms);
    let sample_ms = match config.distribution {
        Distribution::Constant => return u64::from(config.time_ms),
        Distribution::Uniform => rng.unit_f64() * 2.0 * mean_ms,
        Distribution::Exponential => -mean_ms * libm::log(1.0 - rng.unit_f64()),
    };
    let whole_ms = libm::floor(sample_ms);
    let round_up = rng.unit_f64() < sample_ms - whole_ms;
    whole_ms as u64 + u64::from(round_up)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processing_draws_keep_the_mean() {
        for distribution in [Distribution::Uniform, Distribution::Exponential] {
            let config = ProcessingConfig {
                time_ms: 7,
                distribution,
            };
            let mut rng = SimRng::for_stream(3, 4);
            let total: u64 = (0..100_000)
                .map(|_| draw_processing_ms(&config, &mut rng))
                .sum();
            let mean = total as f64 / 100_000.0;
            assert!((6.85..7.15).contains(&mean), "{distribution:?} mean {mean}");
        }
    }
}
