//! Site themes: light, dark and a high-contrast "projector" theme for classrooms.
//!
//! A theme is a `data-theme` attribute on the document element, which the style sheet maps to
//! colour variables; "system" is resolved to light or dark from `prefers-color-scheme`. The learner's choice is remembered in `localStorage`. Canvas charts cannot use
//! CSS variables directly, so [`colour_var`] reads the current value for them.

use crate::platform::plot::{parse_hex, Rgb};
use std::cell::RefCell;
use streamlab_sim::replay::sorted_map::SortedMap;

/// The themes, in the order the switcher offers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteTheme {
    /// Follow the system's light or dark preference.
    System,
    Light,
    Dark,
    /// Black on white, thick lines and large text, for a projector in a lit room.
    Projector,
}

const STORAGE_KEY: &str = "streamlab-theme";

impl SiteTheme {
    pub const ALL: [SiteTheme; 4] = [
        SiteTheme::System,
        SiteTheme::Light,
        SiteTheme::Dark,
        SiteTheme::Projector,
    ];

    /// The name in `data-theme`, `localStorage` and the `theme=` link parameter.
    pub fn name(self) -> &'static str {
        match self {
            SiteTheme::System => "system",
            SiteTheme::Light => "light",
            SiteTheme::Dark => "dark",
            SiteTheme::Projector => "projector",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SiteTheme::System => "System",
            SiteTheme::Light => "Light",
            SiteTheme::Dark => "Dark",
            SiteTheme::Projector => "Projector",
        }
    }

    pub fn from_name(name: &str) -> Option<SiteTheme> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The theme the learner chose last time, or following the system.
pub fn saved() -> SiteTheme {
    storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .and_then(|name| SiteTheme::from_name(&name))
        .unwrap_or(SiteTheme::System)
}

/// Shows `theme` and, if `remember`, keeps it for the next visit.
pub fn apply(theme: SiteTheme, remember: bool) {
    if let Some(root) = document_element() {
        let _ = root.set_attribute("data-theme", resolved(theme).name());
    }
    if remember {
        if let Some(storage) = storage() {
            // Private windows may refuse storage; the theme still applies to this visit.
            let _ = storage.set_item(STORAGE_KEY, theme.name());
        }
    }
}

/// The theme that `theme` shows: "system" becomes light or dark.
fn resolved(theme: SiteTheme) -> SiteTheme {
    if theme != SiteTheme::System {
        return theme;
    }
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    if dark {
        SiteTheme::Dark
    } else {
        SiteTheme::Light
    }
}

/// The theme's colours for a canvas chart, read when it is drawn.
#[derive(Clone, Copy, Debug)]
pub struct ChartInk {
    pub paper: Rgb,
    pub ink: Rgb,
    pub muted: Rgb,
    /// Grid lines and legend borders.
    pub grid: Rgb,
}

impl ChartInk {
    /// The ink of the theme on show. Reading the page's computed style makes the browser
    /// bring its styles up to date on the spot, in the middle of a frame that has just
    /// changed the page, so the answer is kept per theme (`data-theme` on the root) and read
    /// again only when the theme changes or the style sheet had not given every colour yet.
    pub fn current() -> Self {
        let theme = document_element()
            .and_then(|root| root.get_attribute("data-theme"))
            .unwrap_or_default();
        if let Some(ink) = INK.with(|kept| kept.borrow().get(&theme).copied()) {
            return ink;
        }
        let colours = ["--paper", "--ink", "--ink-muted", "--paper-sunken"].map(computed_colour);
        let ink = Self {
            paper: colours[0].unwrap_or(Rgb(255, 255, 255)),
            ink: colours[1].unwrap_or(Rgb(27, 31, 36)),
            muted: colours[2].unwrap_or(Rgb(87, 96, 106)),
            grid: colours[3].unwrap_or(Rgb(243, 244, 246)),
        };
        if colours.iter().all(Option::is_some) {
            INK.with(|kept| kept.borrow_mut().insert(theme, ink));
        }
        ink
    }
}

thread_local! {
    /// The chart ink of each theme shown so far.
    static INK: RefCell<SortedMap<String, ChartInk>> = const { RefCell::new(SortedMap::new()) };
}

/// The current value of the CSS colour variable `--name` as a colour for a canvas, or
/// `fallback` when it is missing or not a `#rrggbb` value.
pub fn colour_var(name: &str, fallback: Rgb) -> Rgb {
    computed_colour(name).unwrap_or(fallback)
}

fn computed_colour(name: &str) -> Option<Rgb> {
    let value = document_element()
        .and_then(|root| web_sys::window()?.get_computed_style(&root).ok().flatten())
        .and_then(|style| style.get_property_value(name).ok())?;
    parse_hex(value.trim())
}

fn document_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn names_round_trip() {
        for theme in SiteTheme::ALL {
            assert_eq!(SiteTheme::from_name(theme.name()), Some(theme));
        }
        assert_eq!(SiteTheme::from_name("neon"), None);
    }
}
