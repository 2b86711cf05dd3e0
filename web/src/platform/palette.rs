//! Colours: the Okabe–Ito palette, safe for the common kinds of colour blindness.
//!
//! Keys cycle through the palette (key 0, the hottest under skew, is always orange); groups get
//! three fixed colours and also a letter and a marker shape, so no meaning rests on colour
//! alone.

/// Okabe–Ito, without black (used for text), plus a neutral grey.
const KEY_COLOURS: [&str; 8] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
];

/// Colour of a null key's records.
pub const NULL_KEY_COLOUR: &str = "#c8c8c8";

/// Blue, vermillion, bluish green: one per group.
const GROUP_COLOURS: [&str; 3] = ["#0072B2", "#D55E00", "#009E73"];

/// The colour of the records of key `key` (`None` for a null key).
pub fn key_colour(key: Option<u32>) -> &'static str {
    record_colour(key_colour_index(key))
}

/// How many colours a record can take: the key palette and the null key's grey.
pub const RECORD_COLOURS: usize = KEY_COLOURS.len() + 1;

/// Which of the [`RECORD_COLOURS`] the records of `key` take, so a drawing can gather records
/// by colour.
pub fn key_colour_index(key: Option<u32>) -> usize {
    match key {
        Some(k) => k as usize % KEY_COLOURS.len(),
        None => KEY_COLOURS.len(),
    }
}

/// Record colour number `index` (below [`RECORD_COLOURS`]).
pub fn record_colour(index: usize) -> &'static str {
    KEY_COLOURS.get(index).copied().unwrap_or(NULL_KEY_COLOUR)
}

/// The colour of group number `index`.
pub fn group_colour(index: usize) -> &'static str {
    GROUP_COLOURS[index % GROUP_COLOURS.len()]
}

/// Colour of partition `p`'s line on the lag chart.
pub fn series_colour(p: usize) -> &'static str {
    KEY_COLOURS[p % KEY_COLOURS.len()]
}
