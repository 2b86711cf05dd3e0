//! The event-time watermark: the operator's belief that no event older than it is still coming.
//! It starts at minus infinity, follows the largest event time seen minus the allowed
//! out-of-orderness, never goes back, and jumps to plus infinity at the end of the input.

use std::ops::Bound;

/// The watermark W. Variants are declared in ascending order, so the derived `Ord` is the
/// order on the extended number line: `MinusInfinity < At(_) < PlusInfinity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Watermark {
    /// Before the first event: nothing is late yet.
    MinusInfinity,
    /// Events up to this time (in ms) are assumed to have arrived.
    At(i64),
    /// After the end of the input: every window is complete.
    PlusInfinity,
}

impl Watermark {
    /// Whether the watermark has reached `instant_ms`, that is `instant_ms <= W`.
    ///
    /// A window fires when the watermark reaches its end, and is gone when the watermark
    /// reaches its end plus the allowed lateness.
    pub fn has_reached(self, instant_ms: i64) -> bool {
        match self {
            Self::MinusInfinity => false,
            Self::At(watermark_ms) => instant_ms <= watermark_ms,
            Self::PlusInfinity => true,
        }
    }

    /// The finite value, if any, for code that draws the watermark on a time axis.
    pub fn as_ms(self) -> Option<i64> {
        match self {
            Self::At(watermark_ms) => Some(watermark_ms),
            Self::MinusInfinity | Self::PlusInfinity => None,
        }
    }

    /// The instants `t` with `self < t <= later`, as range bounds: the window ends the
    /// watermark passes when it moves from `self` to `later`. `None` when it does not move.
    pub(crate) fn passed_until(self, later: Watermark) -> Option<(Bound<i64>, Bound<i64>)> {
        if later <= self {
            return None;
        }
        let lower = match self {
            Self::MinusInfinity => Bound::Unbounded,
            Self::At(from_ms) => Bound::Excluded(from_ms),
            Self::PlusInfinity => return None,
        };
        let upper = match later {
            Self::MinusInfinity => return None,
            Self::At(to_ms) => Bound::Included(to_ms),
            Self::PlusInfinity => Bound::Unbounded,
        };
        Some((lower, upper))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infinities_order_around_every_finite_watermark() {
        assert!(Watermark::MinusInfinity < Watermark::At(i64::MIN));
        assert!(Watermark::At(-5) < Watermark::At(5));
        assert!(Watermark::At(i64::MAX) < Watermark::PlusInfinity);
    }

    #[test]
    fn reaching_includes_the_watermark_itself() {
        assert!(Watermark::At(10).has_reached(10));
        assert!(!Watermark::At(10).has_reached(11));
        assert!(!Watermark::MinusInfinity.has_reached(i64::MIN));
        assert!(Watermark::PlusInfinity.has_reached(i64::MAX));
    }

    #[test]
    fn passed_until_is_half_open_from_below() {
        use Bound::{Excluded, Included, Unbounded};
        let passed = |from, to| Watermark::passed_until(from, to);
        assert_eq!(passed(Watermark::At(5), Watermark::At(5)), None);
        assert_eq!(passed(Watermark::At(6), Watermark::At(5)), None);
        assert_eq!(
            passed(Watermark::At(5), Watermark::At(9)),
            Some((Excluded(5), Included(9)))
        );
        assert_eq!(
            passed(Watermark::MinusInfinity, Watermark::PlusInfinity),
            Some((Unbounded, Unbounded))
        );
    }
}
