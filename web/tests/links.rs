//! Lesson links, read the way the app reads them: every family's lessons round-trip their
//! scenario, time and comparison, garbage gets the lesson's default and a sentence, and each
//! lesson opens with the default the core keeps for its links.

use streamlab_sim::eventtime::{outage_spike, preset};
use streamlab_sim::kafka::Scenario;
use streamlab_web::families::eventtime::lessons::which_clock;
use streamlab_web::families::kafka::lessons::{partitions, rebalances};
use streamlab_web::shell::link::{fragment_for, parse_query};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn query(fragment: &str) -> &str {
    fragment.split_once('?').map_or("", |(_, q)| q)
}

#[wasm_bindgen_test]
fn a_group_lesson_link_round_trips_with_its_time() {
    let lesson = &rebalances::LESSON;
    let mut scenario = lesson.default_scenario();
    scenario.groups[0].members = 4;
    let fragment = fragment_for(lesson, &scenario, None, Some(52_000));
    assert!(fragment.starts_with("#/rebalances?s=2."), "{fragment}");
    let state = parse_query(lesson, query(&fragment));
    assert_eq!(state.scenario, scenario);
    assert_eq!(state.at_ms, Some(52_000));
    assert_eq!(state.error, None);
}

#[wasm_bindgen_test]
fn an_event_time_link_round_trips_with_its_time() {
    let mut scenario = outage_spike();
    scenario.outage.duration_ms = 12_345;
    scenario.delay.tail_probability = 0.37;
    let fragment = fragment_for(&which_clock::LESSON, &scenario, None, Some(777));
    assert!(fragment.starts_with("#/which-clock?s=2."), "{fragment}");
    let state = parse_query(&which_clock::LESSON, query(&fragment));
    assert_eq!(state.scenario, scenario);
    assert_eq!(state.at_ms, Some(777));
}

#[wasm_bindgen_test]
fn a_comparison_travels_in_the_link() {
    let lesson = &rebalances::LESSON;
    let scenario = lesson.default_scenario();
    let mut other = scenario.clone();
    other.groups[0].max_poll_records = 50;
    let fragment = fragment_for(lesson, &scenario, Some(&other), Some(9_000));
    assert!(fragment.contains("&vs=2."), "{fragment}");
    let state = parse_query(lesson, query(&fragment));
    assert_eq!(state.scenario, scenario);
    assert_eq!(state.compared, Some(other));
    assert_eq!(state.at_ms, Some(9_000));
    let broken = parse_query(lesson, "vs=2.garbage");
    assert_eq!(broken.compared, None);
    assert!(broken.error.unwrap().contains("comparison"));
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
        let group = parse_query(&partitions::LESSON, &format!("s={bad}&t=5"));
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

/// The page reads a link's decimals with its own parser; every double a knob can hold,
/// awkward ones included, must come back bit for bit, as natively, or a shared run differs.
#[wasm_bindgen_test]
fn a_link_brings_back_every_decimal_and_every_seed_exactly() {
    let lesson = &partitions::LESSON;
    for (key_skew, seed) in [
        (0.30000000000000004, u64::MAX),
        (1.7, 9_007_199_254_740_993),
        (2.0e-7, 0),
        (2.9999999999999996, 42),
        (f64::MIN_POSITIVE, 1),
        (5e-324, 123_456_789_012_345_678),
    ] {
        let mut scenario = lesson.default_scenario();
        scenario.producer.key_skew = key_skew;
        scenario.seed = seed;
        let fragment = fragment_for(lesson, &scenario, None, None);
        let state = parse_query(lesson, query(&fragment));
        let native =
            streamlab_sim::kafka::scenario::decode_link(query(&fragment).trim_start_matches("s="));
        assert_eq!(native.as_ref().ok(), Some(&scenario), "{fragment}");
        assert_eq!(state.error, None, "{fragment}");
        assert_eq!(
            state.scenario.producer.key_skew.to_bits(),
            key_skew.to_bits(),
            "{fragment}"
        );
        assert_eq!(state.scenario, scenario, "{fragment}");
    }
}
