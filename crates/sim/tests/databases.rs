//! The databases family's presets prove their points by the figures' names, as
//! `streamlab simulate --preset NAME` prints them (issue 12's list); and its runs are the same
//! however they are stepped, sought or linked.

#[path = "support/family_checks.rs"]
mod family_checks;
#[path = "support/family_runs.rs"]
mod family_runs;

use family_checks::number;
use family_runs::{events_carry_tags_never_prose, same_run_however_stepped, tells, told};
use serde_json::Value;
use streamlab_sim::databases::{self, DatabasesScenario, DatabasesWorld};
use streamlab_sim::family::Simulation;
use streamlab_sim::headless::{self, RunOptions};

fn figures(preset: &str) -> Value {
    family_checks::preset_figures(preset, "databases")
}

fn figures_at(preset: &str, at_ms: u64) -> Value {
    let options = RunOptions {
        duration_ms: None,
        at_ms: Some(at_ms),
    };
    headless::run_preset(preset, options).unwrap()["figures"].clone()
}

fn flag(figures: &Value, path: &str) -> bool {
    path.split('.')
        .fold(figures, |value, name| &value[name])
        .as_bool()
        .unwrap_or_else(|| panic!("no flag {path} in {figures}"))
}

#[test]
fn dual_writes_diverge_with_no_exception_at_all() {
    let f = figures("dual-write-race");
    assert!(number(&f, "dual_write.divergent_keys") > 0.0, "{f}");
    assert_eq!(number(&f, "dual_write.exceptions"), 0.0);
    assert_eq!(number(&f, "dual_write.lost_writes"), 0.0);
    assert!(number(&f, "dual_write.out_of_order_writes") > 0.0);
    for lane in ["cdc", "outbox"] {
        assert_eq!(number(&f, &format!("{lane}.divergent_keys")), 0.0, "{lane}");
        assert_eq!(
            number(&f, &format!("{lane}.out_of_order_writes")),
            0.0,
            "{lane}"
        );
    }
}

#[test]
fn a_try_catch_cuts_the_losses_but_not_the_race() {
    let f = figures("dual-write-try-catch");
    assert!(number(&f, "try_catch.divergent_keys") > 0.0, "{f}");
    assert!(number(&f, "try_catch.exceptions") > 0.0);
    assert!(number(&f, "try_catch.lost_writes") * 10.0 < number(&f, "dual_write.lost_writes"));
    assert!(
        number(&f, "try_catch.out_of_order_writes") > number(&f, "dual_write.out_of_order_writes")
    );
    assert_eq!(number(&f, "cdc.divergent_keys"), 0.0);
    assert_eq!(number(&f, "outbox.divergent_keys"), 0.0);
}

#[test]
fn cdc_lags_through_the_outage_then_converges() {
    let end = figures("cdc-converges");
    assert_eq!(number(&end, "cdc.divergent_keys"), 0.0, "{end}");
    assert_eq!(number(&end, "cdc.changes_behind"), 0.0);
    // The connector is down from 20 s to 30 s: the oldest waiting change is 10 s old.
    assert!(number(&end, "cdc.max_connector_lag_ms") >= 10_000.0);
    let during = figures_at("cdc-converges", 29_000);
    assert!(
        number(&during, "cdc.connector_lag_ms") > 8_000.0,
        "{during}"
    );
    assert!(number(&during, "cdc.divergent_keys") > 0.0);
    assert!(number(&during, "cdc.changes_behind") > 100.0);
}

#[test]
fn the_outbox_lags_by_its_poll_and_converges() {
    let f = figures("outbox-converges");
    assert_eq!(number(&f, "outbox.divergent_keys"), 0.0, "{f}");
    assert!(number(&f, "outbox.max_connector_lag_ms") > 0.0);
    assert_eq!(number(&f, "outbox.outbox_rows"), number(&f, "committed"));
    assert!(number(&f, "dual_write.divergent_keys") > 0.0);
}

#[test]
fn a_new_consumer_bootstraps_from_about_one_record_per_live_key() {
    let f = figures("compaction-bootstrap");
    let live = number(&f, "live_keys");
    let read = number(&f, "bootstrap_records_read");
    assert!(read >= live && read <= 2.0 * live, "{f}");
    assert!(number(&f, "total_writes") > 20.0 * live);
    assert_eq!(number(&f, "bootstrap_wrong_keys"), 0.0);
}

#[test]
fn a_tombstone_removes_its_key_after_delete_retention() {
    let f = figures("tombstone-deletes-key");
    assert!(flag(&f, "tombstone.present_before_retention"), "{f}");
    assert!(!flag(&f, "tombstone.present_now"));
    let written = number(&f, "tombstone.written_at_ms");
    let removed = number(&f, "tombstone.removed_at_ms");
    assert!(removed >= written + 30_000.0, "{f}");
}

#[test]
fn the_event_sourced_log_cannot_be_compacted() {
    let f = figures("event-sourcing-is-not-cdc");
    assert!(
        number(&f, "event_sourced.events_to_rebuild") > 10.0 * number(&f, "bootstrap_records_read")
    );
    assert!(number(&f, "event_sourced.wrong_if_compacted") > 0.0, "{f}");
    assert_eq!(number(&f, "bootstrap_wrong_keys"), 0.0);
}

