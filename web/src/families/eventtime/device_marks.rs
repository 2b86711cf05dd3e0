//! How a device (a record's key) is told apart on the event-time charts without relying on
//! colour: each device has a colour from the palette *and* one of four shapes, so devices
//! that share a hue for a colour-blind reader still differ in outline.

use crate::platform::palette::key_colour;

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
    match shape_index(key) {
        0 => format!(
            "M{:.1} {y:.1}a{r:.1} {r:.1} 0 1 0 {:.1} 0a{r:.1} {r:.1} 0 1 0 {:.1} 0z",
            x - r,
            2.0 * r,
            -2.0 * r
        ),
        1 => {
            let side = 1.8 * r;
            format!(
                "M{:.1} {:.1}h{side:.1}v{side:.1}h{:.1}z",
                x - side / 2.0,
                y - side / 2.0,
                -side
            )
        }
        2 => format!(
            "M{x:.1} {:.1}l{:.1} {:.1}h{:.1}z",
            y - 1.2 * r,
            1.1 * r,
            2.0 * r,
            -2.2 * r
        ),
        _ => format!(
            "M{x:.1} {:.1}l{r:.1} {r:.1}l{:.1} {r:.1}l{:.1} {:.1}z",
            y - r,
            -r,
            -r,
            -r
        ),
    }
}

/// Device `key`'s colour.
pub fn colour(key: u32) -> &'static str {
    key_colour(Some(key))
}
