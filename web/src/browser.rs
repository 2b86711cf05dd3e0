//! What both playgrounds need from the browser: animation frames, the keyboard shortcuts'
//! listener, and two questions about the page (is the learner typing into a field; do they
//! prefer reduced motion). Both handles clean up when dropped, so a playground that unmounts
//! leaves no callback behind.

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

/// A `keydown` listener on the document; dropping it removes the listener.
pub struct KeyListener {
    callback: Closure<dyn FnMut(KeyboardEvent)>,
}

impl KeyListener {
    pub fn new(on_key: impl FnMut(KeyboardEvent) + 'static) -> Option<Self> {
        let document = web_sys::window()?.document()?;
        let callback = Closure::<dyn FnMut(KeyboardEvent)>::new(on_key);
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

/// Keys typed into a text box or a select belong to it, not to the shortcuts.
pub fn typing_into_a_field(event: &KeyboardEvent) -> bool {
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
