//! Typed events of the exactly-once family and [`narrate`], the sentence for each.
//!
//! Events hold ids, counts, times and typed causes, never prose: the trace hash folds their
//! fields ([`TraceHasher::write_json`](crate::replay::trace::TraceHasher::write_json)) and every word a learner reads is chosen here.
//! Per-record work is not an event; failures, restarts, completed and discarded checkpoints,
//! committed microbatches, the first duplicate each model's sink lets out, and every step of
//! a zombie's life are.

use super::scenario::{Fencing, SinkKind};
use super::sink::WriteOutcome;
use crate::queues::events::{count, duration};
use serde::Serialize;

/// Something that happened at a simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EosEvent {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: EosEventKind,
}

/// One of the three ways a job recovers, side by side on one seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// Spark Structured Streaming: microbatches; state and offsets committed per batch.
    Microbatch,
    /// Flink: checkpoint barriers; a consistent snapshot of state and offsets.
    Checkpoint,
    /// Flink without checkpoints: the state lives only in memory.
    NoCheckpoint,
}

impl Model {
    pub const ALL: [Model; 3] = [Model::Microbatch, Model::Checkpoint, Model::NoCheckpoint];

    /// Its name in the figures.
    pub fn name(self) -> &'static str {
        match self {
            Model::Microbatch => "microbatch",
            Model::Checkpoint => "checkpoint",
            Model::NoCheckpoint => "no_checkpoint",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Model::Microbatch => "the microbatch job",
            Model::Checkpoint => "the checkpointing job",
            Model::NoCheckpoint => "the job without checkpoints",
        }
    }
}

/// What a restarted job takes its state and positions from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RestoreFrom {
    /// The last completed checkpoint.
    Checkpoint,
    /// The last committed microbatch; the batch that was running runs again.
    Batch,
    /// The last committed microbatch; no batch was running.
    CommittedBatch,
    /// Empty state; the offsets the Kafka consumer auto-committed.
    CommittedOffsets,
    /// Empty state; the start of the input.
    Earliest,
    /// Empty state and offsets: nothing was saved yet.
    Nothing,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EosEventKind {
    /// The job failed; `since_restore_point` records it had counted since what it will restore
    /// (their work is lost and will be done again), `rolled_back` writes of open transactions.
    JobFailed {
        model: Model,
        epoch: u32,
        since_restore_point: u64,
        rolled_back: u64,
    },
    /// The job runs again, from `from`.
    JobRestarted {
        model: Model,
        epoch: u32,
        from: RestoreFrom,
        /// The checkpoint or batch it restored.
        restored: Option<u32>,
        /// Records it had processed before and will read again.
        replayed: u64,
        /// Records it jumps over and will never process.
        skipped: u64,
        /// How far its restored state is from the exact count of the records before its
        /// restored positions.
        state_errors: u64,
    },
    /// A checkpoint is complete: every input's barrier reached the counter, its snapshot was
    /// taken and written.
    CheckpointCompleted {
        checkpoint: u32,
        /// From the first barrier to the last at the counter.
        alignment_ms: u64,
        /// The input whose barrier came last.
        last_partition: u32,
        /// From the trigger to completion.
        duration_ms: u64,
        /// Records in flight stored with it (unaligned checkpoints).
        inflight_records: u64,
        unaligned: bool,
    },
    /// A checkpoint in progress was abandoned by a failure.
    CheckpointDiscarded { checkpoint: u32 },
    /// A microbatch committed its state, its offsets and its output.
    BatchCommitted {
        batch: u32,
        records: u64,
        duration_ms: u64,
        rerun: bool,
    },
    /// A model's sink let the same record's update out a second time, for the first time.
    FirstDuplicate {
        model: Model,
        sink: SinkKind,
        partition: u32,
        offset: u32,
    },
    /// The instance stopped answering, without dying.
    InstancePaused { epoch: u32 },
    /// It runs again before anyone gave up on it.
    InstanceResumed { epoch: u32 },
    /// The JobManager gave up on it after the heartbeat timeout.
    InstanceLost {
        epoch: u32,
        heartbeat_timeout_ms: u64,
    },
    /// A replacement runs from the last completed checkpoint.
    ReplacementStarted {
        epoch: u32,
        checkpoint: Option<u32>,
        fencing: Fencing,
    },
    /// The old instance runs again, not knowing it was replaced.
    ZombieResumed { epoch: u32, newer_epoch: u32 },
    /// The zombie's first write, and what the store did with it.
    ZombieFirstWrite {
        epoch: u32,
        key: u32,
        outcome: WriteOutcome,
        fencing: Fencing,
    },
    /// The zombie learned it was replaced and stopped.
    ZombieStopped {
        epoch: u32,
        writes: u64,
        stale: u64,
        refused: u64,
    },
}

