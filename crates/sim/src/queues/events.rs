//! Typed events of the queues family and [`narrate`], the sentence for each.
//!
//! Events hold ids, counts, times and typed causes, never prose: the trace hash folds their
//! fields ([`TraceHasher::write_json`](crate::replay::trace::TraceHasher::write_json)) and every word a learner reads is chosen here.
//! Per-record work is not an event (a run completes tens of thousands of records); the
//! first order inversion of each reader is, and so are crashes, returns, expired locks,
//! archived and dead-lettered records, full buffers and throttled shards.

use serde::Serialize;

/// Something that happened at a simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueuesEvent {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: QueuesEventKind,
}

/// One of the three readers of the topic in the readers comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reader {
    /// A Kafka consumer group: one member per partition at a time.
    ConsumerGroup,
    /// A Kafka share group (KIP-932): records of one partition spread over many members.
    ShareGroup,
    /// A classic queue broker (AMQP 0-9-1, RabbitMQ's quorum queue).
    Queue,
}

impl Reader {
    pub const ALL: [Reader; 3] = [Reader::ConsumerGroup, Reader::ShareGroup, Reader::Queue];

    /// Its name in the figures and in sentences.
    pub fn name(self) -> &'static str {
        match self {
            Reader::ConsumerGroup => "consumer_group",
            Reader::ShareGroup => "share_group",
            Reader::Queue => "queue",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Reader::ConsumerGroup => "the consumer group",
            Reader::ShareGroup => "the share group",
            Reader::Queue => "the queue",
        }
    }
}

/// One lane of the backpressure and direct comparisons: how a consumer's input is carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PipeKind {
    /// Straight to the consumer (UDP, a webhook): nothing holds a record for it.
    Direct,
    /// A small buffer in the consumer's process; what does not fit is dropped.
    Drop,
    /// A large buffer in the consumer's memory (spilling to disk if asked).
    Buffer,
    /// A small buffer, and a producer that waits for room.
    Block,
    /// A log on a broker, bounded by retention.
    Log,
    /// A broker in the direct comparison: it keeps what arrives while the consumer is down.
    Broker,
}

impl PipeKind {
    /// Its name in the figures.
    pub fn name(self) -> &'static str {
        match self {
            PipeKind::Direct => "direct",
            PipeKind::Drop => "drop",
            PipeKind::Buffer => "buffer",
            PipeKind::Block => "block",
            PipeKind::Log => "log",
            PipeKind::Broker => "broker",
        }
    }

    /// Whether its records are kept outside the consumer's process.
    pub fn is_durable(self) -> bool {
        matches!(self, PipeKind::Log | PipeKind::Broker)
    }

    fn words(self) -> &'static str {
        match self {
            PipeKind::Direct => "the direct lane",
            PipeKind::Drop => "the drop lane",
            PipeKind::Buffer => "the memory-buffer lane",
            PipeKind::Block => "the blocking lane",
            PipeKind::Log => "the log lane",
            PipeKind::Broker => "the broker lane",
        }
    }
}

/// Why a share-group record was Archived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArchiveCause {
    /// Its delivery count reached `group.share.delivery.count.limit`.
    DeliveryLimit,
    /// Its consumer acknowledged it with `REJECT`.
    Rejected,
}

/// Why the queue broker took messages back from a consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnCause {
    /// The consumer's process died and its connection closed.
    ConsumerDied,
    /// A delivery stayed unacknowledged past `consumer_timeout`; the channel was closed.
    ConsumerTimeout,
}

/// Why a record finished after a later record of its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InversionCause {
    /// Two consumers were working on records of the same key at the same time.
    ParallelConsumers,
    /// The late record was a redelivery: its first consumer let it go or died.
    Redelivery,
    /// Its key moved to another partition when partitions were added, and the new
    /// partition's records were read first.
    KeyMoved,
}

/// What a full buffer does with the next record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FullAction {
    Drop,
    Spill,
    Block,
}

