//! Share links for the event-time lessons: `#/<lesson>?s=<link>` or `#/<lesson>?preset=<name>`,
//! where `<link>` is an [`EventTimeScenario`] in the same versioned format as the core's
//! `streamlab_sim::share` uses for consumer-group scenarios (`1.` + unpadded base64url of the
//! raw-DEFLATEd JSON) and `<name>` one of the core's event-time presets. Decoding never panics:
//! a malformed link gives the lesson's default and a sentence saying why.

use crate::lessons::EventTimeLesson;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use streamlab_sim::eventtime::{preset, EventTimeScenario};

/// The link format this build writes; the same numbering as the core's share links.
pub const LINK_FORMAT_VERSION: u32 = 1;

/// Guards against links crafted to exhaust memory, as in the core's share links.
const MAX_LINK_CHARS: usize = 16 * 1024;
const MAX_INFLATED_BYTES: usize = 64 * 1024;

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
    let json = serde_json::to_vec(scenario).expect("a scenario always serializes");
    let compressed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!(
        "{LINK_FORMAT_VERSION}.{}",
        URL_SAFE_NO_PAD.encode(compressed)
    )
}

/// Reads a link back into a valid scenario, or says in one sentence why it cannot.
pub fn decode(link: &str) -> Result<EventTimeScenario, String> {
    let fail = |why: &str| Err(format!("This link could not be read: {why}."));
    if link.len() > MAX_LINK_CHARS {
        return fail("it is too long");
    }
    let Some((version, payload)) = link.split_once('.') else {
        return fail("it has no version prefix");
    };
    match version.parse::<u32>() {
        Ok(LINK_FORMAT_VERSION) => {}
        Ok(v) if v > LINK_FORMAT_VERSION => {
            return fail(&format!("it was made by a newer Streamlab (format {v})"))
        }
        _ => {
            return fail(&format!(
                "{version:?} is not a link format this Streamlab knows"
            ))
        }
    }
    let Ok(compressed) = URL_SAFE_NO_PAD.decode(payload) else {
        return fail("it is not valid base64url");
    };
    let Ok(json) =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, MAX_INFLATED_BYTES)
    else {
        return fail("its compressed data is damaged");
    };
    let scenario: EventTimeScenario = match serde_json::from_slice(&json) {
        Ok(s) => s,
        Err(e) => return fail(&format!("its scenario is malformed ({e})")),
    };
    match scenario.validate() {
        Ok(()) => Ok(scenario),
        Err(e) => fail(&e.to_string()),
    }
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
