//! A hook for components that paint a canvas: it redraws only when the data or the theme
//! changes, after the canvas is in the page.

use crate::platform::shared::Shared;
use crate::shell::page::use_page;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The node to give the `<canvas>`; `draw` paints `data` on it whenever `data` changes.
#[hook]
pub fn use_canvas_drawing<T: 'static>(data: Shared<T>, draw: fn(HtmlCanvasElement, &T)) -> NodeRef {
    let canvas = use_node_ref();
    let theme = use_page().theme;
    {
        let canvas = canvas.clone();
        use_effect_with((data, theme), move |(data, _)| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                draw(element, data);
            }
        });
    }
    canvas
}
