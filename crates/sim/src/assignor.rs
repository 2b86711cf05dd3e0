//! Kafka's partition assignors (placeholder until implemented).
