//! The `?` sheet: every keyboard shortcut in one list, opened with `?` and closed with Esc, a
//! click outside or its button. While open it holds the focus, so a screen reader reads it.

use crate::browser::{help_requested, KeyListener, SHORTCUT_HELP};
use std::rc::Rc;
use yew::prelude::*;

/// Whether the sheet is open; a reducer, because the key listener outlives any one render.
#[derive(Default, PartialEq)]
struct Open(bool);

enum SheetAction {
    Toggle,
    Close,
}

impl Reducible for Open {
    type Action = SheetAction;
    fn reduce(self: Rc<Self>, action: SheetAction) -> Rc<Self> {
        Rc::new(Open(match action {
            SheetAction::Toggle => !self.0,
            SheetAction::Close => false,
        }))
    }
}

#[function_component(ShortcutSheet)]
pub fn shortcut_sheet() -> Html {
    let open = use_reducer(Open::default);
    let close_button = use_node_ref();
    {
        let dispatch = open.dispatcher();
        use_effect_with((), move |_| {
            let listener = KeyListener::new(move |event| {
                if help_requested(&event) {
                    event.prevent_default();
                    dispatch.dispatch(SheetAction::Toggle);
                } else if event.key() == "Escape" {
                    dispatch.dispatch(SheetAction::Close);
                }
            });
            move || drop(listener)
        });
    }
    {
        let close_button = close_button.clone();
        use_effect_with(open.0, move |open| {
            if *open {
                if let Some(button) = close_button.cast::<web_sys::HtmlElement>() {
                    let _ = button.focus();
                }
            }
        });
    }
    if !open.0 {
        return html! {};
    }
    let close = {
        let dispatch = open.dispatcher();
        Callback::from(move |_: MouseEvent| dispatch.dispatch(SheetAction::Close))
    };
    // A click on the backdrop closes; a click inside the sheet does not.
    let keep = Callback::from(|e: MouseEvent| e.stop_propagation());
    html! {
        <div class="sheet-backdrop" onclick={close.clone()}>
            <div class="shortcut-sheet" role="dialog" aria-modal="true" aria-labelledby="shortcut-title" onclick={keep}>
                <h2 id="shortcut-title">{ "Keyboard shortcuts" }</h2>
                <dl>
                    { for SHORTCUT_HELP.iter().map(|(key, what)| html! {
                        <><dt><kbd>{ *key }</kbd></dt><dd>{ *what }</dd></>
                    }) }
                </dl>
                <p class="sheet-note">{ "In an embedded lesson, click the lesson first so the keys reach it." }</p>
                <button type="button" ref={close_button} onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}
