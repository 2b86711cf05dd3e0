//! The lessons this page can mount: those of the bundle it runs (`crate::bundles`), installed
//! by [`crate::start`]. Each lesson knows its family, so the router mounts the family's
//! playground without naming any family; the lessons other bundles carry are known here only
//! through `crate::catalog`.

use crate::bundles::{self, Bundle};
use crate::catalog;
use crate::shell::family::LessonFamily;
use crate::shell::family::{Lesson, LessonWords};
use crate::shell::link::{parse_query, preset_home};
use crate::shell::playground::Playground;
use crate::widgets::lesson_thumbnail::Thumbnail;
use std::cell::Cell;
use yew::prelude::*;

/// A lesson, whatever its family.
pub trait AnyLesson: Sync {
    fn words(&'static self) -> &'static LessonWords;
    /// The family's own idea of the lesson's thumbnail (the catalog keeps a copy, checked
    /// against this by a test).
    fn thumbnail(&'static self) -> Thumbnail;
    /// The lesson's page for the query of its address; `generation` remounts it when the
    /// address changes from outside (Back, Forward, a link), and `error` says why the address
    /// led here if it asked for something else.
    fn mount(&'static self, query: &str, error: Option<String>, generation: u32) -> Html;
    /// The lesson where the preset `query` names belongs, when it is another lesson's
    /// ([`crate::shell::link::preset_home`]).
    fn preset_home(&'static self, query: &str) -> Option<&'static str>;
}

impl<F: LessonFamily> AnyLesson for Lesson<F>
where
    Lesson<F>: Sync,
{
    fn words(&'static self) -> &'static LessonWords {
        self.words
    }

    fn thumbnail(&'static self) -> Thumbnail {
        F::thumbnail(self)
    }

    fn mount(&'static self, query: &str, error: Option<String>, generation: u32) -> Html {
        let mut link = parse_query(self, query);
        link.error = error.or(link.error);
        html! { <Playground<F> key={generation} initial={link} /> }
    }

    fn preset_home(&'static self, query: &str) -> Option<&'static str> {
        preset_home(self, query)
    }
}

thread_local! {
    /// The bundle this page runs: set once by [`install`] before the app mounts.
    static MOUNTED: Cell<&'static Bundle> = const { Cell::new(&bundles::UNSET) };
}

/// Makes `bundle`'s lessons the ones this page can mount.
pub fn install(bundle: &'static Bundle) {
    MOUNTED.with(|mounted| mounted.set(bundle));
}

/// The bundle this page runs.
pub fn mounted() -> &'static Bundle {
    MOUNTED.with(Cell::get)
}

/// The lesson whose slug is `slug`, if this page's bundle carries it.
pub fn find(slug: &str) -> Option<&'static dyn AnyLesson> {
    mounted()
        .lessons
        .iter()
        .copied()
        .find(|l| l.words().slug == slug)
}

/// The lesson an unknown address falls back to, if this page's bundle carries it (the
/// loader sends unknown addresses to the bundle that does).
pub fn first() -> Option<&'static dyn AnyLesson> {
    let first_slug = catalog::NAMES.first()?.slug;
    find(first_slug)
}
