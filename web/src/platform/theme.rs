//! Site themes: light, dark and a high-contrast "projector" theme for classrooms.
//!
//! A theme is a `data-theme` attribute on the document element, which the style sheet maps to
//! colour variables; "system" is resolved to light or dark from `prefers-color-scheme`. The learner's choice is remembered in `localStorage`. Canvas charts cannot use
//! CSS variables directly, so [`colour_var`] reads the current value for them.

use crate::platform::plot::{parse_hex, Rgb};

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
    pub fn current() -> Self {
        Self {
            paper: colour_var("--paper", Rgb(255, 255, 255)),
            ink: colour_var("--ink", Rgb(27, 31, 36)),
            muted: colour_var("--ink-muted", Rgb(87, 96, 106)),
            grid: colour_var("--paper-sunken", Rgb(243, 244, 246)),
        }
    }
}

/// The current value of the CSS colour variable `--name` as a colour for a canvas, or
/// `fallback` when it is missing or not a `#rrggbb` value.
pub fn colour_var(name: &str, fallback: Rgb) -> Rgb {
    let value = document_element()
        .and_then(|root| web_sys::window()?.get_computed_style(&root).ok().flatten())
        .and_then(|style| style.get_property_value(name).ok())
        .unwrap_or_default();
    parse_hex(value.trim()).unwrap_or(fallback)
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
