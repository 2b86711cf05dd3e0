//! Typed events: the one stream that narration, counters and the trace hash are derived from.
//!
//! The core appends an [`Event`] whenever something a learner should hear about happens: a
//! group gets an assignment, a member commits, a partition's lag crosses a threshold or drains.
//! Per-record work is not an event (it would be millions); it is folded into the trace hash
//! instead. [`narrate`] turns an event into a sentence that says what happened and why.
//!
//! Events hold ids, numbers and typed reasons, never prose: every word a learner reads is
//! chosen in [`narrate`], and the trace hash folds [`TraceHasher::write_json`](crate::replay::trace::TraceHasher::write_json), the typed
//! fields alone. So rewording a sentence changes no run's fingerprint, and the CLI's JSON can
//! be filtered by reason without parsing English.

use crate::assignor::Strategy;
use crate::kafka::scenario::{MemberAction, OffsetTarget};
use serde::Serialize;
use std::sync::Arc;

/// A group's or a member's id, shared by every event that names it: a member that commits
/// after every poll would otherwise copy both ids into each of tens of thousands of events.
/// It serializes as the plain string.
pub type Id = Arc<str>;

/// Something that happened at a simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// A group received a (new) assignment of the topic's partitions.
    Assigned {
        group_id: Id,
        generation: u32,
        strategy: Strategy,
        partition_count: u32,
        members: Vec<MemberPartitions>,
    },
    /// A member committed its positions.
    OffsetsCommitted {
        group_id: Id,
        member_id: Id,
        offsets: CommittedOffsets,
        cause: CommitCause,
    },
    /// The group entered PreparingRebalance.
    RebalanceStarted {
        group_id: Id,
        /// The generation that is ending.
        generation: u32,
        strategy: Strategy,
        reason: RebalanceReason,
    },
    /// The coordinator no longer counts the member in the group.
    MemberRemoved {
        group_id: Id,
        member_id: Id,
        reason: RemovalReason,
    },
    /// A member gave up partitions in a rebalance.
    PartitionsRevoked {
        group_id: Id,
        member_id: Id,
        partitions: Vec<u32>,
        /// Whether it committed its positions first.
        committed: bool,
    },
    /// A member learned it had been removed: its partitions are gone and its progress since
    /// the last commit cannot be committed any more.
    PartitionsLost {
        group_id: Id,
        member_id: Id,
        partitions: Vec<u32>,
    },
    /// A member took over a partition whose committed offset is behind what was already
    /// processed: those records will be processed again.
    Reprocessing {
        group_id: Id,
        member_id: Id,
        partition: u32,
        committed: u64,
        processed_to: u64,
    },
    /// A static member came back within `session.timeout.ms` and got its partitions back
    /// without a rebalance.
    StaticRejoin {
        group_id: Id,
        member_id: Id,
        partitions: Vec<u32>,
    },
    /// Something happened to a member from outside (a scheduled action).
    MemberAction {
        group_id: Id,
        member_id: Id,
        action: MemberAction,
        static_membership: bool,
    },
    /// A partition's lag rose past a threshold (100, 1000, ...); says why with rates.
    LagRising {
        group_id: Id,
        partition: u32,
        threshold: u64,
        lag: u64,
        /// Records appended to the partition per second, over the last few seconds.
        inflow_per_s: u64,
        /// The member that owns the partition, if any.
        owner: Option<MemberLoad>,
    },
    /// A partition whose lag had risen past the first threshold is caught up again.
    CaughtUp { group_id: Id, partition: u32 },
    /// A record failed; the error handler will retry it after the back-off, and the member
    /// reads nothing else meanwhile.
    RecordFailed {
        group_id: Id,
        member_id: Id,
        partition: u32,
        offset: u64,
        max_attempts: u32,
        backoff_ms: u64,
    },
    /// `auto.offset.reset=none` and a partition the consumer cannot place: its position is
    /// below the log start (`OffsetOutOfRangeException`) or it has no committed offset
    /// (`NoOffsetForPartitionException`). It reads nothing more there until an explicit reset.
    OffsetOutOfRange {
        group_id: Id,
        member_id: Id,
        partition: u32,
        /// The position that fell out of range; `None` when there was no committed offset.
        position: Option<u64>,
        log_start: u64,
    },
    /// A record that had failed succeeded on a later attempt: written once, not dead-lettered.
    RecordRecovered {
        group_id: Id,
        member_id: Id,
        partition: u32,
        offset: u64,
        /// The attempt that succeeded (2 = the first retry).
        attempts: u32,
    },
    /// A record used up its attempts: published to the dead-letter topic (or, with none,
    /// skipped), and its partition moves on.
    DeadLettered {
        group_id: Id,
        member_id: Id,
        partition: u32,
        offset: u64,
        attempts: u32,
        /// The dead-letter topic, or empty when the record was only skipped.
        topic: String,
    },
    /// Retention deleted records `[from, to)` of a partition before the group read them.
    LostToRetention {
        group_id: Id,
        partition: u32,
        from: u64,
        to: u64,
    },
    /// A member's application called `Admin.deleteRecords()` up to its group's committed
    /// offsets: `records` records left the log, for every group.
    RecordsDeleted {
        group_id: Id,
        member_id: Id,
        records: u64,
    },
    /// A `deleteRecords` call removed `from..to` of a partition before this group read them.
    LostToDeletion {
        group_id: Id,
        partition: u32,
        from: u64,
        to: u64,
    },
}

