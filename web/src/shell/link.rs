//! The page URL as a share link for the consumer-group lessons: which lesson, the exact
//! scenario and where its clock stood, in the fragment.
//!
//! The fragment has the form `#/<lesson>?s=<link>&t=<ms>` or `#/<lesson>?preset=<name>`, where
//! `<link>` is the core's versioned encoding (`streamlab_sim::replay::share`; format 2 carries the
//! changes from the lesson's default scenario), `t` the simulated time the sender had paused
//! at, and `<name>` one of the core's presets (short links for course pages). A missing part
//! means the lesson's default (or the start); a malformed one also gives the default, plus a
//! message to show. The core's `share::query::open` does the reading, for every lesson.

use crate::lessons::{self, Lesson};
use streamlab_sim::kafka::{presets, Scenario};
use streamlab_sim::quote::quote;
use streamlab_sim::replay::share::query::{open, query_for, LinkRules};

/// Latest time a link may ask for: the longest run a scenario may describe.
const MAX_AT_MS: u64 = 3_600_000;

/// What a lesson's URL asked for: the lesson (`L`, one of the registry's kinds) and the
/// scenario (`S`) it runs.
pub struct LessonLink<L: 'static, S> {
    pub lesson: &'static L,
    pub scenario: S,
    /// The sender's time position: the run opens paused there.
    pub at_ms: Option<u64>,
    /// Why (part of) the link was not used, if it was not.
    pub error: Option<String>,
}

// By hand: a derive would ask for `L: Clone`, and lessons are static entries, never cloned.
impl<L, S: Clone> Clone for LessonLink<L, S> {
    fn clone(&self) -> Self {
        Self {
            lesson: self.lesson,
            scenario: self.scenario.clone(),
            at_ms: self.at_ms,
            error: self.error.clone(),
        }
    }
}

/// What a consumer-group lesson's URL asked for.
pub type LinkState = LessonLink<Lesson, Scenario>;

impl<L, S: PartialEq> PartialEq for LessonLink<L, S> {
    /// Lessons are compared by identity: each is one static entry of the registry.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson)
            && self.scenario == other.scenario
            && self.at_ms == other.at_ms
            && self.error == other.error
    }
}

/// Reads a fragment (with or without the leading `#`).
pub fn parse_fragment(fragment: &str) -> LinkState {
    let fragment = fragment.trim_start_matches('#').trim_start_matches('/');
    let (path, query) = fragment.split_once('?').unwrap_or((fragment, ""));
    let (lesson, lesson_error) = match path {
        "" => (lessons::first(), None),
        slug => match lessons::find(slug) {
            Some(lesson) => (lesson, None),
            None => (
                lessons::first(),
                Some(format!(
                    "There is no lesson called {}; here is the first one.",
                    quote(slug)
                )),
            ),
        },
    };
    let preset = |name: &str| presets::find(name).map(|p| (p.build)());
    let validate = |s: &Scenario| s.validate().map_err(|e| e.message);
    let opened = open(
        query,
        LinkRules {
            default: (lesson.default_scenario)(),
            preset: &preset,
            validate: &validate,
            max_at_ms: MAX_AT_MS,
        },
    );
    LinkState {
        lesson,
        scenario: opened.scenario,
        at_ms: opened.at_ms,
        error: lesson_error.or(opened.error),
    }
}

/// The fragment that reproduces `scenario` in `lesson`, paused at `at_ms` if given.
pub fn fragment_for(lesson: &Lesson, scenario: &Scenario, at_ms: Option<u64>) -> String {
    let query = query_for(&(lesson.default_scenario)(), scenario, at_ms);
    format!("#/{}?{query}", lesson.slug)
}
