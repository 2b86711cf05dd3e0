//! An ordered map and set kept as one sorted vector, for the small keyed states of a run
//! (a window's count, a lane's open windows, a post's views, the sticky assignors' tables of
//! topics and owners) where the site pays for code more than for a few moved entries.
//!
//! Each key and value type of a `BTreeMap` compiles its own copy of the tree's node code, and
//! removing keys adds its rebalancing (steals, merges) on top: in the site's WebAssembly the
//! copies cost a lesson bundle 2–3 KiB gzipped per map type with removals. [`SortedMap`] is a
//! `Vec` of pairs in key order, found by binary search, so each type compiles a search and a
//! vector's insert and remove. It iterates in the same key order as a `BTreeMap`, so swapping
//! one for the other changes no run. Inserting or removing in the middle moves the entries
//! after it: use it for maps of at most a few thousand keys, or ones filled in key order;
//! long queues taken from the front stay in a `BTreeMap`.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::ops::{Bound, RangeBounds};

/// An ordered map: a `BTreeMap`'s order and the part of its API the core uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortedMap<K, V> {
    /// Distinct keys, ascending.
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

/// The pair of a key and its value as iterators hand them out.
type Pair<'a, K, V> = (&'a K, &'a V);

/// Iterates a map's entries in key order.
pub type Iter<'a, K, V> =
    std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> Pair<'a, K, V>>;

fn as_pair<K, V>(entry: &(K, V)) -> Pair<'_, K, V> {
    (&entry.0, &entry.1)
}

impl<K: Ord, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// Where `key` is (`Ok`) or would go (`Err`). Like a `BTreeMap`, a map of `String`
    /// keys may be searched with a `&str`.
    fn search<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.search(key).ok().map(|at| &self.entries[at].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.search(key).ok().map(|at| &mut self.entries[at].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.search(key).is_ok()
    }

    /// Sets `key`'s value, returning the one it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.search(&key) {
            Ok(at) => Some(std::mem::replace(&mut self.entries[at].1, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    /// Takes `key` out, returning its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.search(key).ok().map(|at| self.entries.remove(at).1)
    }

    /// `key`'s slot, to read or fill.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        let at = self.search(&key);
        Entry {
            entries: &mut self.entries,
            key,
            at,
        }
    }

    pub fn iter(&self) -> Iter<'_, K, V> {
        self.entries
            .iter()
            .map(as_pair as fn(&(K, V)) -> Pair<'_, K, V>)
    }

    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&K, &mut V)> {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(as_pair)
    }

    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(as_pair)
    }

    /// Takes the smallest key out (moving every other entry down one place).
    pub fn pop_first(&mut self) -> Option<(K, V)> {
        (!self.entries.is_empty()).then(|| self.entries.remove(0))
    }

    /// Takes the smallest key out if `take` says so, like `Vec::pop_if` at the front.
    pub fn pop_first_if(&mut self, take: impl FnOnce(&K, &V) -> bool) -> Option<(K, V)> {
        let (key, value) = self.entries.first()?;
        take(key, value).then(|| self.entries.remove(0))
    }

    pub fn pop_last(&mut self) -> Option<(K, V)> {
        self.entries.pop()
    }

    /// The entries whose keys are in `range`, in key order.
    pub fn range(&self, range: impl RangeBounds<K>) -> Iter<'_, K, V> {
        let (from, to) = self.bounds(range);
        self.entries[from..to]
            .iter()
            .map(as_pair as fn(&(K, V)) -> Pair<'_, K, V>)
    }

    /// The positions of the first entry in `range` and of the first one after it.
    fn bounds(&self, range: impl RangeBounds<K>) -> (usize, usize) {
        let first_not_below = |key: &K, inclusive: bool| {
            self.entries.partition_point(|(k, _)| match k.cmp(key) {
                Ordering::Less => true,
                Ordering::Equal => !inclusive,
                Ordering::Greater => false,
            })
        };
        let from = match range.start_bound() {
            Bound::Included(key) => first_not_below(key, true),
            Bound::Excluded(key) => first_not_below(key, false),
            Bound::Unbounded => 0,
        };
        let to = match range.end_bound() {
            Bound::Included(key) => first_not_below(key, false),
            Bound::Excluded(key) => first_not_below(key, true),
            Bound::Unbounded => self.entries.len(),
        };
        (from, to.max(from))
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Keeps the entries for which `keep` says so, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

/// A key's place in a [`SortedMap`], found once, to read or fill.
pub struct Entry<'a, K, V> {
    entries: &'a mut Vec<(K, V)>,
    key: K,
    /// Where the key is (`Ok`) or would go (`Err`).
    at: Result<usize, usize>,
}