impl EventKind {
    /// A short category for styling and filtering: `assigned`, `commit`, `lag`, `caught-up`,
    /// `rebalance`, `member` or `loss`.
    pub fn category(&self) -> &'static str {
        match self {
            EventKind::Assigned { .. } => "assigned",
            EventKind::OffsetsCommitted { .. } => "commit",
            EventKind::LagRising { .. } => "lag",
            EventKind::CaughtUp { .. } => "caught-up",
            EventKind::RebalanceStarted { .. } | EventKind::StaticRejoin { .. } => "rebalance",
            EventKind::MemberRemoved { .. }
            | EventKind::PartitionsRevoked { .. }
            | EventKind::MemberAction { .. }
            | EventKind::RecordsDeleted { .. } => "member",
            EventKind::PartitionsLost { .. }
            | EventKind::Reprocessing { .. }
            | EventKind::LostToRetention { .. }
            | EventKind::LostToDeletion { .. }
            | EventKind::RecordFailed { .. }
            | EventKind::DeadLettered { .. }
            | EventKind::OffsetOutOfRange { .. } => "loss",
            EventKind::RecordRecovered { .. } => "caught-up",
        }
    }
}

/// A member and the partitions it owns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberPartitions {
    pub member_id: Id,
    pub partitions: Vec<u32>,
}

/// A partition and an offset in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionOffset {
    pub partition: u32,
    pub offset: u64,
}

/// A commit's offsets, in the order committed. A member that commits after every poll commits
/// one partition's offset tens of thousands of times a run: that one is held inline rather than
/// in a list of its own. It reads as a slice and serializes as a JSON array.
#[derive(Clone, Debug)]
pub enum CommittedOffsets {
    One(PartitionOffset),
    Many(Vec<PartitionOffset>),
}

impl std::ops::Deref for CommittedOffsets {
    type Target = [PartitionOffset];
    fn deref(&self) -> &[PartitionOffset] {
        match self {
            CommittedOffsets::One(offset) => std::slice::from_ref(offset),
            CommittedOffsets::Many(offsets) => offsets,
        }
    }
}

impl From<Vec<PartitionOffset>> for CommittedOffsets {
    fn from(offsets: Vec<PartitionOffset>) -> Self {
        match offsets[..] {
            [one] => CommittedOffsets::One(one),
            _ => CommittedOffsets::Many(offsets),
        }
    }
}

