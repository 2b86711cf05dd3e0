//! A growing sequence held in shared chunks, so that cloning it (every checkpoint of a
//! timeline clones the world) copies one pointer per full chunk and the last chunk's few
//! items instead of the whole history. Items can also be cut off the end, as a replica cuts
//! its log back to where it agrees with the leader; that copies back at most one chunk.
//!
//! Every family's event list is one of these (what [`Simulation::events`] returns), and so is
//! a replica's log. Kafka's partition logs (`kafka/topic.rs`) keep their records the same way
//! but lose them from the front (retention), so they have their own type.
//!
//! [`Simulation::events`]: crate::family::Simulation::events

use std::mem::size_of;
use std::sync::Arc;

/// Bytes of items per full chunk, at most: small enough that the open chunk a clone copies
/// stays cheap whatever the item (a fixed 1024 items had a clone copy up to 100 KB of an event
/// time event list's open chunk, every checkpoint), large enough that a long history is a few
/// hundred pointers.
const CHUNK_BYTES: usize = 8192;
/// Items per full chunk, at most: small items keep chunks of this many, as before chunks were
/// sized by bytes (more would make a write after a clone of a table of flags copy more).
const CHUNK_ITEMS_MAX: usize = 1024;

/// Items per full chunk for items of `item_bytes` bytes: as many as fit in [`CHUNK_BYTES`]
/// (at most [`CHUNK_ITEMS_MAX`]), rounded down to a power of two (an index then splits into
/// chunk and place by a shift and a mask), and at least 16.
pub(crate) const fn chunk_items(item_bytes: usize) -> usize {
    let fit = CHUNK_BYTES / if item_bytes == 0 { 1 } else { item_bytes };
    if fit < 16 {
        16
    } else if fit > CHUNK_ITEMS_MAX {
        CHUNK_ITEMS_MAX
    } else {
        1 << (usize::BITS - 1 - fit.leading_zeros())
    }
}

/// Items in order, by index from 0. Two sequences with the same items are laid out the same
/// way (every full chunk is sealed, the rest is open), so comparing the layout compares the
/// items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkedVec<T> {
    /// Full chunks, oldest first, each exactly [`Self::CHUNK_ITEMS`] long; shared between clones.
    /// A `Vec` behind the pointer, not a slice, so that sealing moves the open chunk's buffer
    /// (`Arc<[T]>` would copy it into an allocation with room for its counts).
    sealed: Vec<Arc<Vec<T>>>,
    /// The chunk pushes go to; always shorter than [`Self::CHUNK_ITEMS`].
    open: Vec<T>,
}

impl<T> Default for ChunkedVec<T> {
    fn default() -> Self {
        Self {
            sealed: Vec::new(),
            open: Vec::new(),
        }
    }
}

impl<T> ChunkedVec<T> {
    /// Items per full chunk ([`chunk_items`] of the item's size).
    pub(crate) const CHUNK_ITEMS: usize = chunk_items(size_of::<T>());

    pub fn len(&self) -> usize {
        self.sealed_len() + self.open.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many items sit in sealed chunks, which clones share.
    pub fn sealed_len(&self) -> usize {
        self.sealed.len() * Self::CHUNK_ITEMS
    }

    /// Roughly the bytes a clone holds of its own: the open chunk's items and one pointer per
    /// sealed chunk (what the items point to, if anything, is not counted).
    pub fn own_size_hint_bytes(&self) -> usize {
        self.open.len() * size_of::<T>() + self.sealed.len() * size_of::<Arc<Vec<T>>>()
    }

    /// Roughly the bytes of the sealed chunks, which clones share.
    pub fn shared_size_hint_bytes(&self) -> usize {
        self.sealed_len() * size_of::<T>()
    }

    pub fn get(&self, index: usize) -> Option<&T> {
        self.chunk(index / Self::CHUNK_ITEMS)
            .get(index % Self::CHUNK_ITEMS)
    }

    pub fn last(&self) -> Option<&T> {
        self.open.last().or_else(|| self.sealed.last()?.last())
    }

    pub fn push(&mut self, item: T) {
        self.open.push(item);
        if self.open.len() == Self::CHUNK_ITEMS {
            let full = std::mem::replace(&mut self.open, Vec::with_capacity(Self::CHUNK_ITEMS));
            self.sealed.push(Arc::new(full));
        }
    }

    /// The items from index `from` up to `to` (both clamped to the length), in order.
    pub fn range(&self, from: usize, to: usize) -> impl DoubleEndedIterator<Item = &T> {
        self.slices(from, to).flatten()
    }

    /// The items from index `from` on (none if `from` is past the end), in order: what a
    /// reader that has seen the first `from` items has not seen yet.
    pub fn iter_from(&self, from: usize) -> impl DoubleEndedIterator<Item = &T> {
        self.range(from, self.len())
    }

    /// Every item, in order.
    pub fn iter(&self) -> Iter<'_, T> {
        let sealed: fn(&Arc<Vec<T>>) -> &[T] = |chunk| chunk.as_slice();
        (self.sealed.iter().map(sealed))
            .chain(std::iter::once(&self.open[..]))
            .flatten()
    }

