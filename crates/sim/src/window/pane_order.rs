//! The output order of one step's panes: by window end, then start, then the key's rank in
//! key order. The operator records each pane's place here and reads the positions back sorted.
//!
//! Most panes come out in steps where the watermark passes one window end and every key with
//! a window ending there fires: thousands of panes of one window, which a comparison sort
//! orders in `n log n` comparisons (about a fifteenth of `streamlab window`'s time on 10 k
//! keys). Their order is their keys' ranks alone, and ranks are small distinct integers, so
//! such a step is ordered by placing each pane at its rank and reading the ranks in order:
//! time linear in the number of keys. Every other step is sorted as before; both give the one
//! order, since no two panes of a step share window and key.

use crate::replay::sort::sort_unstable_by_key;

/// One pane's sort key and place: `(end, start, key rank, position among the step's panes)`.
type Place = (i64, i64, u32, usize);

/// A step that fires at least one pane per this many ranked keys is placed by rank: reading
/// the ranks then costs less than sorting the panes (a scan of a few bytes per key against
/// some tens of nanoseconds per pane).
const KEYS_PER_PANE_FOR_PLACING_MAX: usize = 32;

/// The panes of one step, in the order they fired until [`sort`](Self::sort) is called.
/// Its vectors are kept between steps so steady state allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct PaneOrder {
    places: Vec<Place>,
    /// By key rank, the index in `places` of that key's pane plus one (0: none); all zero
    /// outside `place_by_rank`.
    by_rank: Vec<u32>,
    /// `places` read back in rank order.
    placed: Vec<Place>,
}

impl PaneOrder {
    pub(crate) fn clear(&mut self) {
        self.places.clear();
    }

    pub(crate) fn push(&mut self, end_ms: i64, start_ms: i64, key_rank: u32, position: usize) {
        self.places.push((end_ms, start_ms, key_rank, position));
    }

    /// Sorts the panes pushed; every key rank is below `ranked_keys`.
    pub(crate) fn sort(&mut self, ranked_keys: usize) {
        if !self.place_by_rank(ranked_keys) {
            // The usual sort for steps of several windows or few panes; the keys are distinct,
            // so an unstable sort gives the one order.
            sort_unstable_by_key(&mut self.places, |&place| place);
        }
    }

