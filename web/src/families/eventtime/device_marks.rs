//! How a device (a record's key) is told apart on the event-time charts without relying on
//! colour: each device has a colour from the palette *and* one of four shapes, so devices
//! that share a hue for a colour-blind reader still differ in outline.

use crate::platform::palette::key_colour;
use crate::platform::svg::SvgNumber;
use std::fmt::Write;

/// The shapes, in the order devices take them.
const SHAPES: [&str; 4] = ["circle", "square", "triangle", "diamond"];

fn shape_index(key: u32) -> usize {
    key as usize % SHAPES.len()
}

/// The name of device `key`'s shape, as the legend words it.
pub fn shape_name(key: u32) -> &'static str {
    SHAPES[shape_index(key)]
}

/// An SVG path for device `key`'s mark centred on (`x`, `y`), about `r` in radius.
pub fn mark_path(key: u32, x: f64, y: f64, r: f64) -> String {
    let mut path = String::new();
    push_mark_path(&mut path, key, x, y, r);
    path
}

/// Appends [`mark_path`]'s outline to `path` (one `M…z` run), its numbers as the diagrams
/// write them ([`SvgNumber`]).
pub fn push_mark_path(path: &mut String, key: u32, x: f64, y: f64, r: f64) {
    let n = SvgNumber;
    let _ = match shape_index(key) {
        0 => write!(
            path,
            "M{} {}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 {} 0z",
            n(x - r),
            n(y),
            n(2.0 * r),
            n(-2.0 * r),
            r = n(r),
        ),
        1 => {
            let side = 1.8 * r;
            write!(
                path,
                "M{} {}h{}v{}h{}z",
                n(x - side / 2.0),
                n(y - side / 2.0),
                n(side),
                n(side),
                n(-side)
            )
        }
        2 => write!(
            path,
            "M{} {}l{} {}h{}z",
            n(x),
            n(y - 1.2 * r),
            n(1.1 * r),
            n(2.0 * r),
            n(-2.2 * r)
        ),
        _ => write!(
            path,
            "M{} {}l{r} {r}l{} {r}l{} {}z",
            n(x),
            n(y - r),
            n(-r),
            n(-r),
            n(-r),
            r = n(r),
        ),
    };
}

/// Device `key`'s colour.
pub fn colour(key: u32) -> &'static str {
    key_colour(Some(key))
}
