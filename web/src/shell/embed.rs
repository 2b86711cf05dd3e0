//! Embed mode: one lesson inside a course page's `<iframe>`.
//!
//! The options travel in the lesson's own query, next to the scenario
//! (`#/rebalances?embed&preset=rebalance-storm`), so a course page needs nothing but a link:
//! `embed` drops the site's chrome and starts paused, `embed=noknobs` (or `hide=knobs`) hides
//! the knobs, `autoplay` starts the run, `lock` turns the page into a "predict, then run"
//! challenge (inputs disabled, one button to reveal the run), and `theme=` picks a theme.
//! The page reports its height to the host in Pym.js's message format, so a host that already
//! uses Pym (or the three lines in the README) sizes the frame to fit. Parsing and the snippets
//! are pure functions; only [`install_height_reporter`] touches the browser.

use crate::platform::browser::BrowserCallback;
use crate::platform::markup::Escaped;
use std::cell::Cell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The query parameters embed mode reads or that Pym.js adds; a link back to the full site
/// drops them all.
const EMBED_PARAMS: &[&str] = &[
    "embed",
    "hide",
    "autoplay",
    "lock",
    "theme",
    "childId",
    "initialWidth",
    "parentTitle",
    "parentUrl",
];

/// How the page was asked to show itself. The default is the full site.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmbedOptions {
    /// Inside a host page: no site header, no lesson text, height reported to the parent.
    pub embedded: bool,
    pub hide_knobs: bool,
    /// Start running. The full site always does; an embedded lesson waits unless asked.
    pub autoplay: bool,
    /// Knobs and buttons disabled: the run waits for the learner to reveal it, and stays the
    /// course page's run after (a misconception's verdict links to the same run unlocked).
    pub locked: bool,
    /// The theme the host asked for (`light`, `dark`, `projector`), if any.
    pub theme: Option<String>,
    /// Pym.js's id for this frame, echoed in every height message.
    pub child_id: Option<String>,
}

impl EmbedOptions {
    /// Reads the options from a fragment's query (the part after `?`, `&`-separated).
    pub fn from_query(query: &str) -> Self {
        let pairs: Vec<(&str, &str)> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once('=').unwrap_or((p, "")))
            .collect();
        let value = |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
        let flags = |name: &str| -> Vec<&str> {
            value(name)
                .map(|v| v.split([',', '+']).collect())
                .unwrap_or_default()
        };
        let embedded = value("embed").is_some_and(|v| v != "0");
        let locked = value("lock").is_some_and(|v| v != "0") || flags("embed").contains(&"locked");
        // A locked page asks for a prediction first, on the full site too (the gallery's
        // misconception cards open their runs that way), so it never starts by itself.
        let autoplay = match value("autoplay") {
            Some("0") | Some("false") => false,
            Some(_) => !locked,
            None => !embedded && !locked,
        };
        Self {
            embedded,
            hide_knobs: flags("embed").contains(&"noknobs") || flags("hide").contains(&"knobs"),
            autoplay,
            locked,
            theme: value("theme").filter(|t| !t.is_empty()).map(str::to_owned),
            child_id: value("childId")
                .filter(|t| !t.is_empty())
                .map(str::to_owned),
        }
    }

    /// Reads the options of a whole fragment (`#/<lesson>?…`).
    pub fn from_fragment(fragment: &str) -> Self {
        Self::from_query(fragment.split_once('?').map_or("", |(_, q)| q))
    }

    /// Classes for the document element, which the style sheet keys embed mode on.
    pub fn classes(&self) -> Vec<&'static str> {
        let mut classes = Vec::new();
        if self.embedded {
            classes.push("embed");
        }
        if self.hide_knobs {
            classes.push("hide-knobs");
        }
        if self.locked {
            classes.push("locked");
        }
        classes
    }
}

/// Pym.js's `childId` from the page's real query string (`location.search`): Pym puts its
/// parameters there, before the fragment, when the URL it is given has one.
pub fn child_id_from_search(search: &str) -> Option<String> {
    EmbedOptions::from_query(search.trim_start_matches('?')).child_id
}