    /// The panes' positions, in output order once sorted.
    pub(crate) fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.places.iter().map(|&(_, _, _, position)| position)
    }

    /// Orders the panes by rank alone when they all belong to one window and are numerous
    /// enough for that to pay; returns whether it did.
    fn place_by_rank(&mut self, ranked_keys: usize) -> bool {
        let Some(&(end_ms, start_ms, _, _)) = self.places.first() else {
            return true;
        };
        let numerous = self.places.len() * KEYS_PER_PANE_FOR_PLACING_MAX >= ranked_keys;
        let one_window = self
            .places
            .iter()
            .all(|&(end, start, _, _)| (end, start) == (end_ms, start_ms));
        if !numerous || !one_window || u32::try_from(self.places.len()).is_err() {
            return false;
        }
        // Ranks only grow, so the slots are never shortened.
        self.by_rank.resize(self.by_rank.len().max(ranked_keys), 0);
        for (index, &(_, _, rank, _)) in self.places.iter().enumerate() {
            let slot = &mut self.by_rank[rank as usize];
            if *slot != 0 {
                // Two panes of one key in one window cannot fire in one step; should it ever
                // happen, the sort keeps both.
                self.clear_ranks(index);
                return false;
            }
            *slot = index as u32 + 1;
        }
        self.placed.clear();
        for slot in &mut self.by_rank[..ranked_keys] {
            if *slot != 0 {
                self.placed.push(self.places[*slot as usize - 1]);
                *slot = 0;
            }
        }
        std::mem::swap(&mut self.places, &mut self.placed);
        true
    }

    /// Empties the rank slots of the first `count` places.
    fn clear_ranks(&mut self, count: usize) {
        for &(_, _, rank, _) in &self.places[..count] {
            self.by_rank[rank as usize] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sorted_positions(order: &mut PaneOrder, places: &[Place], ranked_keys: usize) -> Vec<usize> {
        order.clear();
        for &(end, start, rank, position) in places {
            order.push(end, start, rank, position);
        }
        order.sort(ranked_keys);
        order.positions().collect()
    }

    fn by_comparison(places: &[Place]) -> Vec<usize> {
        let mut sorted = places.to_vec();
        sorted.sort();
        sorted.iter().map(|&(_, _, _, position)| position).collect()
    }

    #[test]
    fn one_window_of_every_key_comes_out_in_rank_order() {
        let ranks = [3u32, 0, 4, 1, 2];
        let places: Vec<Place> = ranks
            .iter()
            .enumerate()
            .map(|(position, &rank)| (60_000, 0, rank, position))
            .collect();
        let mut order = PaneOrder::default();
        assert_eq!(
            sorted_positions(&mut order, &places, 5),
            vec![1, 3, 4, 0, 2]
        );
        assert!(
            order.by_rank.iter().all(|&slot| slot == 0),
            "slots left set"
        );
    }

    #[test]
    fn only_a_step_of_one_window_with_a_pane_per_32_keys_is_placed_by_rank() {
        // With 128 ranked keys, 4 panes are one per 32 keys and 3 are fewer. Placing leaves
        // the places as they came in its spare vector; sorting never touches that vector.
        let one_window = |count: usize| -> Vec<Place> {
            (0..count)
                .map(|index| (10, 0, (count - index) as u32 * 30, index))
                .collect()
        };
        let placed = |places: &[Place]| {
            let mut order = PaneOrder::default();
            let positions = sorted_positions(&mut order, places, 128);
            (positions, !order.placed.is_empty())
        };
        assert_eq!(placed(&one_window(3)), (vec![2, 1, 0], false), "few panes");
        let mut two_windows = one_window(4);
        two_windows[0].0 = 20;
        assert_eq!(
            placed(&two_windows),
            (vec![3, 2, 1, 0], false),
            "two windows"
        );
        assert_eq!(
            placed(&one_window(4)),
            (vec![3, 2, 1, 0], true),
            "one window"
        );
    }

    #[test]
    fn a_rank_given_twice_is_sorted_with_both_panes_kept() {
        let places = vec![(10, 0, 2, 0), (10, 0, 1, 1), (10, 0, 2, 2), (10, 0, 0, 3)];
        let mut order = PaneOrder::default();
        assert_eq!(sorted_positions(&mut order, &places, 3), vec![3, 1, 0, 2]);
        assert!(
            order.by_rank.iter().all(|&slot| slot == 0),
            "slots left set"
        );
    }

    proptest! {
        /// Steps of one window or of several, with few or many keys, in any order: the
        /// positions always come out as sorting the whole tuples puts them.
        #[test]
        fn every_step_comes_out_as_a_sort_orders_it(
            ranked_keys in 1usize..300,
            panes in prop::collection::vec((0i64..3, any::<prop::sample::Index>()), 0..120),
            one_window in any::<bool>(),
        ) {
            let mut seen = std::collections::BTreeSet::new();
            let mut places = Vec::new();
            for (window, rank) in panes {
                let window = if one_window { 0 } else { window };
                let rank = rank.index(ranked_keys) as u32;
                if seen.insert((window, rank)) {
                    places.push(((window + 1) * 10, window * 10, rank, places.len()));
                }
            }
            let mut order = PaneOrder::default();
            // Twice through one order, as the operator reuses it step after step.
            for _ in 0..2 {
                prop_assert_eq!(
                    sorted_positions(&mut order, &places, ranked_keys),
                    by_comparison(&places)
                );
            }
        }
    }
}
