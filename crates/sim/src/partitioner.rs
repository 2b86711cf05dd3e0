//! Kafka's default partitioner for keyed records (placeholder until implemented).
