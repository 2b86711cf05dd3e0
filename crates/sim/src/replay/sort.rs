//! Sorting for the core and the site, with one small routine in the browser build.
//!
//! The standard library's sorts are fast but each call site instantiates several kilobytes of
//! code (driftsort, quicksort, small-sort networks) per element type and comparator; in the
//! site's WebAssembly those copies were about 8 % of the code. In WebAssembly these
//! functions therefore sort with [`stable_order`], a plain merge sort over indices that is
//! compiled once and called through a `dyn` comparator, then move the items into place; each
//! call site keeps only a small shim. Natively they call the standard library, so the
//! benchmarks measure what they always did.
//!
//! Every function here is a stable sort, except `sort_unstable_by_key`, which is only for
//! distinct keys, so both builds give the same order whenever the comparator is a total order
//! (and the unstable sorts this replaces were only used where it is), which the determinism
//! test checks on a whole run.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(target_arch = "wasm32")]
    {
        let order = stable_order(items.len(), &mut |a, b| compare(&items[a], &items[b]));
        permute(items, order);
    }
    #[cfg(not(target_arch = "wasm32"))]
    items.sort_by(|a, b| compare(a, b));
}

/// Sorts `items` stably by the key `key` extracts.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` by the key `key` extracts, for items whose keys are all distinct, where any
/// sort gives the one order a stable sort gives. Natively it sorts in place, without the
/// stable sort's scratch buffer (which for the window operator's batches of panes was
/// allocated and page-faulted in afresh for every batch); in WebAssembly it is the stable one.
pub fn sort_unstable_by_key<T, K: Ord>(items: &mut [T], key: impl FnMut(&T) -> K) {
    #[cfg(target_arch = "wasm32")]
    sort_by_key(items, key);
    #[cfg(not(target_arch = "wasm32"))]
    items.sort_unstable_by_key(key);
}

/// Sorts `items` in their natural order.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions `0..len` in the order a stable sort by `compare` (which compares the items at
/// two positions) puts them: a bottom-up merge sort, skipping merges of runs already in order,
/// so sorted input costs one comparison per item.
pub fn stable_order(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut merged = vec![0; len];
    let mut width = 1;
    while width < len {
        for start in (0..len).step_by(2 * width) {
            let middle = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let in_order = middle == end || compare(order[middle - 1], order[middle]).is_le();
            if in_order {
                merged[start..end].copy_from_slice(&order[start..end]);
                continue;
            }
            let (mut left, mut right) = (start, middle);
            for slot in &mut merged[start..end] {
                // Ties take the left run's item: that is what keeps the sort stable.
                let take_left =
                    right == end || (left < middle && compare(order[right], order[left]).is_ge());
                if take_left {
                    *slot = order[left];
                    left += 1;
                } else {
                    *slot = order[right];
                    right += 1;
                }
            }
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Rearranges `items` so that position `k` holds the item that was at `order[k]`, by following
/// each cycle of the permutation with swaps (no copies, no `Clone`).
pub fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut current = start;
        loop {
            let source = order[current];
            // Marks the position as placed, so the cycle is not followed again from it.
            order[current] = current;
            if source == start {
                break;
            }
            items.swap(current, source);
            current = source;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the browser build does, callable natively.
    fn merge_sort_by_key(items: &mut [(u8, u16)]) {
        let order = stable_order(items.len(), &mut |a, b| items[a].0.cmp(&items[b].0));
        permute(items, order);
    }

    proptest! {
        #[test]
        fn the_merge_sort_matches_the_standard_stable_sort(
            items in proptest::collection::vec((0u8..8, any::<u16>()), 0..200)
        ) {
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            let mut sorted = items;
            merge_sort_by_key(&mut sorted);
            prop_assert_eq!(sorted, expected);
        }
    }

    #[test]
    fn sorted_and_reversed_inputs_come_out_sorted() {
        let mut ascending: Vec<(u8, u16)> = (0..100).map(|i| (i, u16::from(i))).collect();
        let expected = ascending.clone();
        merge_sort_by_key(&mut ascending);
        assert_eq!(ascending, expected);
        let mut descending: Vec<(u8, u16)> = expected.iter().rev().copied().collect();
        merge_sort_by_key(&mut descending);
        assert_eq!(descending, expected);
    }

    #[test]
    fn the_public_functions_sort() {
        let mut numbers = vec![5, 3, 9, 1, 3];
        sort(&mut numbers);
        assert_eq!(numbers, [1, 3, 3, 5, 9]);
        sort_by_key(&mut numbers, |n| std::cmp::Reverse(*n));
        assert_eq!(numbers, [9, 5, 3, 3, 1]);
    }
}
