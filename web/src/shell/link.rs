//! The page URL as a share link, for every lesson of every family: which lesson, the exact
//! scenario, where its clock stood, and the comparison, in the fragment.
//!
//! The fragment has the form `#/<lesson>?s=<link>&t=<ms>` or `#/<lesson>?preset=<name>`, plus
//! `&vs=<link>` when a comparison is open, where `<link>` is the core's versioned encoding
//! (`streamlab_sim::replay::share`; format 2 carries the changes from the lesson's default
//! scenario, which the core keeps by slug), `t` the simulated time the sender had paused at,
//! `vs` the other side of the comparison, and `<name>` one of the core's presets. A missing
//! part means the lesson's default (or the start); a malformed one also gives the default,
//! plus a message to show. The core's `share::query::open` does the reading.

use super::family::{Lesson, LessonFamily, Scenario};
use crate::platform::typed_number::parse_decimal;
use std::cell::RefCell;
use streamlab_sim::family::preset;
use streamlab_sim::family::Headless;
use streamlab_sim::replay::share::decode_against;
use streamlab_sim::replay::share::query::{open, param, query_for, LinkRules};

/// What a lesson's URL asked for.
pub struct LessonLink<F: LessonFamily> {
    pub lesson: &'static Lesson<F>,
    pub scenario: Scenario<F>,
    /// The other side of a comparison, if the link carries one.
    pub compared: Option<Scenario<F>>,
    /// The sender's time position: the run opens paused there.
    pub at_ms: Option<u64>,
    /// Why (part of) the link was not used, if it was not.
    pub error: Option<String>,
}

// By hand: derives would ask the family type itself for `Clone` and `PartialEq`.
impl<F: LessonFamily> Clone for LessonLink<F> {
    fn clone(&self) -> Self {
        Self {
            lesson: self.lesson,
            scenario: self.scenario.clone(),
            compared: self.compared.clone(),
            at_ms: self.at_ms,
            error: self.error.clone(),
        }
    }
}

impl<F: LessonFamily> PartialEq for LessonLink<F> {
    /// Lessons are compared by identity: each is one static entry of the registry.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson)
            && self.scenario == other.scenario
            && self.compared == other.compared
            && self.at_ms == other.at_ms
            && self.error == other.error
    }
}

/// The lesson a link's `preset=` belongs to, when `lesson` does not offer it: each
/// consumer-group bundle carries only its own lesson's presets, so a link to another lesson's
/// preset (`#/partitions?preset=rebalance-storm`) is sent on to the lesson that has it. `None`
/// when the link names no preset, names one of this lesson's, or one no lesson has (which
/// the lesson reports as it opens), or carries its own scenario (`s=`, which wins).
pub fn preset_home<F: LessonFamily>(lesson: &Lesson<F>, query: &str) -> Option<&'static str> {
    if param(query, "s").is_some() {
        return None;
    }
    let name = param(query, "preset")?;
    if preset::find(lesson.presets, name).is_some() {
        return None;
    }
    F::Sim::preset_home(name).filter(|&home| home != lesson.words.slug)
}

/// Reads the query part of `lesson`'s fragment (after the `?`, if any). Never panics.
pub fn parse_query<F: LessonFamily>(lesson: &'static Lesson<F>, query: &str) -> LessonLink<F> {
    let preset = |name: &str| preset::find(lesson.presets, name).map(|p| (p.build)());
    let validate = |s: &Scenario<F>| F::Sim::validate(s).map_err(|e| e.message);
    let default = lesson.default_scenario();
    let opened = open(
        query,
        LinkRules {
            default: default.clone(),
            preset: &preset,
            validate: &validate,
            max_at_ms: F::Sim::MAX_AT_MS,
            read_decimal: parse_decimal,
        },
    );
    let compared = param(query, "vs").map(|link| {
        decode_against(&default, link, parse_decimal)
            .map_err(|e| e.0)
            .and_then(|s| validate(&s).map(|()| s))
    });
    let (compared, compare_error) = match compared {
        None => (None, None),
        Some(Ok(scenario)) => (Some(scenario), None),
        Some(Err(why)) => (None, Some(format!("{why} The comparison is left closed."))),
    };
    LessonLink {
        lesson,
        scenario: opened.scenario,
        compared,
        at_ms: opened.at_ms,
        error: opened.error.or(compare_error),
    }
}

/// What a link was made from: the scenario, the comparison's, and the paused time.
type LinkInputs<S> = (S, Option<S>, Option<u64>);

/// The last fragment made and what it was made from. The page asks for its link on every
/// frame (a course page's state carries it) while it changes only with the scenarios or
/// the paused time, and making one deflates the scenario.
pub struct LinkMemo<F: LessonFamily> {
    kept: RefCell<Option<(LinkInputs<Scenario<F>>, String)>>,
}

impl<F: LessonFamily> Default for LinkMemo<F> {
    fn default() -> Self {
        Self {
            kept: RefCell::new(None),
        }
    }
}

impl<F: LessonFamily> LinkMemo<F> {
    /// [`fragment_for`] these arguments, made again only when they differ from the last.
    pub fn fragment(
        &self,
        lesson: &Lesson<F>,
        scenario: &Scenario<F>,
        compared: Option<&Scenario<F>>,
        at_ms: Option<u64>,
    ) -> String {
        let same = |(s, c, t): &LinkInputs<Scenario<F>>| {
            s == scenario && c.as_ref() == compared && *t == at_ms
        };
        if let Some((inputs, fragment)) = &*self.kept.borrow() {
            if same(inputs) {
                return fragment.clone();
            }
        }
        let fragment = fragment_for(lesson, scenario, compared, at_ms);
        let inputs = (scenario.clone(), compared.cloned(), at_ms);
        *self.kept.borrow_mut() = Some((inputs, fragment.clone()));
        fragment
    }
}

/// The fragment that reproduces `scenario` in `lesson` (and the comparison with `compared`),
/// paused at `at_ms` if given.
pub fn fragment_for<F: LessonFamily>(
    lesson: &Lesson<F>,
    scenario: &Scenario<F>,
    compared: Option<&Scenario<F>>,
    at_ms: Option<u64>,
) -> String {
    let default = lesson.default_scenario();
    let mut query = query_for(&default, scenario, at_ms);
    if let Some(other) = compared {
        let other = query_for(&default, other, None);
        query.push_str("&vs=");
        query.push_str(other.trim_start_matches("s="));
    }
    format!("#/{}?{query}", lesson.words.slug)
}