/// Which of a Kinesis shard's write limits a put ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShardLimit {
    /// 1,000 records per second.
    Records,
    /// 1 MiB per second.
    Bytes,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum QueuesEventKind {
    /// A consumer of a reader died, with this much work in its hands (the consumer group: the
    /// record it was processing; the share group: the records it had acquired; the queue:
    /// its unacknowledged deliveries).
    ConsumerCrashed {
        reader: Reader,
        consumer: u32,
        holding: u32,
    },
    /// A consumer's process is back.
    ConsumerRestarted { reader: Reader, consumer: u32 },
    /// The group coordinator gave up on a dead member after the session timeout.
    MemberRemoved {
        reader: Reader,
        consumer: u32,
        session_timeout_ms: u64,
    },
    /// A group (consumer or share) assigned the topic's partitions to its members.
    Assigned {
        reader: Reader,
        members: u32,
        partitions: u32,
        /// Members that got at least one partition.
        reading: u32,
    },
    /// A share consumer's acquisition lock ran out on records it still held.
    LocksExpired {
        consumer: u32,
        records: u32,
        /// Of those, Archived because their delivery count had reached the limit.
        archived: u32,
        lock_duration_ms: u64,
    },
    /// The coordinator removed a share-group member and released the records it still held.
    RecordsReleased {
        consumer: u32,
        records: u32,
        archived: u32,
    },
    /// A share-group record reached the Archived state.
    RecordArchived {
        partition: u32,
        offset: u64,
        key: u32,
        deliveries: u32,
        cause: ArchiveCause,
    },
    /// The queue broker took a consumer's unacknowledged messages back.
    MessagesReturned {
        consumer: u32,
        messages: u32,
        /// Of those, dead-lettered because they had been returned too often.
        dead_lettered: u32,
        cause: ReturnCause,
        consumer_timeout_ms: u64,
    },
    /// A message nacked once too often went to the dead-letter queue.
    MessageDeadLettered {
        seq: u32,
        key: u32,
        returns: u32,
        delivery_limit: u32,
    },
    /// The first time a reader completed a record after a later record of the same key.
    FirstInversion {
        reader: Reader,
        key: u32,
        seq: u32,
        after_seq: u32,
        cause: InversionCause,
    },
    /// A reader's backlog (records produced and not yet finished) passed a threshold.
    BacklogRising {
        reader: Reader,
        threshold: u64,
        backlog: u64,
        /// Consumers processing a record at this instant.
        busy: u32,
        /// Live consumers that have something they may read (for a consumer group: a
        /// partition).
        reading: u32,
        /// Live consumers.
        alive: u32,
        consumers: u32,
        partitions: u32,
    },
    /// A new reader arrived and looked at what it could read of the past.
    LateReaderJoined {
        produced: u64,
        log_readable: u64,
        queue_readable: u64,
        queue_deleted: u64,
        retention_ms: u64,
    },
    /// Partitions were added to the live topic.
    PartitionsAdded {
        from: u32,
        to: u32,
        keys: u32,
        keys_moved: u32,
    },
    /// A lane's consumer process died.
    PipeConsumerDown {
        lane: PipeKind,
        /// Records lost with its memory (its buffer and the record in hand).
        lost: u64,
        /// Records that survive it (on the broker, or spilled to disk).
        kept: u64,
    },
    /// A lane's consumer process is back.
    PipeConsumerUp {
        lane: PipeKind,
        lost_while_down: u64,
        down_ms: u64,
    },
    /// A lane's buffer filled for the first time.
    BufferFull {
        lane: PipeKind,
        capacity: u64,
        action: FullAction,
    },
    /// Retention deleted a log lane's unread records for the first time.
    RetentionDeleted {
        lane: PipeKind,
        records: u64,
        retention_ms: u64,
    },
    /// A Kinesis shard refused a put for the first time in a second.
    ShardThrottled {
        shard: u32,
        second_start_ms: u64,
        accepted_records: u32,
        accepted_bytes: u64,
        limit: ShardLimit,
    },
}

pub use crate::family::words::{count, duration};

fn key(key: u32) -> String {
    super::records::key_name(key)
}

fn consumer(id: u32) -> String {
    format!("consumer-{id}")
}

