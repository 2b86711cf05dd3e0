//! A fixed-length array written in any order, held in shared chunks: cloning it (every
//! checkpoint of a timeline clones the world) copies one pointer per chunk, and a write after
//! a clone copies only the chunk it lands in. Suits a table sized for the whole run whose
//! writes gather near a moving frontier, such as the LSN each write request committed at.

use super::chunked::chunk_items;
use std::mem::size_of;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedSlots<T> {
    /// Chunks of [`Self::CHUNK_ITEMS`] slots (the last may be shorter), shared until written.
    chunks: Vec<Arc<Vec<T>>>,
    len: usize,
}

impl<T: Clone> SharedSlots<T> {
    /// `len` slots, each holding `value`.
    pub fn filled(len: usize, value: T) -> Self {
        let slots = vec![value; len];
        let chunks = (slots.chunks(Self::CHUNK_ITEMS))
            .map(|chunk| Arc::new(chunk.to_vec()))
            .collect();
        Self { chunks, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes slot `index`, copying its chunk first if a clone shares it.
    pub fn set(&mut self, index: usize, value: T) {
        let chunk = Arc::make_mut(&mut self.chunks[index / Self::CHUNK_ITEMS]);
        chunk[index % Self::CHUNK_ITEMS] = value;
    }

    /// Roughly the bytes a clone holds of its own: a pointer per chunk and, at most, the
    /// chunk the run is writing (the chunks behind it are shared).
    pub fn own_size_hint_bytes(&self) -> usize {
        self.chunks.len() * size_of::<Arc<Vec<T>>>()
            + Self::CHUNK_ITEMS.min(self.len) * size_of::<T>()
    }

    /// Roughly the bytes of every chunk, counted once however many clones share them.
    pub fn shared_size_hint_bytes(&self) -> usize {
        self.len * size_of::<T>()
    }
}

impl<T> SharedSlots<T> {
    /// Slots per chunk: as many as a shared sequence's chunk of the same items holds
    /// ([`chunk_items`]), so a write after a clone copies a few kilobytes at most.
    const CHUNK_ITEMS: usize = chunk_items(size_of::<T>());
}

/// No slots, as an empty array.
impl<T> Default for SharedSlots<T> {
    fn default() -> Self {
        Self {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

/// Slot `index`, as a slice indexes: past the end is a bug in the caller, and panics.
impl<T> std::ops::Index<usize> for SharedSlots<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        assert!(
            index < self.len,
            "slot {index} is past the end ({} slots)",
            self.len
        );
        &self.chunks[index / Self::CHUNK_ITEMS][index % Self::CHUNK_ITEMS]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Slots per chunk of the `u64` tables the tests use.
    const CHUNK_ITEMS: usize = SharedSlots::<u64>::CHUNK_ITEMS;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Writes anywhere, with clones taken between them, read back as a plain array's
        /// would be; a clone keeps what it held when it was taken.
        #[test]
        fn it_behaves_as_an_array_and_clones_keep_their_values(
            len in 0usize..5 * CHUNK_ITEMS,
            writes in prop::collection::vec((any::<usize>(), any::<u64>(), any::<bool>()), 0..300),
        ) {
            let (mut slots, mut plain) = (SharedSlots::filled(len, 7u64), vec![7u64; len]);
            let mut clones = Vec::new();
            for (at, value, clone_first) in writes {
                if clone_first {
                    clones.push((slots.clone(), plain.clone()));
                }
                if let Some(index) = at.checked_rem(len) {
                    slots.set(index, value);
                    plain[index] = value;
                }
            }
            clones.push((slots, plain));
            for (slots, plain) in clones {
                prop_assert_eq!(slots.len(), plain.len());
                prop_assert_eq!(slots.is_empty(), plain.is_empty());
                for (index, value) in plain.iter().enumerate() {
                    prop_assert_eq!(&slots[index], value);
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "past the end")]
    fn reading_past_the_end_panics_even_inside_the_last_chunk() {
        let slots = SharedSlots::filled(CHUNK_ITEMS + 3, 0u64);
        let _ = slots[CHUNK_ITEMS + 3];
    }

    /// What the timeline's memory budget is told: a long table costs a clone a pointer per
    /// chunk and one chunk of its own; the chunks themselves are counted once, as shared.
    #[test]
    fn a_long_table_counts_a_pointer_per_chunk_and_one_chunk_as_its_own() {
        let pointer = size_of::<Arc<Vec<u64>>>();
        let chunk_bytes = CHUNK_ITEMS * size_of::<u64>();
        let long = SharedSlots::filled(100 * CHUNK_ITEMS, 0u64);
        assert_eq!(long.own_size_hint_bytes(), 100 * pointer + chunk_bytes);
        assert_eq!(long.shared_size_hint_bytes(), 100 * chunk_bytes);
        let short = SharedSlots::filled(10, 0u64);
        assert_eq!(short.own_size_hint_bytes(), pointer + 10 * size_of::<u64>());
    }

    #[test]
    fn a_clone_shares_every_chunk_until_one_is_written() {
        let mut slots = SharedSlots::filled(3 * CHUNK_ITEMS, 0u64);
        let snapshot = slots.clone();
        slots.set(CHUNK_ITEMS + 5, 9);
        let shared = (slots.chunks.iter().zip(&snapshot.chunks))
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count();
        assert_eq!(shared, 2);
        assert_eq!((slots[CHUNK_ITEMS + 5], snapshot[CHUNK_ITEMS + 5]), (9, 0));
    }
}
