//! A hook for components that paint a canvas: it redraws when the data or the theme changes,
//! after the canvas is in the page, and only while the canvas is on screen.
//!
//! Most charts sit below the fold while a learner turns a knob at the top of the page, and the
//! browser shows nothing there; yet drawing them made a delivery knob step take 19 ms instead
//! of 12 (BENCHMARKS.md), most of it in the first font set of a drawing, which makes the browser
//! work out the page's new style on the spot. So a drawing asked for off screen waits, the
//! newest one only, until an `IntersectionObserver` says the canvas has come into the
//! viewport. A canvas counts as on screen until the observer first says otherwise, so a page's
//! first drawing is never held back. Whatever reads a canvas's pixels (the PNG export) first
//! calls [`draw_waiting_everywhere`], and so does printing ([`install`]).

use crate::platform::browser::BrowserCallback;
use crate::platform::shared::Shared;
use crate::shell::page::use_page;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, IntersectionObserver, IntersectionObserverEntry};
use yew::prelude::*;

/// The node to give the `<canvas>`; `draw` paints `data` on it whenever `data` changes and
/// the canvas is on screen, or once it comes on screen.
#[hook]
pub fn use_canvas_drawing<T: 'static>(data: Shared<T>, draw: fn(HtmlCanvasElement, &T)) -> NodeRef {
    let canvas = use_node_ref();
    let theme = use_page().theme;
    // Dropped with the component, which stops its observer.
    let watched = use_mut_ref(|| None::<Watched>);
    {
        let canvas = canvas.clone();
        use_effect_with((data, theme), move |(data, _)| {
            let data = data.clone();
            show_on(
                &canvas,
                &watched,
                Box::new(move |canvas| draw(canvas, &data)),
            );
        });
    }
    canvas
}

/// Shows `drawing` on the canvas at `canvas`, which is watched from its first drawing on.
fn show_on(canvas: &NodeRef, watched: &RefCell<Option<Watched>>, drawing: Drawing) {
    let mut watched = watched.borrow_mut();
    if watched.is_none() {
        *watched = canvas.cast::<HtmlCanvasElement>().map(Watched::new);
    }
    if let Some(watched) = &*watched {
        watched.painter.show(drawing);
    }
}

/// Draws every waiting drawing before the page is printed: a printed page shows every chart.
pub fn install() {
    if let Some(window) = web_sys::window() {
        let print = BrowserCallback::new(|_: &web_sys::Event| draw_waiting_everywhere());
        let _ =
            window.add_event_listener_with_callback("beforeprint", print.as_ref().unchecked_ref());
        // It listens as long as the page lives.
        print.forget();
    }
}

/// Draws every drawing still waiting for its canvas to come on screen.
pub fn draw_waiting_everywhere() {
    PAINTERS.with(|painters| {
        // Drawing cannot register a painter, so the list is not borrowed twice.
        for painter in painters.borrow().iter().filter_map(Weak::upgrade) {
            painter.draw_waiting();
        }
    });
}

thread_local! {
    /// Every live canvas's painter, for [`draw_waiting_everywhere`].
    static PAINTERS: RefCell<Vec<Weak<Painter>>> = const { RefCell::new(Vec::new()) };
}

/// A drawing of one picture, given its canvas. Boxed, so that the code that waits and watches
/// is one copy for every kind of chart.
type Drawing = Box<dyn FnOnce(HtmlCanvasElement)>;

/// One canvas and the drawing it still owes.
struct Painter {
    canvas: HtmlCanvasElement,
    waiting: RefCell<Option<Drawing>>,
    on_screen: Cell<bool>,
}

impl Painter {
    fn new(canvas: HtmlCanvasElement) -> Rc<Self> {
        let painter = Rc::new(Self {
            canvas,
            waiting: RefCell::new(None),
            on_screen: Cell::new(true),
        });
        PAINTERS.with(|painters| {
            let mut painters = painters.borrow_mut();
            painters.retain(|p| p.strong_count() > 0);
            painters.push(Rc::downgrade(&painter));
        });
        painter
    }

