//! Lesson links, read the way the app reads them: both kinds of lesson round-trip their
//! scenario and time, garbage gets the lesson's default and a sentence, and every released
//! lesson still has the default its format 2 links were written against.

use streamlab_sim::eventtime::{outage_spike, preset};
use streamlab_sim::kafka::{presets, Scenario};
use streamlab_web::families::eventtime::link::{self, parse_query};
use streamlab_web::lessons::{self, which_clock};
use streamlab_web::shell::link::{fragment_for, parse_fragment};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn a_group_lesson_link_round_trips_with_its_time() {
    let lesson = lessons::find("rebalances").unwrap();
    let mut scenario = (lesson.default_scenario)();
    scenario.groups[0].members = 4;
    let fragment = fragment_for(lesson, &scenario, Some(52_000));
    assert!(fragment.starts_with("#/rebalances?s=2."), "{fragment}");
    let state = parse_fragment(&fragment);
    assert_eq!(state.scenario, scenario);
    assert_eq!(state.at_ms, Some(52_000));
    assert_eq!(state.error, None);
}

#[wasm_bindgen_test]
fn an_event_time_link_round_trips_with_its_time() {
    let mut scenario = outage_spike();
    scenario.outage.duration_ms = 12_345;
    scenario.delay.tail_probability = 0.37;
    let fragment = link::fragment_for(&which_clock::LESSON, &scenario, Some(777));
    assert!(fragment.starts_with("#/which-clock?s=2."), "{fragment}");
    let state = parse_query(&which_clock::LESSON, fragment.split_once('?').unwrap().1);
    assert_eq!(state.scenario, scenario);
    assert_eq!(state.at_ms, Some(777));
}

#[wasm_bindgen_test]
fn garbage_gets_a_message_and_the_default() {
    for bad in [
        "1.", "1.!!!", "x.abc", "99.abc", "1.AAAA", "no-dot", "2.AAAA",
    ] {
        let state = parse_query(&which_clock::LESSON, &format!("s={bad}"));
        let error = state.error.expect("a message");
        assert!(
            error.starts_with("This link could not be read"),
            "{bad}: {error}"
        );
        assert_eq!(state.scenario, outage_spike());
        let group = parse_fragment(&format!("#/partitions?s={bad}&t=5"));
        assert!(group.error.is_some(), "{bad}");
        assert_eq!(group.scenario, Scenario::default());
    }
}

#[wasm_bindgen_test]
fn a_preset_name_gives_that_preset() {
    let state = parse_query(&which_clock::LESSON, "preset=mobile-stragglers");
    assert!(state.error.is_none());
    assert_eq!(state.scenario, preset("mobile-stragglers").unwrap());
}

/// Format 2 links carry changes to the lesson's default, so a released lesson's default is
/// part of the link format: `crates/sim/tests/fixtures/links-v2.txt` names these bases. A
/// changed default needs a new link format version, not an edit here.
#[wasm_bindgen_test]
fn released_lessons_keep_the_defaults_their_links_were_written_against() {
    let group = [
        ("partitions", Scenario::default()),
        (
            "rebalances",
            (presets::find("one-restart-stops-everyone").unwrap().build)(),
        ),
        (
            "delivery",
            (presets::find("commit-before-loss").unwrap().build)(),
        ),
    ];
    for (slug, base) in group {
        let lesson = lessons::find(slug).expect(slug);
        assert!((lesson.default_scenario)() == base, "{slug}");
    }
    let event_time = [
        ("which-clock", "outage-spike"),
        ("watermarks", "drop-vs-restate-vs-side"),
        ("windows", "four-windows"),
    ];
    for (slug, name) in event_time {
        let lesson = lessons::EVENT_TIME_LESSONS
            .iter()
            .find(|l| l.slug == slug)
            .expect(slug);
        assert!(
            (lesson.default_scenario)() == preset(name).unwrap(),
            "{slug}"
        );
    }
}
