//! The lesson families, each a folder: its link reading, its stage (the pictures), its view
//! model (what it derives from the core's snapshots for drawing) and its knobs.

pub mod databases;
pub mod eventtime;
pub mod exactly_once;
pub mod joins;
pub mod kafka;
pub mod practice;
pub mod queues;
pub mod replication;