fn records(n: u64) -> String {
    count(n, "record")
}

/// The sentence a learner reads for `event`.
pub fn narrate(event: &EosEvent) -> String {
    let at = duration(event.at_ms);
    match &event.kind {
        EosEventKind::JobFailed {
            model,
            since_restore_point,
            rolled_back,
            ..
        } => narrate_failure(*model, *since_restore_point, *rolled_back, &at),
        EosEventKind::JobRestarted {
            model,
            from,
            restored,
            replayed,
            skipped,
            state_errors,
            ..
        } => narrate_restart(
            *model,
            *from,
            *restored,
            (*replayed, *skipped, *state_errors),
            &at,
        ),
        EosEventKind::CheckpointCompleted {
            checkpoint,
            alignment_ms,
            last_partition,
            duration_ms,
            inflight_records,
            unaligned,
        } => {
            let how = if *unaligned {
                format!(
                    "its barriers overtook the records in flight, and {} still on their way \
                     were stored with it, so no input waited",
                    records(*inflight_records)
                )
            } else if *alignment_ms >= 100 {
                format!(
                    "the counter held its other inputs back for {} until partition {}'s \
                     barrier arrived",
                    duration(*alignment_ms),
                    last_partition
                )
            } else {
                "every input's barrier reached the counter together".to_string()
            };
            format!(
                "At {at} checkpoint {checkpoint} is complete, {} after it was triggered: {how}.",
                duration(*duration_ms)
            )
        }
        EosEventKind::CheckpointDiscarded { checkpoint } => format!(
            "At {at} checkpoint {checkpoint} was still in progress; it is abandoned and can \
             never be restored."
        ),
        EosEventKind::BatchCommitted {
            batch,
            records: n,
            duration_ms,
            rerun,
        } => format!(
            "At {at} microbatch {batch} commits {} ({}): state, offsets and output together{}.",
            records(*n),
            duration(*duration_ms),
            if *rerun {
                ", the same range as the run the failure interrupted"
            } else {
                ""
            }
        ),
        EosEventKind::FirstDuplicate {
            model,
            sink,
            partition,
            offset,
        } => format!(
            "At {at} {} {} for record {partition}:{offset} a second time: the replay \
             repeats an effect outside the job, which no checkpoint can take back.",
            model.words(),
            match sink {
                SinkKind::Email => "sends the email",
                SinkKind::Kafka => "makes the Kafka output visible",
                _ => "lets the update out",
            }
        ),
        EosEventKind::InstancePaused { epoch } => format!(
            "At {at} instance {epoch} stops answering (a long pause, not a crash): it keeps \
             its state and its input, and sends no heartbeats."
        ),
        EosEventKind::InstanceResumed { epoch } => format!(
            "At {at} instance {epoch} runs again before the heartbeat timeout: it was only \
             late, and catches up."
        ),
        EosEventKind::InstanceLost {
            epoch,
            heartbeat_timeout_ms,
        } => format!(
            "At {at} the JobManager has heard nothing from instance {epoch} for \
             heartbeat.timeout ({}) and declares it lost; it cannot tell a pause from a \
             crash.",
            duration(*heartbeat_timeout_ms)
        ),
        EosEventKind::ReplacementStarted {
            epoch,
            checkpoint,
            fencing,
        } => format!(
            "At {at} instance {epoch} starts from {}{}.",
            checkpoint.map_or(
                "empty state (no checkpoint was complete)".to_string(),
                |c| { format!("checkpoint {c}") }
            ),
            match fencing {
                Fencing::None => "",
                Fencing::Epoch => " and registers epoch {epoch} with the results store",
                Fencing::TransactionalId => {
                    "; its producer's initTransactions() bumps the epoch of the shared \
                     transactional.id"
                }
            }
            .replace("{epoch}", &epoch.to_string())
        ),
        EosEventKind::ZombieResumed { epoch, newer_epoch } => format!(
            "At {at} instance {epoch} runs again. It does not know instance {newer_epoch} has \
             replaced it: it goes on counting from where it stopped, and writing."
        ),
        EosEventKind::ZombieFirstWrite {
            epoch,
            key,
            outcome,
            fencing,
        } => match outcome {
            WriteOutcome::Refused => format!(
                "At {at} the zombie's write of key-{key} is refused: {}.",
                match fencing {
                    Fencing::TransactionalId =>
                        "its producer was fenced (ProducerFencedException)".to_string(),
                    _ => format!("epoch {epoch} is older than the store's"),
                }
            ),
            _ => format!(
                "At {at} the zombie (instance {epoch}) writes key-{key}, and the store takes \
                 it: an older count lands over a newer one."
            ),
        },
        EosEventKind::ZombieStopped {
            epoch,
            writes,
            stale,
            refused,
        } => format!(
            "At {at} instance {epoch} learns at its next heartbeat that it was replaced, and \
             stops. Of its {}, {} landed over newer values and {} refused.",
            count(*writes, "write"),
            stale,
            refused
        ),
    }
}

