//! Share links for the event-time lessons: `#/<lesson>?s=<link>&t=<ms>` or
//! `#/<lesson>?preset=<name>`, where `<link>` is an [`EventTimeScenario`] in the core's
//! versioned link format (`streamlab_sim::replay::share`, format 2: the changes from the lesson's
//! default), `t` the processing time the sender had paused at, and `<name>` one of the core's
//! event-time presets. Decoding never panics: a malformed link gives the lesson's default and
//! a sentence saying why.

use crate::lessons::EventTimeLesson;
use crate::shell::link::LessonLink;
use streamlab_sim::eventtime::{preset, EventTimeScenario, MAX_DURATION_MS};
use streamlab_sim::replay::share::query::{open, query_for, LinkRules};

/// What an event-time lesson's URL asked for.
pub type EventTimeLinkState = LessonLink<EventTimeLesson, EventTimeScenario>;

/// Reads the query part of an event-time lesson's fragment (after the `?`, if any).
pub fn parse_query(lesson: &'static EventTimeLesson, query: &str) -> EventTimeLinkState {
    let validate = |s: &EventTimeScenario| s.validate().map_err(|e| e.to_string());
    let opened = open(
        query,
        LinkRules {
            default: (lesson.default_scenario)(),
            preset: &preset,
            validate: &validate,
            max_at_ms: MAX_DURATION_MS as u64,
        },
    );
    EventTimeLinkState {
        lesson,
        scenario: opened.scenario,
        at_ms: opened.at_ms,
        error: opened.error,
    }
}

/// The fragment that reproduces `scenario` in `lesson`, paused at `at_ms` if given.
pub fn fragment_for(
    lesson: &EventTimeLesson,
    scenario: &EventTimeScenario,
    at_ms: Option<u64>,
) -> String {
    let query = query_for(&(lesson.default_scenario)(), scenario, at_ms);
    format!("#/{}?{query}", lesson.slug)
}
