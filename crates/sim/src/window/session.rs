//! State of session windows: per key, the live sessions (never overlapping, sorted by start
//! and therefore also by end), and a set of `(instant, key)` timers that tells the watermark
//! steps which keys to look at, so firing and expiry touch only the sessions concerned
//! ([`Reminders`]: each step takes what it passes, in `(instant, key)` order).
//!
//! Merging follows the contract: an event at t opens `[t, t + gap)`, which absorbs every live
//! session of its key that it overlaps (sessions that merely touch stay apart). A merge that
//! includes a session that had already fired produces a session that counts as fired: it
//! fires a late pane at once if the watermark has passed its end, or else waits with a late
//! pane due until the watermark gets there.
//!
//! Timers are lazy, because a busy session grows with nearly every event and moving its timer
//! each time would cost two heap operations per event. A timer is only a reminder to visit
//! the key's first session ending at or after that instant; the visit then acts on the
//! session as it really is (fire it if its end has been reached and a pane is due, forget it
//! if its lateness is over, otherwise make sure a timer waits at its real end). Correctness
//! rests on two invariants:
//!
//! * every live session has a timer at or before its end, so expiry reaches it in time;
//! * every session with a pane due has a timer after the watermark and at or before its end,
//!   so the step in which the watermark reaches its end visits it.
//!
//! Extending a session keeps both true without touching the timers (its end only grows).
//! Each session remembers its latest timer, so a visit sets a new one only where no later
//! timer of that session is still waiting.

use super::keys::{ensure_key_state, KeyId};
use super::output::{FiredPane, Timing, WindowState};
use super::reminders::Reminders;
use super::watermark::Watermark;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Session {
    start_ms: i64,
    end_ms: i64,
    count: u64,
    state: WindowState,
    /// The latest timer set for this session (or a session merged into it); always at or
    /// before `end_ms`, and still in the timer set because the session is live.
    timer_ms: i64,
}

