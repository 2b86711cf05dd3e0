//! State of tumbling and hopping windows: per key, the live windows and their counts; across
//! keys, an index from window end to the keys with a live window ending there, so that firing
//! and expiry touch only the windows that fire or expire.
//!
//! A key's two newest windows, where almost every event lands, live in the key's entry in the
//! operator's key table ([`RecentWindows`]), so counting an event touches the entry its key
//! lookup already brought into cache; the key's older windows live here, by key id.
//!
//! Invariant that keeps this simple: a live window has fired exactly when the watermark has
//! reached its end. Windows fire on time as the watermark passes their end, and a window that
//! is created behind the watermark fires a late pane at once, so no "fired" flag is stored.

use super::assigner::FixedAssigner;
use super::keys::{ensure_key_state, KeyId, KeyTable};
use super::output::{FiredPane, Timing, WindowState};
use super::watermark::Watermark;
use crate::replay::sorted_map::SortedMap;
use std::collections::VecDeque;
use std::num::NonZeroU64;

/// One live window of one key. All windows share the size, so the start identifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    start_ms: i64,
    /// Never zero (a window exists once an event is in it), which lets `Option<Slot>` be as
    /// small as `Slot`.
    count: NonZeroU64,
}

#[derive(Clone, Debug)]
pub(crate) struct FixedWindows {
    assigner: FixedAssigner,
    allowed_lateness_ms: i64,
    /// Indexed by key id: each key's live windows before its two recent ones, ascending by
    /// start (most keys of a tumbling window never have any).
    older: Vec<VecDeque<Slot>>,
    /// Window end → keys with a live window ending there, each key once.
    by_end: SortedMap<i64, Vec<KeyId>>,
    /// Emptied key lists from expired ends, reused so steady state allocates nothing.
    spare_key_lists: Vec<Vec<KeyId>>,
    /// The smallest end the watermark has not reached yet, if any: most watermark steps pass
    /// no end, and this lets them skip the index lookup.
    next_unfired_end_ms: Option<i64>,
}

impl FixedWindows {
    pub(crate) fn new(assigner: FixedAssigner, allowed_lateness_ms: i64) -> Self {
        Self {
            assigner,
            allowed_lateness_ms,
            older: Vec::new(),
            by_end: SortedMap::default(),
            spare_key_lists: Vec::new(),
            next_unfired_end_ms: None,
        }
    }

    /// Whether every window containing `time_ms` is gone (end + lateness <= W).
    pub(crate) fn is_too_late(&self, time_ms: i64, watermark: Watermark) -> bool {
        let latest_end_ms = self.assigner.latest_end_ms(time_ms);
        watermark.has_reached(latest_end_ms + self.allowed_lateness_ms)
    }

    /// Counts the event of key `key`, whose recent windows are `recent`, in each of its windows
    /// that is not gone; a window the watermark has already passed fires a late pane with its
    /// accumulated count.
    pub(crate) fn place(
        &mut self,
        key: KeyId,
        recent: &mut RecentWindows,
        time_ms: i64,
        watermark: Watermark,
        fired: &mut Vec<FiredPane>,
    ) {
        for start_ms in self.assigner.starts(time_ms) {
            let end_ms = start_ms + self.assigner.size_ms;
            if watermark.has_reached(end_ms + self.allowed_lateness_ms) {
                continue; // Gone: it never fires again and nothing joins it.
            }
            let (count, created) = self.count_event(key, recent, start_ms);
            if created {
                self.index_new_window(end_ms, key, watermark);
            }
            if watermark.has_reached(end_ms) {
                fired.push(FiredPane {
                    key,
                    start_ms,
                    end_ms,
                    count,
                    timing: Timing::Late,
                });
            }
        }
    }

    /// On-time panes for every window whose end the watermark passes moving `from` → `to`.
    pub(crate) fn fire_passed<K>(
        &mut self,
        key_table: &KeyTable<K, RecentWindows>,
        from: Watermark,
        to: Watermark,
        fired: &mut Vec<FiredPane>,
    ) {
        let Some(next_end_ms) = self.next_unfired_end_ms else {
            return;
        };
        let Some(ends) = from.passed_until(to) else {
            return;
        };
        if !to.has_reached(next_end_ms) {
            return;
        }
        for (&end_ms, keys) in self.by_end.range(ends) {
            let start_ms = end_ms - self.assigner.size_ms;
            for &key in keys {
                if let Some(count) = self.count_of(key, key_table.state(key), start_ms) {
                    fired.push(FiredPane {
                        key,
                        start_ms,
                        end_ms,
                        count,
                        timing: Timing::OnTime,
                    });
                }
            }
        }
        self.next_unfired_end_ms = match to {
            Watermark::At(to_ms) => self.by_end.range(to_ms + 1..).next().map(|(&end, _)| end),
            Watermark::MinusInfinity | Watermark::PlusInfinity => None,
        };
    }

    /// Forgets every window with end + lateness <= `watermark`.
    pub(crate) fn expire<K>(
        &mut self,
        key_table: &mut KeyTable<K, RecentWindows>,
        watermark: Watermark,
    ) {
        // The index's first end is the next to expire, so a step that expires nothing costs
        // one look at it.
        let lateness_ms = self.allowed_lateness_ms;
        let gone = |&end_ms: &i64, _: &Vec<KeyId>| watermark.has_reached(end_ms + lateness_ms);
        while let Some((end_ms, mut keys)) = self.by_end.pop_first_if(gone) {
            for &key in &keys {
                // Ends expire in ascending order, so each key's expiring window is its oldest.
                let expired = self.pop_oldest(key, key_table.state_mut(key));
                debug_assert_eq!(
                    expired.map(|slot| slot.start_ms + self.assigner.size_ms),
                    Some(end_ms)
                );
            }
            keys.clear();
            self.spare_key_lists.push(keys);
        }
    }

