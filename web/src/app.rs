//! The root component: reads the link, and reads it again when the fragment changes (a lesson
//! link clicked, back and forward), then hands over to the playground.

use crate::link::{current_fragment, parse_fragment};
use crate::playground::Playground;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    let fragment = use_state(current_fragment);
    {
        let fragment = fragment.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn FnMut()>::new(move || fragment.set(current_fragment()));
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
    let link = use_memo((*fragment).clone(), |fragment| parse_fragment(fragment));
    // A new fragment from outside means a new run: the key remounts the playground.
    html! { <Playground key={(*fragment).clone()} initial={(*link).clone()} /> }
}
