//! A small plotting layer on a canvas's 2D context, for the lessons' canvas charts.
//!
//! It draws what the charts need and no more: a plot area with a grid, axes, tick labels and
//! axis titles; shaded bands; solid or dashed lines; point markers; text; a legend box. The
//! charts used to go through a general plotting crate, whose generic drawing code was a large
//! share of the site's download for these few shapes. The x axis keeps room for its tick
//! labels and its title on separate lines, so the two never overlap.

use crate::platform::theme::ChartInk;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A colour as red, green and blue bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// "#E69F00" as a colour; black where the text is not six hex digits after the `#`.
    pub fn from_hex(hex: &str) -> Rgb {
        Self::parse_hex(hex).unwrap_or(Rgb(0, 0, 0))
    }

    /// `#rrggbb` to a colour, or `None` for anything else.
    pub fn parse_hex(hex: &str) -> Option<Rgb> {
        let digits = hex.strip_prefix('#')?;
        if digits.len() != 6 || !digits.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
        Some(Rgb(byte(0)?, byte(2)?, byte(4)?))
    }

    /// The colour with `alpha` (0 to 1) as a CSS colour.
    pub fn css(self, alpha: f64) -> String {
        let Rgb(r, g, b) = self;
        format!("rgba({r},{g},{b},{alpha})")
    }
}

/// A point marker's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    /// An outlined circle.
    Ring,
    Triangle,
    Square,
    Cross,
}

/// How one series looks: its colour, line width, dash pattern and marker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    pub colour: Rgb,
    pub width: f64,
    /// (dash, gap) in pixels; `None` is solid.
    pub dash: Option<(f64, f64)>,
    pub marker: Marker,
    /// The marker's radius in pixels.
    pub marker_size: f64,
}

/// Tick labels and axis titles.
const FONT: &str = "12px sans-serif";
/// Room left of a legend entry's label for its sample of line and marker.
const LEGEND_SAMPLE_PX: f64 = 30.0;
const LEGEND_ROW_PX: f64 = 16.0;

/// Where the plot sits on the canvas and the data ranges it shows.
pub struct Layout {
    /// Blank border around everything, in pixels.
    pub margin: f64,
    /// Height under the plot for the x tick labels and, below them, the x title (36 fits
    /// both).
    pub x_label_area: f64,
    /// Width left of the plot for the y tick labels and the y title.
    pub y_label_area: f64,
    pub x: (f64, f64),
    pub y: (f64, f64),
}

/// A canvas being drawn on, with the plot area's pixel bounds and data ranges.
pub struct Plot {
    context: CanvasRenderingContext2d,
    ink: ChartInk,
    margin: f64,
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    x: (f64, f64),
    y: (f64, f64),
}

