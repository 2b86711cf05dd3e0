//! The root component: reads the link, and reads it again when the fragment changes (a lesson
//! link clicked, back and forward), then hands over to the page it names: the gallery for a
//! bare address, or the playground the lesson needs (the consumer-group one or the event-time
//! one), inside the page shell (embed mode, theme, shortcut sheet).
//!
//! The playgrounds write their own changes into the address bar with the History API, which
//! fires no `hashchange`, so what they write never remounts them. Every `hashchange` (Back,
//! Forward, a link) remounts, even when it leads back to the fragment the page opened with.

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
    {
        let fragment = fragment.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn FnMut()>::new(move || {
                *navigations.borrow_mut() += 1;
                fragment.set((current_fragment(), *navigations.borrow()));
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

fn route(fragment: &str) -> Route {
    let path = fragment.trim_start_matches('#').trim_start_matches('/');
    let (slug, query) = path.split_once('?').unwrap_or((path, ""));
    if slug.is_empty() {
        return Route::Gallery;
    }
    match kind_of(slug) {
        Some(LessonKind::EventTime(lesson)) => Route::EventTime(link::parse_query(lesson, query)),
        _ => Route::Group(parse_fragment(fragment)),
    }
}
