//! The exactly-once family's presets prove issue 14's points under the figures' names, as
//! `streamlab simulate --preset NAME` prints them; the hand-checked numbers follow from the
//! scenario's rates and instants; and its runs are the same however they are stepped, sought
//! or linked.

#[path = "support/family_checks.rs"]
mod family_checks;
#[path = "support/family_runs.rs"]
mod family_runs;

use family_checks::count;
use family_runs::{events_carry_tags_never_prose, same_run_however_stepped, tells, told};
use serde_json::Value;
use streamlab_sim::exactly_once::{self, EosScenario, EosWorld, SIMPLIFICATIONS};
use streamlab_sim::headless::{self, RunOptions};

fn figures(preset: &str) -> Value {
    family_checks::preset_figures(preset, "exactly_once")
}

fn run(scenario: EosScenario) -> EosWorld {
    let end = scenario.duration_ms;
    let mut world = EosWorld::new(scenario).unwrap();
    world.advance_to(end);
    world
}

#[test]
fn microbatches_and_checkpoints_both_restore_exactly_and_replay_different_amounts() {
    let f = figures("microbatch-vs-checkpoint");
    assert_eq!(count(&f, "crashes"), 1);
    // Checkpoints every 5 s, 100 records/s, the failure at 24.3 s: everything counted since
    // the checkpoint at 20 s (4.3 s of input) is read again.
    assert_eq!(count(&f, "checkpoint.reprocessed_records"), 430);
    assert_eq!(count(&f, "checkpoint.state_errors"), 0);
    // The open microbatch started at 24 s over the 300 records written in (21 s, 24 s] and
    // counts one per 2 ms, so about 150 of them were done when the job failed.
    let microbatch = count(&f, "microbatch.reprocessed_records");
    assert!((140..=150).contains(&microbatch), "{microbatch}");
    assert_eq!(count(&f, "microbatch.state_errors"), 0);
    // Without checkpoints the state restarts empty at the offsets auto-committed at 20 s:
    // the counts of the 2,000 records before them are gone.
    assert_eq!(count(&f, "no_checkpoint.state_errors"), 2_000);
    assert_eq!(count(&f, "no_checkpoint.reprocessed_records"), 430);
}

#[test]
fn every_random_crash_restores_an_exact_state() {
    let f = figures("checkpoint-restore-exactly-once-state");
    assert!(count(&f, "crashes") >= 3, "{f}");
    assert_eq!(count(&f, "checkpoint.state_errors"), 0);
    assert_eq!(count(&f, "microbatch.state_errors"), 0);
    assert!(count(&f, "checkpoint.reprocessed_records") > 0);
    assert!(count(&f, "no_checkpoint.state_errors") > 0);
}

#[test]
fn the_email_goes_twice_while_the_state_stays_exact() {
    for preset in ["email-sent-twice", "misconception-9"] {
        let f = figures(preset);
        for model in ["microbatch", "checkpoint"] {
            assert_eq!(count(&f, &format!("{model}.state_errors")), 0, "{preset}");
            let duplicates = count(&f, &format!("{model}.external_duplicates"));
            assert!(duplicates > 0, "{preset} {model}");
            // Exactly one more email for every record processed again.
            assert_eq!(
                duplicates,
                count(&f, &format!("{model}.reprocessed_records")),
                "{preset} {model}"
            );
        }
    }
}

#[test]
fn an_idempotency_key_lets_no_duplicate_out() {
    let f = figures("idempotent-effect");
    for model in ["microbatch", "checkpoint", "no_checkpoint"] {
        assert_eq!(count(&f, &format!("{model}.external_duplicates")), 0);
        assert_eq!(
            count(&f, &format!("{model}.deduplicated")),
            count(&f, &format!("{model}.reprocessed_records")),
            "{model}"
        );
    }
}

#[test]
fn a_transactional_kafka_sink_aborts_what_the_failure_interrupted() {
    let f = figures("kafka-transactions");
    assert_eq!(count(&f, "checkpoint.external_duplicates"), 0);
    // The open transaction held the 430 records counted since the checkpoint at 20 s.
    assert_eq!(count(&f, "checkpoint.aborted_records"), 430);
    // read_committed readers see an update only when its checkpoint completes.
    assert!(count(&f, "checkpoint.output_delay_ms_mean") > 1_000);
    assert!(count(&f, "microbatch.external_duplicates") > 0);

    let mut uncommitted = exactly_once::kafka_transactions();
    uncommitted.sink.isolation_level = exactly_once::Isolation::ReadUncommitted;
    let world = run(uncommitted);
    assert_eq!(
        world.checkpoint.sink.duplicates, 430,
        "aborted records are seen"
    );
}

#[test]
fn a_database_that_stores_the_offsets_applies_every_update_once() {
    let mut scenario = exactly_once::email_sent_twice();
    scenario.sink.kind = exactly_once::SinkKind::Database;
    let world = run(scenario);
    // The checkpointing job's replayed updates find their offsets stored and are skipped.
    let streaming = &world.checkpoint;
    assert_eq!(streaming.sink.duplicates, 0);
    assert_eq!(
        streaming.sink.deduplicated,
        streaming.tally.reprocessed_records
    );
    // The microbatch's transaction rolled back with the failed batch: its rerun writes anew.
    let microbatch = world.microbatch.as_ref().unwrap();
    assert_eq!(microbatch.sink.duplicates, 0);
    assert_eq!(microbatch.sink.deduplicated, 0);
    assert!(microbatch.tally.reprocessed_records > 0);
}

