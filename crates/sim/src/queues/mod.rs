//! Queues and logs: the family behind the "queues" and "backpressure" lessons.
//!
//! A queue forgets a message once it is acknowledged; a log keeps every record for its
//! retention, however many readers read it and however often. This family puts the two side
//! by side on one seed and lets the differences come out of each system's rules:
//!
//! * **Three readers of one topic** (mode `readers`): a Kafka consumer group (one member per
//!   partition, in order, committing offsets), a Kafka 4 share group (KIP-932: records of a
//!   share-partition go Available → Acquired → Acknowledged or Archived under a record lock,
//!   with a delivery count and an in-flight window between SPSO and SPEO) and a classic queue
//!   broker (AMQP 0-9-1 in RabbitMQ's manner: prefetch, ack and nack with requeue,
//!   redelivery when a consumer dies or times out, deletion once acknowledged, a dead-letter
//!   queue after `x-delivery-limit` returns). The consumer group stops scaling at the
//!   partition count and never inverts a key's order; the share group and the queue scale
//!   past it, and invert per-key order through parallel consumers and redeliveries. A reader
//!   that arrives later finds the past in the log and nothing in the queue.
//! * **Backpressure** (mode `backpressure`): a producer faster than its consumer, answered by
//!   dropping, by a bounded in-memory buffer (that dies with the consumer's process, or
//!   spills to disk), by blocking the producer, and by a log (a durable buffer bounded by
//!   retention), with sampled rates, depths and losses for charts.
//! * **Direct delivery** (mode `direct`): UDP- or webhook-style delivery loses what arrives
//!   while the consumer is down; a broker keeps it.
//! * **Adding partitions** (mode `repartition`): keys move (Kafka's murmur2 partitioner) and a
//!   lagging consumer group finishes new records of a key before the old ones.
//! * **Kinesis** (mode `kinesis`): 1,000 records or 1 MiB per second per shard, the excess
//!   throttled with `ProvisionedThroughputExceededException`.
//!
//! # Pieces
//!
//! [`QueuesScenario`] (serde, validated against [`knobs::KNOBS`]) fixes everything;
//! `records.rs` draws the records and prices each attempt; `consumer_group.rs`,
//! `share_group.rs` (with `share_partition.rs`, the KIP-932 state machine) and `queue.rs` are
//! the readers, `order.rs` judges per-key order, `pipes.rs` the backpressure and direct lanes,
//! `kinesis.rs` the shards; [`QueuesWorld`] (`world.rs`) runs them tick by tick;
//! [`events`] holds the typed events and their narration, `invariants.rs` what must hold after
//! every tick, `snapshot.rs` the picture, `simulation.rs` the family contract and the figures,
//! `presets.rs` the presets and lessons.
//!
//! # Determinism
//!
//! Integer milliseconds throughout; keys come from a seeded PCG stream, processing times and
//! failures from a hash of (seed, record, attempt); only `Vec`s, `VecDeque`s and `BTree`
//! collections are iterated. The one float comparison (an attempt's failure) is of an exact
//! draw against the scenario's rate.
//!
//! # Simplifications
//!
//! [`SIMPLIFICATIONS`] lists where the model departs from the real brokers; the lessons show
//! the list.

pub mod consumer_group;
pub mod events;
mod invariants;
pub mod kinesis;
pub mod knobs;
mod lane_dues;
pub mod order;
pub mod pipes;
mod presets;
pub mod queue;
pub mod records;
mod scenario;
pub mod share_group;
pub mod share_partition;
mod simulation;
mod snapshot;
mod validate;
mod world;

