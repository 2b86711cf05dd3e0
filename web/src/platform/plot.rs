//! The lessons' canvas charts, drawn through plotters on its canvas backend (plotters-canvas).
//!
//! A thin layer that gives the three charts one vocabulary: a plot with the theme's paper,
//! grid, axes, tick labels and axis titles; shaded bands; solid or dashed lines; point
//! markers; text; a legend. Plotters lays out and draws all of it; this module only chooses
//! the styles, keeps tick labels free of a needless ".0", and sizes the label areas so an axis
//! title never overlaps a tick label. Colours are plotters' own `RGBColor`, named [`Rgb`]
//! here.

use crate::platform::measured_canvas::MeasuredCanvas;
use crate::platform::theme::ChartInk;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::{
    Cartesian2d, ChartBuilder, ChartContext, Circle, Color, Cross, DrawingArea, DynElement,
    EmptyElement, FontFamily, IntoDrawingArea, IntoDynElement, IntoFont, PathElement, Polygon,
    Ranged, Rectangle, ShapeStyle, Text, TextStyle,
};
use std::iter::once;
use std::ops::Range;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

pub use plotters::style::RGBColor as Rgb;

/// "#E69F00" as a colour; black where the text is not six hex digits after the `#`.
pub fn hex_colour(hex: &str) -> Rgb {
    parse_hex(hex).unwrap_or(Rgb(0, 0, 0))
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

/// How one series looks: its colour, line width, dash pattern and marker, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    pub colour: Rgb,
    pub width: u32,
    /// (dash, gap); `None` is solid.
    pub dash: Option<(u32, u32)>,
    pub marker: Marker,
    /// The marker's radius.
    pub marker_size: i32,
}

impl Look {
    /// The look's line as plotters' style.
    fn stroke(&self) -> ShapeStyle {
        self.colour.stroke_width(self.width)
    }
}

/// Tick labels, axis titles, legend labels and notes.
const FONT_PX: u32 = 12;
/// Tick marks' length; plotters puts the labels twice as far from the axis.
const TICK_PX: i32 = 5;
/// Under the plot: the tick marks and labels (2 × 5 + 12 px), then a gap, then the x title,
/// which plotters sets against the bottom of this area, so the two never overlap.
const X_LABEL_AREA_PX: u32 = 40;
/// Left of the y tick labels: the rotated y title (12 px) and a gap.
const Y_TITLE_PX: u32 = 16;
/// At most this many labelled ticks on an axis.
const MOST_TICKS: usize = 12;
/// Grid lines between two labelled ticks, at most.
const LIGHT_LINES: usize = 5;
/// A legend entry's sample of line, left of its label.
const LEGEND_SAMPLE_PX: i32 = 24;
/// Inside the legend's box around the entries, and between a sample and its label.
const LEGEND_PADDING_PX: i32 = 6;

/// Where the plot sits on the canvas and the data ranges it shows.
pub struct Layout {
    /// Blank border around everything, in pixels.
    pub margin: u32,
    /// The least width left of the plot for the y tick labels and title; wider labels widen
    /// it. Charts stacked on one page give the same value to line their plots up.
    pub y_label_area: u32,
    pub x: (f64, f64),
    pub y: (f64, f64),
}

/// Anything plotters draws at points of type `C` (data units on the chart, pixels in a legend).
type Element<C> = DynElement<'static, MeasuredCanvas, C>;

type Chart = ChartContext<'static, MeasuredCanvas, Cartesian2d<Axis, Axis>>;

/// Plotters' `f64` axis without its own tick labels. Its default labels print through the
/// standard library's float formatting (some 15 KB of WebAssembly in every bundle) even when,
/// as here, a label formatter replaces them; this axis has none, so they are not linked.
struct Axis(RangedCoordf64);

impl From<Range<f64>> for Axis {
    fn from(range: Range<f64>) -> Self {
        Axis(range.into())
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.0.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        self.0.key_points(hint)
    }

    fn range(&self) -> Range<f64> {
        self.0.range()
    }
}

