//! The page URL as a share link: which lesson, and the exact scenario, in the fragment.
//!
//! The fragment has the form `#/<lesson>?s=<link>` or `#/<lesson>?preset=<name>`, where
//! `<link>` is the core's versioned encoding (`streamlab_sim::share`) and `<name>` one of the
//! core's presets (short links for course pages). A missing scenario means the lesson's
//! default; a malformed one also gives the default, plus a message to show. Fragments work on
//! any static host, under any path, with no server help.

use crate::lessons::{self, Lesson};
use streamlab_sim::{presets, share, Scenario};

/// What the URL asked for.
#[derive(Clone)]
pub struct LinkState {
    pub lesson: &'static Lesson,
    pub scenario: Scenario,
    /// Why (part of) the link was not used, if it was not.
    pub error: Option<String>,
}

impl PartialEq for LinkState {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson)
            && self.scenario == other.scenario
            && self.error == other.error
    }
}

/// Reads a fragment (with or without the leading `#`).
pub fn parse_fragment(fragment: &str) -> LinkState {
    let fragment = fragment.trim_start_matches('#').trim_start_matches('/');
    let (path, query) = fragment.split_once('?').unwrap_or((fragment, ""));
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
    };
    let (lesson, lesson_error) = match path {
        "" => (lessons::first(), None),
        slug => match lessons::find(slug) {
            Some(lesson) => (lesson, None),
            None => (
                lessons::first(),
                Some(format!(
                    "There is no lesson called {slug:?}; here is the first one."
                )),
            ),
        },
    };
    let default = (lesson.default_scenario)();
    let (scenario, scenario_error) = match (param("s"), param("preset")) {
        (Some(encoded), _) if !encoded.is_empty() => match share::decode(encoded) {
            Ok(scenario) => (scenario, None),
            Err(e) => (
                default,
                Some(format!("{e} Showing the lesson's default scenario instead.")),
            ),
        },
        (_, Some(name)) if !name.is_empty() => match presets::find(name) {
            Some(preset) => ((preset.build)(), None),
            None => (
                default,
                Some(format!(
                    "There is no preset called {name:?}. Showing the lesson's default scenario instead."
                )),
            ),
        },
        _ => (default, None),
    };
    LinkState {
        lesson,
        scenario,
        error: lesson_error.or(scenario_error),
    }
}

/// The fragment that reproduces `scenario` in `lesson`.
pub fn fragment_for(lesson: &Lesson, scenario: &Scenario) -> String {
    format!("#/{}?s={}", lesson.slug, share::encode(scenario))
}

/// The current page's fragment.
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Puts `scenario` into the address bar without adding a history entry.
pub fn replace_fragment(lesson: &Lesson, scenario: &Scenario) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(history) = window.history() {
        let url = fragment_for(lesson, scenario);
        // Failing to update the address bar loses nothing but the link; keep running.
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The full URL of the page with `scenario` in it, for the "Copy link" button.
pub fn share_url(lesson: &Lesson, scenario: &Scenario) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let without_fragment = base.split('#').next().unwrap_or_default();
    format!("{without_fragment}{}", fragment_for(lesson, scenario))
}