impl PartialEq for CommittedOffsets {
    /// Equal when they list the same offsets, however they hold them.
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for CommittedOffsets {}

impl Serialize for CommittedOffsets {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Why a member committed: which part of the consumer (or the application around it) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitCause {
    /// `enable.auto.commit`, inside `poll()` once `auto.commit.interval.ms` has passed.
    AutoCommit,
    /// Auto-commit or the rebalance listener, just before the member gives partitions up.
    BeforeRevoke,
    /// `close()`, a clean shutdown.
    OnClose,
    /// The application's `commitSync()` right after `poll()`, before any processing.
    BeforeProcessing,
    /// The application's `commitSync()` once the whole batch is processed.
    AfterBatch,
}

/// Why the coordinator stopped counting a member (the member is the event's `member_id`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RemovalReason {
    /// Its processing thread went `since_poll_ms` without calling `poll()`, past
    /// `max.poll.interval.ms`, so its heartbeat thread sent LeaveGroup.
    PollIntervalExceeded {
        since_poll_ms: u64,
        max_poll_interval_ms: u32,
    },
    /// The coordinator heard no heartbeat for `silent_ms`, past `session.timeout.ms`.
    SessionTimeout {
        silent_ms: u64,
        session_timeout_ms: u32,
    },
    /// A rebalance completed without it: it did not rejoin within the rebalance timeout,
    /// which is `max.poll.interval.ms`.
    RejoinTimeout { max_poll_interval_ms: u32 },
    /// A clean `close()` sent LeaveGroup.
    LeftGroup,
}

/// Why a group entered PreparingRebalance: a change of membership, named with the member it
/// concerns and the numbers that explain it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RebalanceReason {
    /// The first members of a group that has no generation yet; the coordinator waits
    /// `group.initial.rebalance.delay.ms` for more before assigning.
    GroupForming { initial_rebalance_delay_ms: u64 },
    /// A member joined a group that already had an assignment (a new, restarted or removed
    /// member).
    MemberJoined { member_id: Id },
    /// A member's clean `close()` sent LeaveGroup.
    MemberLeft { member_id: Id },
    /// A member's heartbeat thread left after `since_poll_ms` without a `poll()`.
    PollIntervalExceeded {
        member_id: Id,
        since_poll_ms: u64,
        max_poll_interval_ms: u32,
    },
    /// The coordinator declared a member dead after `silent_ms` without a heartbeat.
    SessionTimeout {
        member_id: Id,
        silent_ms: u64,
        session_timeout_ms: u32,
    },
    /// Cooperative protocol: a member gave up the partitions the first round took from it,
    /// and a second round hands them to their new owners.
    CooperativeFollowUp { member_id: Id, revoked_count: u32 },
}

/// How much a member can do: the context of a lag alert.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberLoad {
    pub member_id: Id,
    pub partitions: Vec<u32>,
    /// Mean processing time per record in ms.
    pub processing_time_ms: u32,
}