impl Plot {
    /// Paints the theme's paper over `canvas` and lays the plot out on it; `None` when the
    /// canvas has no 2D context.
    pub fn new(canvas: &HtmlCanvasElement, layout: Layout) -> Option<Plot> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        let (width, height) = (f64::from(canvas.width()), f64::from(canvas.height()));
        let ink = ChartInk::current();
        context.set_fill_style_str(&ink.paper.css(1.0));
        context.fill_rect(0.0, 0.0, width, height);
        context.set_font(FONT);
        Some(Plot {
            context,
            ink,
            margin: layout.margin,
            left: layout.margin + layout.y_label_area,
            top: layout.margin,
            right: width - layout.margin,
            bottom: height - layout.margin - layout.x_label_area,
            x: layout.x,
            y: layout.y,
        })
    }

    /// The theme's colours this plot is drawn in.
    pub fn ink(&self) -> ChartInk {
        self.ink
    }

    /// The pixel position of the data point `(x, y)`.
    pub fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let across = (x - self.x.0) / (self.x.1 - self.x.0);
        let up = (y - self.y.0) / (self.y.1 - self.y.0);
        (
            self.left + across * (self.right - self.left),
            self.bottom - up * (self.bottom - self.top),
        )
    }

    /// The grid, the axes with tick labels and titles. `y_title` `None` leaves out the y axis
    /// and the horizontal grid lines.
    pub fn axes(&self, x_title: &str, y_title: Option<&str>) {
        let c = &self.context;
        let x_ticks = ticks(self.x);
        let y_ticks = ticks(self.y);
        c.set_line_width(1.0);
        c.set_stroke_style_str(&self.ink.grid.css(1.0));
        c.begin_path();
        for x in fine_ticks(self.x) {
            let (px, _) = self.at((x, self.y.0));
            c.move_to(px.round() + 0.5, self.top);
            c.line_to(px.round() + 0.5, self.bottom);
        }
        if y_title.is_some() {
            for y in fine_ticks(self.y) {
                let (_, py) = self.at((self.x.0, y));
                c.move_to(self.left, py.round() + 0.5);
                c.line_to(self.right, py.round() + 0.5);
            }
        }
        c.stroke();

        let ink = self.ink.ink.css(1.0);
        c.set_stroke_style_str(&self.ink.muted.css(1.0));
        c.set_fill_style_str(&ink);
        c.begin_path();
        c.move_to(self.left, self.bottom + 0.5);
        c.line_to(self.right, self.bottom + 0.5);
        c.set_text_align("center");
        c.set_text_baseline("top");
        let step = tick_step(self.x);
        for &x in &x_ticks {
            let (px, _) = self.at((x, self.y.0));
            c.move_to(px.round() + 0.5, self.bottom);
            c.line_to(px.round() + 0.5, self.bottom + 5.0);
            let _ = c.fill_text(&tick_label(x, step), px, self.bottom + 7.0);
        }
        // A line below the tick labels, so the title never covers one.
        let _ = c.fill_text(x_title, (self.left + self.right) / 2.0, self.bottom + 23.0);
        if let Some(y_title) = y_title {
            c.move_to(self.left - 0.5, self.top);
            c.line_to(self.left - 0.5, self.bottom);
            c.set_text_align("right");
            c.set_text_baseline("middle");
            let step = tick_step(self.y);
            for &y in &y_ticks {
                let (_, py) = self.at((self.x.0, y));
                c.move_to(self.left - 5.0, py.round() + 0.5);
                c.line_to(self.left, py.round() + 0.5);
                let _ = c.fill_text(&tick_label(y, step), self.left - 7.0, py);
            }
            c.save();
            let _ = c.translate(self.margin, (self.top + self.bottom) / 2.0);
            let _ = c.rotate(-std::f64::consts::FRAC_PI_2);
            c.set_text_align("center");
            c.set_text_baseline("top");
            let _ = c.fill_text(y_title, 0.0, 0.0);
            c.restore();
        }
        c.stroke();
    }

    /// Shades the plot's full height between `from` and `to` (x in data units).
    pub fn band(&self, from: f64, to: f64, colour: Rgb, alpha: f64) {
        let (left, _) = self.at((from.max(self.x.0), self.y.0));
        let (right, _) = self.at((to.min(self.x.1), self.y.0));
        if right > left {
            self.context.set_fill_style_str(&colour.css(alpha));
            self.context
                .fill_rect(left, self.top, right - left, self.bottom - self.top);
        }
    }

    /// A line through `points` (data units), clipped to the plot area.
    pub fn line(&self, points: &[(f64, f64)], look: &Look) {
        let c = &self.context;
        c.save();
        c.begin_path();
        c.rect(
            self.left,
            self.top,
            self.right - self.left,
            self.bottom - self.top,
        );
        c.clip();
        self.stroke_style(look);
        c.begin_path();
        for (i, &point) in points.iter().enumerate() {
            let (px, py) = self.at(point);
            if i == 0 {
                c.move_to(px, py);
            } else {
                c.line_to(px, py);
            }
        }
        c.stroke();
        c.restore();
    }

    /// The look's marker at each of `points` (data units).
    pub fn markers(&self, points: impl IntoIterator<Item = (f64, f64)>, look: &Look) {
        for point in points {
            self.marker_at(self.at(point), look);
        }
    }

    /// Text with its top-left corner at `at` (data units).
    pub fn text(&self, text: &str, at: (f64, f64)) {
        let c = &self.context;
        let (px, py) = self.at(at);
        c.set_fill_style_str(&self.ink.ink.css(1.0));
        c.set_text_align("left");
        c.set_text_baseline("top");
        let _ = c.fill_text(text, px, py);
    }

    /// A vertical line across the plot at `x` (data units).
    pub fn vertical(&self, x: f64, look: &Look) {
        self.line(&[(x, self.y.0), (x, self.y.1)], look);
    }

    /// A legend in the plot's upper-left corner: each entry's line, marker and label on a box
    /// of the theme's paper (`alpha` opaque) edged in the grid colour.
    pub fn legend(&self, entries: &[(&str, Look)], alpha: f64) {
        if entries.is_empty() {
            return;
        }
        let c = &self.context;
        let widest = entries
            .iter()
            .map(|(label, _)| c.measure_text(label).map_or(0.0, |m| m.width()))
            .fold(0.0, f64::max);
        let (x, y) = (self.left + 10.0, self.top + 10.0);
        let width = LEGEND_SAMPLE_PX + widest + 14.0;
        let height = LEGEND_ROW_PX * entries.len() as f64 + 8.0;
        c.set_fill_style_str(&self.ink.paper.css(alpha));
        c.fill_rect(x, y, width, height);
        c.set_line_dash(&js_sys::Array::new()).ok();
        c.set_line_width(1.0);
        c.set_stroke_style_str(&self.ink.grid.css(1.0));
        c.stroke_rect(x + 0.5, y + 0.5, width, height);
        for (row, (label, look)) in entries.iter().enumerate() {
            let middle = y + 4.0 + LEGEND_ROW_PX * (row as f64 + 0.5);
            self.stroke_style(look);
            c.begin_path();
            c.move_to(x + 6.0, middle);
            c.line_to(x + LEGEND_SAMPLE_PX - 4.0, middle);
            c.stroke();
            self.marker_at((x + LEGEND_SAMPLE_PX / 2.0 + 1.0, middle), look);
            c.set_fill_style_str(&self.ink.ink.css(1.0));
            c.set_text_align("left");
            c.set_text_baseline("middle");
            let _ = c.fill_text(label, x + LEGEND_SAMPLE_PX + 4.0, middle);
        }
    }

    fn stroke_style(&self, look: &Look) {
        let c = &self.context;
        c.set_stroke_style_str(&look.colour.css(1.0));
        c.set_line_width(look.width);
        c.set_line_join("round");
        let dash = js_sys::Array::new();
        if let Some((on, off)) = look.dash {
            dash.push(&JsValue::from(on));
            dash.push(&JsValue::from(off));
        }
        let _ = c.set_line_dash(&dash);
    }

    /// The look's marker centred on the pixel `(x, y)`.
    fn marker_at(&self, (x, y): (f64, f64), look: &Look) {
        let c = &self.context;
        let size = look.marker_size;
        let colour = look.colour.css(1.0);
        c.set_fill_style_str(&colour);
        c.set_stroke_style_str(&colour);
        let _ = c.set_line_dash(&js_sys::Array::new());
        c.begin_path();
        match look.marker {
            Marker::Circle | Marker::Ring => {
                let _ = c.arc(x, y, size, 0.0, std::f64::consts::TAU);
            }
            Marker::Triangle => {
                // Pointing up, its corners `size` from the centre.
                let (half, low) = (size * 0.866, size * 0.5);
                c.move_to(x, y - size);
                c.line_to(x + half, y + low);
                c.line_to(x - half, y + low);
                c.close_path();
            }
            Marker::Square => c.rect(x - size, y - size, 2.0 * size, 2.0 * size),
            Marker::Cross => {
                c.set_line_width(2.0);
                c.move_to(x - size, y - size);
                c.line_to(x + size, y + size);
                c.move_to(x + size, y - size);
                c.line_to(x - size, y + size);
                c.stroke();
                return;
            }
        }
        if look.marker == Marker::Ring {
            c.set_line_width(1.0);
            c.stroke();
        } else {
            c.fill();
        }
    }
}

