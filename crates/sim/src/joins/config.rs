//! The join and top-K operators' configurations as the `join` and `topk` contracts spell
//! them, and the checks that run before any event is seen. The limits are the window
//! operator's ([`MAX_DURATION_MS`] for every bound and delay, [`MAX_TIME_MS`] for event
//! times), so no sum the operators compute (`time + upper`, `time - lower`,
//! `time - out_of_orderness`) can leave `i64`.
//!
//! [`MAX_TIME_MS`]: crate::window::MAX_TIME_MS

use crate::window::{ConfigError, WindowSpec, MAX_DURATION_MS};
use serde::Serialize;
use std::fmt;

/// A `streamlab join` config: an interval join or a temporal join.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "join", rename_all = "lowercase")]
pub enum JoinConfig {
    Interval(IntervalConfig),
    Temporal(TemporalConfig),
}

/// Flink's interval join, `left.intervalJoin(right).between(lower, upper)`: a left event at
/// `l` and a right event at `r` of the same key match iff `l + lower <= r <= l + upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct IntervalConfig {
    #[serde(rename = "lower")]
    pub lower_ms: i64,
    #[serde(rename = "upper")]
    pub upper_ms: i64,
    pub outer: Outer,
    #[serde(rename = "max_out_of_orderness")]
    pub max_out_of_orderness_ms: i64,
}

/// Which events that expire without a match are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outer {
    /// None: only matches.
    Inner,
    /// Unmatched left events (a `LEFT JOIN`: a search nobody clicked).
    Left,
    /// Unmatched events of either side.
    Full,
}

impl Outer {
    /// Whether an unmatched event of `side` is reported when it expires.
    pub fn reports(self, side: super::Side) -> bool {
        match self {
            Outer::Inner => false,
            Outer::Left => side == super::Side::Left,
            Outer::Full => true,
        }
    }
}

/// A stream enriched from a versioned table (`FOR SYSTEM_TIME AS OF`), by event time or by
/// processing time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TemporalConfig {
    pub time: TemporalTime,
    /// Used by the event-time join's watermarks; a processing-time join has none.
    #[serde(rename = "max_out_of_orderness")]
    pub max_out_of_orderness_ms: i64,
}

/// Which version of the table row answers a left event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TemporalTime {
    /// The version valid at the left event's time, once the watermark has passed it.
    Event,
    /// The version that arrived last before the left event, at once.
    Processing,
}

/// A `streamlab topk` config: Flink SQL's window Top-N over tumbling or hopping windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TopKConfig {
    pub window: WindowSpec,
    pub k: u32,
    #[serde(rename = "max_out_of_orderness")]
    pub max_out_of_orderness_ms: i64,
}

/// The largest `k` the `topk` contract accepts.
pub const MAX_K: u32 = 1_000;

/// Why a join or top-K config was refused; the message names the field as the file spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinConfigError {
    /// A bound, a size or a delay out of range (the window operator's own checks).
    Window(ConfigError),
    /// An interval bound beyond ±[`MAX_DURATION_MS`].
    BoundTooLarge { field: &'static str, value: i64 },
    /// `lower > upper`: no pair could ever match.
    LowerAboveUpper { lower_ms: i64, upper_ms: i64 },
    /// `k` outside `1..=1000`.
    KOutOfRange { k: u64 },
    /// A session or sliding window, which the `topk` contract does not accept.
    NotFixedWindow { kind: &'static str },
}

impl fmt::Display for JoinConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Window(error) => write!(f, "{error}"),
            Self::BoundTooLarge { field, value } => write!(
                f,
                "{field} is {value} ms, beyond ±{MAX_DURATION_MS} ms, the largest bound accepted"
            ),
            Self::LowerAboveUpper { lower_ms, upper_ms } => write!(
                f,
                "lower ({lower_ms}) must not exceed upper ({upper_ms}): no pair could ever match"
            ),
            Self::KOutOfRange { k } => write!(f, "k is {k}, outside 1..={MAX_K}"),
            Self::NotFixedWindow { kind } => write!(
                f,
                "window.type {kind:?} is not accepted: a top-K window is tumbling or hopping"
            ),
        }
    }
}

impl std::error::Error for JoinConfigError {}

impl From<ConfigError> for JoinConfigError {
    fn from(error: ConfigError) -> Self {
        Self::Window(error)
    }
}