impl ValueFormatter<f64> for Axis {
    /// Never called: [`Plot::axes`] gives both axes a label formatter.
    fn format(_value: &f64) -> String {
        String::new()
    }
}

/// A canvas being drawn on through plotters.
pub struct Plot {
    chart: Chart,
    ink: ChartInk,
    /// The canvas's 2D context, for the one setting plotters has no word for: line dashes.
    context: CanvasRenderingContext2d,
}

impl Plot {
    /// Paints the theme's paper over `canvas` and lays the plot out on it; `None` when the
    /// canvas has no 2D context.
    pub fn new(canvas: &HtmlCanvasElement, layout: Layout) -> Option<Plot> {
        let backend = MeasuredCanvas::new(canvas)?;
        let context = backend.context().clone();
        // Plotters' canvas backend strokes with the canvas's default mitre joins, which spike
        // at every sharp turn of a jagged line and has no setting for it.
        context.set_line_join("round");
        let root = backend.into_drawing_area();
        let ink = ChartInk::current();
        root.fill(&ink.paper).ok()?;
        let y = layout.y.0..layout.y.1;
        let y_label_area = layout
            .y_label_area
            .max(y_label_room(&root, y.clone(), &font(&ink)));
        let chart = ChartBuilder::on(&root)
            .margin(layout.margin)
            .x_label_area_size(X_LABEL_AREA_PX)
            .y_label_area_size(y_label_area)
            .build_cartesian_2d(Axis::from(layout.x.0..layout.x.1), Axis::from(y))
            .ok()?;
        Some(Plot {
            chart,
            ink,
            context,
        })
    }

    /// The theme's colours this plot is drawn in.
    pub fn ink(&self) -> ChartInk {
        self.ink
    }

    /// The grid, the axes with tick labels and titles. `y_title` `None` leaves out the y axis
    /// and the horizontal grid lines.
    pub fn axes(&mut self, x_title: &str, y_title: Option<&str>) {
        let ink = self.ink;
        let x_step = tick_step(self.chart.x_range());
        let y_step = tick_step(self.chart.y_range());
        let x_label = |x: &f64| tick_label(*x, x_step);
        let y_label = |y: &f64| tick_label(*y, y_step);
        let mut mesh = self.chart.configure_mesh();
        mesh.x_labels(MOST_TICKS)
            .y_labels(MOST_TICKS)
            .max_light_lines(LIGHT_LINES)
            .set_all_tick_mark_size(TICK_PX)
            .light_line_style(ink.grid)
            .bold_line_style(ink.grid)
            // 2 px: plotters strokes the axes and tick marks as paths on whole pixels, where a
            // 1 px line smears over two pixels at half strength.
            .axis_style(ink.muted.stroke_width(2))
            .label_style(font(&ink))
            .axis_desc_style(font(&ink))
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .x_desc(x_title);
        match y_title {
            Some(title) => mesh.y_desc(title),
            None => mesh.disable_y_axis().disable_y_mesh(),
        };
        let _ = mesh.draw();
    }

    /// Shades the plot's full height between `from` and `to` (x in data units).
    pub fn band(&mut self, from: f64, to: f64, colour: Rgb, alpha: f64) {
        let (x, y) = (self.chart.x_range(), self.chart.y_range());
        let (from, to) = (from.max(x.start), to.min(x.end));
        if to > from {
            let corners = [(from, y.start), (to, y.end)];
            let _ = self
                .chart
                .draw_series(once(Rectangle::new(corners, colour.mix(alpha).filled())));
        }
    }

    /// A line through `points` (data units). A dashed look is dashed by the canvas itself
    /// (`setLineDash`) on one path: plotters' own dashed path strokes every dash as a path of
    /// its own, hundreds per line, which made a chart of a dozen lines several times slower
    /// to draw.
    pub fn line(&mut self, points: &[(f64, f64)], look: &Look) {
        let solid = Look {
            dash: None,
            ..*look
        };
        self.set_dash(look.dash);
        let _ = self.chart.draw_series(once(path(points.to_vec(), &solid)));
        self.set_dash(None);
    }

