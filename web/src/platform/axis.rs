//! A chart axis over a range of `f64`: where a value falls in pixels, and the round values
//! its grid lines and labels sit at, exactly as plotters' `f64` axis computes both.
//!
//! Plotters' own axis finds its first step with `powf` and a logarithm, which linked libm's
//! `pow` and `log` into every bundle for this one use. Here the step's power of ten is found
//! by multiplying and dividing by ten, and every later operation is plotters' own, so the same
//! ticks and pixels come out (a wasm test holds the two side by side over many ranges). The
//! one difference: asked for a single point across a range whose size is a power of ten,
//! plotters' logarithm rounds a decade low and it returns two; this returns one.

use std::ops::Range;

/// Values from `start` to `end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    start: f64,
    end: f64,
}

impl Axis {
    pub fn new(start: f64, end: f64) -> Axis {
        Axis { start, end }
    }

    pub fn range(&self) -> Range<f64> {
        self.start..self.end
    }

    /// The pixel `value` falls at when the axis runs from pixel `from` to pixel `to` (either
    /// way round), rounded as plotters rounds.
    pub fn map(&self, value: f64, (from, to): (i32, i32)) -> i32 {
        if self.end == self.start {
            return (to - from) / 2;
        }
        let share = (value - self.start) / (self.end - self.start);
        let length = to - from;
        if length == 0 {
            return to;
        }
        if share.is_infinite() {
            return if share.is_sign_positive() { to } else { from };
        }
        // A thousandth of a pixel of slack, so a value that lands on a pixel's edge after
        // rounding error still counts as that pixel.
        if length > 0 {
            from + (f64::from(length) * share + 1e-3).floor() as i32
        } else {
            from + (f64::from(length) * share - 1e-3).ceil() as i32
        }
    }

    /// Round values across the axis (1, 2 or 5 times a power of ten apart), as many as fit
    /// in `most` and no fewer than the next coarser step would give.
    pub fn key_points(&self, most: usize) -> Vec<f64> {
        let range = (self.start.min(self.end), self.end.max(self.start));
        if most == 0 || !range.0.is_finite() || !range.1.is_finite() {
            return Vec::new();
        }
        if (range.0 - range.1).abs() < f64::EPSILON {
            return vec![range.0];
        }
        let (mut scale, mut granularity) = coarsest_step(range, most);
        // Finer steps, a half, a fifth and a tenth of the last, while they still fit.
        'finer: loop {
            let coarser = scale;
            for divisor in [2.0, 5.0, 10.0] {
                let step = coarser / divisor;
                let mut left = range.0 - rem_euclid(range.0, step);
                if left < range.0 {
                    left += step;
                }
                let right = range.1 - rem_euclid(range.1, step);
                let points = 1.0 + ((right - left) / coarser * divisor);
                if points.round() as usize > most {
                    break 'finer;
                }
                scale = step;
            }
            scale = coarser / 10.0;
            granularity /= 10.0;
        }
        points_every(range, scale, granularity)
    }
}

/// The step to start from, the power of ten at or below the range's size (ten times that if
/// it gives too many points), and the granularity values are rounded to: a tenth of it.
fn coarsest_step(range: (f64, f64), most: usize) -> (f64, f64) {
    let size = range.1 - range.0;
    let mut exponent = 0;
    while power_of_ten(exponent + 1) <= size {
        exponent += 1;
    }
    while power_of_ten(exponent) > size {
        exponent -= 1;
    }
    let mut scale = power_of_ten(exponent);
    let mut granularity = scale / 10.0;
    if 1 + (size / scale).floor() as usize > most {
        scale *= 10.0;
        granularity *= 10.0;
    }
    (scale, granularity)
}

/// 10^`exponent`, exact for the exponents an axis meets (a double holds 10^22 exactly, and
/// a negative power is the correctly rounded quotient).
fn power_of_ten(exponent: i32) -> f64 {
    let whole = (0..exponent.unsigned_abs()).fold(1.0, |power, _| power * 10.0);
    if exponent < 0 {
        1.0 / whole
    } else {
        whole
    }
}