pub use events::{InversionCause, PipeKind, QueuesEvent, QueuesEventKind, Reader};
pub use presets::{
    adding_partitions_moves_keys, backpressure_drop_buffer_block, direct_vs_broker,
    kinesis_shard_limit, late_reader_log_vs_queue, preset, queue_redelivery_reorders,
    share_group_scales_past_partitions, Preset, LESSONS, PRESETS,
};
pub use scenario::{
    BackpressureSpec, CrashSpec, KinesisSpec, LateReaderSpec, Mode, ProcessingSpec, ProducerSpec,
    QueueSpec, QueuesScenario, RepartitionSpec, ShareFailureAck, ShareGroupSpec, TopicSpec,
    MAX_CONSUMERS, MAX_DURATION_MS, MAX_PARTITIONS, MAX_RECORDS, SAMPLE_INTERVAL_MS,
};
pub use snapshot::{
    ConsumerPicture, KinesisPicture, PartitionPicture, PipePicture, QueuePicture, QueuesSnapshot,
    ReaderPicture, SharePartitionPicture,
};
pub use world::{pipe_kinds, LateReading, QueuesWorld, ReaderSample};

/// Where the model is simpler than the systems it shows, in a learner's words.
pub const SIMPLIFICATIONS: &[&str] = &[
    "Share group: members are spread over partitions by a simple rule (with at least as many \
     members as partitions, member i reads partition i mod P); Kafka's share-group assignor \
     balances differently, but it too gives one partition to several members.",
    "Share group: an acknowledgement reaches the broker the moment the consumer finishes the \
     record; the real client sends acknowledgements with its next poll or commit.",
    "Share group: a consumer processes every record its poll returned, even after the \
     acquisition lock ran out; its late acknowledgement is refused and the record may be \
     processed twice, as in Kafka.",
    "Consumer group: it commits after every record (commitSync after processing) and retries \
     a failed record in place until it succeeds; it has no dead-letter topic here.",
    "Groups: membership changes take effect at once, without the rounds of the rebalance \
     protocol; a dead member is removed exactly one session timeout after it died, and a \
     restarted one rejoins at once as a new member.",
    "Queue: modelled on a RabbitMQ quorum queue with one consumer per channel. Every return \
     (a nack with requeue, a dead consumer, a consumer timeout) counts toward x-delivery-limit, \
     as in RabbitMQ 4.0 to 4.2; RabbitMQ 4.3 counts only the returns it takes as failures. A \
     requeued message goes back to its original place in the queue, which RabbitMQ does when \
     it can.",
    "Queue: a consumer whose process dies closes its connection at once, so its messages are \
     requeued immediately; a host that vanishes without closing its connections is noticed \
     only after the heartbeat timeout.",
    "Queue: consumer_timeout fires exactly when it runs out (RabbitMQ checks periodically), \
     and the consumer subscribes again at once, abandoning the message in hand.",
    "Amazon SQS behaves like the queue here with its visibility timeout (30 s by default) in \
     place of consumer_timeout and the redrive policy's maxReceiveCount in place of \
     x-delivery-limit; SQS itself is not simulated.",
    "Kinesis: partition keys are spread over shards by a stand-in hash, not by MD5 over the \
     shards' hash-key ranges; the limits are counted per whole second; a throttled put is \
     not retried; resharding (SplitShard, MergeShards, after which a KCL consumer finishes a \
     parent shard before reading its children) is not modelled.",
    "Adding partitions: the producer and the consumer group see the new partitions at once \
     and the group reads them from their first offset; a real client notices them only at a \
     later metadata refresh (metadata.max.age.ms), and a consumer with \
     auto.offset.reset=latest may skip what was written to a new partition before it noticed \
     it.",
    "Retention: in the readers and partitions comparisons every reader reads within \
     retention.ms (validation asks for at least the run's length); only the backpressure \
     comparison's log lane deletes unread records, one by one rather than by whole segments.",
    "Processing: each attempt takes the mean plus or minus the spread, decided by the seed, \
     the record and the attempt, the same in every reader; fetching, acknowledging and the \
     network take no time.",
    "Backpressure: each lane has one consumer that takes one record at a time; records sent \
     while it is down are lost by the direct, drop and buffer lanes, and the blocking \
     producer waits; spilled records are read back as soon as memory has room.",
    "Late reader: readable_history is counted at the moment it arrives: on the log, every \
     record still within retention (a new group reading with auto.offset.reset=earliest); on \
     the queue, the ready messages no consumer holds.",
];
