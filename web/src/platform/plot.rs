//! The lessons' canvas charts, drawn on plotters-canvas's backend.
//!
//! A thin layer that gives the three charts one vocabulary: a plot with the theme's paper,
//! grid, axes, tick labels and axis titles; shaded bands; solid or dashed lines; point
//! markers; text; a legend. Its [`Axis`] picks the ticks (round numbers) and maps data to
//! pixels as plotters' own axis does; this module lays the plot out and draws each part with
//! one call to the canvas backend, in the places and order plotters' chart builder and mesh
//! would. Those are generic layers (label areas split and sorted, boxed elements, mesh
//! closures) that cost every bundle some 15 KB of WebAssembly for three plain charts. This
//! module also chooses the styles, keeps tick labels free of a needless ".0", and sizes the
//! label areas so an axis title never overlaps a tick label. Colours are plotters' own
//! `RGBColor`, named [`Rgb`] here.

use crate::platform::axis::Axis;
use crate::platform::measured_canvas::MeasuredCanvas;
use crate::platform::theme::ChartInk;
use plotters::prelude::{Color, FontFamily, IntoFont, ShapeStyle, TextStyle};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;
use plotters_backend::DrawingBackend;
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
/// Tick marks' length; the labels sit twice as far from the axis, as in plotters.
const TICK_PX: i32 = 5;
/// Under the plot: the tick marks and labels (2 × 5 + 12 px), then a gap, then the x title,
/// set against the bottom of this area, so the two never overlap.
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

/// Where a label at a pixel along an axis puts its tick mark (two ends) and its text.
type TickPlace<'a> = dyn Fn(i32) -> ([(i32, i32); 2], (i32, i32)) + 'a;

/// The plotting area on the canvas, in pixels; `right` and `bottom` are just outside it.
#[derive(Clone, Copy)]
struct Frame {
    left: i32,
    top: i32,
    right: i32,
    bottom: i32,
}

/// A canvas being drawn on: plotters-canvas's backend, the plot's frame, and its two axes.
pub struct Plot {
    canvas: MeasuredCanvas,
    ink: ChartInk,
    /// The blank border around everything, in pixels.
    margin: i32,
    frame: Frame,
    x: Axis,
    y: Axis,
}

impl Plot {
    /// Paints the theme's paper over `canvas` and lays the plot out on it; `None` when the
    /// canvas has no 2D context.
    ///
    /// The layout is plotters' `ChartBuilder`'s for these settings: the margin all round, a
    /// label area under the plot and one left of it.
    pub fn new(canvas: &HtmlCanvasElement, layout: Layout) -> Option<Plot> {
        let mut canvas = MeasuredCanvas::new(canvas)?;
        // Plotters' canvas backend strokes with the canvas's default mitre joins, which spike
        // at every sharp turn of a jagged line and has no setting for it.
        canvas.context().set_line_join("round");
        let ink = ChartInk::current();
        let (width, height) = canvas.get_size();
        let (width, height) = (width as i32, height as i32);
        canvas
            .draw_rect((0, 0), (width, height), &ink.paper, true)
            .ok()?;
        let y = Axis::new(layout.y.0, layout.y.1);
        let y_label_area = layout
            .y_label_area
            .max(y_label_room(&mut canvas, &y, &font(&ink)));
        let margin = layout.margin as i32;
        let frame = Frame {
            left: margin + y_label_area as i32,
            top: margin,
            right: width - margin,
            bottom: height - margin - X_LABEL_AREA_PX as i32,
        };
        Some(Plot {
            canvas,
            ink,
            margin,
            frame,
            x: Axis::new(layout.x.0, layout.x.1),
            y,
        })
    }

    /// The theme's colours this plot is drawn in.
    pub fn ink(&self) -> ChartInk {
        self.ink
    }

    /// `x` in data units to pixels across the canvas.
    fn pixel_x(&self, x: f64) -> i32 {
        self.x.map(x, (self.frame.left, self.frame.right - 1))
    }

