//! Share links for the event-time lessons: `#/<lesson>?s=<link>` or `#/<lesson>?preset=<name>`,
//! where `<link>` is an [`EventTimeScenario`] in the same versioned format as the core's
//! `streamlab_sim::share` uses for consumer-group scenarios (`1.` + unpadded base64url of the
//! raw-DEFLATEd JSON) and `<name>` one of the core's event-time presets. Decoding never panics:
//! a malformed link gives the lesson's default and a sentence saying why.

use crate::lessons::EventTimeLesson;
use streamlab_sim::eventtime::{preset, EventTimeScenario};
use streamlab_sim::share;

/// What an event-time lesson's URL asked for.
#[derive(Clone)]
pub struct EventTimeLinkState {
    pub lesson: &'static EventTimeLesson,
    pub scenario: EventTimeScenario,
    /// Why (part of) the link was not used, if it was not.
    pub error: Option<String>,
}

impl PartialEq for EventTimeLinkState {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson)
            && self.scenario == other.scenario
            && self.error == other.error
    }
}

/// Packs a scenario into a link.
pub fn encode(scenario: &EventTimeScenario) -> String {
    share::encode_value(scenario)
}

/// Reads a link back into a valid scenario, or says in one sentence why it cannot.
pub fn decode(link: &str) -> Result<EventTimeScenario, String> {
    let scenario: EventTimeScenario = share::decode_value(link).map_err(|e| e.0)?;
    scenario
        .validate()
        .map_err(|e| share::unreadable(&e.to_string()).0)?;
    Ok(scenario)
}

/// Reads the query part of an event-time lesson's fragment (after the `?`, if any).
pub fn parse_query(lesson: &'static EventTimeLesson, query: &str) -> EventTimeLinkState {
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
    };
    let default = (lesson.default_scenario)();
    let (scenario, error) = match (param("s"), param("preset")) {
        (Some(encoded), _) if !encoded.is_empty() => match decode(encoded) {
            Ok(scenario) => (scenario, None),
            Err(e) => (
                default,
                Some(format!("{e} Showing the lesson's default scenario instead.")),
            ),
        },
        (_, Some(name)) if !name.is_empty() => match preset(name) {
            Some(scenario) => (scenario, None),
            None => (
                default,
                Some(format!(
                    "There is no preset called {name:?}. Showing the lesson's default scenario instead."
                )),
            ),
        },
        _ => (default, None),
    };
    EventTimeLinkState {
        lesson,
        scenario,
        error,
    }
}

/// The fragment that reproduces `scenario` in `lesson`.
pub fn fragment_for(lesson: &EventTimeLesson, scenario: &EventTimeScenario) -> String {
    format!("#/{}?s={}", lesson.slug, encode(scenario))
}

/// Puts `scenario` into the address bar without adding a history entry (so no `hashchange`,
/// and the playground is not remounted).
pub fn replace_fragment(lesson: &EventTimeLesson, scenario: &EventTimeScenario) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(history) = window.history() {
        let url = fragment_for(lesson, scenario);
        // Failing to update the address bar loses nothing but the link; keep running.
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The full URL of the page with `scenario` in it, for the "Copy link" button.
pub fn share_url(lesson: &EventTimeLesson, scenario: &EventTimeScenario) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let without_fragment = base.split('#').next().unwrap_or_default();
    format!("{without_fragment}{}", fragment_for(lesson, scenario))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::which_clock;
    use streamlab_sim::eventtime::outage_spike;

    #[test]
    fn a_link_round_trips() {
        let mut scenario = outage_spike();
        scenario.outage.duration_ms = 12_345;
        scenario.delay.tail_probability = 0.37;
        let link = encode(&scenario);
        assert!(link.starts_with("1."));
        assert_eq!(decode(&link).unwrap(), scenario);
    }

    #[test]
    fn garbage_gets_a_message_and_the_default() {
        for bad in ["1.", "1.!!!", "x.abc", "99.abc", "1.AAAA", "no-dot"] {
            let state = parse_query(&which_clock::LESSON, &format!("s={bad}"));
            let error = state.error.expect("a message");
            assert!(
                error.starts_with("This link could not be read"),
                "{bad}: {error}"
            );
            assert_eq!(state.scenario, outage_spike());
        }
    }

    #[test]
    fn out_of_range_values_are_refused_by_name() {
        let mut scenario = outage_spike();
        scenario.partitions = 1000;
        assert!(decode(&encode(&scenario))
            .unwrap_err()
            .contains("partitions"));
    }

    #[test]
    fn a_preset_name_gives_that_preset() {
        let state = parse_query(&which_clock::LESSON, "preset=mobile-stragglers");
        assert!(state.error.is_none());
        assert_eq!(state.scenario, preset("mobile-stragglers").unwrap());
    }
}
