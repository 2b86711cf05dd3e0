//! The window operator's configuration as a user writes it, and the checks that run before any
//! event is seen: they keep every later computation inside `i64` without a single overflow.

use serde::Serialize;
use std::fmt;

/// The largest event time accepted: 2^61 ms, about 73 million years after the epoch.
///
/// Together with [`MAX_DURATION_MS`] this bounds every intermediate value the operator computes
/// (a window end plus the allowed lateness is at most 3 · 2^61 < 2^63), so its arithmetic cannot
/// overflow; the limits are far beyond any real event time or duration.
pub const MAX_TIME_MS: i64 = 1 << 61;

/// The largest window size, hop, session gap, allowed lateness or out-of-orderness: 2^61 ms.
pub const MAX_DURATION_MS: i64 = 1 << 61;

/// The most hopping windows one event may belong to (`ceil(size / hop)`).
///
/// Each event is counted in every window it belongs to, so this bounds the work per event; a
/// configuration past it is almost always a unit mistake (a hop in ms meant to be seconds).
pub const MAX_WINDOWS_PER_EVENT: i64 = 10_000;

/// Everything the operator needs to know, in the shape of the contract's config file.
///
/// Deserializing is strict (see `config_serde`): objects only, all four fields required,
/// unknown or repeated fields rejected, so a misspelt option is an error instead of a silent
/// default. Serializing writes the same shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WindowConfig {
    pub window: WindowSpec,
    /// How far behind the largest event time seen the watermark trails.
    #[serde(rename = "max_out_of_orderness")]
    pub max_out_of_orderness_ms: i64,
    /// How long after the watermark passes a window's end the window keeps accepting events.
    #[serde(rename = "allowed_lateness")]
    pub allowed_lateness_ms: i64,
    pub late: LatePolicy,
}

/// The shape of the windows: `{"type": "tumbling", "size": S}` and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum WindowSpec {
    /// Back-to-back windows `[n·S, (n+1)·S)`.
    Tumbling {
        #[serde(rename = "size")]
        size_ms: i64,
    },
    /// Windows `[n·H, n·H + S)` for every integer n, negative ones included; they overlap when
    /// H < S, so an event belongs to about S / H of them.
    Hopping {
        #[serde(rename = "size")]
        size_ms: i64,
        #[serde(rename = "hop")]
        hop_ms: i64,
    },
    /// Per-key sessions: each event opens `[t, t + G)` and overlapping sessions merge.
    Session {
        #[serde(rename = "gap")]
        gap_ms: i64,
    },
    /// Kafka Streams' `SlidingWindows.ofTimeDifferenceAndGrace(D, grace)`: windows defined by
    /// the records, each covering `[s, s + D]` with both ends inclusive, one for every distinct
    /// set of a key's records within D of each other. Panes report them half-open like every
    /// other window, `[s, s + D + 1)`. An extension of the `window` contract, which names
    /// only the other three types.
    Sliding {
        #[serde(rename = "time_difference")]
        time_difference_ms: i64,
    },
}

/// What happens to an event too late for every window it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LatePolicy {
    /// Counted in the summary and otherwise forgotten.
    Drop,
    /// Counted, and also reported as an [`Output::Side`](super::Output::Side) record.
    Side,
}

/// Why a configuration was refused; the message names the field as the config file spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A size, hop or gap that is zero or negative.
    NotPositive { field: &'static str, value: i64 },
    /// A lateness or out-of-orderness below zero.
    Negative { field: &'static str, value: i64 },
    /// A duration past [`MAX_DURATION_MS`].
    TooLarge { field: &'static str, value: i64 },
    /// A hopping window whose hop is longer than the window, which would leave gaps.
    HopLongerThanSize { hop_ms: i64, size_ms: i64 },
    /// A hopping window that would put one event into more than [`MAX_WINDOWS_PER_EVENT`] windows.
    TooManyWindowsPerEvent { windows: i64 },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotPositive { field, value } => {
                write!(f, "{field} must be a positive number of ms, got {value}")
            }
            Self::Negative { field, value } => {
                write!(f, "{field} must be zero or more ms, got {value}")
            }
            Self::TooLarge { field, value } => write!(
                f,
                "{field} is {value} ms, more than the largest accepted {MAX_DURATION_MS} ms"
            ),
            Self::HopLongerThanSize { hop_ms, size_ms } => write!(
                f,
                "window.hop ({hop_ms}) must not exceed window.size ({size_ms}): \
                 a longer hop would leave gaps no window covers"
            ),
            Self::TooManyWindowsPerEvent { windows } => write!(
                f,
                "window.size / window.hop puts each event into {windows} windows, \
                 more than the {MAX_WINDOWS_PER_EVENT} accepted"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl WindowConfig {
    /// Checks every number against the contract and the overflow limits above.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.window.validate()?;
        check_duration("max_out_of_orderness", self.max_out_of_orderness_ms)?;
        check_duration("allowed_lateness", self.allowed_lateness_ms)
    }
}

impl WindowSpec {
    /// Checks the window's own numbers (sizes, hop, gap) against the contract and the
    /// overflow limits; the top-K operator reuses it for its tumbling and hopping windows.
    pub(crate) fn validate(&self) -> Result<(), ConfigError> {
        match *self {
            Self::Tumbling { size_ms } => check_positive_duration("window.size", size_ms),
            Self::Hopping { size_ms, hop_ms } => {
                check_positive_duration("window.size", size_ms)?;
                check_positive_duration("window.hop", hop_ms)?;
                if hop_ms > size_ms {
                    return Err(ConfigError::HopLongerThanSize { hop_ms, size_ms });
                }
                // Both are at most 2^61, so the rounded-up division cannot overflow.
                let windows = (size_ms + hop_ms - 1) / hop_ms;
                if windows > MAX_WINDOWS_PER_EVENT {
                    return Err(ConfigError::TooManyWindowsPerEvent { windows });
                }
                Ok(())
            }
            Self::Session { gap_ms } => check_positive_duration("window.gap", gap_ms),
            // Kafka accepts a zero time difference: windows of records at the same instant.
            Self::Sliding { time_difference_ms } => {
                check_duration("window.time_difference", time_difference_ms)
            }
        }
    }
}

fn check_positive_duration(field: &'static str, value: i64) -> Result<(), ConfigError> {
    if value <= 0 {
        return Err(ConfigError::NotPositive { field, value });
    }
    check_duration(field, value)
}

fn check_duration(field: &'static str, value: i64) -> Result<(), ConfigError> {
    if value < 0 {
        Err(ConfigError::Negative { field, value })
    } else if value > MAX_DURATION_MS {
        Err(ConfigError::TooLarge { field, value })
    } else {
        Ok(())
    }
}
