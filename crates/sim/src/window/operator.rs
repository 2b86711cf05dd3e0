//! The window operator: an incremental, deterministic state machine that takes events one at
//! a time, moves the watermark, and appends the panes and side-output records each step
//! produces. It does no I/O and parses nothing; the CLI and the browser both drive it.

use super::assigner::FixedAssigner;
use super::config::{ConfigError, LatePolicy, WindowConfig, WindowSpec, MAX_TIME_MS};
use super::fixed::{FixedWindows, RecentWindows};
use super::keys::{key_hash, KeyId, KeyTable};
use super::output::{FiredPane, OpenWindow, Output, Pane, Summary};
use super::pane_order::PaneOrder;
use super::session::Sessions;
use super::sliding::SlidingWindows;
use super::watermark::Watermark;
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::Hash;

/// How many events [`WindowOperator::push_all`] touches ahead of placing them: enough for
/// their cache misses to overlap, few enough that their entries are still in cache when used.
const LOOKAHEAD_EVENTS: usize = 16;

/// Counts events per key in event-time windows; see the [module docs](super) for the rules.
///
/// `K` is the key type (`String` in the CLI). Keys are interned: each distinct key is stored
/// once and the windows refer to it by a dense `u32` id, so the per-event work is one hash
/// lookup plus the window update (one memory access for tumbling and hopping windows: the
/// key's recent windows sit in its key-table entry). Output order among keys is `K`'s `Ord` (byte order for
/// strings).
#[derive(Clone, Debug)]
pub struct WindowOperator<K> {
    config: WindowConfig,
    /// Every key, with its recent fixed windows (left empty by sessions and sliding windows,
    /// which keep their state by key id in their own structures).
    keys: KeyTable<K, RecentWindows>,
    windows: Windows,
    watermark: Watermark,
    summary: Summary,
    /// Panes of the current step before sorting; kept to reuse its allocation.
    fired: Vec<FiredPane>,
    /// The output order of `fired`; kept to reuse its allocations.
    fired_order: PaneOrder,
}

#[derive(Clone, Debug)]
enum Windows {
    Fixed(FixedWindows),
    Session(Sessions),
    Sliding(SlidingWindows),
}

/// Why `push` refused an event; the operator's state is unchanged when it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventError {
    NegativeTime {
        time_ms: i64,
    },
    TimeTooLarge {
        time_ms: i64,
    },
    /// More than `u32::MAX` distinct keys.
    TooManyKeys,
    /// `push` after `finish`: the watermark is already at plus infinity.
    Finished,
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NegativeTime { time_ms } => {
                write!(f, "time {time_ms} is negative; event times must be >= 0")
            }
            Self::TimeTooLarge { time_ms } => write!(
                f,
                "time {time_ms} is past the largest accepted event time {MAX_TIME_MS}"
            ),
            Self::TooManyKeys => write!(f, "more than {} distinct keys", u32::MAX),
            Self::Finished => write!(f, "the input has already ended"),
        }
    }
}

impl std::error::Error for EventError {}

impl<K: Clone + Ord + Hash> WindowOperator<K> {
    /// An operator with no events yet and the watermark at minus infinity.
    pub fn new(config: WindowConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let lateness_ms = config.allowed_lateness_ms;
        let windows = match config.window {
            WindowSpec::Tumbling { size_ms } => Windows::Fixed(FixedWindows::new(
                FixedAssigner {
                    size_ms,
                    hop_ms: size_ms,
                },
                lateness_ms,
            )),
            WindowSpec::Hopping { size_ms, hop_ms } => Windows::Fixed(FixedWindows::new(
                FixedAssigner { size_ms, hop_ms },
                lateness_ms,
            )),
            WindowSpec::Session { gap_ms } => Windows::Session(Sessions::new(gap_ms, lateness_ms)),
            WindowSpec::Sliding { time_difference_ms } => {
                Windows::Sliding(SlidingWindows::new(time_difference_ms, lateness_ms))
            }
        };
        Ok(Self {
            config,
            keys: KeyTable::default(),
            windows,
            watermark: Watermark::MinusInfinity,
            summary: Summary::default(),
            fired: Vec::new(),
            fired_order: PaneOrder::default(),
        })
    }