impl<'a, K, V> Entry<'a, K, V> {
    /// The key's value, after inserting `make()`'s if it has none.
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let at = match self.at {
            Ok(at) => at,
            Err(at) => {
                self.entries.insert(at, (self.key, make()));
                at
            }
        };
        &mut self.entries[at].1
    }

    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;

    /// `key`'s value; panics if it has none, as a `BTreeMap` does.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

impl<'a, K: Ord, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, items: I) {
        for (key, value) in items {
            self.insert(key, value);
        }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// The entries as `BTreeMap::from_iter` leaves them: a key given twice keeps its last
    /// value. Sorted once rather than inserted one by one, so input in any order costs
    /// n log n, not the n² moves of inserting each pair in the middle.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut entries: Vec<(K, V)> = items.into_iter().collect();
        // Stable, so a key's pairs stay in the order given and the last one is its value.
        crate::replay::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        // `dedup_by` keeps the first of a run: hand it each later pair's value first.
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(&mut later.1, &mut kept.1);
            }
            same
        });
        Self { entries }
    }
}

/// Serialized as a map in key order, as serde serializes a `BTreeMap`.
impl<K: Ord + serde::Serialize, V: serde::Serialize> serde::Serialize for SortedMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(pairs: [(K, V); N]) -> Self {
        pairs.into_iter().collect()
    }
}

/// An ordered set: a [`SortedMap`] with no values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortedSet<T> {
    map: SortedMap<T, ()>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        Self {
            map: SortedMap::default(),
        }
    }
}

impl<T: Ord> SortedSet<T> {
    pub const fn new() -> Self {
        Self {
            map: SortedMap::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn contains(&self, item: &T) -> bool {
        self.map.contains_key(item)
    }

    /// Adds `item`; false if it was there already.
    pub fn insert(&mut self, item: T) -> bool {
        self.map.insert(item, ()).is_none()
    }

    /// Takes `item` out; false if it was not there.
    pub fn remove(&mut self, item: &T) -> bool {
        self.map.remove(item).is_some()
    }

    pub fn iter(&self) -> SetIter<'_, T> {
        self.map.entries.iter().map(as_item as fn(&(T, ())) -> &T)
    }

    pub fn first(&self) -> Option<&T> {
        self.map.first_key_value().map(|(item, _)| item)
    }

    pub fn last(&self) -> Option<&T> {
        self.map.last_key_value().map(|(item, _)| item)
    }

    pub fn pop_first(&mut self) -> Option<T> {
        self.map.pop_first().map(|(item, _)| item)
    }

    pub fn pop_last(&mut self) -> Option<T> {
        self.map.pop_last().map(|(item, _)| item)
    }

    /// The items in `range`, in order.
    pub fn range(&self, range: impl RangeBounds<T>) -> SetIter<'_, T> {
        let (from, to) = self.map.bounds(range);
        self.map.entries[from..to]
            .iter()
            .map(as_item as fn(&(T, ())) -> &T)
    }

    pub fn clear(&mut self) {
        self.map.clear();
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.map.retain(|item, _| keep(item));
    }
}

