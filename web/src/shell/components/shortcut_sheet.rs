//! The `?` sheet: every keyboard shortcut in one list, opened with `?` (or the header's "Keys"
//! button) and closed with Esc, a click outside or its button. While open it holds the focus,
//! so a screen reader reads it. The page shell owns whether it is open, so the header can open
//! it too.

use crate::platform::browser::{help_requested, KeyListener, SHORTCUT_HELP};
use std::rc::Rc;
use yew::prelude::*;

/// Whether the sheet is open; a reducer, because the key listener outlives any one render.
#[derive(Default, PartialEq)]
pub struct SheetOpen(pub bool);

pub enum SheetAction {
    Toggle,
    Close,
}

impl Reducible for SheetOpen {
    type Action = SheetAction;
    fn reduce(self: Rc<Self>, action: SheetAction) -> Rc<Self> {
        Rc::new(SheetOpen(match action {
            SheetAction::Toggle => !self.0,
            SheetAction::Close => false,
        }))
    }
}

#[derive(Properties, PartialEq)]
pub struct ShortcutSheetProps {
    pub open: bool,
    pub dispatch: UseReducerDispatcher<SheetOpen>,
}

#[function_component(ShortcutSheet)]
pub fn shortcut_sheet(props: &ShortcutSheetProps) -> Html {
    let close_button = use_node_ref();
    {
        let dispatch = props.dispatch.clone();
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
        use_effect_with(props.open, move |open| {
            if *open {
                if let Some(button) = close_button.cast::<web_sys::HtmlElement>() {
                    let _ = button.focus();
                }
            }
        });
    }
    if !props.open {
        return html! {};
    }
    let close = {
        let dispatch = props.dispatch.clone();
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
