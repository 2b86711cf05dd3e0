//! The Streamlab playground UI (placeholder while the core lands).

use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    html! { <main><h1>{ "Streamlab" }</h1></main> }
}

/// Mounts the app on the page's body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