/// At most this many labelled ticks on an axis.
const MOST_TICKS: f64 = 12.0;

/// The distance between labelled ticks: 1, 2 or 5 times a power of ten, the smallest that
/// keeps the count at [`MOST_TICKS`] or under.
pub fn tick_step((from, to): (f64, f64)) -> f64 {
    let raw = ((to - from) / MOST_TICKS).max(f64::MIN_POSITIVE);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The labelled tick positions in `range`.
pub fn ticks(range: (f64, f64)) -> Vec<f64> {
    let step = tick_step(range);
    let first = (range.0 / step).ceil() as i64;
    let last = (range.1 / step + 1e-9).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// Grid positions: the ticks and five subdivisions between each two.
fn fine_ticks(range: (f64, f64)) -> Vec<f64> {
    let fine = tick_step(range) / 5.0;
    let first = (range.0 / fine).ceil() as i64;
    let last = (range.1 / fine + 1e-9).floor() as i64;
    (first..=last).map(|i| i as f64 * fine).collect()
}

/// A tick's label with as many decimals as the step needs ("20", "0.5", "0.25").
pub fn tick_label(value: f64, step: f64) -> String {
    let decimals = (0..4)
        .find(|&d| {
            let scaled = step * 10f64.powi(d);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(4);
    format!("{value:.*}", decimals as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn ticks_are_round_numbers_within_the_range() {
        assert_eq!(
            ticks((0.0, 200.0)),
            [0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0, 160.0, 180.0, 200.0]
        );
        assert_eq!(
            ticks((52.3, 61.0)),
            [53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0]
        );
        assert_eq!(ticks((0.0, 1.0)).len(), 11);
        assert_eq!(tick_step((0.0, 13.2)), 2.0);
    }

    #[wasm_bindgen_test]
    fn labels_carry_the_decimals_the_step_needs() {
        assert_eq!(tick_label(40.0, 20.0), "40");
        assert_eq!(tick_label(0.5, 0.5), "0.5");
        assert_eq!(tick_label(0.25, 0.05), "0.25");
        assert_eq!(tick_label(1200.0, 200.0), "1200");
    }

    #[wasm_bindgen_test]
    fn only_full_hex_colours_parse() {
        assert_eq!(Rgb::parse_hex("#0072b2"), Some(Rgb(0, 0x72, 0xb2)));
        assert_eq!(Rgb::parse_hex("#fff"), None);
        assert_eq!(Rgb::parse_hex("blue"), None);
        assert_eq!(Rgb::parse_hex("#é12345"), None);
        assert_eq!(Rgb(1, 2, 3).css(0.5), "rgba(1,2,3,0.5)");
    }
}
