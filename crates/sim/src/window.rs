//! Event-time windows (placeholder until implemented).
