//! Key interning: the operator stores each distinct key once and works with dense `u32` ids,
//! so per-window state is small, indexable by id, and cheap to copy.
//!
//! The id lookup uses a `HashMap` because a lookup per event must be fast; that map is only
//! ever queried by key, never iterated, so its order cannot leak into any output. Everything
//! that is iterated (the keys themselves, the windows) lives in `Vec`s and `BTreeMap`s.
//!
//! Output is ordered by key, and sorting a batch of panes by comparing the keys themselves
//! (string comparisons through an indirection) took about a third of the operator's time
//! with string keys. So the table also keeps each key's rank in key order, refreshed in
//! batches: comparing two ranked ids is comparing two integers, and an id that arrived since
//! the last refresh is compared by its key, which gives the same order.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A key's dense index, in order of first appearance.
pub(crate) type KeyId = u32;

/// Every key seen so far, indexed by [`KeyId`].
#[derive(Clone, Debug)]
pub(crate) struct KeyTable<K> {
    ids: HashMap<K, KeyId, BuildHasherDefault<KeyHasher>>,
    keys: Vec<K>,
    /// `ranks[id]` is the position of key `id` in key order among the first `ranks.len()`
    /// keys; ids are dense and assigned in order, so exactly those ids are ranked.
    ranks: Vec<u32>,
    /// The ranked ids in key order (the inverse of `ranks`), kept for merging in new keys.
    ranked_in_order: Vec<KeyId>,
}

impl<K> Default for KeyTable<K> {
    fn default() -> Self {
        Self {
            ids: HashMap::default(),
            keys: Vec::new(),
            ranks: Vec::new(),
            ranked_in_order: Vec::new(),
        }
    }
}

impl<K: Clone + Hash + Eq> KeyTable<K> {
    /// The id of `key`, assigning the next one if the key is new; `None` once all `u32` ids
    /// are taken (billions of distinct keys, far past any memory this runs in).
    pub(crate) fn id_of<Q>(&mut self, key: &Q) -> Option<KeyId>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        if let Some(&id) = self.ids.get(key) {
            return Some(id);
        }
        let id = KeyId::try_from(self.keys.len()).ok()?;
        let owned = key.to_owned();
        self.keys.push(owned.clone());
        self.ids.insert(owned, id);
        Some(id)
    }
}

impl<K> KeyTable<K> {
    pub(crate) fn key(&self, id: KeyId) -> &K {
        &self.keys[id as usize]
    }
}

impl<K: Ord> KeyTable<K> {
    /// The position of `id`'s key in key order among the ranked keys, if it is ranked: two
    /// ranked ids compare as their ranks do.
    pub(crate) fn rank(&self, id: KeyId) -> Option<u32> {
        self.ranks.get(id as usize).copied()
    }

    /// Orders two ids by their keys (for strings: by UTF-8 bytes), the order output uses.
    pub(crate) fn cmp_keys(&self, a: KeyId, b: KeyId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        match (self.ranks.get(a as usize), self.ranks.get(b as usize)) {
            (Some(rank_a), Some(rank_b)) => rank_a.cmp(rank_b),
            _ => self.key(a).cmp(self.key(b)),
        }
    }

    /// Ranks the keys that arrived since the last refresh, when that is worth it before
    /// sorting `batch_len` items: a refresh costs time linear in the number of keys, so it
    /// waits until either the batch or the backlog of unranked keys is a fair fraction of
    /// all keys. That bounds the total refresh cost by a constant per key and per sorted item.
    pub(crate) fn refresh_ranks_for(&mut self, batch_len: usize) {
        let total = self.keys.len();
        let unranked = total - self.ranks.len();
        let worth_it = batch_len.saturating_mul(8) >= total || unranked.saturating_mul(8) >= total;
        if unranked > 0 && worth_it {
            self.refresh_ranks();
        }
    }

    fn refresh_ranks(&mut self) {
        let keys = &self.keys;
        let by_key = |a: &KeyId, b: &KeyId| keys[*a as usize].cmp(&keys[*b as usize]);
        // Ids are below 2^32 by construction (id_of refuses more), so these casts are exact.
        let mut arrivals: Vec<KeyId> = (self.ranks.len()..keys.len())
            .map(|id| id as KeyId)
            .collect();
        crate::replay::sort::sort_by(&mut arrivals, by_key);
        let ranked = std::mem::take(&mut self.ranked_in_order);
        let mut merged = Vec::with_capacity(keys.len());
        let (mut old, mut new) = (ranked.iter().peekable(), arrivals.iter().peekable());
        while let (Some(a), Some(b)) = (old.peek(), new.peek()) {
            if by_key(a, b) == Ordering::Less {
                merged.push(*old.next().expect("peeked"));
            } else {
                merged.push(*new.next().expect("peeked"));
            }
        }
        merged.extend(old);
        merged.extend(new);
        self.ranks.resize(keys.len(), 0);
        for (rank, &id) in merged.iter().enumerate() {
            self.ranks[id as usize] = rank as u32;
        }
        self.ranked_in_order = merged;
    }
}

