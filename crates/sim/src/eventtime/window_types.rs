//! The "Windows" lesson's comparison: one run's records counted by the four window types at
//! once (tumbling, hopping, sliding, session, as [`ComparedWindows`] sets them), each by a
//! full [`EventTimeWorld`] of its own, so each type goes through the same window operator,
//! watermark and lateness rules the CLI and the other lessons use. The records are identical
//! in the four runs (they never depend on the window), so the picture puts the same dots
//! under four kinds of windows.
//!
//! [`WindowTypesRun::picture`] derives, for one device, plain data to draw: per type the
//! windows so far (those that answered and those still open) stacked into rows so that
//! overlapping windows do not cover each other, and each record with the number of windows
//! it falls in. [`WindowTypesRun::events`] tells what the four runs' windows did, as typed
//! [`WindowTypesEvent`]s in processing-time order across the lanes, for the lesson's
//! narration ([`lane_events::narrate`](super::lane_events::narrate)).
//!
//! [`ComparedWindows`]: super::ComparedWindows

use super::events::WindowKind;
use super::lane_events::WindowTypesEvent;
use super::scenario::{EventTimeScenario, ScenarioError};
use super::world::EventTimeWorld;
use crate::replay::sorted_map::SortedMap;
use crate::window::{Timing, Watermark, WindowSpec, WindowState};

/// The four runs, advanced together.
#[derive(Clone, Debug)]
pub struct WindowTypesRun {
    worlds: Vec<EventTimeWorld>,
    /// Per run, how many of its events have been read into `events`.
    read: Vec<usize>,
    events: Vec<WindowTypesEvent>,
}

/// What one device's records look like under the four window types at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowTypesPicture {
    pub key: u32,
    pub now_ms: i64,
    /// The combined watermark (the same in the four runs: it depends on the records only).
    pub watermark: Watermark,
    /// Tumbling, hopping, sliding, session.
    pub lanes: Vec<WindowLane>,
}

/// One window type's windows and the device's records under them.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowLane {
    pub spec: WindowSpec,
    /// Sorted by start, then end.
    pub windows: Vec<LaneWindow>,
    /// Rows needed so that no two overlapping windows share one.
    pub rows: u32,
    /// The device's records processed so far, in processing order.
    pub records: Vec<LaneRecord>,
}

/// One window of the device, as far as the run has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneWindow {
    pub start_ms: i64,
    /// Exclusive, as in every pane (a sliding window `[s, s + D]` ends at `s + D + 1`).
    pub end_ms: i64,
    /// Its latest pane's count, or the records it holds so far if it has not fired.
    pub count: u64,
    /// Whether it has answered (fired at least once).
    pub fired: bool,
    /// Panes it has emitted: more than one means late updates.
    pub panes: u32,
    pub row: u32,
}

/// One record of the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneRecord {
    /// [`Record::index`](super::Record::index).
    pub index: u32,
    pub event_ms: i64,
    /// How many of the lane's windows hold its event time: 1 for tumbling, about size/hop for
    /// hopping, often several for sliding, 1 for sessions; 0 if it was too late for all.
    pub windows: u32,
}