#[test]
fn a_zombie_overwrites_newer_counts_unless_it_is_fenced() {
    // Paused from 15 s to 35 s, it learns it was replaced at its heartbeat at 45 s: it
    // catches up on the 20 s it missed and counts 10 s more, 100 records a second.
    let open = figures("zombie-without-fencing");
    assert_eq!(count(&open, "zombie.zombie_writes"), 3_000);
    assert_eq!(count(&open, "zombie.stale_writes"), 3_000);
    assert_eq!(count(&open, "zombie.refused_writes"), 0);
    let fenced = figures("zombie-fenced");
    assert_eq!(count(&fenced, "zombie.stale_writes"), 0);
    assert_eq!(count(&fenced, "zombie.refused_writes"), 3_000);

    let mut transactional = exactly_once::zombie_fenced();
    transactional.zombie.fencing = exactly_once::Fencing::TransactionalId;
    let (writes, stale, refused) = run(transactional).checkpoint.zombie_tally().unwrap();
    assert_eq!((writes, stale, refused), (3_000, 0, 3_000));
}

#[test]
fn alignment_grows_with_the_slow_partition_and_unaligned_checkpoints_do_not_wait() {
    let f = figures("alignment-stall");
    assert_eq!(count(&f, "checkpoint.alignment_ms"), 1_500);
    let alignment = |delay_ms: u64, unaligned: bool| {
        let mut scenario = exactly_once::alignment_stall();
        scenario.slow_partition.delay_ms = delay_ms;
        scenario.checkpoint.unaligned = unaligned;
        let world = run(scenario);
        let last = world.checkpoint.history.last().unwrap();
        (last.alignment_ms, last.inflight_records)
    };
    let (none, _) = alignment(0, false);
    let (some, _) = alignment(500, false);
    let (more, _) = alignment(1_500, false);
    assert_eq!((none, some, more), (0, 500, 1_500));
    let (unaligned, inflight) = alignment(1_500, true);
    assert_eq!(unaligned, 0);
    // Partition 2 writes 25 records/s, and 1.5 s of them are in flight when its barrier
    // overtakes them.
    assert!(inflight > 0, "{inflight}");
}

#[test]
fn every_preset_names_a_lesson_and_every_lesson_default_runs() {
    family_checks::presets_name_lessons_and_lesson_defaults_run::<EosWorld>(
        exactly_once::PRESETS,
        exactly_once::LESSONS,
    );
    assert!(SIMPLIFICATIONS.len() >= 10);
}

fn shortened(mut scenario: EosScenario, duration_ms: u64) -> EosScenario {
    scenario.duration_ms = duration_ms;
    scenario
}

#[test]
fn small_steps_and_one_jump_give_the_same_run() {
    for preset in exactly_once::PRESETS {
        let scenario = shortened((preset.build)(), 30_000);
        same_run_however_stepped::<EosWorld>(&scenario, 30_000, 37, preset.slug);
    }
}

#[test]
fn seeking_gives_the_run_from_zero() {
    let scenario = exactly_once::checkpoint_restore_exactly_once_state();
    family_runs::seeking_gives_the_run_from_zero::<EosWorld>(
        &scenario,
        &[50_000, 16_000, 3_000, 61_000],
    );
}

#[test]
fn another_seed_is_another_run() {
    let with_seed = |seed| EosScenario {
        seed,
        ..shortened(exactly_once::microbatch_vs_checkpoint(), 5_000)
    };
    family_runs::another_seed_is_another_run::<EosWorld>(with_seed, 5_000);
}

#[test]
fn scenarios_round_trip_through_json_and_refuse_unknown_fields() {
    family_checks::presets_round_trip(
        exactly_once::PRESETS,
        "exactly_once",
        2_000,
        r#"{"mode": "zombie", "nope": 1}"#,
    );
}

#[test]
fn a_lesson_link_runs_its_scenario() {
    let base = exactly_once::microbatch_vs_checkpoint();
    let mut changed = base.clone();
    changed.checkpoint.interval_ms = 2_000;
    family_runs::a_lesson_link_runs::<EosWorld>("checkpoints", &base, &changed, 10_000);
}

#[test]
fn each_preset_narrates_what_it_is_about() {
    let recovery = told("microbatch-vs-checkpoint");
    assert!(tells(&recovery, "runs microbatch 8 again"), "{recovery:?}");
    assert!(tells(&recovery, "restores checkpoint"), "{recovery:?}");

    let alignment = told("alignment-stall");
    assert!(
        tells(&alignment, "held its other inputs back for 1.5 s"),
        "{alignment:?}"
    );

    let email = told("email-sent-twice");
    assert!(tells(&email, "a second time"), "{email:?}");

    let zombie = told("zombie-fenced");
    assert!(tells(&zombie, "is refused"), "{zombie:?}");
    assert!(tells(&zombie, "heartbeat.timeout"), "{zombie:?}");
}

#[test]
fn events_carry_numbers_and_tags_never_prose() {
    events_carry_tags_never_prose("zombie-without-fencing");
}

#[test]
fn the_report_carries_the_series_and_each_checkpoint() {
    let report = headless::run_preset("alignment-stall", RunOptions::default()).unwrap();
    let checkpoints = report["checkpoints"].as_array().unwrap();
    assert_eq!(
        checkpoints.len() as u64,
        count(&report["figures"], "checkpoint.checkpoints_completed")
    );
    // 60 s sampled every 500 ms, one sample per model.
    assert_eq!(report["series"].as_array().unwrap().len(), 120 * 3);
}