    /// The same items as [`ChunkedVec::range`], as one slice per chunk they touch: a scan
    /// runs faster over a slice than through the flattened iterator.
    pub fn slices(&self, from: usize, to: usize) -> impl DoubleEndedIterator<Item = &[T]> {
        let to = to.min(self.len());
        let from = from.min(to);
        let first_chunk = from / Self::CHUNK_ITEMS;
        // One past the chunk holding the last item; no chunk at all for an empty range.
        let end_chunk = if from < to {
            (to - 1) / Self::CHUNK_ITEMS + 1
        } else {
            first_chunk
        };
        (first_chunk..end_chunk).map(move |chunk| {
            let chunk_start = chunk * Self::CHUNK_ITEMS;
            let items = self.chunk(chunk);
            let start = from.max(chunk_start) - chunk_start;
            let end = to.min(chunk_start + items.len()) - chunk_start;
            &items[start..end]
        })
    }

    /// How many leading items satisfy `pred`, for items ordered so that the ones that do come
    /// first (as [`slice::partition_point`]).
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        // Sealed chunks are full: one whose last item passes lies wholly before the point.
        let passed = (self.sealed).partition_point(|chunk| pred(&chunk[Self::CHUNK_ITEMS - 1]));
        passed * Self::CHUNK_ITEMS + self.chunk(passed).partition_point(pred)
    }

    /// Chunk number `chunk`: a sealed one, the open one, or nothing past the end.
    fn chunk(&self, chunk: usize) -> &[T] {
        match self.sealed.get(chunk) {
            Some(sealed) => sealed,
            None if chunk == self.sealed.len() => &self.open,
            None => &[],
        }
    }
}

/// The iterator over every item: each chunk's slice in turn.
pub type Iter<'a, T> = std::iter::Flatten<
    std::iter::Chain<
        std::iter::Map<std::slice::Iter<'a, Arc<Vec<T>>>, fn(&Arc<Vec<T>>) -> &[T]>,
        std::iter::Once<&'a [T]>,
    >,
>;

/// Item `index`, as a slice indexes: past the end is a bug in the caller, and panics.
impl<T> std::ops::Index<usize> for ChunkedVec<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(item) => item,
            None => panic!("index {index} is past the end ({} items)", self.len()),
        }
    }
}

