//! The watermark of a two-input operator (a join): each input keeps its own, the largest event
//! time it has seen minus the allowed out-of-orderness, and the operator's watermark is the
//! smaller of the two, as in any two-input Flink operator. An input that has seen nothing
//! holds the operator at minus infinity: a join cannot know what the silent side may still
//! send.

use crate::window::Watermark;
use serde::Serialize;

/// One input of a two-input operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];

    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// Its index in per-side arrays.
    pub fn index(self) -> usize {
        match self {
            Side::Left => 0,
            Side::Right => 1,
        }
    }

    /// As the CLI spells it.
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// Both inputs' watermarks and the operator's, which is their minimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwoInputWatermark {
    out_of_orderness_ms: i64,
    /// The largest event time each side has seen.
    max_seen_ms: [Option<i64>; 2],
    /// After the end of the input, both sides are at plus infinity.
    finished: bool,
}

impl TwoInputWatermark {
    /// Both sides at minus infinity. `out_of_orderness_ms` is validated by the caller
    /// (at most 2^61, so `time - out_of_orderness` cannot overflow for valid times).
    pub fn new(out_of_orderness_ms: i64) -> Self {
        Self {
            out_of_orderness_ms,
            max_seen_ms: [None, None],
            finished: false,
        }
    }

    /// One side's watermark.
    pub fn side(&self, side: Side) -> Watermark {
        if self.finished {
            return Watermark::PlusInfinity;
        }
        match self.max_seen_ms[side.index()] {
            None => Watermark::MinusInfinity,
            Some(max_ms) => Watermark::At(max_ms - self.out_of_orderness_ms),
        }
    }

    /// The operator's watermark: the smaller of the two sides'.
    pub fn current(&self) -> Watermark {
        self.side(Side::Left).min(self.side(Side::Right))
    }

    /// An event of `side` at `time_ms` was seen.
    pub fn observe(&mut self, side: Side, time_ms: i64) {
        let max = &mut self.max_seen_ms[side.index()];
        *max = Some(max.map_or(time_ms, |m| m.max(time_ms)));
    }

    /// The end of the input: both sides jump to plus infinity.
    pub fn finish(&mut self) {
        self.finished = true;
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_side_holds_the_join_at_minus_infinity() {
        let mut w = TwoInputWatermark::new(2_000);
        w.observe(Side::Left, 10_000);
        assert_eq!(w.side(Side::Left), Watermark::At(8_000));
        assert_eq!(w.current(), Watermark::MinusInfinity);
        w.observe(Side::Right, 5_000);
        assert_eq!(w.current(), Watermark::At(3_000));
        // An older event does not move a side back.
        w.observe(Side::Right, 1_000);
        assert_eq!(w.current(), Watermark::At(3_000));
        w.observe(Side::Right, 50_000);
        assert_eq!(w.current(), Watermark::At(8_000));
        w.finish();
        assert_eq!(w.current(), Watermark::PlusInfinity);
    }
}