/// A small, fixed (unseeded, hence deterministic) hasher for the id lookup.
///
/// Words are folded in with a rotate-xor-multiply step, fast on short keys; the final mix
/// spreads every input bit over the whole hash, because the table indexes buckets by the low
/// bits and keys such as `"user-0001"` differ only in bytes that land in the high bits.
/// Lookups only, never iteration, so the hash values cannot influence any output.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHasher {
    state: u64,
}

const FOLD_MULTIPLIER: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl KeyHasher {
    fn fold(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(FOLD_MULTIPLIER);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.fold(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // The same word as zero-padding `rest` into `[u8; 8]`, built in a register: the
            // padded copy compiled to a `memcpy` call and a store-to-load stall, which took
            // about a sixth of `streamlab window`'s time on keys like `user-00123`.
            let word = rest
                .iter()
                .rev()
                .fold(0u64, |word, &byte| (word << 8) | u64::from(byte));
            self.fold(word);
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.fold(u64::from(value));
    }

    fn write_u16(&mut self, value: u16) {
        self.fold(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.fold(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.fold(value);
    }

    fn write_usize(&mut self, value: usize) {
        self.fold(value as u64);
    }

    fn finish(&self) -> u64 {
        // The 64-bit finalizer of MurmurHash3: every input bit affects every output bit.
        let mut hash = self.state;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^ (hash >> 33)
    }
}

/// Makes sure `per_key` has a state for `key` (keys are dense indices handed out in order of
/// first sight, so the vector only ever grows by the new ones) and returns its index.
pub(crate) fn ensure_key_state<T: Default>(per_key: &mut Vec<T>, key: KeyId) -> usize {
    let key_index = key as usize;
    if per_key.len() <= key_index {
        per_key.resize_with(key_index + 1, T::default);
    }
    key_index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_first_appearance_and_repeat_for_known_keys() {
        let mut table = KeyTable::<String>::default();
        assert_eq!(table.id_of("b"), Some(0));
        assert_eq!(table.id_of("a"), Some(1));
        assert_eq!(table.id_of("b"), Some(0));
        assert_eq!(table.id_of("c"), Some(2));
        assert_eq!(table.key(1), "a");
    }

    #[test]
    fn ranks_agree_with_key_order_through_every_refresh() {
        let mut table = KeyTable::<String>::default();
        let words = ["m", "b", "Z", "é", "a", "mm", "", "b2", "A", "zz", "ä", "c"];
        for (index, word) in words.iter().enumerate() {
            table.id_of(*word);
            // Refresh after some arrivals only, so ranked and unranked ids mix.
            if index % 3 == 1 {
                table.refresh_ranks_for(usize::MAX);
            }
            let count = (index + 1) as KeyId;
            for a in 0..count {
                for b in 0..count {
                    let expected = table.key(a).cmp(table.key(b));
                    assert_eq!(table.cmp_keys(a, b), expected, "{a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn keys_compare_by_utf8_bytes() {
        let mut table = KeyTable::<String>::default();
        let upper = table.id_of("Z").unwrap();
        let lower = table.id_of("a").unwrap();
        let accented = table.id_of("é").unwrap();
        assert_eq!(table.cmp_keys(upper, lower), Ordering::Less);
        assert_eq!(table.cmp_keys(accented, lower), Ordering::Greater);
    }

    #[test]
    fn keys_differing_in_late_bytes_hash_to_different_low_bits() {
        let low_bits = |key: &str| {
            let mut hasher = KeyHasher::default();
            key.hash(&mut hasher);
            hasher.finish() & 0xffff
        };
        let distinct: std::collections::BTreeSet<u64> = (0..1000)
            .map(|i| low_bits(&format!("user-{i:04}")))
            .collect();
        assert!(distinct.len() > 950, "only {} distinct", distinct.len());
    }

    #[test]
    fn a_short_tail_is_folded_as_its_zero_padded_little_endian_word() {
        for length in 0..=17u8 {
            let bytes: Vec<u8> = (1..=length).map(|byte: u8| byte.wrapping_mul(37)).collect();
            let mut expected = KeyHasher::default();
            for chunk in bytes.chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                expected.fold(u64::from_le_bytes(word));
            }
            let mut hasher = KeyHasher::default();
            hasher.write(&bytes);
            assert_eq!(hasher.finish(), expected.finish(), "{length} bytes");
        }
    }
}