    /// `y` in data units to pixels down the canvas (the plot's bottom is the axis's start).
    fn pixel_y(&self, y: f64) -> i32 {
        self.y.map(y, (self.frame.bottom - 1, self.frame.top))
    }

    fn pixel(&self, (x, y): (f64, f64)) -> (i32, i32) {
        (self.pixel_x(x), self.pixel_y(y))
    }

    /// The grid, the axes with tick labels and titles. `y_title` `None` leaves out the y axis
    /// and the horizontal grid lines.
    ///
    /// Drawn as plotters' mesh draws it, in its order: fine grid lines (up to
    /// [`LIGHT_LINES`] per labelled step), the titles, the labelled grid lines over them,
    /// then each axis with its labels and tick marks.
    pub fn axes(&mut self, x_title: &str, y_title: Option<&str>) {
        let with_y = y_title.is_some();
        self.grid(MOST_TICKS * LIGHT_LINES, with_y);
        self.titles(x_title, y_title);
        self.grid(MOST_TICKS, with_y);
        if with_y {
            self.y_axis();
        }
        self.x_axis();
    }

    /// Grid lines at up to `most` round values on x, and on y when `with_y`.
    fn grid(&mut self, most: usize, with_y: bool) {
        let style = self.ink.grid.stroke_width(1);
        let Frame {
            left,
            top,
            right,
            bottom,
        } = self.frame;
        for x in self.x.key_points(most) {
            let at = self.pixel_x(x);
            let _ = self.canvas.draw_line((at, bottom - 1), (at, top), &style);
        }
        if with_y {
            for y in self.y.key_points(most) {
                let at = self.pixel_y(y);
                let _ = self.canvas.draw_line((left, at), (right - 1, at), &style);
            }
        }
    }