/// Iterates a set's items in order.
pub type SetIter<'a, T> = std::iter::Map<std::slice::Iter<'a, (T, ())>, fn(&'a (T, ())) -> &'a T>;

fn as_item<T>(entry: &(T, ())) -> &T {
    &entry.0
}

impl<'a, T: Ord> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = SetIter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T> IntoIterator for SortedSet<T> {
    type Item = T;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(T, ())>, fn((T, ())) -> T>;

    fn into_iter(self) -> Self::IntoIter {
        self.map.entries.into_iter().map(|(item, ())| item)
    }
}

impl<T: Ord> Extend<T> for SortedSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.insert(item);
        }
    }
}

impl<T: Ord> FromIterator<T> for SortedSet<T> {
    /// Sorted once, as [`SortedMap`]'s `from_iter` is.
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        Self {
            map: items.into_iter().map(|item| (item, ())).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::rng::SimRng;
    use std::collections::{BTreeMap, BTreeSet};

    /// A few hundred random inserts, removals, entries, pops and retains on both maps, over a
    /// key range small enough that every operation meets present and absent keys.
    #[test]
    fn a_random_mix_of_operations_leaves_the_same_entries_in_the_same_order_as_a_btree_map() {
        let mut rng = SimRng::for_stream(7, 1);
        let mut sorted: SortedMap<u64, u64> = SortedMap::new();
        let mut tree: BTreeMap<u64, u64> = BTreeMap::new();
        for step in 0..3000 {
            let key = rng.below(60);
            match rng.below(9) {
                0 | 1 | 8 => assert_eq!(sorted.insert(key, step), tree.insert(key, step)),
                7 if step % 10 == 0 => {
                    sorted.clear();
                    tree.clear();
                }
                2 => assert_eq!(sorted.remove(&key), tree.remove(&key)),
                3 => {
                    *sorted.entry(key).or_default() += 1;
                    *tree.entry(key).or_default() += 1;
                }
                4 => assert_eq!(sorted.pop_first(), tree.pop_first()),
                5 => assert_eq!(sorted.pop_last(), tree.pop_last()),
                6 if step % 2 == 0 => {
                    // Taken only when the smallest key is below `key`.
                    let below = |k: &u64, _: &u64| *k < key;
                    let expected = tree
                        .first_entry()
                        .filter(|e| *e.key() < key)
                        .map(|e| e.remove_entry());
                    assert_eq!(sorted.pop_first_if(below), expected);
                }
                _ => {
                    sorted.retain(|k, v| (k + *v) % 5 != 0);
                    tree.retain(|k, v| (k + *v) % 5 != 0);
                }
            }
            assert_eq!(sorted.get(&key), tree.get(&key));
            assert_eq!(sorted.contains_key(&key), tree.contains_key(&key));
            assert_eq!(
                (sorted.len(), sorted.is_empty()),
                (tree.len(), tree.is_empty())
            );
            assert_eq!(sorted.first_key_value(), tree.first_key_value());
            assert_eq!(sorted.last_key_value(), tree.last_key_value());
            assert!(sorted.iter().eq(tree.iter()), "after step {step}");
        }
        assert!(sorted.into_iter().eq(tree));
    }

    #[test]
    fn collecting_pairs_in_any_order_keeps_each_keys_last_value_as_a_btree_map_does() {
        let mut rng = SimRng::for_stream(7, 2);
        for len in [0u64, 1, 2, 5, 40, 300] {
            // Keys from a range half the length, so most are given more than once.
            let pairs: Vec<(u64, u64)> = (0..len).map(|i| (rng.below(len / 2 + 1), i)).collect();
            let sorted: SortedMap<u64, u64> = pairs.iter().copied().collect();
            let tree: BTreeMap<u64, u64> = pairs.iter().copied().collect();
            assert!(sorted.iter().eq(tree.iter()), "{len} pairs");
            let set: SortedSet<u64> = pairs.iter().map(|&(key, _)| key).collect();
            let tree_set: BTreeSet<u64> = pairs.iter().map(|&(key, _)| key).collect();
            assert!(set.iter().eq(tree_set.iter()), "{len} items");
        }
    }

    #[test]
    fn a_range_holds_the_same_keys_as_a_btree_maps_for_every_kind_of_bound() {
        let keys = [2u64, 4, 6, 8];
        let sorted: SortedMap<u64, ()> = keys.iter().map(|&k| (k, ())).collect();
        let tree: BTreeMap<u64, ()> = keys.iter().map(|&k| (k, ())).collect();
        for a in 0..10 {
            for b in a..10 {
                let same =
                    |s: Iter<'_, u64, ()>, t: std::collections::btree_map::Range<'_, u64, ()>| {
                        assert!(s.eq(t), "{a}..{b}")
                    };
                same(sorted.range(a..b), tree.range(a..b));
                same(sorted.range(a..=b), tree.range(a..=b));
                same(sorted.range(a..), tree.range(a..));
                same(sorted.range(..b), tree.range(..b));
                same(sorted.range(..=b), tree.range(..=b));
                let excluded = (Bound::Excluded(a), Bound::Included(b));
                same(sorted.range(excluded), tree.range(excluded));
            }
        }
    }

    #[test]
    fn entry_fills_an_absent_key_once_and_then_returns_the_value_in_place() {
        let mut map: SortedMap<&str, Vec<u32>> = SortedMap::new();
        map.entry("b").or_insert_with(|| vec![0]).push(1);
        map.entry("a").or_insert(vec![9]).push(2);
        map.entry("b").or_insert_with(|| unreachable!()).push(3);
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [(&"a", &vec![9, 2]), (&"b", &vec![0, 1, 3])]
        );
    }

