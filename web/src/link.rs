//! The page URL as a share link: reading the scenario out of it and writing it back.
//!
//! The fragment has the form `#/<lesson>?s=<link>`, where `<link>` is the core's versioned
//! encoding (`streamlab_sim::share`). A missing link means the lesson's default scenario; a
//! malformed one also gives the default, plus the message to show.

use streamlab_sim::share;
use streamlab_sim::Scenario;

/// The lesson this build serves (the gallery comes later).
pub const LESSON_SLUG: &str = "partitions";

/// What the URL asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkState {
    pub scenario: Scenario,
    /// Why the link in the URL was not used, if it was not.
    pub error: Option<String>,
}

/// Reads a fragment (with or without the leading `#`).
pub fn parse_fragment(fragment: &str, default: &Scenario) -> LinkState {
    let fragment = fragment.trim_start_matches('#');
    let query = fragment.split_once('?').map_or("", |(_, q)| q);
    let encoded = query.split('&').find_map(|pair| pair.strip_prefix("s="));
    match encoded {
        None | Some("") => LinkState {
            scenario: default.clone(),
            error: None,
        },
        Some(encoded) => match share::decode(encoded) {
            Ok(scenario) => LinkState {
                scenario,
                error: None,
            },
            Err(e) => LinkState {
                scenario: default.clone(),
                error: Some(format!(
                    "{e} Showing the lesson's default scenario instead."
                )),
            },
        },
    }
}

/// The fragment that reproduces `scenario`.
pub fn fragment_for(scenario: &Scenario) -> String {
    format!("#/{LESSON_SLUG}?s={}", share::encode(scenario))
}

/// The current page's fragment.
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Puts `scenario` into the address bar without adding a history entry.
pub fn replace_fragment(scenario: &Scenario) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(history) = window.history() {
        let url = fragment_for(scenario);
        // Failing to update the address bar loses nothing but the link; keep running.
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The full URL of the page with `scenario` in it, for the "Copy link" button.
pub fn share_url(scenario: &Scenario) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let without_fragment = base.split('#').next().unwrap_or_default();
    format!("{without_fragment}{}", fragment_for(scenario))
}
