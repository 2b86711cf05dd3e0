//! The root component: reads the link, and reads it again when the fragment changes (a lesson
//! link clicked, back and forward), then hands over to the page it names: the gallery for a
//! bare address, or the lesson's playground (whatever its family; the registry mounts it),
//! inside the page shell (embed mode, theme, shortcut sheet). Only the gallery bundle carries
//! the gallery; a lesson bundle reloads the page for the bare address, as for a lesson it does
//! not carry, and the loader opens the gallery bundle.
//!
//! The playground writes its own changes into the address bar with the History API, which
//! fires no `hashchange`, so what it writes never remounts it. Every `hashchange` (Back,
//! Forward, a link) remounts, even when it leads back to the fragment the page opened with. A
//! change that leads to another page (a lesson from the gallery, another lesson, the gallery
//! again) starts at the top of the page, as following a link does; Back over one lesson's own
//! changes keeps the learner's place. A link to a lesson this page's bundle does not carry
//! reloads the page, and the loader in `index.html` opens the bundle that does. A link to a
//! preset another lesson offers (`#/partitions?preset=rebalance-storm`) is rewritten in place
//! to that lesson's address, then followed the same way.

use crate::catalog;
use crate::platform::browser::BrowserCallback;
use crate::registry;
use crate::shell::address_bar::current_fragment;
use crate::shell::embed::EmbedOptions;
use crate::shell::page::PageShell;
use streamlab_sim::quote::quote;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    // The fragment, and how many times it changed from outside: the playground's key, so
    // Back to the address the page opened with still remounts it.
    let fragment = use_state(|| (current_fragment(), 0u32));
    let navigations = use_mut_ref(|| 0u32);
    let shown_page = use_mut_ref(|| page_of(&current_fragment()).to_string());
    {
        let fragment = fragment.clone();
        use_effect_with((), move |_| {
            let listener = BrowserCallback::new(move |_: &web_sys::Event| {
                *navigations.borrow_mut() += 1;
                let next = current_fragment();
                // Back over a lesson's own changes keeps the learner's place on it.
                if page_of(&next) != shown_page.borrow().as_str() {
                    scroll_to_top();
                    *shown_page.borrow_mut() = page_of(&next).to_string();
                }
                fragment.set((next, *navigations.borrow()));
            });
            let window = web_sys::window();
            if let Some(window) = &window {
                let _ = window.add_event_listener_with_callback(
                    "hashchange",
                    listener.as_ref().unchecked_ref(),
                );
            }
            move || {
                if let Some(window) = window {
                    let _ = window.remove_event_listener_with_callback(
                        "hashchange",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    let (fragment, generation) = (*fragment).clone();
    let (slug, query) = split(&fragment);
    let page = if slug.is_empty() {
        gallery(generation)
    } else if let Some(lesson) = registry::find(slug) {
        match lesson.preset_home(query) {
            // Another lesson's preset opens in that lesson: the address changes (in place, so
            // Back does not return to the wrong one) and that lesson mounts, or its bundle
            // loads.
            Some(home) => {
                replace_address(&format!("#/{home}?{query}"));
                html! { <p class="loading">{ "Opening the lesson…" }</p> }
            }
            None => lesson.mount(query, None, generation),
        }
    } else if generation > 0 && (catalog::lists(slug) || registry::first().is_none()) {
        // A link to a lesson another bundle carries (or to none, from a bundle without the
        // first lesson): load the page again, and the loader picks the bundle from the new
        // address (it has usually done so already). Only after a navigation, so a loader and
        // a bundle that disagreed could never reload for ever.
        reload();
        html! { <p class="loading">{ "Opening the lesson…" }</p> }
    } else {
        fallback(slug, generation)
    };
    let lessons = use_memo((), |_| catalog::entries());
    html! {
        <PageShell embed={EmbedOptions::from_fragment(&fragment)} {lessons}>
            { page }
        </PageShell>
    }
}

/// The first lesson, saying the address named no lesson, when this bundle carries it; the
/// gallery when it does not.
fn fallback(slug: &str, generation: u32) -> Html {
    let error = if catalog::lists(slug) {
        format!(
            "The lesson {} did not load here; here is the first one.",
            quote(slug)
        )
    } else {
        format!(
            "There is no lesson called {}; here is the first one.",
            quote(slug)
        )
    };
    match registry::first() {
        Some(first) => first.mount("", Some(error), generation),
        None => gallery(generation),
    }
}

/// The gallery, or, in a lesson bundle, a reload that lets the loader open the gallery bundle
/// (only after a navigation, so a loader that disagreed could never reload for ever).
fn gallery(generation: u32) -> Html {
    match registry::mounted().gallery {
        Some(page) => page(),
        None if generation > 0 => {
            reload();
            html! { <p class="loading">{ "Opening the gallery…" }</p> }
        }
        None => html! {
            <p class="loading">
                { "This page does not carry the gallery: " }
                <a href="./">{ "open the gallery" }</a>
            </p>
        },
    }
}

fn replace_address(fragment: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().replace(fragment);
    }
}

fn reload() {
    if let Some(window) = web_sys::window() {
        let _ = window.location().reload();
    }
}

/// The lesson's slug and its query, from a fragment (`#/rebalances?s=…`).
fn split(fragment: &str) -> (&str, &str) {
    let path = fragment.trim_start_matches('#').trim_start_matches('/');
    path.split_once('?').unwrap_or((path, ""))
}

/// Which page a fragment shows: the lesson's slug, or "" for the gallery.
fn page_of(fragment: &str) -> &str {
    split(fragment).0
}

fn scroll_to_top() {
    if let Some(window) = web_sys::window() {
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}
