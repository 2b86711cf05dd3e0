//! Numbers as the SVG diagrams write them into attributes.
//!
//! Rust prints an `f64` in its shortest form that reads back exactly, so a cell a twelfth of
//! a row wide sits at `x="169.58333333333334"`. The kafka diagram writes some four thousand
//! such numbers when a knob changes its picture (and as many per frame while it plays);
//! formatting, handing over and parsing those long strings was a visible part of that work.
//! A hundredth of a pixel is finer than any screen shows, so the diagrams round to it.
//!
//! Many same-coloured rectangles are drawn as one path of outlines ([`push_rect_outline`]):
//! a knob change then rewrites a few `d` attributes instead of creating, moving and removing
//! hundreds of elements.

use std::fmt::{self, Write};

/// `value` to a hundredth, without trailing zeros: `169.58`, `26`, `-3.5`. Not a number or
/// an infinity, which no layout should produce, is written as `0` rather than an attribute
/// the browser rejects.
pub fn svg_number(value: f64) -> String {
    SvgNumber(value).to_string()
}

/// A number as [`svg_number`] writes it, for markup written as text without a string of its
/// own per number.
#[derive(Clone, Copy)]
pub struct SvgNumber(pub f64);

impl fmt::Display for SvgNumber {
    fn fmt(&self, out: &mut fmt::Formatter) -> fmt::Result {
        let hundredths = if self.0.is_finite() {
            (self.0 * 100.0).round() as i64
        } else {
            0
        };
        let sign = if hundredths < 0 { "-" } else { "" };
        let (whole, fraction) = (
            hundredths.unsigned_abs() / 100,
            hundredths.unsigned_abs() % 100,
        );
        match fraction {
            0 => write!(out, "{sign}{whole}"),
            f if f % 10 == 0 => write!(out, "{sign}{whole}.{}", f / 10),
            f => write!(out, "{sign}{whole}.{f:02}"),
        }
    }
}

/// Appends to `path` the outline of a rectangle `width` × `height` (not negative) whose
/// top left corner is (`x`, `y`), its numbers as [`svg_number`] writes them.
pub fn push_rect_outline(path: &mut String, x: f64, y: f64, width: f64, height: f64) {
    let [x, y, width, height] = [x, y, width, height].map(SvgNumber);
    let _ = write!(path, "M{x} {y}h{width}v{height}h-{width}z");
}

#[cfg(test)]
mod tests {
    use super::{push_rect_outline, svg_number};
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn whole_numbers_carry_no_point() {
        assert_eq!(svg_number(150.0), "150");
        assert_eq!(svg_number(0.0), "0");
        assert_eq!(svg_number(-0.001), "0", "no negative zero");
    }

    #[wasm_bindgen_test]
    fn fractions_round_to_a_hundredth_without_trailing_zeros() {
        assert_eq!(svg_number(169.583_333_333_333_34), "169.58");
        assert_eq!(svg_number(18.583_333_333_333_332), "18.58");
        assert_eq!(svg_number(208.75), "208.75");
        assert_eq!(svg_number(2.5), "2.5");
        assert_eq!(svg_number(0.05), "0.05");
        assert_eq!(svg_number(9.996), "10");
    }

    #[wasm_bindgen_test]
    fn negative_numbers_keep_their_sign() {
        assert_eq!(svg_number(-3.5), "-3.5");
        assert_eq!(svg_number(-0.07), "-0.07");
        assert_eq!(svg_number(-12.0), "-12");
    }

    #[wasm_bindgen_test]
    fn outlines_follow_one_another_in_one_path() {
        let mut path = String::new();
        push_rect_outline(&mut path, 169.583_333, 2.0, 11.5, 14.0);
        push_rect_outline(&mut path, -0.5, 30.25, 0.3, 11.0);
        assert_eq!(path, "M169.58 2h11.5v14h-11.5zM-0.5 30.25h0.3v11h-0.3z");
    }

    #[wasm_bindgen_test]
    fn what_is_not_a_number_is_drawn_at_zero() {
        assert_eq!(svg_number(f64::NAN), "0");
        assert_eq!(svg_number(f64::INFINITY), "0");
    }
}
