//! State of sliding windows in the sense of Kafka Streams' `SlidingWindows`: windows defined by
//! the records themselves, each covering every record within `time_difference_ms` of another.
//!
//! A window covers `[start, start + time_difference]`, both ends inclusive; internally it is
//! the half-open `[start, end)` with `end = start + time_difference + 1`, so the watermark rules
//! of the other window types apply unchanged. The windows of a key are exactly those Kafka
//! Streams creates: for every record at t its left window `[t - d, t]`, and, when some record
//! lies in `(t, t + d + 1]`, its right window `[t + 1, t + d + 1]`. A window's count is the
//! number of the key's accepted records inside it, whenever it was created. A record at t
//! therefore adds 1 to every existing window around it and may create three windows: its own
//! left and right windows, and the right window of the record just before it.
//!
//! Invariant, as for fixed windows: a live window has fired exactly when the watermark has
//! reached its end (windows created behind the watermark fire a late pane at once), so no
//! "fired" flag is stored. Each window's `(end, key)` is a [`Reminders`] entry, which tells
//! firing and expiry which windows to look at.
//!
//! Records are kept per key to count the windows a record creates (the left window of a late
//! record holds older records). A record is needed while a window holding it can still be
//! created, i.e. until the right window of that record is gone; stale records never change a
//! result (every window created is checked against the watermark first), so they are pruned
//! lazily, when the key is next touched or loses a window.

use super::keys::{ensure_key_state, KeyId};
use super::output::{FiredPane, Timing, WindowState};
use super::reminders::Reminders;
use super::watermark::Watermark;
use std::collections::VecDeque;

/// A key's state. Both lists are short (records and windows within a few time differences)
/// and nearly always grow at the back, so sorted deques with binary search beat ordered
/// maps here, in time and in code size.
#[derive(Clone, Debug, Default)]
struct KeyState {
    /// `(time, records at that time)` of the accepted records still needed, by time.
    records: VecDeque<(i64, u64)>,
    /// `(start, count)` of the live windows, by start.
    windows: VecDeque<(i64, u64)>,
}

/// The position of `at` in a list sorted by its first field: `Ok` if present.
fn find(list: &VecDeque<(i64, u64)>, at: i64) -> Result<usize, usize> {
    list.binary_search_by_key(&at, |&(first, _)| first)
}

/// The index of the first entry at or after `at`.
fn first_from(list: &VecDeque<(i64, u64)>, at: i64) -> usize {
    list.partition_point(|&(first, _)| first < at)
}

impl KeyState {
    fn count_between(&self, first_ms: i64, last_ms: i64) -> u64 {
        let from = first_from(&self.records, first_ms);
        self.records
            .range(from..)
            .take_while(|&&(at, _)| at <= last_ms)
            .map(|&(_, n)| n)
            .sum()
    }