    fn set_dash(&self, dash: Option<(u32, u32)>) {
        let segments = js_sys::Array::new();
        if let Some((dash, gap)) = dash {
            segments.push(&dash.into());
            segments.push(&gap.into());
        }
        let _ = self.context.set_line_dash(&segments);
    }

    /// The look's marker at each of `points` (data units).
    pub fn markers(&mut self, points: impl IntoIterator<Item = (f64, f64)>, look: &Look) {
        let _ = self
            .chart
            .draw_series(points.into_iter().map(|at| mark(at, look)));
    }

    /// Text with its top-left corner at `at` (data units).
    pub fn text(&mut self, text: &str, at: (f64, f64)) {
        let style = font(&self.ink);
        let _ = self
            .chart
            .draw_series(once(Text::new(text.to_string(), at, style)));
    }

    /// A vertical line across the plot at `x` (data units); none when `x` is off the axis.
    pub fn vertical(&mut self, x: f64, look: &Look) {
        let y = self.chart.y_range();
        if self.chart.x_range().contains(&x) {
            self.line(&[(x, y.start), (x, y.end)], look);
        }
    }

    /// A legend in the plot's upper-left corner: each entry's line, marker and label on a box
    /// of the theme's paper (`alpha` opaque) edged in the grid colour.
    pub fn legend(&mut self, entries: &[(&str, Look)], alpha: f64) {
        if entries.is_empty() {
            return;
        }
        let ink = self.ink;
        let style = font(&ink);
        // Laid out as plotters lays out its series labels (a box at (10, 10) in the plot, a
        // margin, the samples' column, then the labels at 1.25 lines apart), but drawn here,
        // because plotters would measure each label in the page, forcing a layout per label.
        let area = self.chart.plotting_area().strip_coord_spec();
        let line_px = (f64::from(FONT_PX) * 1.25) as i32;
        let sizes: Vec<(u32, u32)> = entries
            .iter()
            .map(|(label, _)| {
                area.estimate_text_size(label, &style)
                    .unwrap_or((0, FONT_PX))
            })
            .collect();
        let widest = sizes.iter().map(|&(w, _)| w as i32).max().unwrap_or(0);
        let last_height = sizes.last().map_or(0, |&(_, h)| h as i32);
        let (left, top, margin) = (10, 10, LEGEND_PADDING_PX);
        let width = widest + LEGEND_SAMPLE_PX + LEGEND_PADDING_PX + 2 * margin;
        let height = (entries.len() as i32 - 1) * line_px + last_height + 2 * margin;
        let corners = [(left, top), (left + width, top + height)];
        let _ = area.draw(&Rectangle::new(corners, ink.paper.mix(alpha).filled()));
        let _ = area.draw(&Rectangle::new(corners, ink.grid));
        for (row, &(label, look)) in entries.iter().enumerate() {
            let line_top = top + margin + row as i32 * line_px;
            let text_left = left + margin + LEGEND_SAMPLE_PX + LEGEND_PADDING_PX;
            let _ = area.draw_text(label, &style, (text_left, line_top));
            // The canvas draws the glyphs from the line's top, so their middle is half the
            // font's size below it (a line's box is taller, by the font's leading).
            let middle = line_top + FONT_PX as i32 / 2;
            let _ = area.draw(&sample((left + margin, middle), &look));
        }
    }
}

/// Labels, titles and notes in the theme's ink.
fn font(ink: &ChartInk) -> TextStyle<'static> {
    (FontFamily::SansSerif, FONT_PX).into_font().color(&ink.ink)
}

/// The width left of the plot that the y tick labels of `y`, their tick marks and the title
/// beside them need.
fn y_label_room(root: &DrawingArea<MeasuredCanvas, Shift>, y: Range<f64>, font: &TextStyle) -> u32 {
    let step = tick_step(y.clone());
    let widest = ticks(y)
        .into_iter()
        .filter_map(|tick| root.estimate_text_size(&tick_label(tick, step), font).ok())
        .map(|(width, _)| width)
        .max()
        .unwrap_or(0);
    Y_TITLE_PX + widest + 2 * TICK_PX as u32
}