/// One sentence about `event`, in plain words.
pub fn narrate(event: &Event) -> String {
    match &event.kind {
        EventKind::Assigned {
            group_id,
            generation,
            strategy,
            partition_count,
            members,
        } => narrate_assignment(group_id, *generation, *strategy, *partition_count, members),
        EventKind::OffsetsCommitted {
            group_id,
            member_id,
            offsets,
            cause,
        } => format!(
            "{group_id}/{member_id} committed {} ({}): a new owner would resume there.",
            list_offsets(offsets),
            commit_cause_phrase(*cause)
        ),
        EventKind::RebalanceStarted {
            group_id,
            generation,
            strategy,
            reason,
        } => narrate_rebalance(group_id, *generation, *strategy, reason),
        EventKind::MemberRemoved {
            group_id,
            member_id,
            reason,
        } => format!(
            "{group_id}: {member_id} is out of the group: {}.",
            removal_phrase(member_id, *reason)
        ),
        EventKind::PartitionsRevoked {
            group_id,
            member_id,
            partitions,
            committed,
        } => format!(
            "{group_id}/{member_id} gave up {}{}.",
            list_partitions(partitions),
            if *committed {
                " after committing its positions"
            } else {
                " without committing: whoever gets them next starts from the last commit"
            }
        ),
        EventKind::PartitionsLost {
            group_id,
            member_id,
            partitions,
        } => format!(
            "{group_id}/{member_id} finished its batch and found it had been removed: {} are no longer its, and its commit fails (the generation moved on).",
            list_partitions(partitions)
        ),
        EventKind::Reprocessing {
            group_id,
            member_id,
            partition,
            committed,
            processed_to,
        } => format!(
            "{group_id}/{member_id} takes p{partition} from committed offset {committed}, but records up to {} were already processed: {} will be processed twice.",
            processed_to - 1,
            processed_to - committed
        ),
        EventKind::StaticRejoin {
            group_id,
            member_id,
            partitions,
        } => format!(
            "{group_id}/{member_id} rejoined with its group.instance.id and got {} back: no rebalance, the rest of the group never stopped.",
            if partitions.is_empty() { "nothing".to_string() } else { list_partitions(partitions) }
        ),
        EventKind::MemberAction {
            group_id,
            member_id,
            action,
            static_membership,
        } => narrate_action(group_id, member_id, *action, *static_membership),
        EventKind::LagRising {
            group_id,
            partition,
            threshold,
            lag,
            inflow_per_s,
            owner,
        } => narrate_lag(group_id, *partition, *threshold, *lag, *inflow_per_s, owner),
        EventKind::CaughtUp {
            group_id,
            partition,
        } => format!("{group_id}: p{partition} caught up; its lag is back near zero."),
        EventKind::RecordFailed {
            group_id,
            member_id,
            partition,
            offset,
            max_attempts,
            backoff_ms,
        } => format!(
            "{group_id}/{member_id} failed to process p{partition} offset {offset}; the error handler retries it every {backoff_ms} ms, up to {max_attempts} attempts, and nothing else {member_id} reads moves meanwhile."
        ),
        EventKind::OffsetOutOfRange {
            group_id,
            member_id,
            partition,
            position: Some(position),
            log_start,
        } => format!(
            "{group_id}/{member_id}: p{partition}'s position {position} is below the log start {log_start} (retention deleted it) and auto.offset.reset=none, so the consumer gets OffsetOutOfRangeException and reads nothing more from p{partition} until its offsets are reset."
        ),
        EventKind::OffsetOutOfRange {
            group_id,
            member_id,
            partition,
            position: None,
            ..
        } => format!(
            "{group_id}/{member_id}: p{partition} has no committed offset and auto.offset.reset=none, so the consumer gets NoOffsetForPartitionException and reads nothing from p{partition} until its offsets are reset."
        ),
        EventKind::RecordRecovered {
            group_id,
            member_id,
            partition,
            offset,
            attempts,
        } => format!(
            "{group_id}/{member_id} processed p{partition} offset {offset} on attempt {attempts}: the failure was transient, the record has one effect and nothing goes to the dead-letter topic."
        ),
        EventKind::DeadLettered {
            group_id,
            member_id,
            partition,
            offset,
            attempts,
            topic,
        } => {
            let fate = if topic.is_empty() {
                "skipped it (no dead-letter topic): its effect is lost".to_string()
            } else {
                format!("published it to {topic}")
            };
            format!("{group_id}/{member_id} gave up on p{partition} offset {offset} after {attempts} attempts and {fate}; the partition moves on.")
        }
        EventKind::LostToRetention {
            group_id,
            partition,
            from,
            to,
        } => format!(
            "Retention deleted p{partition} offsets {from}..{} before {group_id} read them: {} records it will never see.",
            to - 1,
            to - from
        ),
        EventKind::RecordsDeleted {
            group_id,
            member_id,
            records,
        } => format!(
            "{group_id}/{member_id} calls deleteRecords up to {group_id}'s committed offsets, treating the log as a queue: {records} records are gone for every group, not just this one."
        ),
        EventKind::LostToDeletion {
            group_id,
            partition,
            from,
            to,
        } => format!(
            "deleteRecords removed p{partition} offsets {from}..{} before {group_id} read them: {} records another application took from it.",
            to - 1,
            to - from
        ),
    }
}

/// The words in brackets after a commit, naming who committed.
fn commit_cause_phrase(cause: CommitCause) -> &'static str {
    match cause {
        CommitCause::AutoCommit => "auto-commit",
        CommitCause::BeforeRevoke => "before giving up partitions",
        CommitCause::OnClose => "on close",
        CommitCause::BeforeProcessing => "before processing",
        CommitCause::AfterBatch => "after the batch",
    }
}

/// Why `member_id` was removed, as the clause after "is out of the group:".
fn removal_phrase(member_id: &str, reason: RemovalReason) -> String {
    match reason {
        RemovalReason::PollIntervalExceeded {
            since_poll_ms,
            max_poll_interval_ms,
        } => poll_interval_exceeded_phrase(member_id, since_poll_ms, max_poll_interval_ms),
        RemovalReason::SessionTimeout {
            silent_ms,
            session_timeout_ms,
        } => session_timeout_phrase(member_id, silent_ms, session_timeout_ms),
        RemovalReason::RejoinTimeout {
            max_poll_interval_ms,
        } => format!(
            "{member_id} did not rejoin within the rebalance timeout (max.poll.interval.ms = {max_poll_interval_ms} ms)"
        ),
        RemovalReason::LeftGroup => left_group_phrase(member_id),
    }
}

// The three phrases below say why a member is out and also why the rebalance that follows
// starts, so both sentences use one wording.

