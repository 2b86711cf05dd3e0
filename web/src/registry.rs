//! Every lesson of every family, in the order the site lists them: the one place a new
//! lesson is added. The gallery, the header and the router read it; each entry knows its
//! family, so the router mounts the family's playground without naming any family.

use crate::families::{
    databases, eventtime, exactly_once, joins, kafka, practice, queues, replication,
};
use crate::shell::family::LessonFamily;
use crate::shell::family::{Lesson, LessonWords};
use crate::shell::link::parse_query;
use crate::shell::playground::Playground;
use crate::widgets::lesson_thumbnail::Thumbnail;
use yew::prelude::*;

/// A lesson, whatever its family.
pub trait AnyLesson: Sync {
    fn words(&'static self) -> &'static LessonWords;
    fn thumbnail(&'static self) -> Thumbnail;
    /// The lesson's page for the query of its address; `generation` remounts it when the
    /// address changes from outside (Back, Forward, a link), and `error` says why the address
    /// led here if it asked for something else.
    fn mount(&'static self, query: &str, error: Option<String>, generation: u32) -> Html;
}

impl<F: LessonFamily> AnyLesson for Lesson<F>
where
    Lesson<F>: Sync,
{
    fn words(&'static self) -> &'static LessonWords {
        &self.words
    }

    fn thumbnail(&'static self) -> Thumbnail {
        F::thumbnail(self)
    }

    fn mount(&'static self, query: &str, error: Option<String>, generation: u32) -> Html {
        let mut link = parse_query(self, query);
        link.error = error.or(link.error);
        html! { <Playground<F> key={generation} initial={link} /> }
    }
}

/// Every lesson, in the order the site lists them.
pub static LESSONS: &[&dyn AnyLesson] = &[
    &kafka::lessons::partitions::LESSON,
    &kafka::lessons::rebalances::LESSON,
    &kafka::lessons::delivery::LESSON,
    &queues::lessons::queues::LESSON,
    &queues::lessons::backpressure::LESSON,
    &replication::lessons::replication::LESSON,
    &databases::lessons::dual_writes::LESSON,
    &databases::lessons::bootstrapping::LESSON,
    &exactly_once::lessons::checkpoints::LESSON,
    &exactly_once::lessons::effects::LESSON,
    &eventtime::lessons::which_clock::LESSON,
    &eventtime::lessons::watermarks::LESSON,
    &eventtime::lessons::windows::LESSON,
    &joins::lessons::stream_joins::LESSON,
    &joins::lessons::top_k::LESSON,
    &practice::lessons::inkwell::LESSON,
];

/// The lesson whose slug is `slug`.
pub fn find(slug: &str) -> Option<&'static dyn AnyLesson> {
    LESSONS.iter().copied().find(|l| l.words().slug == slug)
}

/// The lesson an unknown address falls back to.
pub fn first() -> &'static dyn AnyLesson {
    LESSONS[0]
}

/// Every lesson's slug and title, for the header.
pub fn entries() -> Vec<(&'static str, &'static str)> {
    LESSONS
        .iter()
        .map(|l| (l.words().slug, l.words().title))
        .collect()
}