    /// Draws now if the canvas is on screen, or when it comes on screen; a newer drawing
    /// replaces one still waiting.
    fn show(&self, drawing: Drawing) {
        *self.waiting.borrow_mut() = Some(drawing);
        if self.on_screen.get() {
            self.draw_waiting();
        }
    }

    fn seen(&self, on_screen: bool) {
        self.on_screen.set(on_screen);
        if on_screen {
            self.draw_waiting();
        }
    }

    fn draw_waiting(&self) {
        let waiting = self.waiting.borrow_mut().take();
        if let Some(drawing) = waiting {
            drawing(self.canvas.clone());
        }
    }
}

/// A painter and the observer that tells it when its canvas is on screen; dropping it stops
/// the observer.
struct Watched {
    painter: Rc<Painter>,
    observer: Option<IntersectionObserver>,
    _callback: BrowserCallback,
}

impl Watched {
    fn new(canvas: HtmlCanvasElement) -> Self {
        let painter = Painter::new(canvas);
        let told = Rc::clone(&painter);
        // The observer passes its entries, an array, where a listener gets its event.
        let callback = BrowserCallback::new(move |entries: &web_sys::Event| {
            let entries: &js_sys::Array = entries.unchecked_ref();
            // One target: its newest entry is where it stands now.
            if entries.length() > 0 {
                let entry: IntersectionObserverEntry = entries.pop().unchecked_into();
                told.seen(entry.is_intersecting());
            }
        });
        // Without a margin (options cost every bundle 0.1 KiB): a chart scrolled into view
        // shows its old drawing for one frame before the new one.
        let observer = IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok();
        if let Some(observer) = &observer {
            observer.observe(&painter.canvas);
        }
        Self {
            painter,
            observer,
            _callback: callback,
        }
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        if let Some(observer) = &self.observer {
            observer.disconnect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::browser::tests::sleep_ms;
    use crate::platform::measured_canvas::tests::detached_canvas;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Long enough for the browser to render a frame and tell the observer.
    const A_FEW_FRAMES_MS: u32 = 200;

    #[wasm_bindgen_test]
    async fn a_canvas_out_of_sight_draws_only_its_newest_drawing_and_only_once_in_sight() {
        let window = web_sys::window().unwrap_or_else(|| panic!("a window"));
        let body = window
            .document()
            .and_then(|d| d.body())
            .unwrap_or_else(|| panic!("a body"));
        let canvas = detached_canvas(40, 20);
        let _ = canvas.set_attribute("style", "display: block; margin-top: 5000px");
        let _ = body.append_child(&canvas);
        window.scroll_to_with_x_and_y(0.0, 0.0);
        let log = Rc::new(RefCell::new(Vec::new()));
        let show = |watched: &Watched, value: u32| {
            let log = Rc::clone(&log);
            watched
                .painter
                .show(Box::new(move |_| log.borrow_mut().push(value)));
        };

        let watched = Watched::new(canvas.clone());
        show(&watched, 1);
        assert_eq!(*log.borrow(), [1], "the first drawing is not held back");
        sleep_ms(A_FEW_FRAMES_MS).await;
        show(&watched, 2);
        show(&watched, 3);
        assert_eq!(*log.borrow(), [1], "out of sight, nothing is drawn");

        canvas.scroll_into_view();
        sleep_ms(A_FEW_FRAMES_MS).await;
        assert_eq!(*log.borrow(), [1, 3], "in sight, the newest drawing only");
        show(&watched, 4);
        assert_eq!(*log.borrow(), [1, 3, 4], "in sight, drawn at once");

        window.scroll_to_with_x_and_y(0.0, 0.0);
        sleep_ms(A_FEW_FRAMES_MS).await;
        show(&watched, 5);
        assert_eq!(*log.borrow(), [1, 3, 4]);
        draw_waiting_everywhere();
        assert_eq!(*log.borrow(), [1, 3, 4, 5], "an export draws what waits");

        show(&watched, 6);
        drop(watched);
        draw_waiting_everywhere();
        canvas.scroll_into_view();
        sleep_ms(A_FEW_FRAMES_MS).await;
        assert_eq!(
            *log.borrow(),
            [1, 3, 4, 5],
            "a chart taken away owes nothing"
        );
        canvas.remove();
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}