/// A lesson's URL with `options` written into its fragment's query, replacing any there.
pub fn with_options(url: &str, options: &EmbedOptions) -> String {
    let mut url = without_embed_params(url);
    let mut extra: Vec<String> = Vec::new();
    if options.embedded {
        extra.push(
            if options.hide_knobs {
                "embed=noknobs"
            } else {
                "embed"
            }
            .into(),
        );
    } else if options.hide_knobs {
        extra.push("hide=knobs".into());
    }
    if options.locked {
        extra.push("lock".into());
    } else if options.autoplay && options.embedded {
        extra.push("autoplay".into());
    }
    if let Some(theme) = &options.theme {
        extra.push(format!("theme={theme}"));
    }
    if let Some(id) = &options.child_id {
        extra.push(format!("childId={id}"));
    }
    if extra.is_empty() {
        return url;
    }
    if !url.contains('#') {
        url.push_str("#/");
    }
    let fragment = &url[url.find('#').unwrap_or(url.len())..];
    url.push(if fragment.contains('?') { '&' } else { '?' });
    url.push_str(&extra.join("&"));
    url
}

/// `url` without the embed options and Pym's parameters in its fragment: the full lesson.
pub fn without_embed_params(url: &str) -> String {
    let Some((before, fragment)) = url.split_once('#') else {
        return url.to_owned();
    };
    let (path, query) = fragment.split_once('?').unwrap_or((fragment, ""));
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .filter(|p| !EMBED_PARAMS.contains(&p.split_once('=').map_or(*p, |(k, _)| k)))
        .collect();
    if kept.is_empty() {
        format!("{before}#{path}")
    } else {
        format!("{before}#{path}?{}", kept.join("&"))
    }
}

/// A ready `<iframe>` for a course page: `lesson_url` (the playground's own address, with the
/// scenario) in embed mode with `options`, a Pym id derived from the lesson, and a title for
/// screen readers.
pub fn iframe_snippet(lesson_url: &str, slug: &str, title: &str, options: &EmbedOptions) -> String {
    let id = format!("streamlab-{slug}");
    let options = EmbedOptions {
        embedded: true,
        child_id: Some(id.clone()),
        ..options.clone()
    };
    let src = with_options(lesson_url, &options);
    format!(
        "<iframe id=\"{id}\" title=\"Streamlab: {}\" src=\"{}\" style=\"width:100%;height:640px;border:0\" loading=\"lazy\"></iframe>",
        Escaped(title),
        Escaped(&src)
    )
}

/// The message Pym.js's parent listens for: `pymxPYMx<id>xPYMxheightxPYMx<px>`.
pub fn pym_height_message(child_id: &str, height_px: u32) -> String {
    format!("pymxPYMx{child_id}xPYMxheightxPYMx{height_px}")
}

thread_local! {
    /// The height last posted, so an unchanged height is not posted again; `None` until the
    /// reporter is installed (it is installed once per page).
    static LAST_HEIGHT_PX: Cell<Option<u32>> = const { Cell::new(None) };
}