/// The sentence a learner reads for `event`.
pub fn narrate(event: &QueuesEvent) -> String {
    let at = duration(event.at_ms);
    match &event.kind {
        QueuesEventKind::ConsumerCrashed {
            reader,
            consumer: id,
            holding,
        } => narrate_crash(*reader, *id, *holding, &at),
        QueuesEventKind::ConsumerRestarted {
            reader,
            consumer: id,
        } => format!(
            "At {at} {} of {} is back and asks for work again.",
            consumer(*id),
            reader.words()
        ),
        QueuesEventKind::MemberRemoved {
            reader,
            consumer: id,
            session_timeout_ms,
        } => {
            let setting = match reader {
                Reader::ShareGroup => "group.share.session.timeout.ms",
                _ => "session.timeout.ms",
            };
            format!(
                "At {at} the coordinator removes {} from {}: no heartbeat for {setting} ({}). \
                 Its partitions go to the members still alive.",
                consumer(*id),
                reader.words(),
                duration(*session_timeout_ms)
            )
        }
        QueuesEventKind::Assigned {
            reader,
            members,
            partitions,
            reading,
        } => narrate_assignment(*reader, *members, *partitions, *reading, &at),
        QueuesEventKind::LocksExpired {
            consumer: id,
            records,
            archived,
            lock_duration_ms,
        } => {
            let archived = if *archived == 0 {
                String::new()
            } else {
                format!(
                    "; {} had used up group.share.delivery.count.limit and are Archived",
                    archived
                )
            };
            format!(
                "At {at} the acquisition lock on {} held by {} runs out after {} \
                 (group.share.record.lock.duration.ms): they are Available again for any \
                 member, their delivery count kept{archived}.",
                count(u64::from(*records), "record"),
                consumer(*id),
                duration(*lock_duration_ms)
            )
        }
        QueuesEventKind::RecordsReleased {
            consumer: id,
            records,
            archived,
        } => format!(
            "At {at} the share group releases the {} {} still held when it was removed: \
             {} Available again, {archived} Archived for having reached \
             group.share.delivery.count.limit.",
            count(u64::from(*records), "record"),
            consumer(*id),
            records - archived
        ),
        QueuesEventKind::RecordArchived {
            partition,
            offset,
            key: k,
            deliveries,
            cause,
        } => {
            let why = match cause {
                ArchiveCause::DeliveryLimit => format!(
                    "its {} reached group.share.delivery.count.limit",
                    if *deliveries == 1 {
                        "1 delivery".to_string()
                    } else {
                        format!("{deliveries} deliveries")
                    }
                ),
                ArchiveCause::Rejected => "its consumer acknowledged it with REJECT".to_string(),
            };
            format!(
                "At {at} the share group archives record {partition}@{offset} ({}): {why}. \
                 It will never be delivered again.",
                key(*k)
            )
        }
        QueuesEventKind::MessagesReturned {
            consumer: id,
            messages,
            dead_lettered,
            cause,
            consumer_timeout_ms,
        } => {
            let why = match cause {
                ReturnCause::ConsumerDied => format!("{}'s connection closed", consumer(*id)),
                ReturnCause::ConsumerTimeout => format!(
                    "a delivery to {} stayed unacknowledged for consumer_timeout ({}) and the \
                     broker closed its channel",
                    consumer(*id),
                    duration(*consumer_timeout_ms)
                ),
            };
            let dead = if *dead_lettered == 0 {
                String::new()
            } else {
                format!(
                    "; {} had been returned more than x-delivery-limit allows and go to the \
                     dead-letter queue instead",
                    dead_lettered
                )
            };
            format!(
                "At {at} {why}: the broker puts its {} back near the head of the queue, \
                 marked redelivered, for whichever consumer has room{dead}.",
                count(u64::from(*messages), "unacknowledged message")
            )
        }
        QueuesEventKind::MessageDeadLettered {
            seq,
            key: k,
            returns,
            delivery_limit,
        } => format!(
            "At {at} message #{seq} ({}) is nacked again: returned {returns} times, more than \
             x-delivery-limit ({delivery_limit}), it goes to the dead-letter queue.",
            key(*k)
        ),
        QueuesEventKind::FirstInversion {
            reader,
            key: k,
            seq,
            after_seq,
            cause,
        } => {
            let because = match cause {
                InversionCause::Redelivery => {
                    format!("#{seq} was redelivered after its first consumer let it go")
                }
                InversionCause::ParallelConsumers => {
                    "two consumers were working through records of the same key at once".to_string()
                }
                InversionCause::KeyMoved => format!(
                    "{} now goes to a new partition, whose records were read while #{seq} still \
                     waited in the old one",
                    key(*k)
                ),
            };
            format!(
                "At {at} {} finishes #{seq} of {} after #{after_seq}, a later record of the same \
                 key: the first order inversion, because {because}.",
                reader.words(),
                key(*k)
            )
        }
        QueuesEventKind::BacklogRising {
            reader,
            threshold,
            backlog,
            busy,
            reading,
            alive,
            consumers,
            partitions,
        } => narrate_backlog(
            *reader,
            *threshold,
            *backlog,
            Staff {
                busy: *busy,
                reading: *reading,
                alive: *alive,
                consumers: *consumers,
            },
            *partitions,
            &at,
        ),
        QueuesEventKind::LateReaderJoined {
            produced,
            log_readable,
            queue_readable,
            queue_deleted,
            retention_ms,
        } => format!(
            "At {at} a new reader arrives; {} were produced before it. The log still holds \
             {log_readable} of them (retention.ms is {}), and a new group reading from the \
             earliest offset reads them again. The queue can offer it {queue_readable}: {queue_deleted} were \
             acknowledged and deleted, and the rest are in other consumers' hands.",
            count(*produced, "record"),
            duration(*retention_ms)
        ),
        QueuesEventKind::PartitionsAdded {
            from,
            to,
            keys,
            keys_moved,
        } => format!(
            "At {at} the topic grows from {from} to {to} partitions. The partition is murmur2 of \
             the key modulo the count, so {keys_moved} of {keys} keys now land in a different \
             partition, while their older records still wait in the old one.",
        ),
        QueuesEventKind::PipeConsumerDown { lane, lost, kept } => {
            let fate = if lane.is_durable() {
                format!(
                    "the {} it had not finished stay on the broker, and it will resume at its \
                     committed offset",
                    count(*kept, "record")
                )
            } else if *lost == 0 && *kept == 0 {
                "nothing was waiting in its memory, so nothing is lost yet".to_string()
            } else if *kept > 0 {
                format!(
                    "{} waiting in its memory are gone; {kept} spilled to disk survive",
                    count(*lost, "record")
                )
            } else {
                format!("{} waiting in its memory are gone", count(*lost, "record"))
            };
            format!(
                "At {at} the consumer process of {} dies: {fate}.",
                lane.words()
            )
        }
        QueuesEventKind::PipeConsumerUp {
            lane,
            lost_while_down,
            down_ms,
        } => {
            let fate = if lane.is_durable() {
                "what arrived meanwhile waited on the broker".to_string()
            } else if *lane == PipeKind::Block {
                "its producer had to wait for it meanwhile".to_string()
            } else {
                format!(
                    "the {} sent while it was down were never received by anyone",
                    count(*lost_while_down, "record")
                )
            };
            format!(
                "At {at} the consumer of {} is back after {}: {fate}.",
                lane.words(),
                duration(*down_ms)
            )
        }
        QueuesEventKind::BufferFull {
            lane,
            capacity,
            action,
        } => {
            let next = match action {
                FullAction::Drop => "records that find no room are dropped",
                FullAction::Spill => "new records spill to disk, which survives a crash",
                FullAction::Block => {
                    "the producer waits for room, so its own sending rate falls to the consumer's"
                }
            };
            format!(
                "At {at} the buffer of {} is full ({}): from now on {next}.",
                lane.words(),
                count(*capacity, "record")
            )
        }
        QueuesEventKind::RetentionDeleted {
            lane,
            records,
            retention_ms,
        } => format!(
            "At {at} {} of {} passed retention.ms ({}) before its consumer read them: the log \
             deletes them unread. A log is a buffer bounded by retention.",
            count(*records, "record"),
            lane.words(),
            duration(*retention_ms)
        ),
        QueuesEventKind::ShardThrottled {
            shard,
            second_start_ms,
            accepted_records,
            accepted_bytes,
            limit,
        } => {
            let reached = match limit {
                ShardLimit::Records => {
                    format!("its limit of 1,000 records per second ({accepted_records} accepted)")
                }
                ShardLimit::Bytes => {
                    format!("its limit of 1 MiB per second ({accepted_bytes} bytes accepted)")
                }
            };
            format!(
                "At {at} shard {shard} has reached {reached} in the second from {}: further \
                 puts that second fail with ProvisionedThroughputExceededException.",
                duration(*second_start_ms)
            )
        }
    }
}

