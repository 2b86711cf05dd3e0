//! The site header: the brand (a link back to the gallery), every lesson (as the page context
//! lists them) with the current one marked, the shortcut list's button and the theme switcher. Embedded in a course page it shrinks to one line: the
//! lesson's title and a link that opens the full lesson in a new tab.

use crate::shell::components::theme_switcher::ThemeSwitcher;
use crate::shell::embed::without_embed_params;
use crate::shell::page::use_page;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SiteHeaderProps {
    /// Slug of the lesson on screen; empty on the gallery.
    pub current: AttrValue,
}

#[function_component(SiteHeader)]
pub fn site_header(props: &SiteHeaderProps) -> Html {
    let page = use_page();
    let entries = page.lessons.clone();
    let keys = {
        let toggle = page.toggle_keys.clone();
        html! {
            <button type="button" class="keys-button" aria-keyshortcuts="?" title="Keyboard shortcuts (?)"
                onclick={Callback::from(move |_: MouseEvent| toggle.emit(()))}>{ "Keys" }</button>
        }
    };
    if page.embed.embedded {
        let title = entries
            .iter()
            .find(|(slug, _)| props.current == *slug)
            .map_or("", |(_, title)| title);
        let full = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .map(|href| without_embed_params(&href))
            .unwrap_or_default();
        return html! {
            <header class="embed-header">
                <span class="brand">{ "Streamlab" }</span>
                <span class="lesson-title">{ title }</span>
                { keys }
                <a href={full} target="_blank" rel="noopener">{ "Open the full lesson ↗" }</a>
            </header>
        };
    }
    let home = props.current.is_empty();
    html! {
        <header class="site-header">
            <a class="brand" href="#/" aria-current={home.then_some("page")}
                title="All lessons">{ "Streamlab" }</a>
            <nav aria-label="Lessons">
                <a href="#/" class={classes!(home.then_some("current"))}>{ "All lessons" }</a>
                { for entries.iter().map(|(slug, title)| {
                    let here = props.current == *slug;
                    html! {
                        <a href={format!("#/{slug}")} class={classes!(here.then_some("current"))}
                            aria-current={here.then_some("page")}>{ *title }</a>
                    }
                }) }
            </nav>
            <div class="header-tools">
                { keys }
                <ThemeSwitcher />
            </div>
        </header>
    }
}