impl<'a, T> IntoIterator for &'a ChunkedVec<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: Clone> ChunkedVec<T> {
    /// Cuts the sequence back to its first `len` items (nothing happens if it is not longer)
    /// and returns the items cut, oldest first.
    pub(crate) fn truncate(&mut self, len: usize) -> Vec<T> {
        if len >= self.len() {
            return Vec::new();
        }
        let removed = self.range(len, self.len()).cloned().collect();
        let (chunk, within) = (len / Self::CHUNK_ITEMS, len % Self::CHUNK_ITEMS);
        if chunk < self.sealed.len() {
            // The cut falls in a sealed chunk: what stays of it becomes the open chunk.
            self.open = self.sealed[chunk][..within].to_vec();
            self.sealed.truncate(chunk);
        } else {
            self.open.truncate(within);
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Items per chunk of the `u32` sequences most tests use (1024).
    const CHUNK_ITEMS: usize = ChunkedVec::<u32>::CHUNK_ITEMS;

    /// What the chunked sequence must behave like.
    #[derive(Clone, Debug)]
    enum Step {
        Push(u32),
        /// Cut back to this fraction (in thousandths) of the length.
        Truncate(u16),
    }

    fn steps() -> impl Strategy<Value = Vec<Step>> {
        let step = prop_oneof![
            30 => any::<u32>().prop_map(Step::Push),
            1 => (0u16..=1000).prop_map(Step::Truncate),
        ];
        // Runs of pushes long enough to fill several chunks.
        prop::collection::vec(step, 0..6 * CHUNK_ITEMS)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn it_behaves_as_a_vec(steps in steps(), from in 0usize..8000, length in 0usize..3000) {
            let (mut chunked, mut plain) = (ChunkedVec::default(), Vec::new());
            for step in steps {
                match step {
                    Step::Push(item) => {
                        chunked.push(item);
                        plain.push(item);
                    }
                    Step::Truncate(thousandths) => {
                        let len = plain.len() * usize::from(thousandths) / 1000;
                        let removed = plain.split_off(len);
                        prop_assert_eq!(chunked.truncate(len), removed);
                    }
                }
                prop_assert_eq!(chunked.len(), plain.len());
                prop_assert_eq!(chunked.last(), plain.last());
                prop_assert_eq!(chunked.is_empty(), plain.is_empty());
            }
            prop_assert!(chunked.iter().eq(plain.iter()));
            prop_assert!(chunked.iter().rev().eq(plain.iter().rev()));
            prop_assert!((&chunked).into_iter().eq(plain.iter()));
            if let Some(index) = from.checked_rem(plain.len()) {
                prop_assert_eq!(&chunked[index], &plain[index]);
            }
            let to = from + length;
            let expected = &plain[from.min(plain.len())..to.min(plain.len())];
            prop_assert!(chunked.range(from, to).eq(expected.iter()));
            prop_assert!(chunked.range(from, to).rev().eq(expected.iter().rev()));
            prop_assert!(chunked.iter_from(from).eq(plain.iter().skip(from)));
            for index in [from, plain.len(), plain.len().saturating_sub(1)] {
                prop_assert_eq!(chunked.get(index), plain.get(index));
            }
            // Sorted copies, split at one item's value, either side of it and both ends.
            let mut sorted_plain = plain.clone();
            sorted_plain.sort_unstable();
            let mut sorted = ChunkedVec::default();
            sorted_plain.iter().for_each(|&item| sorted.push(item));
            let probe = plain.get(from.checked_rem(plain.len()).unwrap_or(0)).copied();
            let near_probe = probe
                .into_iter()
                .flat_map(|v| [v.saturating_sub(1), v, v.saturating_add(1)]);
            for bound in near_probe.chain([0, u32::MAX]) {
                prop_assert_eq!(
                    sorted.partition_point(|&item| item <= bound),
                    sorted_plain.partition_point(|&item| item <= bound)
                );
            }
            // Same items, same layout: equality means equal items.
            let mut rebuilt = ChunkedVec::default();
            plain.iter().for_each(|&item| rebuilt.push(item));
            prop_assert_eq!(&rebuilt, &chunked);
        }
    }

    /// The property above mostly ends short of a sealed chunk (its cuts shorten the run), so
    /// the split point is checked here over three sealed chunks, at and around their ends.
    #[test]
    fn the_split_point_over_sealed_chunks_is_a_slices() {
        // Every value twice, so a split can fall inside a pair that straddles a chunk's end.
        let plain: Vec<u32> = (0..3 * CHUNK_ITEMS as u32 + 7).map(|i| i / 2).collect();
        let mut items = ChunkedVec::default();
        plain.iter().for_each(|&item| items.push(item));
        let last = *plain.last().unwrap();
        // The values at the ends of the first two chunks.
        let half = CHUNK_ITEMS as u32 / 2;
        for bound in (0..=last + 1).step_by(97).chain([
            half - 1,
            half,
            2 * half - 1,
            2 * half,
            last,
            u32::MAX,
        ]) {
            assert_eq!(
                items.partition_point(|&item| item < bound),
                plain.partition_point(|&item| item < bound),
                "split below {bound}"
            );
        }
    }

    #[test]
    fn ranges_meeting_chunk_ends_hold_what_a_slice_holds() {
        let empty = ChunkedVec::<u32>::default();
        assert_eq!(empty.iter().count(), 0);
        assert_eq!(empty.range(0, 0).count(), 0);
        let length = 2 * CHUNK_ITEMS + 5;
        let plain: Vec<u32> = (0..length as u32).collect();
        let mut items = ChunkedVec::default();
        plain.iter().for_each(|&item| items.push(item));
        let edges = [
            0,
            1,
            CHUNK_ITEMS - 1,
            CHUNK_ITEMS,
            CHUNK_ITEMS + 1,
            2 * CHUNK_ITEMS - 1,
        ];
        let edges = edges
            .into_iter()
            .chain([2 * CHUNK_ITEMS, length, length + 1]);
        for from in edges.clone() {
            for to in edges.clone() {
                let expected = &plain[from.min(length)..to.min(length).max(from.min(length))];
                assert!(items.range(from, to).eq(expected.iter()), "{from}..{to}");
                // One slice per chunk the range touches, none of them empty.
                let slices: Vec<&[u32]> = items.slices(from, to).collect();
                assert!(slices.iter().all(|s| !s.is_empty()), "{from}..{to}");
                assert!(slices.concat().iter().eq(expected.iter()), "{from}..{to}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "index 3 is past the end (3 items)")]
    fn indexing_past_the_end_panics_as_a_slice_does() {
        let mut items = ChunkedVec::default();
        (0..3).for_each(|item| items.push(item));
        let _ = items[3];
    }

    #[test]
    fn a_clone_shares_the_full_chunks() {
        let mut items = ChunkedVec::default();
        (0..2 * CHUNK_ITEMS as u32 + 5).for_each(|item| items.push(item));
        let copy = items.clone();
        assert_eq!(copy.sealed.len(), 2);
        assert!(Arc::ptr_eq(&copy.sealed[1], &items.sealed[1]));
        assert_eq!(copy.open.len(), 5);
    }

    #[test]
    fn a_clone_holds_the_open_chunk_of_its_own_and_shares_the_sealed_ones() {
        let mut items = ChunkedVec::<u64>::default();
        assert_eq!(
            (items.own_size_hint_bytes(), items.shared_size_hint_bytes()),
            (0, 0)
        );
        let chunk_items = ChunkedVec::<u64>::CHUNK_ITEMS;
        (0..2 * chunk_items as u64 + 5).for_each(|item| items.push(item));
        let pointers = 2 * size_of::<Arc<Vec<u64>>>();
        assert_eq!(items.own_size_hint_bytes(), 5 * 8 + pointers);
        assert_eq!(items.shared_size_hint_bytes(), 2 * chunk_items * 8);
    }

    #[test]
    fn a_cut_inside_a_full_chunk_reopens_it() {
        let mut items = ChunkedVec::default();
        (0..2 * CHUNK_ITEMS as u32).for_each(|item| items.push(item));
        let removed = items.truncate(CHUNK_ITEMS - 3);
        assert_eq!(removed.len(), CHUNK_ITEMS + 3);
        assert_eq!(removed[0], CHUNK_ITEMS as u32 - 3);
        assert_eq!((items.sealed.len(), items.open.len()), (0, CHUNK_ITEMS - 3));
        items.push(7);
        assert_eq!(items.get(CHUNK_ITEMS - 3), Some(&7));
        assert_eq!(items.get(CHUNK_ITEMS - 2), None);
    }

    #[test]
    fn a_chunk_holds_the_largest_power_of_two_of_items_that_fits_in_its_bytes() {
        for item_bytes in CHUNK_BYTES / CHUNK_ITEMS_MAX..=CHUNK_BYTES / 16 {
            let items = chunk_items(item_bytes);
            assert!(items.is_power_of_two(), "{item_bytes} bytes: {items}");
            assert!(
                items * item_bytes <= CHUNK_BYTES,
                "{item_bytes} bytes: {items}"
            );
            assert!(
                2 * items * item_bytes > CHUNK_BYTES,
                "{item_bytes} bytes: {items}"
            );
        }
        // A pointer's worth (the Kafka events), a database change or a partition log's
        // record, an event time event.
        assert_eq!(
            [chunk_items(8), chunk_items(24), chunk_items(104)],
            [1024, 256, 64]
        );
        // Items too large for sixteen in a chunk; items so small that a chunk of the most
        // items holds fewer bytes (flags, counts), or of no size at all.
        assert_eq!(
            [
                chunk_items(10_000),
                chunk_items(4),
                chunk_items(1),
                chunk_items(0)
            ],
            [16, 1024, 1024, 1024]
        );
    }
}
