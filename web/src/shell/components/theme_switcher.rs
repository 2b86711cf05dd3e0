//! The theme picker in the site header: system, light, dark or projector, remembered.

use crate::platform::theme::SiteTheme;
use crate::shell::page::use_page;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[function_component(ThemeSwitcher)]
pub fn theme_switcher() -> Html {
    let page = use_page();
    let onchange = {
        let set_theme = page.set_theme.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(theme) = SiteTheme::from_name(&select.value()) {
                set_theme.emit(theme);
            }
        })
    };
    html! {
        <label class="theme-switcher">
            <span class="sr-only">{ "Theme" }</span>
            <select {onchange} aria-label="Colour theme">
                { for SiteTheme::ALL.into_iter().map(|t| html! {
                    <option value={t.name()} selected={t == page.theme}>{ t.label() }</option>
                }) }
            </select>
        </label>
    }
}