    /// Takes one event, in arrival order, and appends to `out` what it causes: first the late
    /// panes (or the side-output record) of placing it under the watermark as it stood, then
    /// the panes due as the watermark advances past it.
    ///
    /// `key` is borrowed (`&str` for `String` keys) and cloned only the first time it is seen.
    pub fn push<Q>(
        &mut self,
        key: &Q,
        time_ms: i64,
        out: &mut Vec<Output<K>>,
    ) -> Result<(), EventError>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        self.push_hashed(key, key_hash(key), time_ms, out)
    }

    /// Pushes `events` in order, with exactly the outputs and state of calling
    /// [`push`](Self::push) on each; stops at the first event refused, returning its index in
    /// `events` and why (the events before it are pushed, it and the rest are not).
    ///
    /// Faster than one `push` at a time when there are many keys: each key's lookup is a
    /// cache miss, and touching a few events' entries before placing them (`KeyTable::touch`)
    /// lets those misses overlap instead of following one another.
    pub fn push_all(
        &mut self,
        events: &[(K, i64)],
        out: &mut Vec<Output<K>>,
    ) -> Result<(), (usize, EventError)> {
        for (chunk_index, chunk) in events.chunks(LOOKAHEAD_EVENTS).enumerate() {
            let mut hashes = [0; LOOKAHEAD_EVENTS];
            for (hash, (key, _)) in hashes.iter_mut().zip(chunk) {
                *hash = key_hash(key);
            }
            // Touching in a loop of its own keeps the touches close together in the
            // instruction stream, so all of them are in flight before the first miss is over.
            for &hash in &hashes[..chunk.len()] {
                self.keys.touch(hash);
            }
            for (offset, ((key, time_ms), &hash)) in chunk.iter().zip(&hashes).enumerate() {
                self.push_hashed(key, hash, *time_ms, out)
                    .map_err(|error| (chunk_index * LOOKAHEAD_EVENTS + offset, error))?;
            }
        }
        Ok(())
    }

    /// `push` for a key whose hash (`key_hash`) is known.
    fn push_hashed<Q>(
        &mut self,
        key: &Q,
        hash: u64,
        time_ms: i64,
        out: &mut Vec<Output<K>>,
    ) -> Result<(), EventError>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        self.insert_hashed(key, hash, time_ms, out)?;
        // time >= 0 and out-of-orderness <= 2^61, so the difference cannot overflow.
        let candidate = Watermark::At(time_ms - self.config.max_out_of_orderness_ms);
        self.advance_to(candidate, out);
        Ok(())
    }

    /// Takes one event like [`push`](Self::push) but leaves the watermark where it is: for
    /// callers that compute the watermark themselves (per-partition watermarks combined across
    /// partitions, idle sources) and move it with
    /// [`advance_watermark`](Self::advance_watermark). Appends the late panes or the
    /// side-output record of placing the event; `max_out_of_orderness_ms` is not used.
    pub fn insert<Q>(
        &mut self,
        key: &Q,
        time_ms: i64,
        out: &mut Vec<Output<K>>,
    ) -> Result<(), EventError>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        self.insert_hashed(key, key_hash(key), time_ms, out)
    }

    /// `insert` for a key whose hash (`key_hash`) is known.
    fn insert_hashed<Q>(
        &mut self,
        key: &Q,
        hash: u64,
        time_ms: i64,
        out: &mut Vec<Output<K>>,
    ) -> Result<(), EventError>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        self.check_time(time_ms)?;
        if self.is_too_late(time_ms) {
            self.summary.events += 1;
            self.summary.dropped += 1;
            if self.config.late == LatePolicy::Side {
                let key = key.to_owned();
                out.push(Output::Side { key, time_ms });
            }
        } else {
            let key = self.keys.id_of(key, hash).ok_or(EventError::TooManyKeys)?;
            self.summary.events += 1;
            self.place(key, time_ms);
            self.emit_fired(out);
        }
        Ok(())
    }

    /// Moves the watermark to `candidate` if that is later (it never goes back) and appends the
    /// panes that become due, exactly as [`push`](Self::push) does after placing an event.
    /// `Watermark::PlusInfinity` has the effect of [`finish`](Self::finish).
    pub fn advance_watermark(&mut self, candidate: Watermark, out: &mut Vec<Output<K>>) {
        self.advance_to(candidate, out);
    }

    /// Ends the input: the watermark becomes plus infinity, every window with a pane still due
    /// fires (on time if it never fired, late if it is a merged session waiting for its late
    /// pane), and every window is discarded. Calling it again does nothing.
    pub fn finish(&mut self, out: &mut Vec<Output<K>>) {
        self.advance_to(Watermark::PlusInfinity, out);
    }

    pub fn watermark(&self) -> Watermark {
        self.watermark
    }

    pub fn summary(&self) -> Summary {
        self.summary
    }

    pub fn config(&self) -> &WindowConfig {
        &self.config
    }

    /// The windows that still hold state, in output order (end, start, key): those not fired
    /// yet, and fired ones still within their allowed lateness.
    pub fn open_windows(&self) -> Vec<OpenWindow<K>> {
        let mut views = Vec::new();
        let mut visit = |key, start_ms, end_ms, count, state| {
            views.push((key, start_ms, end_ms, count, state));
        };
        match &self.windows {
            Windows::Fixed(windows) => windows.visit_open(&self.keys, self.watermark, &mut visit),
            Windows::Session(sessions) => sessions.visit_open(&mut visit),
            Windows::Sliding(windows) => windows.visit_open(self.watermark, &mut visit),
        }
        crate::replay::sort::sort_by(&mut views, |a, b| {
            (a.2, a.1)
                .cmp(&(b.2, b.1))
                .then_with(|| self.keys.cmp_keys(a.0, b.0))
        });
        views
            .into_iter()
            .map(|(key, start_ms, end_ms, count, state)| OpenWindow {
                key: self.keys.key(key).clone(),
                start_ms,
                end_ms,
                count,
                state,
            })
            .collect()
    }

    fn check_time(&self, time_ms: i64) -> Result<(), EventError> {
        if self.watermark == Watermark::PlusInfinity {
            Err(EventError::Finished)
        } else if time_ms < 0 {
            Err(EventError::NegativeTime { time_ms })
        } else if time_ms > MAX_TIME_MS {
            Err(EventError::TimeTooLarge { time_ms })
        } else {
            Ok(())
        }
    }

    fn is_too_late(&self, time_ms: i64) -> bool {
        match &self.windows {
            Windows::Fixed(windows) => windows.is_too_late(time_ms, self.watermark),
            Windows::Session(sessions) => sessions.is_too_late(time_ms, self.watermark),
            Windows::Sliding(windows) => windows.is_too_late(time_ms, self.watermark),
        }
    }

    fn place(&mut self, key: KeyId, time_ms: i64) {
        match &mut self.windows {
            Windows::Fixed(windows) => windows.place(
                key,
                self.keys.state_mut(key),
                time_ms,
                self.watermark,
                &mut self.fired,
            ),
            Windows::Session(sessions) => {
                sessions.place(key, time_ms, self.watermark, &mut self.fired)
            }
            Windows::Sliding(windows) => {
                windows.place(key, time_ms, self.watermark, &mut self.fired)
            }
        }
    }

    /// Moves the watermark forward (never back): first the windows it passes fire, and only
    /// then are the windows past their allowed lateness discarded, so a window whose lateness
    /// ends at the same moment still gets its pane out.
    fn advance_to(&mut self, candidate: Watermark, out: &mut Vec<Output<K>>) {
        if candidate <= self.watermark {
            return;
        }
        let from = self.watermark;
        match &mut self.windows {
            Windows::Fixed(windows) => {
                windows.fire_passed(&self.keys, from, candidate, &mut self.fired)
            }
            Windows::Session(sessions) => sessions.fire_passed(candidate, &mut self.fired),
            Windows::Sliding(windows) => windows.fire_passed(candidate, &mut self.fired),
        }
        self.emit_fired(out);
        match &mut self.windows {
            Windows::Fixed(windows) => windows.expire(&mut self.keys, candidate),
            Windows::Session(sessions) => sessions.expire(candidate),
            Windows::Sliding(windows) => windows.expire(candidate),
        }
        self.watermark = candidate;
    }

    /// Appends the panes of this step in output order: by end, then start, then key. Within a
    /// step no window fires twice, so the order is total and the unstable sort deterministic.
    fn emit_fired(&mut self, out: &mut Vec<Output<K>>) {
        if self.fired.is_empty() {
            return;
        }
        self.summary.panes += self.fired.len() as u64;
        self.keys.refresh_ranks_for(self.fired.len());
        let keys = &self.keys;
        self.fired_order.clear();
        let order = &mut self.fired_order;
        let all_ranked = self.fired.iter().enumerate().all(|(position, pane)| {
            let rank = keys.rank(pane.key);
            if let Some(rank) = rank {
                order.push(pane.end_ms, pane.start_ms, rank, position);
            }
            rank.is_some()
        });
        if all_ranked {
            // The usual case, all keys ranked: integers alone give the order, and since no
            // two panes share (end, start, key) any sort gives the same one. Sorting these
            // small tuples, each rank looked up once, rather than the panes themselves with
            // two rank lookups per comparison, took a sixth off the sort's instructions; a
            // step of one window is not even compared but placed by rank (`PaneOrder`).
            self.fired_order.sort(keys.ranked_count());
            out.reserve(self.fired.len());
            for position in self.fired_order.positions() {
                out.push(Output::Pane(pane_of(keys, &self.fired[position])));
            }
            self.fired.clear();
        } else {
            crate::replay::sort::sort_by(&mut self.fired, |a, b| pane_order(keys, a, b));
            out.reserve(self.fired.len());
            out.extend(
                self.fired
                    .drain(..)
                    .map(|fired| Output::Pane(pane_of(keys, &fired))),
            );
        }
    }
}

/// The pane `fired` stands for, with its key.
fn pane_of<K: Clone, S>(keys: &KeyTable<K, S>, fired: &FiredPane) -> Pane<K> {
    Pane {
        key: keys.key(fired.key).clone(),
        start_ms: fired.start_ms,
        end_ms: fired.end_ms,
        count: fired.count,
        timing: fired.timing,
    }
}

fn pane_order<K: Ord, S>(keys: &KeyTable<K, S>, a: &FiredPane, b: &FiredPane) -> Ordering {
    (a.end_ms, a.start_ms)
        .cmp(&(b.end_ms, b.start_ms))
        .then_with(|| keys.cmp_keys(a.key, b.key))
}