    /// The y title, turned to read upwards, left of the labels; the x title under the plot.
    fn titles(&mut self, x_title: &str, y_title: Option<&str>) {
        let frame = self.frame;
        let style = font(&self.ink);
        if let Some(title) = y_title {
            let upwards = style
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Center, VPos::Top));
            let beside = (self.margin, frame.top + (frame.bottom - frame.top) / 2);
            let _ = self.canvas.draw_text(title, &upwards, beside);
        }
        let under = style.pos(Pos::new(HPos::Center, VPos::Bottom));
        let middle = frame.left + (frame.right - frame.left) / 2;
        let foot = frame.bottom + X_LABEL_AREA_PX as i32;
        let _ = self.canvas.draw_text(x_title, &under, (middle, foot));
    }

    /// The y axis along the plot's left edge, its labels right-aligned left of their ticks.
    fn y_axis(&mut self) {
        let Frame {
            left, top, bottom, ..
        } = self.frame;
        let edge = left - 1;
        let labels = self.labels(self.y, Plot::pixel_y, top..bottom);
        let anchor = Pos::new(HPos::Right, VPos::Center);
        self.axis([(edge, top), (edge, bottom - 1)], labels, anchor, &|at| {
            ([(edge - TICK_PX, at), (edge, at)], (left - 2 * TICK_PX, at))
        });
    }

    /// The x axis along the plot's bottom edge, its labels centred under their ticks.
    fn x_axis(&mut self) {
        let Frame {
            left,
            right,
            bottom,
            ..
        } = self.frame;
        let labels = self.labels(self.x, Plot::pixel_x, left..right);
        let anchor = Pos::new(HPos::Center, VPos::Top);
        self.axis(
            [(left, bottom), (right - 1, bottom)],
            labels,
            anchor,
            &|at| {
                (
                    [(at, bottom), (at, bottom + TICK_PX)],
                    (at, bottom + 2 * TICK_PX),
                )
            },
        );
    }

    /// The labelled values of `axis` as text, at their pixels along it (`pixel`), those
    /// `within` the plot.
    fn labels(
        &self,
        axis: Axis,
        pixel: fn(&Plot, f64) -> i32,
        within: Range<i32>,
    ) -> Vec<(String, i32)> {
        tick_labels(axis.range())
            .into_iter()
            .map(|(value, text)| (text, pixel(self, value)))
            .filter(|(_, at)| within.contains(at))
            .collect()
    }

    /// An axis's line, then at each label its text and its tick mark, as plotters draws them:
    /// `place(at)` gives the tick's two ends and the point the label is `anchor`ed at, for a
    /// label at pixel `at` along the axis. (`dyn`: one copy of this code for both axes, 0.3
    /// KiB less in every bundle than a generic closure.)
    fn axis(
        &mut self,
        line: [(i32, i32); 2],
        labels: Vec<(String, i32)>,
        anchor: Pos,
        place: &TickPlace<'_>,
    ) {
        let style = self.axis_style();
        let label = font(&self.ink).pos(anchor);
        let _ = self.canvas.draw_path(line, &style);
        for (text, at) in labels {
            let (tick, label_at) = place(at);
            let _ = self.canvas.draw_text(&text, &label, label_at);
            let _ = self.canvas.draw_path(tick, &style);
        }
    }

    /// 2 px: the axes and tick marks are stroked as paths on whole pixels, where a 1 px line
    /// smears over two pixels at half strength.
    fn axis_style(&self) -> ShapeStyle {
        self.ink.muted.stroke_width(2)
    }

    /// Shades the plot's full height between `from` and `to` (x in data units).
    pub fn band(&mut self, from: f64, to: f64, colour: Rgb, alpha: f64) {
        let (x, y) = (self.x.range(), self.y.range());
        let (from, to) = (from.max(x.start), to.min(x.end));
        if to > from {
            let (a, b) = (self.pixel((from, y.start)), self.pixel((to, y.end)));
            let corners = ((a.0.min(b.0), a.1.min(b.1)), (a.0.max(b.0), a.1.max(b.1)));
            let shade = colour.mix(alpha);
            let _ = self.canvas.draw_rect(corners.0, corners.1, &shade, true);
        }
    }

    /// A line through `points` (data units).
    pub fn line(&mut self, points: &[(f64, f64)], look: &Look) {
        let pixels: Vec<(i32, i32)> = points.iter().map(|&at| self.pixel(at)).collect();
        stroke(&mut self.canvas, pixels, look);
    }

    /// The look's marker at each of `points` (data units).
    pub fn markers(&mut self, points: impl IntoIterator<Item = (f64, f64)>, look: &Look) {
        for at in points {
            let at = self.pixel(at);
            mark(&mut self.canvas, at, look);
        }
    }

    /// The look's marker at each of `points` (data units), as [`Plot::markers`] draws it, but
    /// circles and rings are filled or stroked as one path: a strip of thousands of dots set
    /// the colour and drew a path once per dot. Other markers are drawn one by one.
    pub fn markers_together(&mut self, points: impl IntoIterator<Item = (f64, f64)>, look: &Look) {
        let filled = match look.marker {
            Marker::Circle => true,
            Marker::Ring => false,
            _ => return self.markers(points, look),
        };
        let context = self.canvas.context().clone();
        let radius = f64::from(look.marker_size.max(0));
        context.begin_path();
        for at in points {
            let (x, y) = self.pixel(at);
            let (x, y) = (f64::from(x), f64::from(y));
            // Each circle its own outline: no line from the previous one.
            context.move_to(x + radius, y);
            let _ = context.arc(x, y, radius, 0.0, std::f64::consts::TAU);
        }
        // The colour as plotters' canvas backend writes it, and its 1 px line for a ring.
        let Rgb(r, g, b) = look.colour;
        let colour = format!("rgba({r},{g},{b},1)");
        if filled {
            context.set_fill_style_str(&colour);
            context.fill();
        } else {
            context.set_stroke_style_str(&colour);
            context.set_line_width(1.0);
            context.stroke();
        }
    }

    /// Text with its top-left corner at `at` (data units).
    pub fn text(&mut self, text: &str, at: (f64, f64)) {
        let at = self.pixel(at);
        let _ = self.canvas.draw_text(text, &font(&self.ink), at);
    }

    /// A vertical line across the plot at `x` (data units); none when `x` is off the axis.
    pub fn vertical(&mut self, x: f64, look: &Look) {
        let y = self.y.range();
        if self.x.range().contains(&x) {
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
        // Laid out as plotters lays out its series labels: a box 10 px into the plot, a
        // margin, the samples' column, then the labels 1.25 lines apart.
        let line_px = (f64::from(FONT_PX) * 1.25) as i32;
        let sizes: Vec<(u32, u32)> = entries
            .iter()
            .map(|(label, _)| {
                self.canvas
                    .estimate_text_size(label, &style)
                    .unwrap_or((0, FONT_PX))
            })
            .collect();
        let widest = sizes.iter().map(|&(w, _)| w as i32).max().unwrap_or(0);
        let last_height = sizes.last().map_or(0, |&(_, h)| h as i32);
        let margin = LEGEND_PADDING_PX;
        let (left, top) = (self.frame.left + 10, self.frame.top + 10);
        let width = widest + LEGEND_SAMPLE_PX + LEGEND_PADDING_PX + 2 * margin;
        let height = (entries.len() as i32 - 1) * line_px + last_height + 2 * margin;
        let corners = ((left, top), (left + width, top + height));
        let _ = self
            .canvas
            .draw_rect(corners.0, corners.1, &ink.paper.mix(alpha), true);
        let _ = self
            .canvas
            .draw_rect(corners.0, corners.1, &ink.grid, false);
        for (row, &(label, look)) in entries.iter().enumerate() {
            let line_top = top + margin + row as i32 * line_px;
            let text_left = left + margin + LEGEND_SAMPLE_PX + LEGEND_PADDING_PX;
            let _ = self.canvas.draw_text(label, &style, (text_left, line_top));
            // The canvas draws the glyphs from the line's top, so their middle is half the
            // font's size below it (a line's box is taller, by the font's leading).
            let middle = line_top + FONT_PX as i32 / 2;
            let sample_left = left + margin;
            let sample = vec![
                (sample_left, middle),
                (sample_left + LEGEND_SAMPLE_PX, middle),
            ];
            stroke(&mut self.canvas, sample, &look);
            mark(
                &mut self.canvas,
                (sample_left + LEGEND_SAMPLE_PX / 2, middle),
                &look,
            );
        }
    }
}

