//! What every part of the app needs from the browser and the page: animation frames and
//! keys, the theme and its colours, the palette, the charts' drawing (and measuring their text),
//! the diagrams' numbers and markup written as text, keeping a number in range, reading typed
//! numbers, the `Shared` prop, and the embedded style sheets' minifying.

pub mod axis;
pub mod bounded;
pub mod browser;
pub mod css;
pub mod draw_order;
pub mod markup;
pub mod measured_canvas;
pub mod palette;
pub mod plot;
pub mod shared;
pub mod svg;
pub mod theme;
pub mod typed_number;