/// The look's line through `points` as a plotters element, solid or dashed.
fn path<C: Clone + 'static>(points: Vec<C>, look: &Look) -> Element<C> {
    match look.dash {
        None => PathElement::new(points, look.stroke()).into_dyn(),
        Some((dash, gap)) => DashedPathElement::new(points, dash, gap, look.stroke()).into_dyn(),
    }
}

/// A legend entry's sample at `at` (pixels): a stretch of the look's line with its marker in
/// the middle.
fn sample(at: (i32, i32), look: &Look) -> Element<(i32, i32)> {
    let stretch = path(vec![(0, 0), (LEGEND_SAMPLE_PX, 0)], look);
    (EmptyElement::at(at) + stretch + mark((LEGEND_SAMPLE_PX / 2, 0), look)).into_dyn()
}

/// The look's marker at `at` as a plotters element: plotters' own circle, triangle, square or
/// cross, chosen by the look.
fn mark<C: Clone + 'static>(at: C, look: &Look) -> Element<C> {
    let (size, colour) = (look.marker_size, look.colour);
    let centre = EmptyElement::at(at);
    match look.marker {
        Marker::Circle => (centre + Circle::new((0, 0), size, colour.filled())).into_dyn(),
        Marker::Ring => (centre + Circle::new((0, 0), size, colour.stroke_width(1))).into_dyn(),
        Marker::Triangle => (centre + Polygon::new(triangle(size), colour.filled())).into_dyn(),
        Marker::Square => {
            (centre + Rectangle::new([(-size, -size), (size, size)], colour.filled())).into_dyn()
        }
        Marker::Cross => (centre + Cross::new((0, 0), size, colour.stroke_width(2))).into_dyn(),
    }
}

/// An upward triangle's corners around the centre, `size` pixels from it, as plotters'
/// `TriangleMarker` draws it. Its corners are at -90, -210 and -330 degrees, and plotters
/// finds them with `cos` and `sin` on every draw, which brought 7 KB of trigonometry into the
/// bundles; the two cosines and sines are constants.
fn triangle(size: i32) -> Vec<(i32, i32)> {
    const COS_30_DEGREES: f64 = 0.866_025_403_784_438_6;
    let size = f64::from(size);
    let half_width = size * COS_30_DEGREES;
    let base = (size / 2.0).ceil() as i32;
    vec![
        (0, -size as i32),
        (-half_width.floor() as i32, base),
        (half_width.ceil() as i32, base),
    ]
}

/// The labelled tick positions in `range`, as plotters picks them: 1, 2 or 5 times a power
/// of ten apart, at most [`MOST_TICKS`].
fn ticks(range: Range<f64>) -> Vec<f64> {
    RangedCoordf64::from(range).key_points(MOST_TICKS)
}

/// The distance between labelled ticks.
fn tick_step(range: Range<f64>) -> f64 {
    match ticks(range)[..] {
        [first, second, ..] => second - first,
        _ => 1.0,
    }
}

