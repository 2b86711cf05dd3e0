//! The root component: reads the share link once, then hands over to the playground.

use crate::link::{current_fragment, parse_fragment};
use crate::playground::Playground;
use streamlab_sim::Scenario;
use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    let initial = use_memo((), |_| {
        parse_fragment(&current_fragment(), &Scenario::default())
    });
    html! { <Playground initial={(*initial).clone()} /> }
}
