//! Queues and logs: the family behind the "queues" and "backpressure" lessons.
//!
//! A queue forgets a message once it is acknowledged; a log keeps every record for its
//! retention, however many readers read it. This family puts the two side by side on one
//! seed. Its scenario is [`QueuesScenario`]; `records.rs` draws the records and prices each
//! attempt, and `order.rs` judges whether a reader kept each key's order; `share_partition.rs`
//! is KIP-932's record state machine; [`events`] holds the typed events and their narration.
//! The three readers are `consumer_group.rs`, `share_group.rs` and `queue.rs`; `pipes.rs` holds
//! the backpressure and direct lanes and `kinesis.rs` a Kinesis stream's shards.

pub mod consumer_group;
pub mod events;
pub mod kinesis;
pub mod order;
pub mod pipes;
pub mod queue;
pub mod records;
mod scenario;
pub mod share_group;
pub mod share_partition;

pub use scenario::{
    BackpressureSpec, CrashSpec, KinesisSpec, LateReaderSpec, Mode, ProcessingSpec, ProducerSpec,
    QueueSpec, QueuesScenario, RepartitionSpec, ShareFailureAck, ShareGroupSpec, TopicSpec,
    MAX_CONSUMERS, MAX_DURATION_MS, MAX_PARTITIONS, MAX_RECORDS, SAMPLE_INTERVAL_MS,
};
