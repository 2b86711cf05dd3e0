//! The replay machinery every lesson family shares: seeded random streams, the sorts that give
//! the same order natively and in WebAssembly, the trace hash, the seekable timeline with its
//! checkpoints, and share links.

pub mod rng;
pub mod share;
pub mod sort;
pub mod timeline;
pub mod trace;
