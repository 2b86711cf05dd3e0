//! One consumer process: whether it is alive, what it believes it owns, and what it is doing.
//!
//! A member's view can differ from the coordinator's: a member removed for missing
//! `max.poll.interval.ms` keeps working through the batch it holds (a "zombie") until its next
//! `poll()` tells it otherwise. So batch progress lives here, not in the group; only the
//! partition's legitimate owner moves the group's processed offset.

use crate::kafka::events::Id;

/// Whether the process is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Liveness {
    Running,
    /// Died without a word; the coordinator notices only when heartbeats stop for
    /// `session.timeout.ms`.
    Crashed,
    /// Shut down cleanly with `close()`.
    Stopped,
    /// A stop-the-world pause: neither processing nor heartbeats until `until_ms`.
    Paused {
        since_ms: u64,
        until_ms: u64,
    },
}

/// What the member's processing thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// About to poll or to start its next record, at the current tick.
    Ready,
    /// Inside `poll()`: waiting for records, or for a rebalance to finish, until `until_ms`
    /// at the latest.
    Waiting { until_ms: u64 },
    /// Handling one record.
    Processing {
        partition: u32,
        offset: u64,
        started_ms: u64,
        done_ms: u64,
    },
}

/// Offsets `[from, to)` of one partition, returned by one poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchedRange {
    pub partition: u32,
    pub from: u64,
    pub to: u64,
}

/// One consumer process in the group.
#[derive(Clone, Debug)]
pub struct Member {
    /// `c1`, `c2`, ... (member ids order by their bytes, as Kafka's assignors sort them).
    pub id: Id,
    pub liveness: Liveness,
    /// The coordinator counts this member in the group.
    pub in_group: bool,
    /// It has (re)joined the rebalance in progress.
    pub joined: bool,
    /// A heartbeat told it a rebalance is in progress; it rejoins at its next `poll()`.
    pub rejoin_pending: bool,
    /// A static member that missed `max.poll.interval.ms`: it sent no LeaveGroup but reset
    /// its generation and stopped heartbeating; its next `poll()` rejoins with its
    /// `group.instance.id`.
    pub(crate) static_rejoin_pending: bool,
    /// The partitions the member believes it owns, ascending.
    pub assigned: Vec<u32>,
    /// What it owned when it rejoined the current rebalance: the sticky assignors' input,
    /// kept even after an eager member has revoked everything.
    pub(crate) owned_before_rebalance: Vec<u32>,
    /// Cooperative protocol: partitions the last assignment took away, given up (and
    /// committed) at the member's next `poll()`, which then asks for the follow-up rebalance.
    pub(crate) pending_revocation: Vec<u32>,
    pub activity: Activity,
    /// The records the last poll returned, as ranges; processed front to back.
    pub batch: Vec<FetchedRange>,
    /// Index into `batch` of the range being processed, and the next offset in it.
    pub(crate) batch_cursor: usize,
    pub(crate) batch_next: u64,
    /// Which owned partition the next poll starts at.
    pub(crate) poll_cursor: usize,
    pub(crate) last_auto_commit_ms: u64,
    /// When `poll()` was last called (the clock `max.poll.interval.ms` runs against).
    pub last_poll_ms: u64,
    /// When the last non-empty poll happened (for the fetch animation).
    pub last_fetch_ms: u64,
    /// When the coordinator last heard a heartbeat from this member.
    pub last_heartbeat_ms: u64,
    /// Processing takes this many times longer until `slow_until_ms`.
    pub(crate) slow_factor: u32,
    pub(crate) slow_until_ms: u64,
    /// Records this member finished processing (duplicates included).
    pub processed_total: u64,
    /// Failed attempts at the record in hand (a poison record being retried).
    pub attempts: u32,
}

impl Member {
    pub(crate) fn new(id: Id, now_ms: u64) -> Self {
        Self {
            id,
            liveness: Liveness::Running,
            in_group: false,
            joined: false,
            rejoin_pending: false,
            static_rejoin_pending: false,
            assigned: Vec::new(),
            owned_before_rebalance: Vec::new(),
            pending_revocation: Vec::new(),
            activity: Activity::Ready,
            batch: Vec::new(),
            batch_cursor: 0,
            batch_next: 0,
            poll_cursor: 0,
            last_auto_commit_ms: now_ms,
            last_poll_ms: now_ms,
            last_fetch_ms: 0,
            last_heartbeat_ms: now_ms,
            slow_factor: 1,
            slow_until_ms: 0,
            processed_total: 0,
            attempts: 0,
        }
    }

    pub fn is_running(&self) -> bool {
        self.liveness == Liveness::Running
    }

    /// It heard of a rebalance it has not rejoined yet: its next `poll()` joins.
    pub(crate) fn must_rejoin(&self) -> bool {
        self.rejoin_pending && !self.joined
    }

    /// Fetched records not yet processed (including the one in hand).
    pub fn unprocessed_in_batch(&self) -> u64 {
        self.batch
            .iter()
            .enumerate()
            .skip(self.batch_cursor)
            .map(|(i, range)| {
                let from = if i == self.batch_cursor {
                    self.batch_next
                } else {
                    range.from
                };
                range.to - from
            })
            .sum()
    }

    /// Forgets the current batch (after a crash, or when a new one is fetched).
    pub(crate) fn clear_batch(&mut self) {
        self.batch.clear();
        self.batch_cursor = 0;
        self.batch_next = 0;
    }

    /// The next record of the batch, skipping exhausted ranges.
    pub(crate) fn next_in_batch(&mut self) -> Option<(u32, u64)> {
        while let Some(range) = self.batch.get(self.batch_cursor) {
            let next = self.batch_next.max(range.from);
            if next < range.to {
                self.batch_next = next;
                return Some((range.partition, next));
            }
            self.batch_cursor += 1;
            self.batch_next = 0;
        }
        None
    }

    /// Whether the member legitimately owns `partition` in the coordinator's eyes. Asked for
    /// every record processed, so inlined by hand (the size build would call it).
    #[inline(always)]
    pub fn owns(&self, partition: u32) -> bool {
        self.in_group && self.assigned.binary_search(&partition).is_ok()
    }

    /// The processing-time multiplier in force at `now_ms`.
    pub(crate) fn slowdown_at(&self, now_ms: u64) -> u64 {
        if now_ms < self.slow_until_ms {
            u64::from(self.slow_factor)
        } else {
            1
        }
    }
}
