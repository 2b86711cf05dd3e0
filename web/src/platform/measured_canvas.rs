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

/// Most sizes remembered. Time axes label every tick with its time, so an hour played brings
/// new labels all along; past this many the sizes are forgotten and measured again as they
/// come (a chart measures a few dozen labels a redraw).
const MEASURED_MAX: usize = 1024;

thread_local! {
    /// Sizes already measured, by CSS font and text; at most [`MEASURED_MAX`].
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
/// (the height of the line box a span would get, which plotters' layout expects). The context
/// keeps `font` afterwards: plotters' `draw_text` sets each label's font before drawing it.
fn measure(context: &CanvasRenderingContext2d, font: &str, text: &str) -> (u32, u32) {
    let key = (font.to_string(), text.to_string());
    if let Some(size) = MEASURED.with(|m| m.borrow().get(&key).copied()) {
        return size;
    }
    context.set_font(font);
    let size = context.measure_text(text).map_or((0, 0), |metrics| {
        let height = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        (metrics.width().ceil() as u32, height.ceil() as u32)
    });
    MEASURED.with(|m| {
        let mut measured = m.borrow_mut();
        if measured.len() >= MEASURED_MAX {
            measured.clear();
        }
        measured.insert(key, size);
    });
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use plotters::style::{FontFamily, IntoFont, TextStyle};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A canvas of `width` × `height` pixels, not in the page (the chart tests draw on these
    /// too).
    pub(crate) fn detached_canvas(width: u32, height: u32) -> HtmlCanvasElement {
        let canvas: HtmlCanvasElement = web_sys::window()
            .and_then(|window| window.document())
            .and_then(|document| document.create_element("canvas").ok())
            .and_then(|element| element.dyn_into().ok())
            .unwrap_or_else(|| panic!("a canvas"));
        canvas.set_width(width);
        canvas.set_height(height);
        canvas
    }

    fn backend() -> MeasuredCanvas {
        MeasuredCanvas::new(&detached_canvas(400, 100)).unwrap_or_else(|| panic!("a 2D context"))
    }

    fn style(px: u32) -> TextStyle<'static> {
        (FontFamily::SansSerif, f64::from(px)).into_font().into()
    }

    fn width(backend: &MeasuredCanvas, text: &str, px: u32) -> u32 {
        let size = backend.estimate_text_size(text, &style(px));
        size.unwrap_or_else(|_| panic!("a size")).0
    }

    #[wasm_bindgen_test]
    fn new_labels_all_along_keep_the_remembered_sizes_bounded_and_right() {
        let sizes = backend();
        let first = width(&sizes, "0:00 bounded", 12);
        for minute in 0..2 * MEASURED_MAX {
            width(&sizes, &format!("{minute}:00 bounded"), 12);
            let held = MEASURED.with(|m| m.borrow().len());
            assert!(held <= MEASURED_MAX, "{held} sizes held");
        }
        // Forgotten, then measured again: the same size.
        assert_eq!(width(&sizes, "0:00 bounded", 12), first);
    }

    #[wasm_bindgen_test]
    fn each_label_is_measured_in_its_own_font_whatever_was_drawn_or_measured_before() {
        let mut sizes = backend();
        // Texts no other test measures: the sizes remembered are per font and text.
        let small = width(&sizes, "8,765 small", 10);
        let large = width(&sizes, "8,765 large", 40);
        assert!(large > 3 * small, "40px {large} against 10px {small}");
        // Drawing in one font, then measuring in another, measures in the other.
        let _ = sizes.draw_text("0", &style(10), (0, 0));
        let after_drawing = width(&sizes, "8,765 after", 40);
        assert!(
            after_drawing > 3 * small,
            "{after_drawing} after a 10px label"
        );
        // As the canvas itself measures it in that font.
        let reference = backend().context;
        reference.set_font(&css_font(&style(40)));
        let measured = reference
            .measure_text("8,765 after")
            .map(|m| m.width().ceil() as u32);
        assert_eq!(measured.ok(), Some(after_drawing));
    }

    #[wasm_bindgen_test]
    fn a_measure_in_another_font_leaves_the_next_label_drawn_as_on_a_fresh_canvas() {
        let pixels = |backend: &MeasuredCanvas| {
            let image = backend.context.get_image_data(0.0, 0.0, 400.0, 100.0);
            image
                .unwrap_or_else(|_| panic!("the pixels"))
                .data()
                .to_vec()
        };
        let mut measured_first = backend();
        width(&measured_first, "8,765 before a label", 40);
        let _ = measured_first.draw_text("8,765", &style(10), (5, 5));
        let mut fresh = backend();
        let _ = fresh.draw_text("8,765", &style(10), (5, 5));
        assert!(
            pixels(&fresh).iter().any(|&byte| byte != 0),
            "the label is drawn"
        );
        assert!(pixels(&measured_first) == pixels(&fresh));
    }
}