/// Every multiple of `scale` in `range`, each rounded to `granularity` so that no value
/// reads 1.00000000001; counted from a base, so a huge start cannot stall the count.
fn points_every(range: (f64, f64), scale: f64, granularity: f64) -> Vec<f64> {
    let left = {
        let value = range.0 - rem_euclid(range.0, scale);
        if value < range.0 {
            value + scale
        } else {
            value
        }
    };
    let base = (left / granularity).floor() * granularity;
    let mut relative = left - base;
    let right = range.1 - rem_euclid(range.1, scale);
    let mut points = Vec::new();
    while (right - relative - base) >= -f64::EPSILON {
        if (relative / granularity).round() * granularity < 0.0 {
            relative += granularity;
        }
        points.push(relative + base);
        relative += scale;
    }
    points
}

/// `a` modulo `b`, never negative for a positive `b`, and 0 for a remainder within
/// `f64::EPSILON` of `b`.
fn rem_euclid(a: f64, b: f64) -> f64 {
    let remainder = if b > 0.0 {
        a - (a / b).floor() * b
    } else {
        a - (a / b).ceil() * b
    };
    if (remainder - b).abs() < f64::EPSILON {
        0.0
    } else {
        remainder
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::Ranged;
    use plotters::coord::types::RangedCoordf64;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Ranges a chart meets (from zero to a peak, seconds of a run, a window of a run) and
    /// some it should survive (tiny, huge, negative, reversed), with the grid's two counts.
    fn ranges() -> Vec<(f64, f64)> {
        let mut ranges = vec![
            (0.0, 1.0),
            (0.0, 1000.0),
            (0.0, 1e6),
            (52.3, 61.0),
            (-3.5, 2.25),
        ];
        ranges.extend([
            (5.0, 5.0),
            (1e-7, 3e-7),
            (0.0, 0.001),
            (1e15, 1e15 + 4e3),
            (9.0, 1.0),
        ]);
        for i in 1..400 {
            let top = f64::from(i) * 1.37;
            ranges.push((0.0, top * 1.1));
            ranges.push((f64::from(i) * 0.25, f64::from(i) * 0.25 + top));
            ranges.push((0.0, f64::from(i * 7919 % 100_000) / 7.0));
        }
        ranges
    }

    #[wasm_bindgen_test]
    fn the_ticks_are_the_ones_plotters_picks() {
        for (start, end) in ranges() {
            // Every count from two: the charts ask for 12 and 60.
            for most in [2, 3, 5, 11, 12, 60] {
                let theirs = RangedCoordf64::from(start..end).key_points(most);
                let ours = Axis::new(start, end).key_points(most);
                assert_eq!(ours, theirs, "{start}..{end}, at most {most}");
            }
        }
    }

    #[wasm_bindgen_test]
    fn values_fall_on_the_pixels_plotters_puts_them_on() {
        for (start, end) in ranges() {
            let theirs = RangedCoordf64::from(start..end);
            let ours = Axis::new(start, end);
            for pixels in [(56, 391), (151, 8), (10, 10), (0, 1)] {
                for step in 0..=20 {
                    let value = start + (end - start) * f64::from(step) / 20.0;
                    assert_eq!(ours.map(value, pixels), theirs.map(&value, pixels));
                }
            }
        }
    }

    #[wasm_bindgen_test]
    fn powers_of_ten_are_exact() {
        assert_eq!(power_of_ten(0), 1.0);
        assert_eq!(power_of_ten(3), 1000.0);
        assert_eq!(power_of_ten(-1), 0.1);
        assert_eq!(power_of_ten(-3), 0.001);
        assert_eq!(power_of_ten(22), 1e22);
    }

    #[wasm_bindgen_test]
    fn an_empty_or_undefined_axis_has_no_points_to_draw_but_does_not_fail() {
        assert_eq!(Axis::new(0.0, 10.0).key_points(0), Vec::<f64>::new());
        assert_eq!(
            Axis::new(f64::NAN, f64::NAN).key_points(12),
            Vec::<f64>::new()
        );
        assert_eq!(
            Axis::new(0.0, f64::INFINITY).key_points(12),
            Vec::<f64>::new()
        );
        assert_eq!(Axis::new(4.0, 4.0).key_points(12), [4.0]);
    }
}
