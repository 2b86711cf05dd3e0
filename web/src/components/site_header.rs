//! The site header: the brand and every lesson, the current one marked.

use crate::lessons::{EVENT_TIME_LESSONS, LESSONS};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SiteHeaderProps {
    /// Slug of the lesson on screen.
    pub current: AttrValue,
}

#[function_component(SiteHeader)]
pub fn site_header(props: &SiteHeaderProps) -> Html {
    let entries = LESSONS
        .iter()
        .map(|l| (l.slug, l.title))
        .chain(EVENT_TIME_LESSONS.iter().map(|l| (l.slug, l.title)));
    html! {
        <header class="site-header">
            <span class="brand">{ "Streamlab" }</span>
            <nav aria-label="Lessons">
                { for entries.map(|(slug, title)| {
                    let here = props.current == slug;
                    html! {
                        <a href={format!("#/{slug}")} class={classes!(here.then_some("current"))}
                            aria-current={here.then_some("page")}>{ title }</a>
                    }
                }) }
            </nav>
        </header>
    }
}