impl Session {
    fn has_pane_due(&self) -> bool {
        self.state != WindowState::Fired
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Sessions {
    gap_ms: i64,
    allowed_lateness_ms: i64,
    /// Indexed by key id; each key's live sessions ascending by start (hence by end).
    per_key: Vec<VecDeque<Session>>,
    /// `(instant, key)` timers, see the module docs.
    timers: Reminders,
}

impl Sessions {
    pub(crate) fn new(gap_ms: i64, allowed_lateness_ms: i64) -> Self {
        Self {
            gap_ms,
            allowed_lateness_ms,
            per_key: Vec::new(),
            timers: Reminders::default(),
        }
    }

    /// Whether the event's own session `[t, t + gap)` is gone; judged before any merging.
    pub(crate) fn is_too_late(&self, time_ms: i64, watermark: Watermark) -> bool {
        watermark.has_reached(time_ms + self.gap_ms + self.allowed_lateness_ms)
    }

    /// Opens the event's session, merges it with the overlapping live sessions of its key, and
    /// fires a late pane at once if the result is already behind the watermark.
    pub(crate) fn place(
        &mut self,
        key: KeyId,
        time_ms: i64,
        watermark: Watermark,
        fired: &mut Vec<FiredPane>,
    ) {
        let key_index = ensure_key_state(&mut self.per_key, key);
        let sessions = &mut self.per_key[key_index];
        let own_end_ms = time_ms + self.gap_ms;
        // Sorted by start and by end alike, so the sessions overlapping [t, t + gap) (those
        // with end > t and start < t + gap) form one contiguous run.
        let first = sessions.partition_point(|session| session.end_ms <= time_ms);
        let past = sessions.partition_point(|session| session.start_ms < own_end_ms);

        let mut merged = Session {
            start_ms: time_ms,
            end_ms: own_end_ms,
            count: 1,
            state: WindowState::Open,
            timer_ms: i64::MIN, // No timer yet.
        };
        let mut absorbed_fired = false;
        for absorbed in sessions.range(first..past) {
            merged.start_ms = merged.start_ms.min(absorbed.start_ms);
            merged.end_ms = merged.end_ms.max(absorbed.end_ms);
            merged.count += absorbed.count;
            merged.timer_ms = merged.timer_ms.max(absorbed.timer_ms);
            absorbed_fired |= absorbed.state != WindowState::Open;
        }

        merged.state = if watermark.has_reached(merged.end_ms) {
            // Either a brand-new session behind the watermark or a merge with a fired one
            // (open sessions all end after the watermark): a late pane, now.
            fired.push(pane(key, &merged, Timing::Late));
            WindowState::Fired
        } else if absorbed_fired {
            WindowState::LatePaneDue
        } else {
            WindowState::Open
        };

        // Absorbed timers lie at or before the merged end, which keeps the expiry invariant
        // (a brand-new session has none); a pane due also needs one after the watermark.
        let needs_timer =
            first == past || (merged.has_pane_due() && watermark.has_reached(merged.timer_ms));
        if needs_timer {
            merged.timer_ms = merged.end_ms;
        }
        if past == first + 1 {
            sessions[first] = merged; // The common case: one session grows in place.
        } else {
            sessions.drain(first..past);
            sessions.insert(first, merged);
        }
        if needs_timer {
            self.timers.set(merged.end_ms, key, watermark);
        }
    }

    /// The panes due for every session whose end the watermark reaches moving up to `to`:
    /// on time for sessions that never fired, late for merged ones with a late pane due.
    pub(crate) fn fire_passed(&mut self, to: Watermark, fired: &mut Vec<FiredPane>) {
        while let Some((instant_ms, key)) = self.timers.next_reached(to) {
            let sessions = &mut self.per_key[key as usize];
            let index = sessions.partition_point(|session| session.end_ms < instant_ms);
            let Some(session) = sessions.get_mut(index) else {
                continue; // Stale: the session it stood for has expired.
            };
            if !session.has_pane_due() {
                continue;
            }
            if to.has_reached(session.end_ms) {
                let timing = match session.state {
                    WindowState::Open => Timing::OnTime,
                    WindowState::LatePaneDue | WindowState::Fired => Timing::Late,
                };
                session.state = WindowState::Fired;
                fired.push(pane(key, session, timing));
            } else if session.timer_ms < session.end_ms {
                // The session grew past its timers; remind again at its real end, which
                // the watermark has not reached, so this pass does not meet it again.
                session.timer_ms = session.end_ms;
                self.timers.set(session.end_ms, key, to);
            }
        }
    }

    /// Forgets every session with end + lateness <= `watermark`.
    pub(crate) fn expire(&mut self, watermark: Watermark) {
        while let Some((instant_ms, key)) =
            self.timers.next_gone(watermark, self.allowed_lateness_ms)
        {
            let sessions = &mut self.per_key[key as usize];
            let index = sessions.partition_point(|session| session.end_ms < instant_ms);
            let Some(session) = sessions.get_mut(index) else {
                continue; // Stale: the session it stood for has expired.
            };
            if watermark.has_reached(session.end_ms + self.allowed_lateness_ms) {
                // Expiry goes by ascending instants, so every older session of this key is
                // gone already and this one is the oldest.
                debug_assert_eq!(index, 0);
                sessions.remove(index);
            } else if session.timer_ms <= instant_ms {
                // This was the session's latest timer: keep one waiting at its real end.
                let end_ms = session.end_ms;
                session.timer_ms = end_ms;
                self.timers.set(end_ms, key, watermark);
            }
        }
    }

    /// Every live session, in no particular order (the caller sorts).
    pub(crate) fn visit_open(&self, mut visit: impl FnMut(KeyId, i64, i64, u64, WindowState)) {
        for (key_index, sessions) in self.per_key.iter().enumerate() {
            for session in sessions {
                // Key ids are dense u32s, so the index always fits back into one.
                let key = key_index as KeyId;
                visit(
                    key,
                    session.start_ms,
                    session.end_ms,
                    session.count,
                    session.state,
                );
            }
        }
    }
}

fn pane(key: KeyId, session: &Session, timing: Timing) -> FiredPane {
    FiredPane {
        key,
        start_ms: session.start_ms,
        end_ms: session.end_ms,
        count: session.count,
        timing,
    }
}
