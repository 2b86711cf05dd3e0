//! The shell around every page: what the whole site shares, whichever page is on screen.
//!
//! It provides [`PageContext`] (how the page was asked to show itself, and the theme) to the
//! components below, marks the document element for embed mode so the style sheet can drop
//! the chrome, reports the page's height to a host frame, applies the theme, and mounts the
//! `?` shortcut sheet.

use crate::platform::theme::{self, SiteTheme};
use crate::shell::components::shortcut_sheet::{SheetAction, SheetOpen, ShortcutSheet};
use crate::shell::embed::{child_id_from_search, install_height_reporter, EmbedOptions};
use std::rc::Rc;
use yew::prelude::*;

/// A lesson as the header lists it: its slug and title.
pub type LessonEntry = (&'static str, &'static str);

/// What any component may ask about the page.
#[derive(Clone, PartialEq)]
pub struct PageContext {
    pub embed: Rc<EmbedOptions>,
    /// Every lesson of the site, in order (the app reads them from the registry).
    pub lessons: Rc<Vec<LessonEntry>>,
    pub theme: SiteTheme,
    /// Switches the theme and remembers the choice.
    pub set_theme: Callback<SiteTheme>,
    /// Opens (or closes) the shortcut sheet.
    pub toggle_keys: Callback<()>,
}

impl PageContext {
    /// What a component sees outside a shell (in unit tests): the full site, system theme.
    pub fn standalone() -> Self {
        Self {
            embed: Rc::new(EmbedOptions::from_query("")),
            lessons: Rc::new(Vec::new()),
            theme: SiteTheme::System,
            set_theme: Callback::noop(),
            toggle_keys: Callback::noop(),
        }
    }
}

/// The page context, or the standalone one outside a shell.
#[hook]
pub fn use_page() -> PageContext {
    use_context::<PageContext>().unwrap_or_else(PageContext::standalone)
}

#[derive(Properties, PartialEq)]
pub struct PageShellProps {
    pub embed: EmbedOptions,
    pub lessons: Rc<Vec<LessonEntry>>,
    pub children: Html,
}

#[function_component(PageShell)]
pub fn page_shell(props: &PageShellProps) -> Html {
    // A host's `theme=` wins over the remembered choice, without replacing it.
    let requested = props.embed.theme.as_deref().and_then(SiteTheme::from_name);
    // Applied while the state is made, before any child draws a chart in the old colours.
    let theme = use_state(|| {
        let initial = requested.unwrap_or_else(theme::saved);
        theme::apply(initial, false);
        initial
    });
    let set_theme = {
        let theme = theme.clone();
        Callback::from(move |next: SiteTheme| {
            theme::apply(next, true);
            theme.set(next);
        })
    };
    {
        let current = *theme;
        use_effect_with(current, move |t| theme::apply(*t, false));
    }
    use_effect_with(props.embed.clone(), |embed| {
        mark_document(embed);
        if embed.embedded {
            let search = web_sys::window()
                .and_then(|w| w.location().search().ok())
                .unwrap_or_default();
            let id = embed
                .child_id
                .clone()
                .or_else(|| child_id_from_search(&search))
                .unwrap_or_else(|| "streamlab".into());
            install_height_reporter(id);
        }
    });
    let sheet = use_reducer(SheetOpen::default);
    let toggle_keys = {
        let dispatch = sheet.dispatcher();
        Callback::from(move |()| dispatch.dispatch(SheetAction::Toggle))
    };
    let context = PageContext {
        embed: Rc::new(props.embed.clone()),
        lessons: props.lessons.clone(),
        theme: *theme,
        set_theme,
        toggle_keys,
    };
    html! {
        <ContextProvider<PageContext> {context}>
            { props.children.clone() }
            <ShortcutSheet open={sheet.0} dispatch={sheet.dispatcher()} />
        </ContextProvider<PageContext>>
    }
}

/// Puts embed mode's classes on the document element (and only those of the current options).
fn mark_document(embed: &EmbedOptions) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let list = root.class_list();
    for class in ["embed", "hide-knobs", "locked"] {
        let _ = list.remove_1(class);
    }
    for class in embed.classes() {
        let _ = list.add_1(class);
    }
}

/// The page context for a struct component (the playgrounds), or the standalone one.
pub fn page_of<C: Component>(ctx: &Context<C>) -> PageContext {
    ctx.link()
        .context::<PageContext>(Callback::noop())
        .map_or_else(PageContext::standalone, |(page, _)| page)
}
