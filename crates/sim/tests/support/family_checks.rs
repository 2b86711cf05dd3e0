//! Checks every lesson family's tests make the same way, written once: a preset's figures as
//! the headless runner prints them, each preset belonging to a lesson, and each preset's
//! scenario surviving JSON and running headless in its own family. (A preset's narration is
//! `family_runs::told`.)

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Debug;
use streamlab_sim::family::lesson::LessonDefault;
use streamlab_sim::family::preset::Preset;
use streamlab_sim::family::Headless;
use streamlab_sim::headless::{self, RunOptions};

/// A preset's figures as `streamlab simulate --preset` prints them, from a run in `family`.
pub fn preset_figures(preset: &str, family: &str) -> Value {
    let report = headless::run_preset(preset, RunOptions::default()).unwrap();
    assert_eq!(report["family"], family);
    report["figures"].clone()
}

/// The figure at a dotted path (`share_group.redelivered`), which must exist.
// A family reads its figures either as numbers or as counts, so one of the two goes unused.
#[allow(dead_code)]
pub fn number(figures: &Value, path: &str) -> f64 {
    figure(figures, path)
        .as_f64()
        .unwrap_or_else(|| panic!("no figure {path} in {figures}"))
}

/// The whole, non-negative figure at a dotted path (`crashes`), which must exist: a count
/// compared with the count a scenario's rates and instants give.
#[allow(dead_code)]
pub fn count(figures: &Value, path: &str) -> u64 {
    figure(figures, path)
        .as_u64()
        .unwrap_or_else(|| panic!("no count {path} in {figures}"))
}

fn figure<'a>(figures: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(figures, |value, name| &value[name])
}

/// Each preset's scenario reads back from its JSON unchanged and runs `duration_ms` headless
/// in `family`; `unknown`, a scenario with a field nobody knows, is refused.
pub fn presets_round_trip<S>(presets: &[Preset<S>], family: &str, duration_ms: u64, unknown: &str)
where
    S: Serialize + DeserializeOwned + PartialEq + Debug,
{
    for preset in presets {
        let scenario = (preset.build)();
        let json = serde_json::to_string(&scenario).unwrap();
        assert_eq!(serde_json::from_str::<S>(&json).unwrap(), scenario);
        let options = RunOptions {
            duration_ms: Some(duration_ms),
            at_ms: None,
        };
        let report = headless::run_json(&json, options).unwrap();
        assert_eq!(report["family"], family, "{}", preset.slug);
    }
    assert!(serde_json::from_str::<S>(unknown).is_err(), "{unknown}");
}

/// Every preset names one of `lessons` and passes the family's checks, and every lesson's
/// default builds a run: a preset a lesson cannot offer, or a default that cannot start, is
/// caught here rather than in the browser.
pub fn presets_name_lessons_and_lesson_defaults_run<W: Headless>(
    presets: &[Preset<W::Scenario>],
    lessons: &[LessonDefault<W::Scenario>],
) {
    for preset in presets {
        assert!(
            lessons.iter().any(|lesson| lesson.slug == preset.lesson),
            "{} names no lesson",
            preset.slug
        );
        assert_eq!(W::validate(&(preset.build)()), Ok(()), "{}", preset.slug);
    }
    for lesson in lessons {
        assert!(W::new(&(lesson.default)()).is_ok(), "{}", lesson.slug);
    }
}
