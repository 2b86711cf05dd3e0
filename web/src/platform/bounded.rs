//! Keeping a number inside a range, for layouts and controls.
//!
//! `f64::clamp` panics when its bounds cross, and to say so it carries the code that prints a
//! float in Rust's debug form: 1.2 KiB of the partitions bundle's download, which nothing
//! else there needed (`web/clippy.toml` refuses `f64::clamp`). A layout whose bounds cross
//! (a tooltip wider than the diagram) should not stop the page either.

/// `value` brought inside `min..=max`: `min` below it, `max` above it. Not a number becomes
/// `min`; bounds that cross give `max`.
pub fn bounded(value: f64, min: f64, max: f64) -> f64 {
    value.max(min).min(max)
}

#[cfg(test)]
mod tests {
    use super::bounded;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_value_inside_stays_and_one_outside_lands_on_the_nearest_bound() {
        assert_eq!(bounded(0.25, 0.0, 1.0), 0.25);
        assert_eq!(bounded(-3.0, 0.0, 1.0), 0.0);
        assert_eq!(bounded(7.5, 0.0, 1.0), 1.0);
        assert_eq!(bounded(1.0, 1.0, 1.0), 1.0);
    }

    #[wasm_bindgen_test]
    fn neither_a_missing_number_nor_crossed_bounds_stop_the_page() {
        assert_eq!(bounded(f64::NAN, 4.0, 10.0), 4.0);
        assert_eq!(bounded(f64::INFINITY, 4.0, 10.0), 10.0);
        assert_eq!(bounded(5.0, 4.0, -10.0), -10.0);
    }
}