/// The out-of-orderness every config carries: 0 to [`MAX_DURATION_MS`].
fn check_out_of_orderness(value: i64) -> Result<(), JoinConfigError> {
    if value < 0 {
        return Err(ConfigError::Negative {
            field: "max_out_of_orderness",
            value,
        }
        .into());
    }
    if value > MAX_DURATION_MS {
        return Err(ConfigError::TooLarge {
            field: "max_out_of_orderness",
            value,
        }
        .into());
    }
    Ok(())
}

impl JoinConfig {
    pub fn validate(&self) -> Result<(), JoinConfigError> {
        match self {
            JoinConfig::Interval(interval) => interval.validate(),
            JoinConfig::Temporal(temporal) => temporal.validate(),
        }
    }
}

impl IntervalConfig {
    pub fn validate(&self) -> Result<(), JoinConfigError> {
        for (field, value) in [("lower", self.lower_ms), ("upper", self.upper_ms)] {
            if !(-MAX_DURATION_MS..=MAX_DURATION_MS).contains(&value) {
                return Err(JoinConfigError::BoundTooLarge { field, value });
            }
        }
        if self.lower_ms > self.upper_ms {
            return Err(JoinConfigError::LowerAboveUpper {
                lower_ms: self.lower_ms,
                upper_ms: self.upper_ms,
            });
        }
        check_out_of_orderness(self.max_out_of_orderness_ms)
    }
}

impl TemporalConfig {
    pub fn validate(&self) -> Result<(), JoinConfigError> {
        check_out_of_orderness(self.max_out_of_orderness_ms)
    }
}

impl TopKConfig {
    pub fn validate(&self) -> Result<(), JoinConfigError> {
        match self.window {
            WindowSpec::Tumbling { .. } | WindowSpec::Hopping { .. } => {}
            WindowSpec::Session { .. } => {
                return Err(JoinConfigError::NotFixedWindow { kind: "session" })
            }
            WindowSpec::Sliding { .. } => {
                return Err(JoinConfigError::NotFixedWindow { kind: "sliding" })
            }
        }
        self.window.validate()?;
        if !(1..=MAX_K).contains(&self.k) {
            return Err(JoinConfigError::KOutOfRange {
                k: u64::from(self.k),
            });
        }
        check_out_of_orderness(self.max_out_of_orderness_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(lower_ms: i64, upper_ms: i64) -> IntervalConfig {
        IntervalConfig {
            lower_ms,
            upper_ms,
            outer: Outer::Inner,
            max_out_of_orderness_ms: 0,
        }
    }

    #[test]
    fn bounds_may_be_negative_or_equal_but_not_crossed() {
        assert_eq!(interval(-5_000, -1_000).validate(), Ok(()));
        assert_eq!(interval(7, 7).validate(), Ok(()));
        assert_eq!(
            interval(10, 9).validate().unwrap_err().to_string(),
            "lower (10) must not exceed upper (9): no pair could ever match"
        );
        assert!(matches!(
            interval(-MAX_DURATION_MS - 1, 0).validate(),
            Err(JoinConfigError::BoundTooLarge { field: "lower", .. })
        ));
    }

    #[test]
    fn topk_takes_fixed_windows_and_k_up_to_a_thousand() {
        let config = |window, k| TopKConfig {
            window,
            k,
            max_out_of_orderness_ms: 0,
        };
        let tumbling = WindowSpec::Tumbling { size_ms: 10 };
        assert_eq!(config(tumbling, 1).validate(), Ok(()));
        assert_eq!(config(tumbling, MAX_K).validate(), Ok(()));
        assert_eq!(
            config(tumbling, 0).validate(),
            Err(JoinConfigError::KOutOfRange { k: 0 })
        );
        assert_eq!(
            config(tumbling, MAX_K + 1).validate(),
            Err(JoinConfigError::KOutOfRange { k: 1001 })
        );
        assert_eq!(
            config(WindowSpec::Session { gap_ms: 5 }, 3).validate(),
            Err(JoinConfigError::NotFixedWindow { kind: "session" })
        );
        let crossed = WindowSpec::Hopping {
            size_ms: 5,
            hop_ms: 10,
        };
        assert!(matches!(
            config(crossed, 3).validate(),
            Err(JoinConfigError::Window(_))
        ));
    }

    #[test]
    fn out_of_orderness_is_never_negative() {
        let temporal = TemporalConfig {
            time: TemporalTime::Event,
            max_out_of_orderness_ms: -1,
        };
        assert_eq!(
            temporal.validate().unwrap_err().to_string(),
            "max_out_of_orderness must be zero or more ms, got -1"
        );
    }
}