    #[test]
    fn a_string_keyed_map_is_searched_by_str_and_serializes_as_a_btree_map_does() {
        let pairs = [
            ("b".to_string(), 2),
            ("a".to_string(), 1),
            ("c".to_string(), 3),
        ];
        let mut sorted: SortedMap<String, i32> = pairs.clone().into_iter().collect();
        let tree: BTreeMap<String, i32> = pairs.into_iter().collect();
        assert_eq!(
            serde_json::to_string(&sorted).unwrap(),
            serde_json::to_string(&tree).unwrap()
        );
        assert_eq!(
            (sorted.get("a"), sorted.contains_key("z")),
            (Some(&1), false)
        );
        *sorted.get_mut("c").unwrap() += 1;
        assert_eq!(sorted.remove("c"), Some(4));
        assert_eq!(sorted[&"b".to_string()], 2);
    }

    #[test]
    fn a_key_collected_twice_keeps_its_last_value_as_in_a_btree_map() {
        let pairs = [(3, 'a'), (1, 'b'), (3, 'c')];
        let sorted: SortedMap<i32, char> = pairs.into_iter().collect();
        let tree: BTreeMap<i32, char> = pairs.into_iter().collect();
        assert!(sorted.iter().eq(tree.iter()));
    }

    #[test]
    fn a_set_keeps_each_item_once_in_order_and_reports_what_it_changed() {
        let mut rng = SimRng::for_stream(11, 2);
        let mut sorted = SortedSet::new();
        let mut tree = BTreeSet::new();
        for _ in 0..1000 {
            let item = rng.below(40);
            match rng.below(4) {
                0 | 1 => assert_eq!(sorted.insert(item), tree.insert(item)),
                2 => assert_eq!(sorted.remove(&item), tree.remove(&item)),
                _ => assert_eq!(sorted.pop_first(), tree.pop_first()),
            }
            assert_eq!(sorted.contains(&item), tree.contains(&item));
            assert_eq!((sorted.first(), sorted.last()), (tree.first(), tree.last()));
            assert!(sorted.iter().eq(tree.iter()));
        }
        sorted.retain(|item| item % 2 == 0);
        tree.retain(|item| item % 2 == 0);
        assert!(sorted.iter().eq(tree.iter()));
        assert_eq!(sorted.pop_last(), tree.pop_last());
        assert_eq!(sorted.len(), tree.len());
        assert!(sorted.range(5..20).eq(tree.range(5..20)));
        assert!(sorted.range(..=9).eq(tree.range(..=9)));
        sorted.clear();
        assert!(sorted.is_empty() && sorted.first().is_none());
    }
}