fn poll_interval_exceeded_phrase(
    member_id: &str,
    since_poll_ms: u64,
    max_poll_interval_ms: u32,
) -> String {
    format!(
        "{member_id} spent {since_poll_ms} ms in one batch, past max.poll.interval.ms ({max_poll_interval_ms} ms), so its heartbeat thread left the group"
    )
}

fn session_timeout_phrase(member_id: &str, silent_ms: u64, session_timeout_ms: u32) -> String {
    format!(
        "no heartbeat from {member_id} for {silent_ms} ms (session.timeout.ms = {session_timeout_ms}): declared dead"
    )
}

fn left_group_phrase(member_id: &str) -> String {
    format!("{member_id} left the group cleanly (LeaveGroup)")
}

/// Why a rebalance starts, as the clause after "starts rebalancing:".
fn rebalance_phrase(reason: &RebalanceReason) -> String {
    match reason {
        RebalanceReason::GroupForming {
            initial_rebalance_delay_ms,
        } => format!(
            "a new group forms (group.initial.rebalance.delay.ms = {initial_rebalance_delay_ms})"
        ),
        RebalanceReason::MemberJoined { member_id } => format!("{member_id} joined"),
        RebalanceReason::MemberLeft { member_id } => left_group_phrase(member_id),
        RebalanceReason::PollIntervalExceeded {
            member_id,
            since_poll_ms,
            max_poll_interval_ms,
        } => poll_interval_exceeded_phrase(member_id, *since_poll_ms, *max_poll_interval_ms),
        RebalanceReason::SessionTimeout {
            member_id,
            silent_ms,
            session_timeout_ms,
        } => session_timeout_phrase(member_id, *silent_ms, *session_timeout_ms),
        RebalanceReason::CooperativeFollowUp {
            member_id,
            revoked_count,
        } => format!(
            "follow-up: {member_id} gave up {revoked_count} partition(s), which now need new owners"
        ),
    }
}

fn narrate_rebalance(
    group_id: &str,
    generation: u32,
    strategy: Strategy,
    reason: &RebalanceReason,
) -> String {
    let effect = if generation == 0 {
        "members join before the first assignment"
    } else if strategy.is_cooperative() {
        "members keep processing what they own; only partitions that move are revoked"
    } else {
        "every member gives up all its partitions at its next poll, so the group stops"
    };
    format!(
        "{group_id} starts rebalancing: {}. With {}, {effect}.",
        rebalance_phrase(reason),
        strategy.config_name()
    )
}

fn narrate_action(
    group_id: &str,
    member_id: &str,
    action: MemberAction,
    static_membership: bool,
) -> String {
    match action {
        MemberAction::Start if static_membership => format!(
            "{group_id}/{member_id} starts with its group.instance.id; if the coordinator still counts it, it gets its old partitions back without a rebalance."
        ),
        MemberAction::Start => format!("{group_id}/{member_id} starts and asks to join the group."),
        MemberAction::Leave | MemberAction::Restart { .. } if static_membership => format!(
            "{group_id}/{member_id} shuts down; as a static member it sends no LeaveGroup, so its partitions wait for it (up to session.timeout.ms)."
        ),
        MemberAction::Leave | MemberAction::Restart { .. } => {
            format!("{group_id}/{member_id} shuts down cleanly and sends LeaveGroup.")
        }
        MemberAction::Crash => format!(
            "{group_id}/{member_id} crashes without a word; the coordinator will only notice when its heartbeats have been missing for session.timeout.ms."
        ),
        MemberAction::Pause { duration_ms } => format!(
            "{group_id}/{member_id} freezes for {duration_ms} ms (a stop-the-world pause): no processing, no heartbeats."
        ),
        MemberAction::SlowDown { duration_ms, factor } => format!(
            "{group_id}/{member_id} gets {factor}× slower for {duration_ms} ms (a slow downstream); its heartbeats continue."
        ),
        MemberAction::ResetOffsets { to } => format!(
            "{group_id}'s offsets are reset to {}: every partition is read again from there.",
            match to {
                OffsetTarget::Earliest => "the earliest retained record".to_string(),
                OffsetTarget::Latest => "the log end (skipping everything waiting)".to_string(),
                OffsetTarget::Timestamp { at_ms } => format!("the first record appended at or after {at_ms} ms"),
            }
        ),
        MemberAction::DeleteRecords => format!(
            "{group_id}/{member_id} deletes the records its group has committed (Admin.deleteRecords, as kafka-delete-records does): the log start moves up for every group reading the topic."
        ),
    }
}

