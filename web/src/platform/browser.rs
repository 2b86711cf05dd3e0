//! What both playgrounds need from the browser: animation frames (and a task after the next
//! paint), the keyboard shortcuts' listener, and two questions about the page (is the learner
//! typing into a field; do they prefer reduced motion). Both handles clean up when dropped, so
//! a playground that unmounts leaves no callback behind.

use crate::platform::bounded::bounded;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

/// A requested frame: its callback (kept alive until it runs) and the request's id.
type PendingFrame = (Closure<dyn FnMut(f64)>, i32);

/// At most one pending `requestAnimationFrame`; dropping it cancels the request.
#[derive(Default)]
pub struct FrameLoop {
    pending: Option<PendingFrame>,
}

impl FrameLoop {
    /// Asks for the next frame, unless one is already asked for; `on_frame` gets its timestamp.
    pub fn request(&mut self, on_frame: impl FnOnce(f64) + 'static) {
        if self.pending.is_some() {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let callback = Closure::once(on_frame);
        if let Ok(id) = window.request_animation_frame(callback.as_ref().unchecked_ref()) {
            self.pending = Some((callback, id));
        }
    }

    /// The frame arrived: the next one may be requested.
    pub fn arrived(&mut self) {
        self.pending = None;
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        if let (Some((_, id)), Some(window)) = (self.pending.take(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
    }
}

/// Calls `then` in a task after the browser's next paint: an animation frame callback runs
/// just before the frame is painted, and a task it posts runs after. Work that must not hold
/// up a picture (preparing what may come next, writing the address bar) starts here; so does
/// the measure of when a picture reached the screen. A page that is not painted (a hidden tab,
/// a course page's frame scrolled out of view) gets no animation frames, so `then` also runs
/// after [`PAINT_WAIT_MAX_MS`] whatever happens, once either way.
pub fn after_next_paint(then: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let once = Rc::new(Cell::new(Some(then)));
    let after_frame = Rc::clone(&once);
    let in_frame = Closure::once_into_js(move || {
        gloo_timers::callback::Timeout::new(0, move || run_once(&after_frame)).forget();
    });
    let _ = window.request_animation_frame(in_frame.unchecked_ref());
    gloo_timers::callback::Timeout::new(PAINT_WAIT_MAX_MS, move || run_once(&once)).forget();
}

/// Emits `wake` in a task of its own after `delay_ms`; dropping the timer cancels it. The
/// playground's slices of work in the background (a rebuild, the runs prepared nearby, the
/// rehearsal) ask for their next turn this way.
pub fn emit_after(delay_ms: u32, wake: &yew::Callback<()>) -> gloo_timers::callback::Timeout {
    let wake = wake.clone();
    gloo_timers::callback::Timeout::new(delay_ms, move || wake.emit(()))
}

/// Runs the task in `slot` unless it already ran.
fn run_once(slot: &Cell<Option<impl FnOnce()>>) {
    if let Some(then) = slot.take() {
        then();
    }
}

/// Longest wait for a paint before [`after_next_paint`]'s task runs anyway: far beyond a
/// frame (16.7 ms) on a page being painted.
pub const PAINT_WAIT_MAX_MS: u32 = 200;

/// The one shape of callback the page hands the browser: the one Yew's own event listeners
/// have. Each distinct shape costs every bundle its own glue in the wasm and the JavaScript,
/// so the page's listeners and observers take this one and read the argument as what the
/// browser passes them.
pub type BrowserCallback = Closure<dyn Fn(&web_sys::Event)>;

/// A `keydown` listener on the document; dropping it removes the listener.
pub struct KeyListener {
    callback: BrowserCallback,
}

impl KeyListener {
    pub fn new(on_key: impl Fn(KeyboardEvent) + 'static) -> Option<Self> {
        let document = web_sys::window()?.document()?;
        let callback = BrowserCallback::new(move |event: &web_sys::Event| {
            on_key(event.clone().unchecked_into());
        });
        document
            .add_event_listener_with_callback("keydown", callback.as_ref().unchecked_ref())
            .ok()?;
        Some(Self { callback })
    }
}

impl Drop for KeyListener {
    fn drop(&mut self) {
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            let _ = document.remove_event_listener_with_callback(
                "keydown",
                self.callback.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Longest wall-clock gap between frames that is simulated; a longer gap (a background tab)
/// counts as this much rather than being replayed.
pub const MAX_FRAME_GAP_MS: f64 = 100.0;

/// Wall milliseconds to simulate for a frame at `now`, after the frame at `last`.
pub fn frame_gap_ms(last: Option<f64>, now: f64) -> f64 {
    last.map_or(0.0, |last| bounded(now - last, 0.0, MAX_FRAME_GAP_MS))
}

/// What a keyboard shortcut asks for; the same keys on every lesson page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    TogglePlay,
    Step,
    Faster,
    Slower,
    Reset,
}

/// The shortcut `event` stands for, if any: Space, →, ↑, ↓ and R, except while typing into a
/// field. A recognised key's default action (scrolling, pressing the focused button) is
/// cancelled.
pub fn shortcut(event: &KeyboardEvent) -> Option<Shortcut> {
    if typing_into_a_field(event) {
        return None;
    }
    let shortcut = match event.key().as_str() {
        " " => Shortcut::TogglePlay,
        "ArrowRight" => Shortcut::Step,
        "ArrowUp" => Shortcut::Faster,
        "ArrowDown" => Shortcut::Slower,
        "r" | "R" => Shortcut::Reset,
        _ => return None,
    };
    event.prevent_default();
    Some(shortcut)
}

/// The keys the `?` sheet lists, with what each does; keep in step with [`shortcut`].
pub const SHORTCUT_HELP: &[(&str, &str)] = &[
    ("Space", "Play or pause"),
    ("→", "Step: advance 100 ms of simulated time"),
    ("↑", "Faster"),
    ("↓", "Slower"),
    ("R", "Reset to time zero"),
    ("?", "Show or hide this list"),
    ("Esc", "Close this list"),
    (
        "Tab",
        "Move between controls; every knob and button is reachable",
    ),
];

/// Whether `event` asks for the shortcut sheet (`?`), outside text fields.
pub fn help_requested(event: &KeyboardEvent) -> bool {
    event.key() == "?" && !typing_into_a_field(event)
}

/// Keys typed into a text box or a select belong to it, not to the shortcuts.
fn typing_into_a_field(event: &KeyboardEvent) -> bool {
    let Some(element) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let tag = element.tag_name();
    if tag == "SELECT" || tag == "TEXTAREA" {
        return true;
    }
    if tag == "INPUT" {
        // A range slider has no text to type; arrows on it still move the slider, though.
        let kind = element.get_attribute("type").unwrap_or_default();
        return kind != "range" || event.key().starts_with("Arrow");
    }
    false
}

/// Whether the learner asked the system for less motion.
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Resolves after `ms` of wall time.
    pub(crate) async fn sleep_ms(ms: u32) {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            gloo_timers::callback::Timeout::new(ms, move || {
                let _ = resolve.call0(&JsValue::NULL);
            })
            .forget();
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }

    #[wasm_bindgen_test]
    async fn the_task_after_the_paint_runs_once_and_not_at_once() {
        let runs = Rc::new(Cell::new(0));
        let counted = Rc::clone(&runs);
        after_next_paint(move || counted.set(counted.get() + 1));
        assert_eq!(runs.get(), 0, "it waits for a frame");
        // The test page is painted: the frame's task runs it well before the fallback would.
        sleep_ms(PAINT_WAIT_MAX_MS / 2).await;
        assert_eq!(runs.get(), 1, "after the frame");
        // Past the fallback: it does not run a second time.
        sleep_ms(PAINT_WAIT_MAX_MS).await;
        assert_eq!(runs.get(), 1, "once");
    }
}