fn narrate_crash(reader: Reader, id: u32, holding: u32, at: &str) -> String {
    let who = consumer(id);
    match reader {
        Reader::ConsumerGroup => {
            let hand = if holding == 0 {
                "between records".to_string()
            } else {
                "in the middle of a record it had not committed".to_string()
            };
            format!(
                "At {at} {who} of the consumer group crashes {hand}. Nobody else may read its \
                 partitions until the coordinator removes it; the next owner starts at the \
                 committed offset, in order."
            )
        }
        Reader::ShareGroup => format!(
            "At {at} {who} of the share group crashes holding {}. They stay locked to it until \
             their acquisition lock runs out; the other members keep taking newer records \
             from the same partitions meanwhile.",
            count(u64::from(holding), "acquired record")
        ),
        Reader::Queue => format!(
            "At {at} {who} of the queue crashes with {} prefetched and not acknowledged.",
            count(u64::from(holding), "message")
        ),
    }
}

fn narrate_assignment(
    reader: Reader,
    members: u32,
    partitions: u32,
    reading: u32,
    at: &str,
) -> String {
    match reader {
        Reader::ShareGroup if members >= partitions => format!(
            "At {at} the share group spreads {} over {}: every member reads, and records of \
             one partition go to several members at once.",
            count(u64::from(partitions), "partition"),
            count(u64::from(members), "member")
        ),
        _ if reading < members => format!(
            "At {at} {} assigns {} to {}: {} get none and stay idle, since a consumer group \
             gives each partition to one member only.",
            reader.words(),
            count(u64::from(partitions), "partition"),
            count(u64::from(members), "member"),
            members - reading
        ),
        _ => format!(
            "At {at} {} assigns {} to {}.",
            reader.words(),
            count(u64::from(partitions), "partition"),
            count(u64::from(members), "member")
        ),
    }
}

