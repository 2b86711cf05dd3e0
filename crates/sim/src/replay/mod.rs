//! The replay machinery every lesson family shares: seeded random streams, the sorts that give
//! the same order natively and in WebAssembly, the trace hash, and share links.

pub mod rng;
pub mod share;
pub mod sort;
pub mod trace;
