//! Key interning: the operator stores each distinct key once and works with dense `u32` ids,
//! so per-window state is small, indexable by id, and cheap to copy.
//!
//! Every event costs a lookup here, and with thousands of keys in random order that lookup is
//! a cache miss; a second miss followed on the key's window state, kept elsewhere. So each
//! key's entry also carries a small piece of state chosen by the window kind (`S`: the fixed
//! windows keep their newest window there), and the lookup goes through a compact index of
//! `(hash tag, id)` pairs that stays in cache, so an event touches one entry line. The index
//! is only ever probed by key, never iterated, so hash values cannot leak into any output;
//! everything that is iterated (the entries, the windows) lives in `Vec`s and sorted indexes.
//!
//! Output is ordered by key, and sorting a batch of panes by comparing the keys themselves
//! (string comparisons through an indirection) took about a third of the operator's time
//! with string keys. So the table also keeps each key's rank in key order, refreshed in
//! batches: comparing two ranked ids is comparing two integers, and an id that arrived since
//! the last refresh is compared by its key, which gives the same order.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// A key's dense index, in order of first appearance.
pub(crate) type KeyId = u32;

/// Every key seen so far with its per-key state `S`, indexed by [`KeyId`].
#[derive(Clone, Debug)]
pub(crate) struct KeyTable<K, S> {
    /// Open addressing with linear probing over a power-of-two number of slots (or none yet).
    index: Vec<IndexSlot>,
    entries: Vec<Entry<K, S>>,
    /// `ranks[id]` is the position of key `id` in key order among the first `ranks.len()`
    /// keys; ids are dense and assigned in order, so exactly those ids are ranked.
    ranks: Vec<u32>,
    /// The ranked ids in key order (the inverse of `ranks`), kept for merging in new keys.
    ranked_in_order: Vec<KeyId>,
}

/// One slot of the index: the high half of the key's hash, so a probe reads an entry only
/// when that is likely to be the key, and `id + 1` (0 marks an empty slot).
#[derive(Clone, Copy, Debug, Default)]
struct IndexSlot {
    tag: u32,
    id_plus_one: u32,
}

/// Aligned to a cache line so that an entry (a short key and the fixed windows' recent
/// windows fill one exactly) never straddles two: a lookup then costs one line.
#[derive(Clone, Debug)]
#[repr(align(64))]
struct Entry<K, S> {
    key: K,
    state: S,
}

/// The index grows before more than this fraction of its slots is taken, which keeps probe
/// runs short (under two slots on average for a hit).
const MAX_LOAD_NUMERATOR: usize = 3;
const MAX_LOAD_DENOMINATOR: usize = 4;
const FIRST_INDEX_SLOTS: usize = 16;
/// How many index slots from a key's home `touch` looks at for its tag.
const TOUCHED_SLOTS: usize = 4;

impl<K, S> Default for KeyTable<K, S> {
    fn default() -> Self {
        Self {
            index: Vec::new(),
            entries: Vec::new(),
            ranks: Vec::new(),
            ranked_in_order: Vec::new(),
        }
    }
}

/// The hash the index uses for `key`; `K` and its borrowed forms hash alike (`Borrow`'s
/// contract), so either can be looked up.
pub(crate) fn key_hash<Q: Hash + ?Sized>(key: &Q) -> u64 {
    let mut hasher = KeyHasher::default();
    key.hash(&mut hasher);
    hasher.finish()
}

impl<K: Hash + Eq, S: Default> KeyTable<K, S> {
    /// The id of `key`, assigning the next one (with a default state) if the key is new;
    /// `None` once all `u32` ids are taken (billions of distinct keys, far past any memory
    /// this runs in). `hash` is `key_hash(key)`, passed in so a caller that touches the
    /// key's entry ahead of time hashes it once.
    pub(crate) fn id_of<Q>(&mut self, key: &Q, hash: u64) -> Option<KeyId>
    where
        K: Borrow<Q>,
        Q: Eq + ToOwned<Owned = K> + ?Sized,
    {
        match self.probe(key, hash) {
            Ok(id) => Some(id),
            Err(_) => self.insert(key.to_owned(), hash),
        }
    }