fn narrate_assignment(
    group_id: &str,
    generation: u32,
    strategy: Strategy,
    partition_count: u32,
    members: &[MemberPartitions],
) -> String {
    if members.is_empty() {
        return format!("{group_id} has no members: nobody reads its partitions, so lag grows.");
    }
    let working: Vec<String> = members
        .iter()
        .filter(|m| !m.partitions.is_empty())
        .map(|m| format!("{} got {}", m.member_id, list_partitions(&m.partitions)))
        .collect();
    let idle: Vec<&str> = members
        .iter()
        .filter(|m| m.partitions.is_empty())
        .map(|m| &*m.member_id)
        .collect();
    let mut sentence = format!(
        "{group_id}, generation {generation} ({}): {}.",
        strategy.config_name(),
        working.join("; ")
    );
    if !idle.is_empty() {
        sentence.push_str(&format!(
            " {} idle: {partition_count} partitions can keep at most {partition_count} members busy.",
            join_names(&idle)
        ));
    }
    sentence
}

fn narrate_lag(
    group_id: &str,
    partition: u32,
    threshold: u64,
    lag: u64,
    inflow_per_s: u64,
    owner: &Option<MemberLoad>,
) -> String {
    let head = format!(
        "{group_id}: p{partition}'s lag passed {} ({lag} records behind); it receives about {inflow_per_s}/s",
        thousands(threshold)
    );
    match owner {
        None => format!("{head}, and no member owns it."),
        Some(load) if load.processing_time_ms == 0 => format!("{head}."),
        Some(load) => {
            let capacity_per_s = 1000 / u64::from(load.processing_time_ms);
            let share = if load.partitions.len() > 1 {
                format!(
                    ", shared across its {} partitions ({})",
                    load.partitions.len(),
                    list_partitions(&load.partitions)
                )
            } else {
                String::new()
            };
            format!(
                "{head}, but its owner {} handles one record at a time, {} ms each: at most {capacity_per_s}/s{share}.",
                load.member_id, load.processing_time_ms
            )
        }
    }
}

fn list_partitions(partitions: &[u32]) -> String {
    let names: Vec<String> = partitions.iter().map(|p| format!("p{p}")).collect();
    names.join(", ")
}

fn list_offsets(offsets: &[PartitionOffset]) -> String {
    let parts: Vec<String> = offsets
        .iter()
        .map(|o| format!("p{} at {}", o.partition, o.offset))
        .collect();
    parts.join(", ")
}

fn join_names(names: &[&str]) -> String {
    match names {
        [one] => format!("{one} is"),
        [rest @ .., last] => format!("{} and {last} are", rest.join(", ")),
        [] => String::new(),
    }
}

