//! Plotters' canvas backend with text measured on a canvas instead of in the page.
//!
//! Without a font feature, plotters measures a label by adding a `<span>` to the page and
//! reading its size, which forces the browser to lay out the whole page once per label: about
//! thirty times per chart redraw, and over half of the work a knob change caused. This backend
//! draws exactly as `CanvasBackend` does but answers `estimate_text_size` from the canvas 2D
//! context's `measureText` (no layout), remembering each answer, since the charts measure the
//! same few labels over and over.

use plotters_backend::{
    BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use std::cell::RefCell;
use streamlab_sim::replay::sorted_map::SortedMap;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The canvas backend's error, which this backend passes on.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// A canvas backend whose text sizes come from `measureText`.
pub struct MeasuredCanvas {
    canvas: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl MeasuredCanvas {
    /// `None` when the canvas has no 2D context.
    pub fn new(canvas: &HtmlCanvasElement) -> Option<Self> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        Some(MeasuredCanvas {
            canvas: CanvasBackend::with_canvas_object(canvas.clone())?,
            context,
        })
    }

    /// The canvas's 2D context, for the settings plotters has no word for (joins, dashes).
    pub fn context(&self) -> &CanvasRenderingContext2d {
        &self.context
    }
}

thread_local! {
    /// Sizes already measured, by CSS font and text.
    static MEASURED: RefCell<SortedMap<(String, String), (u32, u32)>> =
        const { RefCell::new(SortedMap::new()) };
}

/// The CSS font plotters' canvas backend draws `style` with.
fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str()
    )
}

/// Width and height of `text` in `font`: the advance width, and the font's ascent plus descent
/// (the height of the line box a span would get, which plotters' layout expects).
fn measure(context: &CanvasRenderingContext2d, font: &str, text: &str) -> (u32, u32) {
    let key = (font.to_string(), text.to_string());
    if let Some(size) = MEASURED.with(|m| m.borrow().get(&key).copied()) {
        return size;
    }
    let previous = context.font();
    context.set_font(font);
    let size = context.measure_text(text).map_or((0, 0), |metrics| {
        let height = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        (metrics.width().ceil() as u32, height.ceil() as u32)
    });
    context.set_font(&previous);
    MEASURED.with(|m| m.borrow_mut().insert(key, size));
    size
}

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.canvas.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        colour: plotters_backend::BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.draw_pixel(point, colour)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.draw_path(path, style)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vertices: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.fill_polygon(vertices, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        centre: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.draw_circle(centre, radius, style, fill)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.canvas.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        Ok(measure(&self.context, &css_font(style), text))
    }
}
