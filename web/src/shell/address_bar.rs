//! The address bar as the learner's history: each change they make (a knob, a preset, a
//! crash) becomes a browser history entry, so Back and Forward walk through their changes;
//! changes that follow each other quickly (dragging a slider) share one entry; the time
//! position only replaces the current entry. Writing the address this way fires no
//! `hashchange`, so the page never remounts itself; Back and Forward do fire it, and the app
//! then opens the address they lead to (see `app.rs`).
//!
//! A change is staged first and written a moment later ([`AddressBar::flush`]): the history
//! call took 2 to 7 ms of a knob change in Chromium, and packing the scenario into its link 1
//! to 3 ms, time the new picture had waited for. Both the link and the address bar follow in a
//! task after the next paint; whether the change makes a new history entry is decided when it
//! is made.

use crate::shell::embed::{with_options, EmbedOptions};
use crate::shell::test_hooks::{now_ms, publish_address_staged};
use wasm_bindgen::JsValue;

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

/// Remembers when the last history entry was made, and whether the address is still to be
/// written.
#[derive(Default)]
pub struct AddressBar {
    last_change_ms: Option<f64>,
    staged: Option<Staged>,
}

/// An address write waiting for the next [`AddressBar::flush`].
struct Staged {
    /// A new history entry rather than an update of the current one.
    push: bool,
}

impl AddressBar {
    /// Notes that the address must follow what is on screen. Whether it makes a new history
    /// entry is decided now, by when the learner made the change; several writes staged
    /// before one flush make one entry.
    pub fn stage(&mut self, write: Write) {
        let now = now_ms();
        let push = write == Write::Change
            && self
                .last_change_ms
                .is_none_or(|last| now - last >= HISTORY_DEBOUNCE_MS);
        if write == Write::Change {
            self.last_change_ms = Some(now);
        }
        let push = push || self.staged.as_ref().is_some_and(|staged| staged.push);
        self.staged = Some(Staged { push });
        publish_address_staged(true);
    }

    /// Whether an address is staged and not yet written.
    pub fn is_staged(&self) -> bool {
        self.staged.is_some()
    }

    /// Writes `fragment` (`#/…`, what is on screen now) if a write is staged, keeping how the
    /// page is shown (embed options, theme) from the address it replaces: a knob turned inside
    /// a course page's frame must not bring the site's chrome back on Back or on a reload.
    pub fn flush(&mut self, fragment: &str) {
        let Some(staged) = self.staged.take() else {
            return;
        };
        publish_address_staged(false);
        let shown_as = EmbedOptions::from_fragment(&current_fragment());
        let fragment = &with_options(fragment, &shown_as);
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            // Failing to update the address bar loses nothing but the link; keep running.
            let _ = if staged.push {
                history.push_state_with_url(&JsValue::NULL, "", Some(fragment))
            } else {
                history.replace_state_with_url(&JsValue::NULL, "", Some(fragment))
            };
        }
    }
}

impl Drop for AddressBar {
    /// A playground closed before its write (a Back right after a change) leaves none staged.
    fn drop(&mut self) {
        if self.staged.is_some() {
            publish_address_staged(false);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn history_length() -> u32 {
        let history = web_sys::window().unwrap().history().unwrap();
        history.length().unwrap()
    }

    /// The test page's address is the bar under test: one test, so none races another for it.
    #[wasm_bindgen_test]
    fn a_change_reaches_the_address_bar_when_flushed_as_one_entry_per_burst_of_changes() {
        let mut bar = AddressBar::default();
        let before = current_fragment();
        let entries = history_length();

        bar.stage(Write::Change);
        assert_eq!(
            current_fragment(),
            before,
            "the address bar waits for the flush"
        );
        assert!(bar.is_staged());
        // The time moves before the flush: the entry the change made holds the newest address.
        bar.stage(Write::Position);
        bar.flush("#/partitions?s=2.a&t=5000");
        assert!(!bar.is_staged());
        assert_eq!(current_fragment(), "#/partitions?s=2.a&t=5000");
        assert_eq!(
            history_length(),
            entries + 1,
            "the change made one history entry"
        );

        bar.stage(Write::Change);
        bar.flush("#/partitions?s=2.b");
        assert_eq!(current_fragment(), "#/partitions?s=2.b");
        assert_eq!(
            history_length(),
            entries + 1,
            "a change right after shares that entry"
        );

        bar.stage(Write::Position);
        bar.flush("#/partitions?s=2.b&t=9000");
        bar.flush("#/partitions?s=2.c");
        assert_eq!(
            current_fragment(),
            "#/partitions?s=2.b&t=9000",
            "a flush with nothing staged writes nothing"
        );
        assert_eq!(
            history_length(),
            entries + 1,
            "a position replaces the entry"
        );
    }
}