    /// Every live window, in no particular order (the caller sorts).
    pub(crate) fn visit_open<K>(
        &self,
        keys: &KeyTable<K, RecentWindows>,
        watermark: Watermark,
        mut visit: impl FnMut(KeyId, i64, i64, u64, WindowState),
    ) {
        for (key_index, recent) in keys.states().enumerate() {
            // Key ids are dense u32s, so the index always fits back into one.
            let key = key_index as KeyId;
            let older = self.older_of(key, recent).into_iter().flatten();
            for slot in older.chain(&recent.previous).chain(&recent.newest) {
                let end_ms = slot.start_ms + self.assigner.size_ms;
                let state = if watermark.has_reached(end_ms) {
                    WindowState::Fired
                } else {
                    WindowState::Open
                };
                visit(key, slot.start_ms, end_ms, slot.count.get(), state);
            }
        }
    }

    fn index_new_window(&mut self, end_ms: i64, key: KeyId, watermark: Watermark) {
        if !watermark.has_reached(end_ms) {
            self.next_unfired_end_ms =
                Some(self.next_unfired_end_ms.map_or(end_ms, |e| e.min(end_ms)));
        }
        let spare = &mut self.spare_key_lists;
        self.by_end
            .entry(end_ms)
            .or_insert_with(|| spare.pop().unwrap_or_default())
            .push(key);
    }
}

/// A key's two newest live windows, kept in its entry in the key table: almost every event
/// lands in one of them (with tumbling windows a key seldom has more than two live: the
/// current one and the previous one, still within its lateness), so counting an event
/// touches the entry its key lookup already brought into cache. Older windows of the key
/// live in `FixedWindows::older`. The operator's other window kinds leave this empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RecentWindows {
    /// The window before `newest`; only ever set when `newest` is.
    previous: Option<Slot>,
    newest: Option<Slot>,
    /// Whether `FixedWindows::older` holds windows of this key (all before `previous`), so
    /// that only keys with such windows look there.
    has_older: bool,
}

impl Slot {
    fn first(start_ms: i64) -> Self {
        Self {
            start_ms,
            count: NonZeroU64::MIN,
        }
    }

    /// Counts one more event; returns the new count.
    fn add_event(&mut self) -> u64 {
        // 2^64 events would take centuries to arrive; saturating keeps this branch-free.
        self.count = self.count.saturating_add(1);
        self.count.get()
    }
}

impl FixedWindows {
    /// Adds one event of `key` to its window starting at `start_ms`, creating it if needed;
    /// returns the new count and whether the window was created.
    fn count_event(
        &mut self,
        key: KeyId,
        recent: &mut RecentWindows,
        start_ms: i64,
    ) -> (u64, bool) {
        let Some(newest) = &mut recent.newest else {
            recent.newest = Some(Slot::first(start_ms));
            return (1, true);
        };
        if newest.start_ms == start_ms {
            return (newest.add_event(), false);
        }
        if newest.start_ms < start_ms {
            self.retire_previous(key, recent);
            recent.previous = recent.newest.replace(Slot::first(start_ms));
            return (1, true);
        }
        match &mut recent.previous {
            Some(previous) if previous.start_ms == start_ms => (previous.add_event(), false),
            Some(previous) if previous.start_ms > start_ms => {
                recent.has_older = true;
                self.count_older_event(key, start_ms)
            }
            _ => {
                self.retire_previous(key, recent);
                recent.previous = Some(Slot::first(start_ms));
                (1, true)
            }
        }
    }

    /// Moves `recent.previous`, if any, to the end of the key's older windows.
    fn retire_previous(&mut self, key: KeyId, recent: &mut RecentWindows) {
        if let Some(previous) = recent.previous.take() {
            let key_index = ensure_key_state(&mut self.older, key);
            self.older[key_index].push_back(previous);
            recent.has_older = true;
        }
    }

    /// `count_event` for a window before the key's two recent ones.
    fn count_older_event(&mut self, key: KeyId, start_ms: i64) -> (u64, bool) {
        let key_index = ensure_key_state(&mut self.older, key);
        let older = &mut self.older[key_index];
        match older.binary_search_by_key(&start_ms, |slot| slot.start_ms) {
            Ok(index) => (older[index].add_event(), false),
            Err(index) => {
                older.insert(index, Slot::first(start_ms));
                (1, true)
            }
        }
    }

    fn count_of(&self, key: KeyId, recent: &RecentWindows, start_ms: i64) -> Option<u64> {
        let in_recent = [recent.newest, recent.previous]
            .into_iter()
            .flatten()
            .find(|slot| slot.start_ms == start_ms);
        if let Some(slot) = in_recent {
            return Some(slot.count.get());
        }
        let older = self.older_of(key, recent)?;
        let index = older
            .binary_search_by_key(&start_ms, |slot| slot.start_ms)
            .ok()?;
        Some(older[index].count.get())
    }

    fn pop_oldest(&mut self, key: KeyId, recent: &mut RecentWindows) -> Option<Slot> {
        if recent.has_older {
            let older = &mut self.older[key as usize];
            let oldest = older.pop_front();
            recent.has_older = !older.is_empty();
            return oldest;
        }
        recent.previous.take().or_else(|| recent.newest.take())
    }

    /// The key's windows before its recent ones, ascending, if it has any.
    fn older_of(&self, key: KeyId, recent: &RecentWindows) -> Option<&VecDeque<Slot>> {
        if recent.has_older {
            self.older.get(key as usize)
        } else {
            None
        }
    }
}