/// Labels, titles and notes in the theme's ink.
fn font(ink: &ChartInk) -> TextStyle<'static> {
    (FontFamily::SansSerif, FONT_PX).into_font().color(&ink.ink)
}

/// The width left of the plot that the y tick labels of `y`, their tick marks and the title
/// beside them need.
fn y_label_room(canvas: &mut MeasuredCanvas, y: &Axis, font: &TextStyle) -> u32 {
    let widest = tick_labels(y.range())
        .into_iter()
        .filter_map(|(_, text)| canvas.estimate_text_size(&text, font).ok())
        .map(|(width, _)| width)
        .max()
        .unwrap_or(0);
    Y_TITLE_PX + widest + 2 * TICK_PX as u32
}

/// The look's line through `pixels`, in one path. A dashed look is dashed by the canvas itself
/// (`setLineDash`): plotters' own dashed path strokes every dash as a path of its own,
/// hundreds per line, which made a chart of a dozen lines several times slower to draw.
fn stroke(canvas: &mut MeasuredCanvas, pixels: Vec<(i32, i32)>, look: &Look) {
    set_dash(canvas.context(), look.dash);
    let _ = canvas.draw_path(pixels, &look.stroke());
    set_dash(canvas.context(), None);
}

fn set_dash(context: &CanvasRenderingContext2d, dash: Option<(u32, u32)>) {
    let segments = js_sys::Array::new();
    if let Some((dash, gap)) = dash {
        segments.push(&dash.into());
        segments.push(&gap.into());
    }
    let _ = context.set_line_dash(&segments);
}

