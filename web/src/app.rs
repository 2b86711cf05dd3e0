//! The root component: reads the link, and reads it again when the fragment changes (a lesson
//! link clicked, back and forward), then hands over to the page it names: the gallery for a
//! bare address, or the playground the lesson needs (the consumer-group one or the event-time
//! one), inside the page shell (embed mode, theme, shortcut sheet).
//!
//! The playgrounds write their own changes into the address bar with the History API, which
//! fires no `hashchange`, so what they write never remounts them. Every `hashchange` (Back,
//! Forward, a link) remounts, even when it leads back to the fragment the page opened with.
//!
//! A fragment change keeps the document's scroll position, which belonged to the page shown
//! before; so when the change leads to another page (another lesson, or the gallery), the
//! window goes back to the top, as a page loaded anew would. Otherwise a lesson opened from a
//! card low in the gallery would open scrolled past its question, diagram and transport, its
//! sticky side panel stuck halfway down beside the stage's lower half.

use crate::families::eventtime::link::{self, EventTimeLinkState};
use crate::families::eventtime::playground::EventTimePlayground;
use crate::families::kafka::playground::Playground;
use crate::gallery::Gallery;
use crate::lessons::{kind_of, LessonKind};
use crate::shell::address_bar::current_fragment;
use crate::shell::embed::EmbedOptions;
use crate::shell::link::{parse_fragment, LinkState};
use crate::shell::page::PageShell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    // The fragment, and how many times it changed from outside: the playground's key, so
    // Back to the address the page opened with still remounts it.
    let fragment = use_state(|| (current_fragment(), 0u32));
    let navigations = use_mut_ref(|| 0u32);
    // The lesson (or "" for the gallery) on screen, to tell a new page from the same one.
    let shown_slug = use_mut_ref(|| slug_of(&current_fragment()).to_string());
    {
        let fragment = fragment.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn FnMut()>::new(move || {
                *navigations.borrow_mut() += 1;
                let next = current_fragment();
                let slug = slug_of(&next);
                // Back over a lesson's own changes keeps the learner's place on it.
                if slug != shown_slug.borrow().as_str() {
                    scroll_to_top();
                    *shown_slug.borrow_mut() = slug.to_string();
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
    let route = use_memo(fragment.clone(), |fragment| route(fragment));
    // A new fragment from outside means a new run: the key remounts the playground.
    let page = match &*route {
        Route::Gallery => html! { <Gallery /> },
        Route::Group(link) => {
            html! { <Playground key={generation} initial={link.clone()} /> }
        }
        Route::EventTime(link) => {
            html! { <EventTimePlayground key={generation} initial={link.clone()} /> }
        }
    };
    html! { <PageShell embed={EmbedOptions::from_fragment(&fragment)}>{ page }</PageShell> }
}

/// Which playground a fragment opens, and with what.
#[derive(PartialEq)]
enum Route {
    Gallery,
    Group(LinkState),
    EventTime(EventTimeLinkState),
}

/// A fragment's lesson slug and query: `#/windows?preset=x` → (`windows`, `preset=x`).
fn split(fragment: &str) -> (&str, &str) {
    let path = fragment.trim_start_matches('#').trim_start_matches('/');
    path.split_once('?').unwrap_or((path, ""))
}

fn slug_of(fragment: &str) -> &str {
    split(fragment).0
}

/// Back to the top of the document, where a freshly opened page starts.
fn scroll_to_top() {
    if let Some(window) = web_sys::window() {
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

fn route(fragment: &str) -> Route {
    let (slug, query) = split(fragment);
    if slug.is_empty() {
        return Route::Gallery;
    }
    match kind_of(slug) {
        Some(LessonKind::EventTime(lesson)) => Route::EventTime(link::parse_query(lesson, query)),
        _ => Route::Group(parse_fragment(fragment)),
    }
}