/// A reader's consumers at one instant, as a backlog event counts them.
struct Staff {
    busy: u32,
    reading: u32,
    alive: u32,
    consumers: u32,
}

fn narrate_backlog(
    reader: Reader,
    threshold: u64,
    backlog: u64,
    staff: Staff,
    partitions: u32,
    at: &str,
) -> String {
    let Staff {
        busy,
        reading,
        alive,
        consumers,
    } = staff;
    let all = if consumers == 2 {
        "both consumers are".to_string()
    } else {
        format!("all {consumers} consumers are")
    };
    let why = if reader == Reader::ConsumerGroup && reading < alive && alive > partitions {
        format!(
            "only {reading} of its {alive} live consumers have a partition to read ({}); the \
             rest are idle, because a consumer group stops scaling at the partition count",
            count(u64::from(partitions), "partition")
        )
    } else if alive < consumers {
        let down = consumers - alive;
        let (down_verb, verb) = (
            if down == 1 { "is" } else { "are" },
            if busy == 1 { "is" } else { "are" },
        );
        format!(
            "{down} of its {consumers} consumers {down_verb} down, and {busy} of the rest \
             {verb} busy at this instant"
        )
    } else if busy < consumers {
        let verb = if busy == 1 { "is" } else { "are" };
        format!("{busy} of its {consumers} consumers {verb} busy at this instant")
    } else {
        format!("{all} busy: together they are slower than the producer")
    };
    format!(
        "At {at} {} has fallen {backlog} records behind (past {threshold}): {why}.",
        reader.words()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(at_ms: u64, kind: QueuesEventKind) -> String {
        narrate(&QueuesEvent { at_ms, kind })
    }

    #[test]
    fn a_consumer_group_crash_names_the_wait_and_the_committed_offset() {
        let text = said(
            20_000,
            QueuesEventKind::ConsumerCrashed {
                reader: Reader::ConsumerGroup,
                consumer: 0,
                holding: 1,
            },
        );
        assert!(
            text.starts_with("At 20 s consumer-0 of the consumer group"),
            "{text}"
        );
        assert!(text.contains("committed offset"), "{text}");
    }

    #[test]
    fn expired_locks_name_the_setting_and_what_was_archived() {
        let text = said(
            50_000,
            QueuesEventKind::LocksExpired {
                consumer: 3,
                records: 37,
                archived: 2,
                lock_duration_ms: 30_000,
            },
        );
        assert!(text.contains("37 records held by consumer-3"), "{text}");
        assert!(
            text.contains("group.share.record.lock.duration.ms"),
            "{text}"
        );
        assert!(
            text.contains("2 had used up group.share.delivery.count.limit"),
            "{text}"
        );
    }

    #[test]
    fn returned_messages_say_why_and_what_was_dead_lettered() {
        let died = said(
            1_000,
            QueuesEventKind::MessagesReturned {
                consumer: 0,
                messages: 50,
                dead_lettered: 0,
                cause: ReturnCause::ConsumerDied,
                consumer_timeout_ms: 1_800_000,
            },
        );
        assert!(died.contains("consumer-0's connection closed"), "{died}");
        assert!(died.contains("50 unacknowledged messages"), "{died}");
        assert!(!died.contains("dead-letter"), "{died}");
        let timed_out = said(
            1_000,
            QueuesEventKind::MessagesReturned {
                consumer: 1,
                messages: 1,
                dead_lettered: 1,
                cause: ReturnCause::ConsumerTimeout,
                consumer_timeout_ms: 1_800_000,
            },
        );
        assert!(
            timed_out.contains("consumer_timeout (30 min)"),
            "{timed_out}"
        );
        assert!(timed_out.contains("x-delivery-limit"), "{timed_out}");
    }

    #[test]
    fn an_inversion_names_its_cause() {
        let inversion = |cause| {
            said(
                3_000,
                QueuesEventKind::FirstInversion {
                    reader: Reader::ShareGroup,
                    key: 5,
                    seq: 812,
                    after_seq: 830,
                    cause,
                },
            )
        };
        let parallel = inversion(InversionCause::ParallelConsumers);
        assert!(parallel.contains("#812 of key-5 after #830"), "{parallel}");
        assert!(parallel.contains("two consumers"), "{parallel}");
        assert!(inversion(InversionCause::Redelivery).contains("redelivered"));
        let moved = inversion(InversionCause::KeyMoved);
        assert!(
            moved.contains("key-5 now goes to a new partition"),
            "{moved}"
        );
    }

    #[test]
    fn a_backlog_in_a_consumer_group_blames_the_partition_count() {
        let text = said(
            5_000,
            QueuesEventKind::BacklogRising {
                reader: Reader::ConsumerGroup,
                threshold: 1_000,
                backlog: 1_004,
                busy: 3,
                reading: 3,
                alive: 12,
                consumers: 12,
                partitions: 3,
            },
        );
        assert!(text.contains("1004 records behind (past 1000)"), "{text}");
        assert!(text.contains("only 3 of its 12 live consumers"), "{text}");
        assert!(
            text.contains("stops scaling at the partition count"),
            "{text}"
        );
        let queue = said(
            5_000,
            QueuesEventKind::BacklogRising {
                reader: Reader::Queue,
                threshold: 100,
                backlog: 100,
                busy: 12,
                reading: 12,
                alive: 12,
                consumers: 12,
                partitions: 3,
            },
        );
        assert!(queue.contains("all 12 consumers are busy"), "{queue}");
        let between = said(
            5_000,
            QueuesEventKind::BacklogRising {
                reader: Reader::ConsumerGroup,
                threshold: 100,
                backlog: 100,
                busy: 1,
                reading: 2,
                alive: 2,
                consumers: 2,
                partitions: 3,
            },
        );
        assert!(
            between.contains("1 of its 2 consumers is busy"),
            "{between}"
        );
        let down = said(
            5_000,
            QueuesEventKind::BacklogRising {
                reader: Reader::ConsumerGroup,
                threshold: 1_000,
                backlog: 1_000,
                busy: 1,
                reading: 1,
                alive: 1,
                consumers: 2,
                partitions: 3,
            },
        );
        assert!(down.contains("1 of its 2 consumers is down"), "{down}");
        assert!(!down.contains("partition count"), "{down}");
    }

    #[test]
    fn an_assignment_with_more_members_than_partitions_tells_who_idles() {
        let group = said(
            0,
            QueuesEventKind::Assigned {
                reader: Reader::ConsumerGroup,
                members: 12,
                partitions: 3,
                reading: 3,
            },
        );
        assert!(group.contains("9 get none and stay idle"), "{group}");
        let share = said(
            0,
            QueuesEventKind::Assigned {
                reader: Reader::ShareGroup,
                members: 12,
                partitions: 3,
                reading: 12,
            },
        );
        assert!(share.contains("every member reads"), "{share}");
    }

    #[test]
    fn the_late_reader_compares_the_log_with_the_queue() {
        let text = said(
            30_000,
            QueuesEventKind::LateReaderJoined {
                produced: 3_000,
                log_readable: 3_000,
                queue_readable: 0,
                queue_deleted: 2_990,
                retention_ms: 604_800_000,
            },
        );
        assert!(
            text.contains("3000 records were produced before it"),
            "{text}"
        );
        assert!(text.contains("retention.ms is 7 days"), "{text}");
        assert!(text.contains("The log still holds 3000"), "{text}");
        assert!(text.contains("The queue can offer it 0: 2990 were acknowledged and deleted"));
    }

    #[test]
    fn added_partitions_say_how_many_keys_moved() {
        let text = said(
            30_000,
            QueuesEventKind::PartitionsAdded {
                from: 3,
                to: 6,
                keys: 64,
                keys_moved: 31,
            },
        );
        assert!(text.contains("from 3 to 6 partitions"), "{text}");
        assert!(text.contains("31 of 64 keys"), "{text}");
    }

    #[test]
    fn a_pipe_crash_tells_lost_from_kept() {
        let memory = said(
            40_000,
            QueuesEventKind::PipeConsumerDown {
                lane: PipeKind::Buffer,
                lost: 4_000,
                kept: 0,
            },
        );
        assert!(
            memory.contains("4000 records waiting in its memory are gone"),
            "{memory}"
        );
        let log = said(
            40_000,
            QueuesEventKind::PipeConsumerDown {
                lane: PipeKind::Log,
                lost: 0,
                kept: 3_900,
            },
        );
        assert!(log.contains("stay on the broker"), "{log}");
        let blocked = said(
            45_000,
            QueuesEventKind::PipeConsumerUp {
                lane: PipeKind::Block,
                lost_while_down: 0,
                down_ms: 5_000,
            },
        );
        assert!(blocked.contains("its producer had to wait"), "{blocked}");
        let back = said(
            45_000,
            QueuesEventKind::PipeConsumerUp {
                lane: PipeKind::Direct,
                lost_while_down: 250,
                down_ms: 5_000,
            },
        );
        assert!(
            back.contains("250 records sent while it was down"),
            "{back}"
        );
    }

    #[test]
    fn a_full_buffer_says_what_happens_next() {
        let block = said(
            1_000,
            QueuesEventKind::BufferFull {
                lane: PipeKind::Block,
                capacity: 100,
                action: FullAction::Block,
            },
        );
        assert!(block.contains("the producer waits for room"), "{block}");
    }

    #[test]
    fn a_throttled_shard_names_the_limit_and_the_exception() {
        let text = said(
            12_400,
            QueuesEventKind::ShardThrottled {
                shard: 1,
                second_start_ms: 12_000,
                accepted_records: 1_000,
                accepted_bytes: 200_000,
                limit: ShardLimit::Records,
            },
        );
        assert!(text.contains("1,000 records per second"), "{text}");
        assert!(
            text.contains("ProvisionedThroughputExceededException"),
            "{text}"
        );
        assert!(text.contains("from 12 s"), "{text}");
    }

    #[test]
    fn released_records_of_a_removed_member_are_counted_by_fate() {
        let text = said(
            60_000,
            QueuesEventKind::RecordsReleased {
                consumer: 0,
                records: 12,
                archived: 2,
            },
        );
        assert!(
            text.contains("releases the 12 records consumer-0 still held"),
            "{text}"
        );
        assert!(text.contains("10 Available again, 2 Archived"), "{text}");
    }

    #[test]
    fn archived_and_dead_lettered_records_say_why() {
        let archived = said(
            9_000,
            QueuesEventKind::RecordArchived {
                partition: 2,
                offset: 812,
                key: 5,
                deliveries: 5,
                cause: ArchiveCause::DeliveryLimit,
            },
        );
        assert!(archived.contains("record 2@812 (key-5)"), "{archived}");
        assert!(archived.contains("5 deliveries reached"), "{archived}");
        let dead = said(
            9_000,
            QueuesEventKind::MessageDeadLettered {
                seq: 7,
                key: 1,
                returns: 21,
                delivery_limit: 20,
            },
        );
        assert!(dead.contains("x-delivery-limit (20)"), "{dead}");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(45_000), "45 s");
        assert_eq!(duration(40), "40 ms");
        assert_eq!(duration(0), "0 s");
        assert_eq!(duration(1_500), "1.5 s");
        assert_eq!(duration(1_800_000), "30 min");
        assert_eq!(duration(7_200_000), "2 h");
        assert_eq!(duration(604_800_000), "7 days");
    }
}
