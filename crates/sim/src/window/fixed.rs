//! State of tumbling and hopping windows: per key, the live windows and their counts; across
//! keys, an index from window end to the keys with a live window ending there, so that firing
//! and expiry touch only the windows that fire or expire.
//!
//! Invariant that keeps this simple: a live window has fired exactly when the watermark has
//! reached its end. Windows fire on time as the watermark passes their end, and a window that
//! is created behind the watermark fires a late pane at once, so no "fired" flag is stored.

use super::assigner::FixedAssigner;
use super::keys::{ensure_key_state, KeyId};
use super::output::{FiredPane, Timing, WindowState};
use super::watermark::Watermark;
use std::collections::{BTreeMap, VecDeque};

/// One live window of one key. All windows share the size, so the start identifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    start_ms: i64,
    count: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct FixedWindows {
    assigner: FixedAssigner,
    allowed_lateness_ms: i64,
    /// Indexed by key id: each key's live windows.
    per_key: Vec<KeySlots>,
    /// Window end → keys with a live window ending there, each key once.
    by_end: BTreeMap<i64, Vec<KeyId>>,
    /// Emptied key lists from expired ends, reused so steady state allocates nothing.
    spare_key_lists: Vec<Vec<KeyId>>,
    /// The smallest end the watermark has not reached yet, if any: most watermark steps pass
    /// no end, and this lets them skip the index lookup.
    next_unfired_end_ms: Option<i64>,
    /// The smallest end in the index, if any: the next window to expire.
    oldest_end_ms: Option<i64>,
}

impl FixedWindows {
    pub(crate) fn new(assigner: FixedAssigner, allowed_lateness_ms: i64) -> Self {
        Self {
            assigner,
            allowed_lateness_ms,
            per_key: Vec::new(),
            by_end: BTreeMap::new(),
            spare_key_lists: Vec::new(),
            next_unfired_end_ms: None,
            oldest_end_ms: None,
        }
    }

    /// Whether every window containing `time_ms` is gone (end + lateness <= W).
    pub(crate) fn is_too_late(&self, time_ms: i64, watermark: Watermark) -> bool {
        let latest_end_ms = self.assigner.latest_end_ms(time_ms);
        watermark.has_reached(latest_end_ms + self.allowed_lateness_ms)
    }

    /// Counts the event in each of its windows that is not gone; a window the watermark has
    /// already passed fires a late pane with its accumulated count.
    pub(crate) fn place(
        &mut self,
        key: KeyId,
        time_ms: i64,
        watermark: Watermark,
        fired: &mut Vec<FiredPane>,
    ) {
        let key_index = ensure_key_state(&mut self.per_key, key);
        for start_ms in self.assigner.starts(time_ms) {
            let end_ms = start_ms + self.assigner.size_ms;
            if watermark.has_reached(end_ms + self.allowed_lateness_ms) {
                continue; // Gone: it never fires again and nothing joins it.
            }
            let (count, created) = self.per_key[key_index].count_event(start_ms);
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
    pub(crate) fn fire_passed(
        &mut self,
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
                if let Some(count) = self.per_key[key as usize].count_of(start_ms) {
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
    pub(crate) fn expire(&mut self, watermark: Watermark) {
        match self.oldest_end_ms {
            Some(end_ms) if watermark.has_reached(end_ms + self.allowed_lateness_ms) => {}
            _ => return,
        }
        while let Some(entry) = self.by_end.first_entry() {
            let end_ms = *entry.key();
            if !watermark.has_reached(end_ms + self.allowed_lateness_ms) {
                break;
            }
            let mut keys = entry.remove();
            for &key in &keys {
                // Ends expire in ascending order, so each key's expiring window is its oldest.
                let expired = self.per_key[key as usize].pop_oldest();
                debug_assert_eq!(
                    expired.map(|slot| slot.start_ms + self.assigner.size_ms),
                    Some(end_ms)
                );
            }
            keys.clear();
            self.spare_key_lists.push(keys);
        }
        self.oldest_end_ms = self.by_end.first_key_value().map(|(&end, _)| end);
    }

    /// Every live window, in no particular order (the caller sorts).
    pub(crate) fn visit_open(
        &self,
        watermark: Watermark,
        mut visit: impl FnMut(KeyId, i64, i64, u64, WindowState),
    ) {
        for (key_index, slots) in self.per_key.iter().enumerate() {
            for slot in slots.older.iter().chain(&slots.newest) {
                let end_ms = slot.start_ms + self.assigner.size_ms;
                let state = if watermark.has_reached(end_ms) {
                    WindowState::Fired
                } else {
                    WindowState::Open
                };
                // Key ids are dense u32s, so the index always fits back into one.
                visit(key_index as KeyId, slot.start_ms, end_ms, slot.count, state);
            }
        }
    }

    fn index_new_window(&mut self, end_ms: i64, key: KeyId, watermark: Watermark) {
        if !watermark.has_reached(end_ms) {
            self.next_unfired_end_ms =
                Some(self.next_unfired_end_ms.map_or(end_ms, |e| e.min(end_ms)));
        }
        self.oldest_end_ms = Some(self.oldest_end_ms.map_or(end_ms, |e| e.min(end_ms)));
        let spare = &mut self.spare_key_lists;
        self.by_end
            .entry(end_ms)
            .or_insert_with(|| spare.pop().unwrap_or_default())
            .push(key);
    }
}

/// One key's live windows, ascending by start (hence by end). The newest window is kept
/// apart from the rest because almost every event lands in it: counting then touches this
/// struct alone instead of following a pointer to a separately allocated buffer.
#[derive(Clone, Debug, Default)]
struct KeySlots {
    newest: Option<Slot>,
    /// The windows before `newest`.
    older: VecDeque<Slot>,
}

impl KeySlots {
    /// Adds one event to the window starting at `start_ms`, creating it if needed; returns
    /// the new count and whether the window was created.
    fn count_event(&mut self, start_ms: i64) -> (u64, bool) {
        match &mut self.newest {
            Some(newest) if newest.start_ms == start_ms => {
                newest.count += 1;
                return (newest.count, false);
            }
            Some(newest) if newest.start_ms < start_ms => {
                self.older.push_back(*newest);
                *newest = Slot { start_ms, count: 1 };
                return (1, true);
            }
            Some(_) => {}
            None => {
                self.newest = Some(Slot { start_ms, count: 1 });
                return (1, true);
            }
        }
        match self
            .older
            .binary_search_by_key(&start_ms, |slot| slot.start_ms)
        {
            Ok(index) => {
                self.older[index].count += 1;
                (self.older[index].count, false)
            }
            Err(index) => {
                self.older.insert(index, Slot { start_ms, count: 1 });
                (1, true)
            }
        }
    }

    fn count_of(&self, start_ms: i64) -> Option<u64> {
        match self.newest {
            Some(newest) if newest.start_ms == start_ms => Some(newest.count),
            _ => {
                let index = self
                    .older
                    .binary_search_by_key(&start_ms, |slot| slot.start_ms)
                    .ok()?;
                Some(self.older[index].count)
            }
        }
    }

    fn pop_oldest(&mut self) -> Option<Slot> {
        self.older.pop_front().or_else(|| self.newest.take())
    }
}
