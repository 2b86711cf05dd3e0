//! The address bar as the learner's history: each change they make (a knob, a preset, a
//! crash) becomes a browser history entry, so Back and Forward walk through their changes;
//! changes that follow each other quickly (dragging a slider) share one entry; the time
//! position only replaces the current entry. Writing the address this way fires no
//! `hashchange`, so the page never remounts itself; Back and Forward do fire it, and the app
//! then opens the address they lead to (see `app.rs`).

use crate::shell::embed::{with_options, EmbedOptions};
use crate::shell::test_hooks::now_ms;
use wasm_bindgen::JsValue;
use yew::AttrValue;

/// Changes closer together than this (wall time) share one history entry.
pub const HISTORY_DEBOUNCE_MS: f64 = 1_000.0;

/// What kind of write an address update is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Write {
    /// The learner changed the run: a new history entry, unless the last one is recent.
    Change,
    /// Only the time position moved (pause, seek): the current entry is updated.
    Position,
}

/// Remembers when the last history entry was made.
#[derive(Default)]
pub struct AddressBar {
    last_change_ms: Option<f64>,
}

impl AddressBar {
    /// Puts `fragment` (`#/…`) into the address bar, keeping how the page is shown (embed
    /// options, theme) from the address it replaces: a knob turned inside a course page's
    /// frame must not bring the site's chrome back on Back or on a reload. Returns the link
    /// "Copy link" offers: the same fragment on this page's URL, without those options.
    pub fn write(&mut self, fragment: &str, write: Write) -> AttrValue {
        let share_url = url_with(fragment).into();
        let shown_as = EmbedOptions::from_fragment(&current_fragment());
        let fragment = &with_options(fragment, &shown_as);
        let now = now_ms();
        let push = write == Write::Change
            && self
                .last_change_ms
                .is_none_or(|last| now - last >= HISTORY_DEBOUNCE_MS);
        if write == Write::Change {
            self.last_change_ms = Some(now);
        }
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            // Failing to update the address bar loses nothing but the link; keep running.
            let _ = if push {
                history.push_state_with_url(&JsValue::NULL, "", Some(fragment))
            } else {
                history.replace_state_with_url(&JsValue::NULL, "", Some(fragment))
            };
        }
        share_url
    }
}

/// The current page's fragment.
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The full URL of this page with `fragment` instead of its own, for "Copy link".
pub fn url_with(fragment: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let without_fragment = base.split('#').next().unwrap_or_default();
    format!("{without_fragment}{fragment}")
}