fn narrate_failure(model: Model, since: u64, rolled_back: u64, at: &str) -> String {
    let lost = match model {
        Model::Checkpoint => format!(
            "Its state since the last completed checkpoint is gone: {} counted since then \
             will be read again",
            records(since)
        ),
        Model::Microbatch => format!(
            "The batch that was running had counted {}; its state changes were never \
             committed",
            records(since)
        ),
        Model::NoCheckpoint => "Its whole state was in memory and is gone".to_string(),
    };
    let rolled = if rolled_back > 0 {
        format!(
            ", and {} of open transactions are rolled back",
            count(rolled_back, "write")
        )
    } else {
        String::new()
    };
    format!("At {at} {} fails. {lost}{rolled}.", model.words())
}

fn narrate_restart(
    model: Model,
    from: RestoreFrom,
    restored: Option<u32>,
    (replayed, skipped, errors): (u64, u64, u64),
    at: &str,
) -> String {
    let source = match (from, restored) {
        (RestoreFrom::Checkpoint, Some(id)) => format!(
            "restores checkpoint {id}: every key's count as it was, and each source rewound \
             to the checkpoint's offsets"
        ),
        (RestoreFrom::Batch, Some(id)) => format!(
            "reads the offset log and runs microbatch {id} again, over the same offsets, from \
             the state the previous batch committed"
        ),
        (RestoreFrom::CommittedBatch, _) => {
            "takes back the state and offsets the last microbatch committed; no batch was \
             running"
                .to_string()
        }
        (RestoreFrom::CommittedOffsets, _) => {
            "starts with an empty state at the offsets the consumer last auto-committed".to_string()
        }
        (RestoreFrom::Earliest, _) => {
            "starts with an empty state and reads the input from its start".to_string()
        }
        _ => "starts from nothing: no state or offsets were saved yet".to_string(),
    };
    let mut out = format!("At {at} {} {source}. ", model.words());
    out.push_str(&format!("{} will be read again", records(replayed)));
    if skipped > 0 {
        out.push_str(&format!(", {} are skipped for good", records(skipped)));
    }
    if errors == 0 {
        out.push_str("; the state equals the exact count of the records before its positions.");
    } else {
        out.push_str(&format!(
            "; the state is {} short of the exact count of the records before its positions.",
            records(errors)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(at_ms: u64, kind: EosEventKind) -> String {
        narrate(&EosEvent { at_ms, kind })
    }

    #[test]
    fn a_restore_from_a_checkpoint_says_what_is_replayed_and_that_the_state_is_exact() {
        let text = said(
            24_500,
            EosEventKind::JobRestarted {
                model: Model::Checkpoint,
                epoch: 2,
                from: RestoreFrom::Checkpoint,
                restored: Some(5),
                replayed: 341,
                skipped: 0,
                state_errors: 0,
            },
        );
        assert!(text.contains("restores checkpoint 5"), "{text}");
        assert!(text.contains("341 records will be read again"), "{text}");
        assert!(text.contains("equals the exact count"), "{text}");
    }

    #[test]
    fn a_restart_without_checkpoints_counts_what_it_skipped_and_how_far_off_it_is() {
        let text = said(
            24_500,
            EosEventKind::JobRestarted {
                model: Model::NoCheckpoint,
                epoch: 2,
                from: RestoreFrom::CommittedOffsets,
                restored: None,
                replayed: 0,
                skipped: 12,
                state_errors: 2_300,
            },
        );
        assert!(text.contains("auto-committed"), "{text}");
        assert!(text.contains("12 records are skipped"), "{text}");
        assert!(text.contains("2300 records short"), "{text}");
    }

    #[test]
    fn a_checkpoint_says_whether_it_waited_for_a_barrier_or_stored_the_records_in_flight() {
        let aligned = said(
            12_000,
            EosEventKind::CheckpointCompleted {
                checkpoint: 3,
                alignment_ms: 1_500,
                last_partition: 2,
                duration_ms: 1_700,
                inflight_records: 0,
                unaligned: false,
            },
        );
        assert!(aligned.contains("held its other inputs back for 1.5 s"));
        assert!(aligned.contains("partition 2's barrier"), "{aligned}");
        let unaligned = said(
            12_000,
            EosEventKind::CheckpointCompleted {
                checkpoint: 3,
                alignment_ms: 0,
                last_partition: 0,
                duration_ms: 200,
                inflight_records: 37,
                unaligned: true,
            },
        );
        assert!(
            unaligned.contains("37 records still on their way"),
            "{unaligned}"
        );
    }

    #[test]
    fn a_duplicate_email_names_the_record_and_why_no_checkpoint_helps() {
        let text = said(
            25_000,
            EosEventKind::FirstDuplicate {
                model: Model::Checkpoint,
                sink: SinkKind::Email,
                partition: 1,
                offset: 440,
            },
        );
        assert!(text.contains("sends the email for record 1:440 a second time"));
        assert!(text.contains("no checkpoint can take back"), "{text}");
    }

    #[test]
    fn the_zombie_story_names_the_settings_and_what_fencing_did() {
        let lost = said(
            25_000,
            EosEventKind::InstanceLost {
                epoch: 1,
                heartbeat_timeout_ms: 10_000,
            },
        );
        assert!(lost.contains("heartbeat.timeout (10 s)"), "{lost}");
        let started = said(
            26_000,
            EosEventKind::ReplacementStarted {
                epoch: 2,
                checkpoint: Some(3),
                fencing: Fencing::Epoch,
            },
        );
        assert!(started.contains("registers epoch 2"), "{started}");
        let refused = said(
            35_000,
            EosEventKind::ZombieFirstWrite {
                epoch: 1,
                key: 4,
                outcome: WriteOutcome::Refused,
                fencing: Fencing::TransactionalId,
            },
        );
        assert!(refused.contains("ProducerFencedException"), "{refused}");
        let stale = said(
            35_000,
            EosEventKind::ZombieFirstWrite {
                epoch: 1,
                key: 4,
                outcome: WriteOutcome::Stale,
                fencing: Fencing::None,
            },
        );
        assert!(stale.contains("an older count lands over a newer one"));
        let stopped = said(
            45_000,
            EosEventKind::ZombieStopped {
                epoch: 1,
                writes: 900,
                stale: 900,
                refused: 0,
            },
        );
        assert!(
            stopped.contains("Of its 900 writes, 900 landed"),
            "{stopped}"
        );
    }

    #[test]
    fn a_failure_says_what_each_model_loses() {
        let batch = said(
            23_500,
            EosEventKind::JobFailed {
                model: Model::Microbatch,
                epoch: 1,
                since_restore_point: 120,
                rolled_back: 0,
            },
        );
        assert!(batch.contains("never committed"), "{batch}");
        let flink = said(
            23_500,
            EosEventKind::JobFailed {
                model: Model::Checkpoint,
                epoch: 1,
                since_restore_point: 341,
                rolled_back: 341,
            },
        );
        assert!(flink.contains("341 writes of open transactions"), "{flink}");
    }
}