/// `12345` as `12,345`.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(partition: u32, offset: u64) -> PartitionOffset {
        PartitionOffset { partition, offset }
    }

    #[test]
    fn a_commits_offsets_read_and_serialize_as_the_list_they_are_however_held() {
        let one = CommittedOffsets::from(vec![at(2, 40)]);
        assert!(
            matches!(one, CommittedOffsets::One(_)),
            "one offset needs no list"
        );
        let listed = CommittedOffsets::Many(vec![at(2, 40)]);
        assert_eq!(one, listed, "the same offsets, held either way");
        assert_ne!(one, CommittedOffsets::from(vec![at(2, 41)]));
        let two = CommittedOffsets::from(vec![at(0, 120), at(3, 7)]);
        assert_eq!(&*two, &[at(0, 120), at(3, 7)]);
        assert_ne!(two, CommittedOffsets::from(vec![at(0, 120)]));
        assert_eq!(
            serde_json::to_string(&one).unwrap(),
            r#"[{"partition":2,"offset":40}]"#
        );
        assert_eq!(
            serde_json::to_string(&two).unwrap(),
            r#"[{"partition":0,"offset":120},{"partition":3,"offset":7}]"#
        );
        assert_eq!(
            serde_json::to_string(&CommittedOffsets::from(vec![])).unwrap(),
            "[]"
        );
    }

    fn assigned(members: Vec<(&str, Vec<u32>)>) -> Event {
        Event {
            at_ms: 0,
            kind: EventKind::Assigned {
                group_id: "search".into(),
                generation: 1,
                strategy: Strategy::Range,
                partition_count: 6,
                members: members
                    .into_iter()
                    .map(|(id, partitions)| MemberPartitions {
                        member_id: id.into(),
                        partitions,
                    })
                    .collect(),
            },
        }
    }

    #[test]
    fn an_assignment_names_who_got_what_and_who_is_idle() {
        let text = narrate(&assigned(vec![
            ("c1", vec![0, 1]),
            ("c2", vec![2]),
            ("c3", vec![]),
            ("c4", vec![]),
        ]));
        assert!(text.contains("c1 got p0, p1"), "{text}");
        assert!(text.contains("c3 and c4 are idle"), "{text}");
        assert!(text.contains("(range)"), "{text}");
    }

    #[test]
    fn a_lag_alert_explains_the_owners_ceiling() {
        let event = Event {
            at_ms: 0,
            kind: EventKind::LagRising {
                group_id: "search".into(),
                partition: 3,
                threshold: 1000,
                lag: 1004,
                inflow_per_s: 120,
                owner: Some(MemberLoad {
                    member_id: "c2".into(),
                    partitions: vec![2, 3],
                    processing_time_ms: 20,
                }),
            },
        };
        let text = narrate(&event);
        assert!(text.contains("passed 1,000"), "{text}");
        assert!(text.contains("at most 50/s"), "{text}");
        assert!(text.contains("p2, p3"), "{text}");
    }

    fn committed(cause: CommitCause) -> String {
        narrate(&Event {
            at_ms: 0,
            kind: EventKind::OffsetsCommitted {
                group_id: "search".into(),
                member_id: "c1".into(),
                offsets: vec![
                    PartitionOffset {
                        partition: 0,
                        offset: 120,
                    },
                    PartitionOffset {
                        partition: 3,
                        offset: 7,
                    },
                ]
                .into(),
                cause,
            },
        })
    }

    #[test]
    fn an_auto_commit_is_narrated_as_such() {
        assert_eq!(
            committed(CommitCause::AutoCommit),
            "search/c1 committed p0 at 120, p3 at 7 (auto-commit): a new owner would resume there."
        );
    }

    #[test]
    fn a_commit_before_a_revocation_says_so() {
        assert_eq!(
            committed(CommitCause::BeforeRevoke),
            "search/c1 committed p0 at 120, p3 at 7 (before giving up partitions): a new owner would resume there."
        );
    }

    #[test]
    fn a_commit_on_close_says_so() {
        assert_eq!(
            committed(CommitCause::OnClose),
            "search/c1 committed p0 at 120, p3 at 7 (on close): a new owner would resume there."
        );
    }

    #[test]
    fn a_commit_before_processing_says_so() {
        assert_eq!(
            committed(CommitCause::BeforeProcessing),
            "search/c1 committed p0 at 120, p3 at 7 (before processing): a new owner would resume there."
        );
    }

    #[test]
    fn a_commit_after_the_batch_says_so() {
        assert_eq!(
            committed(CommitCause::AfterBatch),
            "search/c1 committed p0 at 120, p3 at 7 (after the batch): a new owner would resume there."
        );
    }

    fn removed(reason: RemovalReason) -> String {
        narrate(&Event {
            at_ms: 0,
            kind: EventKind::MemberRemoved {
                group_id: "search".into(),
                member_id: "c2".into(),
                reason,
            },
        })
    }

    #[test]
    fn a_removal_for_a_long_batch_names_max_poll_interval() {
        let text = removed(RemovalReason::PollIntervalExceeded {
            since_poll_ms: 30_250,
            max_poll_interval_ms: 30_000,
        });
        assert_eq!(
            text,
            "search: c2 is out of the group: c2 spent 30250 ms in one batch, past max.poll.interval.ms (30000 ms), so its heartbeat thread left the group."
        );
    }

    #[test]
    fn a_removal_for_silence_names_the_session_timeout() {
        let text = removed(RemovalReason::SessionTimeout {
            silent_ms: 45_003,
            session_timeout_ms: 45_000,
        });
        assert_eq!(
            text,
            "search: c2 is out of the group: no heartbeat from c2 for 45003 ms (session.timeout.ms = 45000): declared dead."
        );
    }

    #[test]
    fn a_removal_for_a_missed_rejoin_names_the_rebalance_timeout() {
        let text = removed(RemovalReason::RejoinTimeout {
            max_poll_interval_ms: 5_000,
        });
        assert_eq!(
            text,
            "search: c2 is out of the group: c2 did not rejoin within the rebalance timeout (max.poll.interval.ms = 5000 ms)."
        );
    }

    #[test]
    fn a_clean_leave_names_leave_group() {
        assert_eq!(
            removed(RemovalReason::LeftGroup),
            "search: c2 is out of the group: c2 left the group cleanly (LeaveGroup)."
        );
    }

    fn rebalance(generation: u32, strategy: Strategy, reason: RebalanceReason) -> String {
        narrate(&Event {
            at_ms: 0,
            kind: EventKind::RebalanceStarted {
                group_id: "search".into(),
                generation,
                strategy,
                reason,
            },
        })
    }

    const EAGER_EFFECT: &str =
        "With range, every member gives up all its partitions at its next poll, so the group stops.";

    #[test]
    fn a_forming_group_waits_for_the_initial_delay() {
        let text = rebalance(
            0,
            Strategy::Range,
            RebalanceReason::GroupForming {
                initial_rebalance_delay_ms: 3_000,
            },
        );
        assert_eq!(
            text,
            "search starts rebalancing: a new group forms (group.initial.rebalance.delay.ms = 3000). With range, members join before the first assignment."
        );
    }

    #[test]
    fn a_join_rebalances_and_an_eager_group_stops() {
        let text = rebalance(
            4,
            Strategy::Range,
            RebalanceReason::MemberJoined {
                member_id: "c3".into(),
            },
        );
        assert_eq!(
            text,
            format!("search starts rebalancing: c3 joined. {EAGER_EFFECT}")
        );
    }

    #[test]
    fn a_clean_leave_rebalances() {
        let text = rebalance(
            4,
            Strategy::Range,
            RebalanceReason::MemberLeft {
                member_id: "c3".into(),
            },
        );
        assert_eq!(
            text,
            format!(
                "search starts rebalancing: c3 left the group cleanly (LeaveGroup). {EAGER_EFFECT}"
            )
        );
    }

    #[test]
    fn a_long_batch_rebalances_and_names_max_poll_interval() {
        let text = rebalance(
            4,
            Strategy::Range,
            RebalanceReason::PollIntervalExceeded {
                member_id: "c3".into(),
                since_poll_ms: 5_120,
                max_poll_interval_ms: 5_000,
            },
        );
        assert_eq!(
            text,
            format!("search starts rebalancing: c3 spent 5120 ms in one batch, past max.poll.interval.ms (5000 ms), so its heartbeat thread left the group. {EAGER_EFFECT}")
        );
    }

    #[test]
    fn a_silent_member_rebalances_and_names_the_session_timeout() {
        let text = rebalance(
            4,
            Strategy::Range,
            RebalanceReason::SessionTimeout {
                member_id: "c3".into(),
                silent_ms: 10_004,
                session_timeout_ms: 10_000,
            },
        );
        assert_eq!(
            text,
            format!("search starts rebalancing: no heartbeat from c3 for 10004 ms (session.timeout.ms = 10000): declared dead. {EAGER_EFFECT}")
        );
    }

    #[test]
    fn a_cooperative_follow_up_says_only_moving_partitions_stop() {
        let text = rebalance(
            5,
            Strategy::CooperativeSticky,
            RebalanceReason::CooperativeFollowUp {
                member_id: "c1".into(),
                revoked_count: 2,
            },
        );
        assert_eq!(
            text,
            "search starts rebalancing: follow-up: c1 gave up 2 partition(s), which now need new owners. With cooperative-sticky, members keep processing what they own; only partitions that move are revoked."
        );
    }

    #[test]
    fn the_fingerprint_is_the_typed_fields_and_not_the_sentence() {
        let event = Event {
            at_ms: 12,
            kind: EventKind::RebalanceStarted {
                group_id: "search".into(),
                generation: 4,
                strategy: Strategy::Range,
                reason: RebalanceReason::SessionTimeout {
                    member_id: "c3".into(),
                    silent_ms: 10_004,
                    session_timeout_ms: 10_000,
                },
            },
        };
        let fingerprint = serde_json::to_string(&event).unwrap();
        assert_eq!(
            fingerprint,
            r#"{"at_ms":12,"type":"rebalance_started","group_id":"search","generation":4,"strategy":"range","reason":{"kind":"session_timeout","member_id":"c3","silent_ms":10004,"session_timeout_ms":10000}}"#
        );
        assert!(narrate(&event).contains("declared dead"));
        assert!(!fingerprint.contains("declared"), "{fingerprint}");
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