    /// Reads the index slots where a key with `hash` most likely is, and the entry the first
    /// one with its tag points to (or any entry), so that a lookup of that key shortly after
    /// finds both in cache; changes nothing. Nothing here branches on what it reads, so
    /// several touches in a row overlap their cache misses, where a lookup's branches on a
    /// line still missing would hold up the next one.
    pub(crate) fn touch(&self, hash: u64)
    where
        S: Copy,
    {
        let Some(last_id) = self.entries.len().checked_sub(1) else {
            return;
        };
        let mask = self.index.len() - 1;
        let (home, tag) = (home_of(hash, mask), tag_of(hash));
        // A key is seldom more than a few slots past its home; the nearest slot with its tag
        // wins, picked with selects rather than branches.
        let mut id_plus_one = self.index[home].id_plus_one;
        for offset in (0..TOUCHED_SLOTS).rev() {
            let slot = self.index[(home + offset) & mask];
            if slot.tag == tag {
                id_plus_one = slot.id_plus_one;
            }
        }
        // An empty slot's 0 wraps around to the last entry: any entry will do, it is only read.
        let id = (id_plus_one as usize).wrapping_sub(1).min(last_id);
        std::hint::black_box(self.entries[id].state);
    }

    /// Where `key` is, or the empty slot where it would go.
    fn probe<Q>(&self, key: &Q, hash: u64) -> Result<KeyId, usize>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        if self.index.is_empty() {
            return Err(0);
        }
        let mask = self.index.len() - 1;
        let tag = tag_of(hash);
        let mut at = home_of(hash, mask);
        loop {
            let slot = self.index[at];
            if slot.id_plus_one == 0 {
                return Err(at);
            }
            let id = slot.id_plus_one - 1;
            if slot.tag == tag && self.entries[id as usize].key.borrow() == key {
                return Ok(id);
            }
            at = (at + 1) & mask;
        }
    }

    fn insert(&mut self, key: K, hash: u64) -> Option<KeyId> {
        // The last id stays free so that `id + 1` fits the index slot.
        let id = KeyId::try_from(self.entries.len())
            .ok()
            .filter(|&id| id < KeyId::MAX)?;
        let needed = (self.entries.len() + 1) * MAX_LOAD_DENOMINATOR;
        if needed > self.index.len() * MAX_LOAD_NUMERATOR {
            self.grow_index();
        }
        self.entries.push(Entry {
            key,
            state: S::default(),
        });
        self.place_in_index(id, hash);
        Some(id)
    }

    /// Doubles the index and puts every id back (hashes are recomputed from the keys: growth
    /// is rare, and storing them would widen every entry).
    fn grow_index(&mut self) {
        let slots = (self.index.len() * 2).max(FIRST_INDEX_SLOTS);
        self.index = vec![IndexSlot::default(); slots];
        for id in 0..self.entries.len() {
            let hash = key_hash(&self.entries[id].key);
            // Ids are below KeyId::MAX by construction (insert refuses more).
            self.place_in_index(id as KeyId, hash);
        }
    }

    fn place_in_index(&mut self, id: KeyId, hash: u64) {
        let mask = self.index.len() - 1;
        let mut at = home_of(hash, mask);
        while self.index[at].id_plus_one != 0 {
            at = (at + 1) & mask;
        }
        self.index[at] = IndexSlot {
            tag: tag_of(hash),
            id_plus_one: id + 1,
        };
    }
}

/// The slot a hash starts probing at: its low bits (the hasher's final mix spreads every key
/// byte over them).
fn home_of(hash: u64, mask: usize) -> usize {
    hash as usize & mask
}

/// The bits of a hash stored in the index: the high half, independent of the probe position.
fn tag_of(hash: u64) -> u32 {
    (hash >> 32) as u32
}