#[test]
fn a_snapshot_untied_from_its_position_misses_writes_and_the_tied_one_does_not() {
    let without = figures("snapshot-without-offset");
    assert!(number(&without, "missed_or_duplicated") > 0.0, "{without}");
    assert!(number(&without, "divergent_keys") > 0.0, "{without}");
    let with = figures("snapshot-with-offset");
    assert_eq!(number(&with, "missed_or_duplicated"), 0.0, "{with}");
    assert_eq!(number(&with, "divergent_keys"), 0.0);
    // The same writes: only the bootstrap differs.
    assert_eq!(number(&with, "log_end"), number(&without, "log_end"));
}

#[test]
fn an_untied_copy_from_the_earliest_offset_applies_changes_twice() {
    let mut scenario = databases::snapshot_without_offset();
    scenario.snapshot.offset_reset = databases::OffsetReset::Earliest;
    let mut world = DatabasesWorld::new(scenario.clone()).unwrap();
    world.advance_to(scenario.end_ms());
    let f = serde_json::to_value(world.figures()).unwrap();
    assert!(number(&f, "duplicated") > 0.0, "{f}");
}

#[test]
fn every_preset_names_a_lesson_and_every_lesson_default_runs() {
    family_checks::presets_name_lessons_and_lesson_defaults_run::<DatabasesWorld>(
        databases::PRESETS,
        databases::LESSONS,
    );
}

fn shortened(mut scenario: DatabasesScenario, duration_ms: u64) -> DatabasesScenario {
    scenario.duration_ms = duration_ms;
    scenario
}

#[test]
fn small_steps_and_one_jump_give_the_same_run() {
    for preset in databases::PRESETS {
        let scenario = shortened((preset.build)(), 20_000);
        same_run_however_stepped::<DatabasesWorld>(&scenario, scenario.end_ms(), 37, preset.slug);
    }
}

#[test]
fn seeking_gives_the_run_from_zero() {
    let scenario = databases::cdc_converges();
    family_runs::seeking_gives_the_run_from_zero::<DatabasesWorld>(
        &scenario,
        &[50_000, 16_000, 3_000, 61_000],
    );
}

#[test]
fn another_seed_is_another_run() {
    let with_seed = |seed| DatabasesScenario {
        seed,
        ..shortened(databases::dual_write_race(), 5_000)
    };
    family_runs::another_seed_is_another_run::<DatabasesWorld>(with_seed, 5_000);
}

#[test]
fn scenarios_round_trip_through_json_and_refuse_unknown_fields() {
    family_checks::presets_round_trip(
        databases::PRESETS,
        "databases",
        5_000,
        r#"{"mode": "dual_writes", "nope": 1}"#,
    );
}

#[test]
fn a_lesson_link_runs_its_scenario() {
    let base = databases::dual_write_race();
    let mut changed = base.clone();
    changed.writes.app_servers = 4;
    family_runs::a_lesson_link_runs::<DatabasesWorld>("dual-writes", &base, &changed, 10_000);
}

#[test]
fn each_preset_narrates_what_it_is_about() {
    let race = told("dual-write-race");
    assert!(tells(&race, "No error anywhere"), "{race:?}");
    let retry = told("dual-write-try-catch");
    assert!(
        tells(&retry, "was a retry of a write that had failed"),
        "{retry:?}"
    );
    let outage = told("cdc-converges");
    assert!(tells(&outage, "the Debezium connector stops"), "{outage:?}");
    let tombstone = told("tombstone-deletes-key");
    assert!(tells(&tombstone, "delete.retention.ms"), "{tombstone:?}");
    let snapshot = told("snapshot-without-offset");
    assert!(tells(&snapshot, "missed"), "{snapshot:?}");
}

#[test]
fn events_carry_numbers_and_tags_never_prose() {
    events_carry_tags_never_prose("dual-write-try-catch");
    events_carry_tags_never_prose("tombstone-deletes-key");
    events_carry_tags_never_prose("snapshot-without-offset");
}

#[test]
fn an_outage_of_no_time_stops_and_restarts_the_connectors_in_one_instant() {
    // When each connector stopped, and when it restarted after how long down.
    let outage = |scenario: &DatabasesScenario| -> (Vec<u64>, Vec<(u64, u64)>) {
        let mut world = DatabasesWorld::new(scenario.clone()).expect("a valid scenario");
        // Debug builds check that no tick leaves work due at its own instant.
        world.advance_to(scenario.duration_ms);
        let events: Vec<(u64, Value)> = world
            .events()
            .iter()
            .map(|e| (e.at_ms, serde_json::to_value(e).unwrap()))
            .collect();
        let of = |kind: &'static str| events.iter().filter(move |(_, e)| e["type"] == kind);
        let stops = of("connector_stopped").map(|(at_ms, _)| *at_ms).collect();
        let restarts = of("connector_restarted")
            .map(|(at_ms, e)| (*at_ms, e["down_ms"].as_u64().unwrap()))
            .collect();
        (stops, restarts)
    };
    let mut scenario = databases::cdc_converges();
    let (stopped_at_ms, back_at_ms) = (
        scenario.outage.at_ms,
        scenario.outage.at_ms + scenario.outage.for_ms,
    );
    let (stops, restarts) = outage(&scenario);
    assert_eq!(stops, [stopped_at_ms, stopped_at_ms]);
    assert_eq!(restarts, [(back_at_ms, 10_000), (back_at_ms, 10_000)]);
    scenario.outage.for_ms = 0;
    let (stops, restarts) = outage(&scenario);
    assert_eq!(stops, [stopped_at_ms, stopped_at_ms]);
    assert_eq!(restarts, [(stopped_at_ms, 0), (stopped_at_ms, 0)]);
}