impl WindowTypesRun {
    /// One run per window type of `scenario.compared` (its sliding time difference capped
    /// to the work bound, see [`ComparedWindows::capped_for_work`]); fails as
    /// [`EventTimeWorld::new`] does.
    ///
    /// [`ComparedWindows::capped_for_work`]: super::ComparedWindows::capped_for_work
    pub fn new(scenario: &EventTimeScenario) -> Result<Self, ScenarioError> {
        let worlds = scenario
            .compared
            .capped_for_work(scenario)
            .specs()
            .into_iter()
            .map(|window| {
                EventTimeWorld::new(EventTimeScenario {
                    window,
                    ..scenario.clone()
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            read: vec![0; worlds.len()],
            worlds,
            events: Vec::new(),
        })
    }

    /// The run of each type, in lane order.
    pub fn worlds(&self) -> &[EventTimeWorld] {
        &self.worlds
    }

    pub fn now_ms(&self) -> i64 {
        self.worlds[0].now_ms()
    }

    /// Moves all four runs to `target_ms` of processing time (never back).
    pub fn advance_to(&mut self, target_ms: i64) {
        for world in &mut self.worlds {
            world.advance_to(target_ms);
        }
        self.read_new_events();
    }

    /// What the four lanes' windows did so far, in processing-time order (lane order within
    /// an instant).
    pub fn events(&self) -> &[WindowTypesEvent] {
        &self.events
    }

    /// Appends the lanes' events since the last advance. Each run tells everything up to the
    /// time it was advanced to, and nothing it tells later is earlier, so sorting each
    /// advance's events by time (stably, lanes in order) gives the same sequence however
    /// finely the runs are advanced.
    fn read_new_events(&mut self) {
        let mut fresh = Vec::new();
        for (world, read) in self.worlds.iter().zip(&mut self.read) {
            let lane = WindowKind::of(world.scenario().window);
            let told = world.events().iter_from(*read);
            fresh.extend(told.filter_map(|e| WindowTypesEvent::of(lane, e)));
            *read = world.events().len();
        }
        crate::replay::sort::sort_by_key(&mut fresh, |event| event.at_ms);
        self.events.extend(fresh);
    }

    /// The picture of device `key`'s records and windows now.
    pub fn picture(&self, key: u32) -> WindowTypesPicture {
        WindowTypesPicture {
            key,
            now_ms: self.now_ms(),
            watermark: self.worlds[0].combined_watermark(),
            lanes: self.worlds.iter().map(|w| lane_of(w, key)).collect(),
        }
    }
}

fn lane_of(world: &EventTimeWorld, key: u32) -> WindowLane {
    let mut windows = windows_of(world, key);
    let rows = assign_rows(&mut windows);
    let timestamp = world.scenario().timestamp;
    let records = world
        .records_seen()
        .iter()
        .filter(|r| r.key == key)
        .map(|r| {
            let event_ms = r.event_time_ms(timestamp);
            let holding = windows
                .iter()
                .filter(|w| (w.start_ms..w.end_ms).contains(&event_ms))
                .count();
            LaneRecord {
                index: r.index,
                event_ms,
                windows: holding as u32,
            }
        })
        .collect();
    WindowLane {
        spec: world.scenario().window,
        windows,
        rows,
        records,
    }
}

/// The device's windows: each that fired, with its latest pane, and each still open, with
/// its count so far; a session that was merged into a larger one is left out (the larger
/// one stands for it).
fn windows_of(world: &EventTimeWorld, key: u32) -> Vec<LaneWindow> {
    let mut by_bounds: SortedMap<(i64, i64), LaneWindow> = SortedMap::new();
    for pane in world.event_time_panes() {
        if pane.window.key != key {
            continue;
        }
        let bounds = (pane.window.start_ms, pane.window.end_ms);
        let entry = by_bounds.entry(bounds).or_insert(LaneWindow {
            start_ms: bounds.0,
            end_ms: bounds.1,
            count: 0,
            fired: true,
            panes: 0,
            row: 0,
        });
        entry.count = pane.count;
        entry.panes += 1;
        debug_assert!(entry.panes == 1 || pane.timing == Timing::Late);
    }
    for open in world.open_windows() {
        if open.key != key || open.state == WindowState::Fired {
            continue;
        }
        by_bounds
            .entry((open.start_ms, open.end_ms))
            .or_insert(LaneWindow {
                start_ms: open.start_ms,
                end_ms: open.end_ms,
                count: open.count,
                fired: false,
                panes: 0,
                row: 0,
            });
    }
    let all: Vec<LaneWindow> = by_bounds.into_values().collect();
    all.iter()
        .filter(|w| {
            !all.iter().any(|other| {
                other != *w && other.start_ms <= w.start_ms && w.end_ms <= other.end_ms
            })
        })
        .copied()
        .collect()
}

/// Greedy interval colouring: each window (sorted by start) takes the first row whose last
/// window has ended by its start. Returns the number of rows used.
fn assign_rows(windows: &mut [LaneWindow]) -> u32 {
    let mut row_ends: Vec<i64> = Vec::new();
    for window in windows.iter_mut() {
        let row = match row_ends.iter().position(|&end| end <= window.start_ms) {
            Some(row) => row,
            None => {
                row_ends.push(i64::MIN);
                row_ends.len() - 1
            }
        };
        row_ends[row] = window.end_ms;
        window.row = row as u32;
    }
    row_ends.len() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(start_ms: i64, end_ms: i64) -> LaneWindow {
        LaneWindow {
            start_ms,
            end_ms,
            count: 1,
            fired: true,
            panes: 1,
            row: 0,
        }
    }

    #[test]
    fn back_to_back_windows_share_a_row_and_overlapping_ones_do_not() {
        let mut windows = vec![window(0, 10), window(5, 15), window(10, 20), window(15, 25)];
        assert_eq!(assign_rows(&mut windows), 2);
        let rows: Vec<u32> = windows.iter().map(|w| w.row).collect();
        assert_eq!(rows, vec![0, 1, 0, 1]);
    }
}