impl<K, S> KeyTable<K, S> {
    pub(crate) fn key(&self, id: KeyId) -> &K {
        &self.entries[id as usize].key
    }

    pub(crate) fn state(&self, id: KeyId) -> &S {
        &self.entries[id as usize].state
    }

    pub(crate) fn state_mut(&mut self, id: KeyId) -> &mut S {
        &mut self.entries[id as usize].state
    }

    /// Every key's state, by id.
    pub(crate) fn states(&self) -> impl Iterator<Item = &S> {
        self.entries.iter().map(|entry| &entry.state)
    }
}

impl<K: Ord, S> KeyTable<K, S> {
    /// The position of `id`'s key in key order among the ranked keys, if it is ranked: two
    /// ranked ids compare as their ranks do.
    pub(crate) fn rank(&self, id: KeyId) -> Option<u32> {
        self.ranks.get(id as usize).copied()
    }

    /// How many keys are ranked: every rank is below it.
    pub(crate) fn ranked_count(&self) -> usize {
        self.ranks.len()
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
        let total = self.entries.len();
        let unranked = total - self.ranks.len();
        let worth_it = batch_len.saturating_mul(8) >= total || unranked.saturating_mul(8) >= total;
        if unranked > 0 && worth_it {
            self.refresh_ranks();
        }
    }

    fn refresh_ranks(&mut self) {
        let entries = &self.entries;
        let by_key = |a: &KeyId, b: &KeyId| entries[*a as usize].key.cmp(&entries[*b as usize].key);
        // Ids are below 2^32 by construction (id_of refuses more), so these casts are exact.
        let mut arrivals: Vec<KeyId> = (self.ranks.len()..entries.len())
            .map(|id| id as KeyId)
            .collect();
        crate::replay::sort::sort_by(&mut arrivals, by_key);
        let ranked = std::mem::take(&mut self.ranked_in_order);
        let mut merged = Vec::with_capacity(entries.len());
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
        self.ranks.resize(entries.len(), 0);
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

    type Table = KeyTable<String, u64>;

    fn id(table: &mut Table, key: &str) -> KeyId {
        table.id_of(key, key_hash(key)).expect("few keys")
    }

    #[test]
    fn ids_follow_first_appearance_and_repeat_for_known_keys() {
        let mut table = Table::default();
        assert_eq!(id(&mut table, "b"), 0);
        assert_eq!(id(&mut table, "a"), 1);
        assert_eq!(id(&mut table, "b"), 0);
        assert_eq!(id(&mut table, "c"), 2);
        assert_eq!(table.key(1), "a");
        assert_eq!(table.probe("c", key_hash("c")).ok(), Some(2));
        assert_eq!(table.probe("d", key_hash("d")).ok(), None);
    }

    #[test]
    fn ids_and_states_survive_the_index_growing() {
        let mut table = Table::default();
        let names: Vec<String> = (0..5000).map(|i| format!("user-{i:05}")).collect();
        for (expected, name) in names.iter().enumerate() {
            let key_id = id(&mut table, name);
            assert_eq!(key_id as usize, expected);
            *table.state_mut(key_id) += expected as u64;
        }
        for (expected, name) in names.iter().enumerate().rev() {
            let key_id = table.probe(name.as_str(), key_hash(name.as_str())).ok();
            assert_eq!(key_id, Some(expected as KeyId));
            assert_eq!(*table.state(expected as KeyId), expected as u64);
        }
        assert_eq!(table.states().count(), names.len());
    }

    #[test]
    fn ranks_agree_with_key_order_through_every_refresh() {
        let mut table = Table::default();
        let words = ["m", "b", "Z", "é", "a", "mm", "", "b2", "A", "zz", "ä", "c"];
        for (index, word) in words.iter().enumerate() {
            id(&mut table, word);
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
        let mut table = Table::default();
        let upper = id(&mut table, "Z");
        let lower = id(&mut table, "a");
        let accented = id(&mut table, "é");
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