/// The look's marker centred on `at` (pixels), shaped as plotters' circle, triangle, square
/// and cross markers are.
fn mark(canvas: &mut MeasuredCanvas, (x, y): (i32, i32), look: &Look) {
    let (size, colour) = (look.marker_size, look.colour);
    let _ = match look.marker {
        Marker::Circle => canvas.draw_circle((x, y), size.max(0) as u32, &colour, true),
        Marker::Ring => canvas.draw_circle((x, y), size.max(0) as u32, &colour, false),
        Marker::Triangle => {
            let corners = triangle(size).into_iter().map(|(dx, dy)| (x + dx, y + dy));
            canvas.fill_polygon(corners, &colour)
        }
        Marker::Square => {
            canvas.draw_rect((x - size, y - size), (x + size, y + size), &colour, true)
        }
        Marker::Cross => {
            let pen = colour.stroke_width(2);
            let (x0, y0, x1, y1) = (x - size, y - size, x + size, y + size);
            let _ = canvas.draw_line((x0, y0), (x1, y1), &pen);
            canvas.draw_line((x0, y1), (x1, y0), &pen)
        }
    };
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

/// The labelled tick positions in `range`: 1, 2 or 5 times a power of ten apart, at most
/// [`MOST_TICKS`].
fn ticks(range: Range<f64>) -> Vec<f64> {
    Axis::new(range.start, range.end).key_points(MOST_TICKS)
}

/// The distance between labelled ticks.
fn tick_step(ticks: &[f64]) -> f64 {
    match ticks {
        [first, second, ..] => second - first,
        _ => 1.0,
    }
}

/// Each labelled tick in `range` with its label, the ticks found once for both.
fn tick_labels(range: Range<f64>) -> Vec<(f64, String)> {
    let ticks = ticks(range);
    let step = tick_step(&ticks);
    ticks
        .into_iter()
        .map(|tick| (tick, tick_label(tick, step)))
        .collect()
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
    use crate::platform::measured_canvas::tests::detached_canvas as canvas;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The colour of the pixel at `(x, y)`.
    fn pixel_at(plot: &Plot, (x, y): (i32, i32)) -> Rgb {
        let image = plot
            .canvas
            .context()
            .get_image_data(f64::from(x), f64::from(y), 1.0, 1.0)
            .unwrap_or_else(|_| panic!("the canvas's pixels"));
        let rgba = image.data();
        Rgb(rgba[0], rgba[1], rgba[2])
    }

    fn layout() -> Layout {
        Layout {
            margin: 8,
            y_label_area: 48,
            x: (0.0, 100.0),
            y: (0.0, 50.0),
        }
    }

    /// Every pixel of the plot's canvas, as RGBA bytes.
    fn all_pixels(plot: &Plot) -> Vec<u8> {
        let (width, height) = plot.canvas.get_size();
        plot.canvas
            .context()
            .get_image_data(0.0, 0.0, f64::from(width), f64::from(height))
            .unwrap_or_else(|_| panic!("the canvas's pixels"))
            .data()
            .to_vec()
    }

    #[wasm_bindgen_test]
    fn dots_drawn_together_look_as_dots_drawn_one_by_one() {
        // Apart, and two overlapping: a path's outlines fill as one.
        let points = [(10.0, 10.0), (50.0, 25.0), (51.0, 25.0), (90.0, 40.0)];
        for marker in [Marker::Circle, Marker::Ring] {
            let look = Look {
                colour: Rgb(200, 30, 60),
                width: 1,
                dash: None,
                marker,
                marker_size: 2,
            };
            let mut one_by_one = Plot::new(&canvas(200, 120), layout()).unwrap();
            one_by_one.markers(points, &look);
            let mut together = Plot::new(&canvas(200, 120), layout()).unwrap();
            together.markers_together(points, &look);
            let (a, b) = (all_pixels(&one_by_one), all_pixels(&together));
            // Only edge pixels may differ, by a shade: the browser smooths a path of several
            // circles a hair differently from one circle, and fills overlapping ones as one.
            let most = a.iter().zip(&b).map(|(p, q)| p.abs_diff(*q)).max();
            assert!(most <= Some(16), "{marker:?}: pixels differ by {most:?}");
            let (x, y) = together.pixel((10.0, 10.0));
            if marker == Marker::Circle {
                assert_eq!(pixel_at(&together, (x, y)), look.colour, "filled");
            } else {
                assert_eq!(pixel_at(&together, (x, y)), together.ink().paper, "hollow");
            }
        }
    }

    #[wasm_bindgen_test]
    fn the_data_ranges_span_the_plot_between_the_label_areas() {
        let plot = Plot::new(&canvas(400, 200), layout()).unwrap_or_else(|| panic!("a plot"));
        let Frame {
            left,
            top,
            right,
            bottom,
        } = plot.frame;
        assert_eq!((top, right, bottom), (8, 400 - 8, 200 - 8 - 40));
        assert!(left >= 8 + 48, "at least the label area asked for");
        assert_eq!(
            plot.pixel((0.0, 0.0)),
            (left, bottom - 1),
            "the origin at lower left"
        );
        assert_eq!(
            plot.pixel((100.0, 50.0)),
            (right - 1, top),
            "the far corner at upper right"
        );
        assert_eq!(plot.pixel_x(50.0), left + (right - 1 - left) / 2);
    }

    #[wasm_bindgen_test]
    fn the_axes_run_along_the_plots_left_and_bottom_edges() {
        let mut plot = Plot::new(&canvas(400, 200), layout()).unwrap_or_else(|| panic!("a plot"));
        let ink = plot.ink();
        plot.axes("seconds", Some("records"));
        let Frame { left, right, .. } = plot.frame;
        let (top, bottom) = (plot.frame.top, plot.frame.bottom);
        let (middle_x, middle_y) = ((left + right) / 2 + 3, (top + bottom) / 2 + 3);
        // The axes are 2 px wide: the two columns left of the plot, the two rows at its foot.
        assert_eq!(
            pixel_at(&plot, (left - 2, middle_y)),
            ink.muted,
            "the y axis"
        );
        assert_eq!(pixel_at(&plot, (middle_x, bottom)), ink.muted, "the x axis");
        assert_eq!(
            pixel_at(&plot, (middle_x, bottom + 20)),
            ink.paper,
            "below the labels"
        );
        assert_eq!(
            pixel_at(&plot, (right + 2, middle_y)),
            ink.paper,
            "the margin"
        );
    }

    #[wasm_bindgen_test]
    fn without_a_y_title_there_is_no_y_axis() {
        let mut plot = Plot::new(&canvas(400, 200), layout()).unwrap_or_else(|| panic!("a plot"));
        let ink = plot.ink();
        plot.axes("seconds", None);
        let Frame {
            left, top, bottom, ..
        } = plot.frame;
        // Column `left - 1` has the outer half of the first vertical grid line.
        let beside = (left - 2, (top + bottom) / 2 + 3);
        assert_eq!(pixel_at(&plot, beside), ink.paper);
    }

    #[wasm_bindgen_test]
    fn a_band_shades_only_its_span_of_x() {
        let mut plot = Plot::new(&canvas(400, 200), layout()).unwrap_or_else(|| panic!("a plot"));
        let paper = plot.ink().paper;
        plot.band(20.0, 40.0, Rgb(0, 0, 0), 1.0);
        let y = plot.pixel_y(25.0);
        assert_eq!(pixel_at(&plot, (plot.pixel_x(30.0), y)), Rgb(0, 0, 0));
        assert_eq!(pixel_at(&plot, (plot.pixel_x(15.0), y)), paper);
        assert_eq!(pixel_at(&plot, (plot.pixel_x(45.0), y)), paper);
    }

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
        assert_eq!(tick_step(&ticks(0.0..13.2)), 2.0);
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