/// Posts the page's height to the parent frame whenever it changes. Does nothing outside a
/// frame, or when already installed.
pub fn install_height_reporter(child_id: String) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(parent) = window.parent().ok().flatten() else {
        return;
    };
    if parent == window || LAST_HEIGHT_PX.with(|h| h.get()).is_some() {
        return;
    }
    LAST_HEIGHT_PX.with(|h| h.set(Some(0)));
    let Some(body) = window.document().and_then(|d| d.body()) else {
        return;
    };
    let measured = body.clone();
    // Called with the observer's entries, and once below with nothing: it reads neither.
    let report = BrowserCallback::new(move |_: &web_sys::Event| {
        let height_px = measured.get_bounding_client_rect().height().ceil() as u32;
        if LAST_HEIGHT_PX.with(|h| h.replace(Some(height_px))) == Some(height_px) {
            return;
        }
        let message = pym_height_message(&child_id, height_px);
        // Only a height travels, so any host may read it.
        let _ = parent.post_message(&JsValue::from_str(&message), "*");
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()) {
        observer.observe(&body);
        // The observer and its callback live as long as the page.
        std::mem::forget(observer);
    }
    // Browsers do not render a frame scrolled out of sight, so its observer stays quiet until
    // it is scrolled to; report the height now so the host can lay the page out meanwhile.
    let report_now: &js_sys::Function = report.as_ref().unchecked_ref();
    let _ = report_now.call0(&JsValue::NULL);
    report.forget();
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_full_site_plays_and_shows_everything() {
        let options = EmbedOptions::from_query("s=1.abc");
        assert!(!options.embedded && options.autoplay && !options.locked && !options.hide_knobs);
    }

    #[wasm_bindgen_test]
    fn embed_mode_waits_unless_asked_to_play() {
        assert!(!EmbedOptions::from_query("embed&preset=x").autoplay);
        assert!(EmbedOptions::from_query("embed&autoplay").autoplay);
        assert!(!EmbedOptions::from_query("autoplay=0").autoplay);
    }

    #[wasm_bindgen_test]
    fn knobs_hide_both_ways_and_lock_never_autoplays() {
        assert!(EmbedOptions::from_query("embed=noknobs").hide_knobs);
        assert!(EmbedOptions::from_query("embed&hide=knobs").hide_knobs);
        let locked = EmbedOptions::from_query("embed&lock&autoplay");
        assert!(locked.locked && !locked.autoplay);
        assert!(EmbedOptions::from_query("embed=noknobs,locked").locked);
        let full_site = EmbedOptions::from_query("preset=misconception-4&lock");
        assert!(full_site.locked && !full_site.embedded && !full_site.autoplay);
    }

    #[wasm_bindgen_test]
    fn pym_ids_come_from_the_fragment() {
        let options = EmbedOptions::from_fragment("#/rebalances?embed&childId=a1&initialWidth=600");
        assert_eq!(options.child_id.as_deref(), Some("a1"));
        assert_eq!(
            pym_height_message("a1", 812),
            "pymxPYMxa1xPYMxheightxPYMx812"
        );
    }

    #[wasm_bindgen_test]
    fn pym_ids_are_also_read_before_the_fragment() {
        let search = "?initialWidth=600&childId=lesson-3&parentTitle=Week%203";
        assert_eq!(child_id_from_search(search).as_deref(), Some("lesson-3"));
        assert_eq!(child_id_from_search(""), None);
    }

    #[wasm_bindgen_test]
    fn the_full_lesson_link_drops_embed_and_pym_parameters_only() {
        let url = "https://x.org/c/#/rebalances?embed=noknobs&s=1.abc&childId=a&parentUrl=y";
        assert_eq!(
            without_embed_params(url),
            "https://x.org/c/#/rebalances?s=1.abc"
        );
        assert_eq!(
            without_embed_params("https://x.org/#/p?embed"),
            "https://x.org/#/p"
        );
    }

    #[wasm_bindgen_test]
    fn the_snippet_uses_the_given_url_and_escapes_it() {
        let options = EmbedOptions {
            hide_knobs: true,
            ..EmbedOptions::default()
        };
        let snippet = iframe_snippet(
            "https://x.org/c/#/rebalances?s=1.abc",
            "rebalances",
            "Rebalances & storms",
            &options,
        );
        assert!(snippet.contains(
            "src=\"https://x.org/c/#/rebalances?s=1.abc&amp;embed=noknobs&amp;childId=streamlab-rebalances\""
        ));
        assert!(snippet.contains("id=\"streamlab-rebalances\""));
        assert!(snippet.contains("title=\"Streamlab: Rebalances &amp; storms\""));
    }

    #[wasm_bindgen_test]
    fn options_round_trip_through_a_url() {
        let options = EmbedOptions {
            embedded: true,
            hide_knobs: true,
            autoplay: true,
            locked: false,
            theme: Some("dark".into()),
            child_id: Some("f".into()),
        };
        let url = with_options("https://x.org/#/partitions", &options);
        assert_eq!(EmbedOptions::from_fragment(&url), options);
    }
}
