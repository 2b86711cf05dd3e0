//! The joins family's presets prove the issue's points under the figures' names, as
//! `streamlab simulate --preset NAME` prints them; properties over seeds hold for the lanes
//! the lessons run (not only for the bare operators); and runs are the same however they are
//! stepped, sought or linked.

#[path = "support/family_checks.rs"]
mod family_checks;
// Its events are not checked for prose here, and its narration is read without `tells`.
#[allow(dead_code)]
#[path = "support/family_runs.rs"]
mod family_runs;

use family_checks::number;
use family_runs::{same_run_however_stepped, told};
use serde_json::Value;
use streamlab_sim::family::Simulation;
use streamlab_sim::joins::{self, JoinsScenario, JoinsWorld, Mode, SIMPLIFICATIONS};

fn figures(preset: &str) -> Value {
    family_checks::preset_figures(preset, "joins")
}

#[test]
fn a_left_interval_join_emits_unclicked_searches_so_the_ctr_is_honest() {
    let f = figures("search-click-join");
    let unclicked = number(&f, "unclicked");
    let clicked = number(&f, "clicked");
    assert!(unclicked > 0.0, "{f}");
    // Nothing is late or outside the interval in this preset, so the output's rate is the
    // true one (both in thousandths).
    assert_eq!(number(&f, "lost_clicks"), 0.0, "{f}");
    assert_eq!(number(&f, "ctr"), number(&f, "true_ctr"), "{f}");
    assert_eq!(clicked + unclicked, number(&f, "searches"));
    let ctr = number(&f, "ctr");
    assert!(ctr > 0.3 && ctr < 0.7, "{ctr}");
}

#[test]
fn a_late_click_is_lost_and_its_search_reported_unclicked() {
    let f = figures("late-click-lost");
    let lost = number(&f, "lost_clicks");
    assert!(lost > 0.0, "{f}");
    assert!(number(&f, "late_clicks") > 0.0);
    assert!(number(&f, "clicked_searches_reported_unclicked") > 0.0);
    assert!(number(&f, "ctr") < number(&f, "true_ctr"), "{f}");
}

#[test]
fn a_too_short_interval_turns_clicks_into_unclicked_searches() {
    let mut scenario = joins::search_click_join();
    scenario.clicks.upper_ms = 1_000;
    let mut world = JoinsWorld::new(scenario).unwrap();
    world.advance_to(world.end_ms());
    let f = serde_json::to_value(Simulation::figures(&world)).unwrap();
    assert!(number(&f, "clicks_outside_interval") > 0.0, "{f}");
    assert_eq!(number(&f, "late_clicks"), 0.0);
    assert!(number(&f, "clicked_searches_reported_unclicked") > 0.0);
}

#[test]
fn processing_time_enrichment_depends_on_the_interleaving_and_event_time_does_not() {
    let f = figures("enrichment-processing-vs-event-time");
    assert!(
        number(&f, "processing_time.differing_enrichments") > 0.0,
        "{f}"
    );
    assert_eq!(number(&f, "event_time.differing_enrichments"), 0.0, "{f}");
    assert_eq!(number(&f, "event_time.stale"), 0.0);
    assert_eq!(number(&f, "event_time.late"), 0.0);
    // Every order was answered in both runs by both clocks.
    let orders = number(&f, "orders");
    assert_eq!(number(&f, "processing_time.compared"), orders);
    assert_eq!(number(&f, "event_time.compared"), orders);
}

#[test]
fn the_materialized_view_equals_the_batch_join_at_every_sample() {
    let f = figures("materialized-view-join");
    assert_eq!(number(&f, "view_mismatches"), 0.0, "{f}");
    assert_eq!(number(&f, "view_checks"), number(&f, "changes"));
    assert!(number(&f, "retractions") > 0.0);
    // Without retractions, an append-only sink keeps rows the tables no longer justify.
    assert!(number(&f, "append_only_stale_rows") > 0.0, "{f}");
}

#[test]
fn merging_partition_top_k_is_right_keyed_by_post_and_wrong_keyed_by_user() {
    let f = figures("topk-wrong-merge");
    assert_eq!(number(&f, "keyed_by_item.recall_at_k"), 1.0, "{f}");
    assert_eq!(number(&f, "exact.recall_at_k"), 1.0);
    assert!(number(&f, "keyed_by_user.recall_at_k") < 1.0, "{f}");
    assert!(number(&f, "keyed_by_user.missed") > 0.0);
}