/// A tick's label with as many decimals as the step needs ("20", "0.5", "0.25"), where
/// plotters' own labels would print "20.0".
fn tick_label(value: f64, step: f64) -> String {
    let decimals = (0..4)
        .find(|&d| {
            let scaled = step * 10f64.powi(d);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(4);
    format!("{value:.*}", decimals as usize)
}

/// One line on a chart.
pub struct Series {
    pub label: String,
    pub colour: Rgb,
    /// (x, y) points; a NaN y leaves a gap in the line.
    pub points: Vec<(f64, f64)>,
}

/// Legends beyond this many lines would cover the chart; the lines still draw.
const MOST_LEGEND_ENTRIES: usize = 12;

/// Line patterns, as (dash, gap) in pixels; `None` is solid.
const DASHES: [Option<(u32, u32)>; 3] = [None, Some((8, 4)), Some((2, 3))];

/// Point markers, with their radius. With three dashes and four markers, the first twelve
/// lines (every line that gets a legend) each have a pattern of their own.
const MARKERS: [(Marker, i32); 4] = [
    (Marker::Circle, 4),
    (Marker::Triangle, 5),
    (Marker::Square, 4),
    (Marker::Cross, 4),
];

/// How many markers a line carries across the chart: enough to follow, few enough to read.
const MARKERS_PER_LINE: usize = 8;

/// A chart of lines over x, each with its own colour, dash and marker (so no line is told
/// apart by colour alone), a legend, and shaded bands underneath (a rebalance, an outage).
pub struct LineChart<'a> {
    pub x: (f64, f64),
    pub x_title: &'a str,
    pub y_title: &'a str,
    pub series: Vec<Series>,
    /// (from, to) spans shaded under the lines.
    pub bands: Vec<(f64, f64)>,
}

/// Draws `chart` on `canvas`, the y axis from 0 to a little above the highest point.
pub fn line_chart(canvas: &HtmlCanvasElement, chart: &LineChart<'_>) {
    let top = chart
        .series
        .iter()
        .flat_map(|line| line.points.iter().map(|(_, v)| *v))
        .fold(10.0, f64::max)
        * 1.1;
    let layout = Layout {
        margin: 8,
        y_label_area: 48,
        x: chart.x,
        y: (0.0, top),
    };
    let Some(mut plot) = Plot::new(canvas, layout) else {
        return;
    };
    plot.axes(chart.x_title, Some(chart.y_title));
    for &(from, to) in &chart.bands {
        plot.band(from, to, Rgb(213, 94, 0), 0.12);
    }
    let mut legend = Vec::new();
    for (i, line) in chart.series.iter().enumerate() {
        let (marker, marker_size) = MARKERS[i % MARKERS.len()];
        let look = Look {
            colour: line.colour,
            width: 2,
            dash: DASHES[i % DASHES.len()],
            marker,
            marker_size,
        };
        // A NaN value is a time with nothing to plot: the line stops there and starts again,
        // rather than drawing a slope through the gap that no data supports.
        for segment in line.points.split(|(_, y)| y.is_nan()) {
            plot.line(segment, &look);
        }
        // Markers start at a different point on each line so coinciding lines stay visible.
        let every = (line.points.len() / MARKERS_PER_LINE).max(1);
        plot.markers(
            line.points
                .iter()
                .skip(i % every)
                .step_by(every)
                .filter(|(_, y)| !y.is_nan())
                .copied(),
            &look,
        );
        legend.push((line.label.as_str(), look));
    }
    if legend.len() <= MOST_LEGEND_ENTRIES {
        plot.legend(&legend, 0.8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_triangle_marker_points_up_with_its_base_below_the_centre() {
        // What plotters' TriangleMarker draws at these sizes, rounded the same way.
        assert_eq!(triangle(4), [(0, -4), (-3, 2), (4, 2)]);
        assert_eq!(triangle(5), [(0, -5), (-4, 3), (5, 3)]);
        for size in 2..12 {
            let [apex, left, right] = triangle(size)[..] else {
                panic!("three corners");
            };
            assert_eq!(apex, (0, -size), "the apex is straight above");
            assert_eq!(left.1, right.1, "a level base");
            assert!(left.0 < 0 && right.0 > 0, "the base spans the centre");
            assert!((right.0 + left.0).abs() <= 1, "symmetric to a pixel");
        }
    }

    #[wasm_bindgen_test]
    fn ticks_are_round_numbers_within_the_range() {
        assert_eq!(
            ticks(0.0..200.0),
            [0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0, 160.0, 180.0, 200.0]
        );
        assert_eq!(
            ticks(52.3..61.0),
            [53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0]
        );
        assert_eq!(ticks(0.0..1.0).len(), 11);
        assert_eq!(tick_step(0.0..13.2), 2.0);
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
        assert_eq!(parse_hex("#0072b2"), Some(Rgb(0, 0x72, 0xb2)));
        assert_eq!(parse_hex("#fff"), None);
        assert_eq!(parse_hex("blue"), None);
        assert_eq!(parse_hex("#é12345"), None);
        assert_eq!(hex_colour("blue"), Rgb(0, 0, 0));
    }
}
