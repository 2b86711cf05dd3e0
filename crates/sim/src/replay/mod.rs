//! The replay machinery every lesson family shares: seeded random streams, the sorts that give
//! the same order natively and in WebAssembly, the agenda that hands out timed items in one
//! order, the earliest of a world's due times, histories and tables shared in chunks between
//! checkpoints, the trace hash, and share links.

pub(crate) mod agenda;
pub mod chunked;
pub mod due;
pub mod rng;
pub mod share;
pub mod slots;
pub mod sort;
pub mod sorted_map;
pub mod trace;