#[test]
fn the_sketch_overcounts_within_its_bound_and_takes_less_memory() {
    let f = figures("count-min-sketch");
    assert_eq!(number(&f, "sketch.underestimates"), 0.0, "{f}");
    assert!(number(&f, "sketch.max_overcount") <= number(&f, "sketch.overcount_bound"));
    assert!(number(&f, "sketch.max_overcount") > 0.0, "{f}");
    assert!(
        number(&f, "sketch.state_bytes") < number(&f, "exact.state_bytes"),
        "{f}"
    );
    assert!(number(&f, "sketch.estimates") > 0.0);
}

#[test]
fn every_preset_names_a_lesson_and_every_lesson_default_runs() {
    family_checks::presets_name_lessons_and_lesson_defaults_run::<JoinsWorld>(
        joins::PRESETS,
        joins::LESSONS,
    );
    assert!(SIMPLIFICATIONS.len() >= 8);
}

/// Each mode on a few seeds, shortened: what the issue's properties need, not a whole run.
fn small_runs() -> Vec<JoinsScenario> {
    let mut runs = Vec::new();
    for preset in joins::PRESETS {
        for seed in 1..=4 {
            let mut scenario = (preset.build)();
            scenario.seed = seed;
            scenario.duration_ms = 20_000;
            runs.push(scenario);
        }
    }
    runs
}

#[test]
fn over_seeds_the_lanes_keep_the_issues_properties() {
    for scenario in small_runs() {
        let mut world = JoinsWorld::new(scenario.clone()).unwrap();
        world.advance_to(world.end_ms());
        let f = serde_json::to_value(Simulation::figures(&world)).unwrap();
        let seed = scenario.seed;
        match scenario.mode {
            Mode::StreamStream => {
                // Every search leaves the state by the end: clicked, unclicked or late.
                assert_eq!(
                    number(&f, "clicked") + number(&f, "unclicked") + number(&f, "late_searches"),
                    number(&f, "searches"),
                    "{seed}: {f}"
                );
                assert_eq!(number(&f, "held_searches"), 0.0);
            }
            Mode::StreamTable => {
                assert_eq!(
                    number(&f, "event_time.differing_enrichments"),
                    0.0,
                    "{seed}"
                );
            }
            Mode::TableTable => {
                assert_eq!(number(&f, "view_mismatches"), 0.0, "{seed}");
            }
            Mode::TopK => {
                assert_eq!(number(&f, "sketch.underestimates"), 0.0, "{seed}");
                assert_eq!(number(&f, "keyed_by_item.recall_at_k"), 1.0, "{seed}");
            }
        }
    }
}

#[test]
fn small_steps_and_one_jump_give_the_same_run() {
    for preset in joins::PRESETS {
        let mut scenario = (preset.build)();
        scenario.duration_ms = 15_000;
        let end = JoinsWorld::new(scenario.clone()).unwrap().end_ms();
        same_run_however_stepped::<JoinsWorld>(&scenario, end, 173, preset.slug);
    }
}

#[test]
fn seeking_gives_the_run_from_zero() {
    let scenario = joins::late_click_lost();
    family_runs::seeking_gives_the_run_from_zero::<JoinsWorld>(
        &scenario,
        &[50_000, 16_000, 3_000, 61_000],
    );
}

#[test]
fn another_seed_is_another_run() {
    let with_seed = |seed| JoinsScenario {
        seed,
        ..joins::search_click_join()
    };
    family_runs::another_seed_is_another_run::<JoinsWorld>(with_seed, 20_000);
}

#[test]
fn scenarios_round_trip_through_json_and_refuse_unknown_fields() {
    family_checks::presets_round_trip(
        joins::PRESETS,
        "joins",
        5000,
        r#"{"mode": "top_k", "nope": 1}"#,
    );
}

#[test]
fn a_lesson_link_runs_its_scenario() {
    let base = joins::topk_wrong_merge();
    let mut changed = base.clone();
    changed.topk.partitions = 8;
    family_runs::a_lesson_link_runs::<JoinsWorld>("top-k", &base, &changed, 10_000);
}

#[test]
fn each_preset_tells_what_it_is_about() {
    let late = told("late-click-lost");
    assert!(
        late.iter().any(|t| t.contains("behind the watermark")),
        "{late:?}"
    );
    let enrich = told("enrichment-processing-vs-event-time");
    assert!(
        enrich.iter().any(|t| t.contains("in the first run and")),
        "{enrich:?}"
    );
    let topk = told("topk-wrong-merge");
    assert!(
        topk.iter()
            .any(|t| t.contains("the merge keyed by user misses")),
        "{topk:?}"
    );
}