    fn add_record(&mut self, time_ms: i64) {
        match find(&self.records, time_ms) {
            Ok(index) => self.records[index].1 += 1,
            Err(index) => self.records.insert(index, (time_ms, 1)),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct SlidingWindows {
    time_difference_ms: i64,
    allowed_lateness_ms: i64,
    per_key: Vec<KeyState>,
    /// `(end, key)` of every live window, for firing and expiry in end order.
    ends: Reminders,
    /// Starts of windows created by the current event, reused between events.
    created: Vec<i64>,
}

impl SlidingWindows {
    pub(crate) fn new(time_difference_ms: i64, allowed_lateness_ms: i64) -> Self {
        Self {
            time_difference_ms,
            allowed_lateness_ms,
            per_key: Vec::new(),
            ends: Reminders::default(),
            created: Vec::new(),
        }
    }

    /// The exclusive end of the window starting at `start_ms`.
    fn end_of(&self, start_ms: i64) -> i64 {
        start_ms + self.time_difference_ms + 1
    }

    fn is_gone(&self, end_ms: i64, watermark: Watermark) -> bool {
        watermark.has_reached(end_ms + self.allowed_lateness_ms)
    }

    /// Whether the latest window that could ever hold `time_ms`, `[t, t + d]`, is gone: Kafka
    /// Streams' test `t + 1 + timeDifference <= stream time - grace`.
    pub(crate) fn is_too_late(&self, time_ms: i64, watermark: Watermark) -> bool {
        self.is_gone(self.end_of(time_ms), watermark)
    }

    /// Adds the record to every live window around it, creates the windows it brings into
    /// existence, and fires a late pane for each of them the watermark has already passed.
    pub(crate) fn place(
        &mut self,
        key: KeyId,
        time_ms: i64,
        watermark: Watermark,
        fired: &mut Vec<FiredPane>,
    ) {
        let key_index = ensure_key_state(&mut self.per_key, key);
        self.prune_records(key, watermark);
        let d = self.time_difference_ms;
        let state = &mut self.per_key[key_index];
        let at = first_from(&state.records, time_ms);
        let previous_ms = at.checked_sub(1).map(|index| state.records[index].0);
        let next_ms = match state.records.get(at) {
            Some(&(same, _)) if same == time_ms => state.records.get(at + 1),
            other => other,
        }
        .map(|&(later, _)| later);
        state.add_record(time_ms);

        // Existing windows around the record: starts in [t - d, t].
        let from = first_from(&state.windows, time_ms - d);
        for (start_ms, count) in state.windows.range_mut(from..) {
            if *start_ms > time_ms {
                break;
            }
            *count += 1;
            let end_ms = *start_ms + d + 1;
            if watermark.has_reached(end_ms) {
                fired.push(pane(key, *start_ms, end_ms, *count, Timing::Late));
            }
        }

        // Windows this record brings into existence.
        self.created.clear();
        self.created.push(time_ms - d);
        if let Some(previous_ms) = previous_ms.filter(|&p| time_ms <= p + d + 1) {
            self.created.push(previous_ms + 1);
        }
        if next_ms.is_some_and(|next_ms| next_ms <= time_ms + d + 1) {
            self.created.push(time_ms + 1);
        }
        let created = std::mem::take(&mut self.created);
        for &start_ms in &created {
            self.create(key, start_ms, watermark, fired);
        }
        self.created = created;
    }

    fn create(
        &mut self,
        key: KeyId,
        start_ms: i64,
        watermark: Watermark,
        fired: &mut Vec<FiredPane>,
    ) {
        let end_ms = self.end_of(start_ms);
        if self.is_gone(end_ms, watermark) {
            return;
        }
        let state = &mut self.per_key[key as usize];
        let Err(index) = find(&state.windows, start_ms) else {
            return; // It exists already.
        };
        let count = state.count_between(start_ms, end_ms - 1);
        state.windows.insert(index, (start_ms, count));
        self.ends.set(end_ms, key, watermark);
        if watermark.has_reached(end_ms) {
            fired.push(pane(key, start_ms, end_ms, count, Timing::Late));
        }
    }

    /// On-time panes for every window whose end the watermark reaches moving up to `to`.
    pub(crate) fn fire_passed(&mut self, to: Watermark, fired: &mut Vec<FiredPane>) {
        while let Some((end_ms, key)) = self.ends.next_reached(to) {
            let start_ms = end_ms - self.time_difference_ms - 1;
            let windows = &self.per_key[key as usize].windows;
            if let Ok(index) = find(windows, start_ms) {
                fired.push(pane(
                    key,
                    start_ms,
                    end_ms,
                    windows[index].1,
                    Timing::OnTime,
                ));
            }
        }
    }

    /// Forgets every window with end + lateness <= `watermark`, and the records no window
    /// can hold any more.
    pub(crate) fn expire(&mut self, watermark: Watermark) {
        while let Some((end_ms, key)) = self.ends.next_gone(watermark, self.allowed_lateness_ms) {
            let start_ms = end_ms - self.time_difference_ms - 1;
            let windows = &mut self.per_key[key as usize].windows;
            if let Ok(index) = find(windows, start_ms) {
                windows.remove(index);
            }
            self.prune_records(key, watermark);
        }
    }

    /// Drops the key's records whose right window is gone: no window holding them can be
    /// created any more, and every live window holding them already counts them.
    fn prune_records(&mut self, key: KeyId, watermark: Watermark) {
        let reach_ms = self.time_difference_ms + 2 + self.allowed_lateness_ms;
        let records = &mut self.per_key[key as usize].records;
        while let Some(&(time_ms, _)) = records.front() {
            if !watermark.has_reached(time_ms + reach_ms) {
                break;
            }
            records.pop_front();
        }
    }

    /// Every live window, in no particular order (the caller sorts).
    pub(crate) fn visit_open(
        &self,
        watermark: Watermark,
        mut visit: impl FnMut(KeyId, i64, i64, u64, WindowState),
    ) {
        for (key_index, state) in self.per_key.iter().enumerate() {
            for &(start_ms, count) in &state.windows {
                let end_ms = self.end_of(start_ms);
                let window_state = if watermark.has_reached(end_ms) {
                    WindowState::Fired
                } else {
                    WindowState::Open
                };
                // Key ids are dense u32s, so the index always fits back into one.
                visit(key_index as KeyId, start_ms, end_ms, count, window_state);
            }
        }
    }
}

fn pane(key: KeyId, start_ms: i64, end_ms: i64, count: u64, timing: Timing) -> FiredPane {
    FiredPane {
        key,
        start_ms,
        end_ms,
        count,
        timing,
    }
}
