//! Replication and durability: the family behind the "replication" lesson.
//!
//! Every other lesson says "the broker keeps it". This family shows what keeping it costs and
//! when it fails: a few brokers, each partition with a leader and followers copying its log,
//! the in-sync replica set (ISR) and the high watermark, a producer choosing `acks`,
//! `min.insync.replicas`, retries and idempotence, and faults (a crash, a network partition, a
//! slow follower) that the controller answers with fencing and elections, clean or unclean.
//! What comes out is counted against what the producer was told: records acknowledged and then
//! lost, writes refused, duplicates written by retries, and the latency each `acks` setting
//! pays. Every number emerges from the rules below; no outcome is scripted.
//!
//! # Pieces
//!
//! [`ReplicationScenario`] (serde, validated against [`knobs::KNOBS`]) fixes everything.
//! [`ReplicationWorld`] (`world.rs`) runs three [`Lane`]s, one per `acks` setting, on the same
//! faults; a lane (`lane.rs`) is a whole cluster on its own event queue, acted on by
//! `producer.rs`, `leader.rs` (produce, fetch, the high watermark), `follower.rs` (fetching,
//! truncation), `controller.rs` (faults, fencing, elections, the ISR) and `consumer.rs`;
//! `log.rs` is a replica's log with its leader-epoch cache, `ledger.rs` what became of every
//! record. [`events`] holds the typed events and their narration, `invariants.rs` what must
//! hold after every tick, `snapshot.rs` the picture, `simulation.rs` the family contract and
//! the figures, `presets.rs` the presets and the lesson's default.
//!
//! # Determinism
//!
//! Integer milliseconds; network jitter and retry jitter from one seeded PCG stream per lane;
//! queues keyed by (time, order queued); only `Vec`s and `BTreeMap`s are iterated.
//!
//! # Simplifications
//!
//! [`SIMPLIFICATIONS`] lists where the model departs from Kafka; the lesson shows the list.

mod consumer;
mod controller;
pub mod events;
mod follower;
mod invariants;
pub mod knobs;
pub mod lane;
mod leader;
pub mod ledger;
pub mod log;
mod presets;
pub mod producer;
mod scenario;
mod simulation;
mod snapshot;
mod validate;
mod world;

pub use events::{narrate, EventKind, FailCause, ReplicationEvent, ShrinkCause};
pub use lane::{Lane, Sample};
pub use presets::{
    acks_1_leader_crash, acks_all_min_isr_2, idempotent_producer, isr_shrinks_not_enough_replicas,
    lesson_default, preset, retries_without_idempotence_duplicate, unclean_election_loses_writes,
    Preset, LESSONS, PRESETS,
};
pub use scenario::{
    Acks, ClusterSpec, Fault, FaultKind, ProducerSpec, ReplicationScenario, TopicSpec, MAX_BROKERS,
    MAX_DURATION_MS, MAX_FAULTS, MAX_PARTITIONS, MAX_RECORDS,
};
pub use snapshot::{
    BrokerPicture, CellPicture, CellState, LanePicture, PartitionPicture, ReplicaPicture,
    ReplicaRole, ReplicationSnapshot, WINDOW_CELLS,
};
pub use world::ReplicationWorld;

/// Where the model is simpler than Kafka, in a learner's words.
pub const SIMPLIFICATIONS: &[&str] = &[
    "The controller is one node that never fails and decides at once: KRaft's quorum of \
     controllers, its metadata log and the delay before brokers apply a change are not \
     modelled. A broker is fenced exactly broker.session.timeout.ms after it crashed or was \
     cut off (Kafka fences it between broker.session.timeout.ms and that minus one \
     broker.heartbeat.interval.ms after its last heartbeat).",
    "A restarted broker registers and is unfenced at once, with its whole log intact (a \
     process crash: the page cache survives). After a power loss Kafka could also lose what \
     was not yet flushed to disk; it relies on replication rather than fsync.",
    "Leader epochs are modelled as Kafka keeps them (each record carries the epoch of the \
     leader that wrote it, each replica caches where each epoch starts, and a returning \
     replica truncates where the epochs disagree, as in KIP-101 and KIP-320), but the \
     truncation happens inside the fetch loop, without a separate OffsetsForLeaderEpoch \
     request.",
    "The high watermark is the smallest log end in the ISR. Kafka 4's eligible leader \
     replicas (KIP-966), which also hold the high watermark back until min.insync.replicas \
     replicas have a record and widen who may be elected, are not modelled.",
    "The producer keeps one request in flight per partition (as with \
     max.in.flight.requests.per.connection=1; Kafka's default is 5), sends a batch as soon as \
     the previous one is answered (linger.ms=0; Kafka 4.0's default is 5 ms), and batches at \
     most 160 records (batch.size of 100-byte records). Records go round-robin over the \
     partitions.",
    "An idempotent leader recognises a retry by looking for its first record among the last \
     five batches of its log; Kafka keeps each producer's last five batch sequence numbers. \
     Out-of-order sequence errors and producer epoch bumps are not modelled.",
    "Replica placement is fixed: partition p's replicas are brokers p+1, p+2, … in turn, the \
     first one the preferred leader. Rack awareness, preferred-leader rebalancing and \
     reassignments are not modelled.",
    "A network partition cuts one broker off from the other brokers and the controller; \
     producers and the consumer still reach it. A fetch that cannot reach its leader is \
     retried after replica.fetch.backoff.ms (1 s). The producer refreshes its metadata after \
     any failed request and every metadata.max.age.ms; its metadata is always the \
     controller's latest.",
    "The broker answers an acks=all write only when the high watermark covers it and drops it \
     at request.timeout.ms; the producer's own request.timeout.ms decides the retry. A slow \
     follower is slow only at fetching; as a leader it works at normal speed.",
    "The consumer reads every partition from its leader every 100 ms, up to the high \
     watermark, and commits nothing; after an unclean election moves the log end below its \
     position it starts again at the high watermark.",
    "Each message between two nodes takes the network delay plus up to as much again, drawn \
     from the seed; brokers process requests instantly and never run out of disk, memory or \
     threads.",
];
