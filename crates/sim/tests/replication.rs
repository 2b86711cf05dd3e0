//! The replication family's presets prove their points by the figures' names, as
//! `streamlab simulate --preset NAME` prints them; its narration tells each story; and its
//! runs are the same however they are stepped, sought, forked or linked.

// Its tests read whole reports (`report`), so `preset_figures` goes unused.
#[allow(dead_code)]
#[path = "support/family_checks.rs"]
mod family_checks;
#[path = "support/family_runs.rs"]
mod family_runs;

use family_checks::count;
use family_runs::{events_carry_tags_never_prose, same_run_however_stepped, tells, told};
use serde_json::Value;
use streamlab_sim::family::kept::KEPT_BUDGET_BYTES;
use streamlab_sim::family::timeline::{forked, Timeline};
use streamlab_sim::family::Simulation;
use streamlab_sim::headless::{self, RunOptions};
use streamlab_sim::replication::log::Entry;
use streamlab_sim::replication::{
    self, Fault, FaultKind, ReplicationScenario, ReplicationWorld, SIMPLIFICATIONS,
};

fn report(preset: &str) -> Value {
    let report = headless::run_preset(preset, RunOptions::default()).unwrap();
    assert_eq!(report["family"], "replication");
    assert_eq!(report["lesson"], "replication");
    report
}

#[test]
fn acks_1_loses_what_the_crashed_leader_had_not_replicated() {
    let f = &report("acks-1-leader-crash")["figures"];
    assert!(count(f, "acknowledged_then_lost") > 0, "{f}");
    // The old leader cut the same records from its log when it came back.
    assert!(count(f, "truncated_records") >= count(f, "acknowledged_then_lost"));
    assert_eq!(count(f, "by_acks.acks_all.acknowledged_then_lost"), 0);
    // What the consumer read was below the high watermark, so it survived the failover.
    assert_eq!(count(f, "consumed_then_lost"), 0);
}

#[test]
fn acks_all_with_min_isr_2_loses_nothing_and_pays_in_latency() {
    let f = &report("acks-all-min-isr-2")["figures"];
    assert_eq!(count(f, "acknowledged_then_lost"), 0, "{f}");
    assert_eq!(count(f, "leader_elections"), 1);
    let all = count(f, "produce_latency_p99_ms");
    let one = count(f, "by_acks.acks_1.produce_latency_p99_ms");
    assert!(all > one, "acks=all p99 {all} ms, acks=1 p99 {one} ms");
    assert_eq!(all, count(f, "by_acks.acks_all.produce_latency_p99_ms"));
    assert!(count(f, "produce_latency_p50_ms") > count(f, "by_acks.acks_1.produce_latency_p50_ms"));
    // The same crash costs acks=1 acknowledged writes.
    assert!(count(f, "by_acks.acks_1.acknowledged_then_lost") > 0);
}

#[test]
fn an_unclean_election_loses_acknowledged_acks_all_writes() {
    let f = &report("unclean-election-loses-writes")["figures"];
    assert!(count(f, "acknowledged_then_lost") > 1_000, "{f}");
    assert_eq!(count(f, "unclean_elections"), 1);
    // The consumer had read some of them: they were below the lone leader's high watermark.
    assert!(count(f, "consumed_then_lost") > 0);
    assert!(count(f, "truncated_records") >= count(f, "acknowledged_then_lost"));
}

#[test]
fn the_same_story_with_clean_elections_loses_nothing_but_goes_offline() {
    let mut scenario = replication::unclean_election_loses_writes();
    scenario.topic.unclean_leader_election_enable = false;
    let mut world = ReplicationWorld::new(scenario).unwrap();
    world.advance_to(world.scenario().duration_ms);
    let f = serde_json::to_value(world.figures()).unwrap();
    assert_eq!(count(&f, "acknowledged_then_lost"), 0, "{f}");
    assert_eq!(count(&f, "unclean_elections"), 0);
    // Offline from the fence (39 s) until broker 1 is back (45 s).
    assert_eq!(count(&f, "offline_ms"), 6_000);
}

#[test]
fn a_shrunken_isr_refuses_acks_all_writes_and_loses_none() {
    let f = &report("isr-shrinks-not-enough-replicas")["figures"];
    assert!(count(f, "rejected_writes") > 0, "{f}");
    assert!(count(f, "not_enough_replicas") > 0);
    assert_eq!(count(f, "acknowledged_then_lost"), 0);
    // acks=1 ignores min.insync.replicas.
    assert_eq!(count(f, "by_acks.acks_1.rejected_writes"), 0);
}

#[test]
fn retries_write_duplicates_unless_the_producer_is_idempotent() {
    let f = &report("retries-without-idempotence-duplicate")["figures"];
    assert!(count(f, "duplicates") > 0, "{f}");
    assert!(count(f, "request_timeouts") > 0);
    let g = &report("idempotent-producer")["figures"];
    assert_eq!(count(g, "duplicates"), 0, "{g}");
    assert_eq!(count(g, "retries"), count(f, "retries"), "the same retries");
}

#[test]
fn each_preset_narrates_what_it_is_about() {
    let crash = told("acks-1-leader-crash");
    assert!(
        tells(&crash, "broker.session.timeout.ms (9 s)"),
        "{crash:?}"
    );
    assert!(tells(&crash, "acknowledged, then lost"));
    assert!(tells(&crash, "cuts its p0 log from"));

    let unclean = told("unclean-election-loses-writes");
    assert!(
        tells(&unclean, "more than replica.lag.time.max.ms"),
        "{unclean:?}"
    );
    assert!(tells(&unclean, "from outside the ISR"));
    assert!(tells(&unclean, "starts again at the high watermark"));

    let refused = told("isr-shrinks-not-enough-replicas");
    assert!(tells(&refused, "NotEnoughReplicasException"), "{refused:?}");
    assert!(tells(&refused, "rejoins the ISR"));

    let duplicate = told("retries-without-idempotence-duplicate");
    assert!(
        tells(&duplicate, "within request.timeout.ms (30 s)"),
        "{duplicate:?}"
    );
    assert!(tells(
        &duplicate,
        "Without enable.idempotence the broker cannot tell"
    ));

    let idempotent = told("idempotent-producer");
    assert!(tells(&idempotent, "by its producer id and sequence number"));
}

#[test]
fn events_carry_numbers_and_tags_never_prose() {
    events_carry_tags_never_prose("unclean-election-loses-writes");
}

#[test]
fn every_preset_names_the_lesson_and_the_lesson_default_runs() {
    family_checks::presets_name_lessons_and_lesson_defaults_run::<ReplicationWorld>(
        replication::PRESETS,
        replication::LESSONS,
    );
    assert!(SIMPLIFICATIONS.len() >= 8);
}

fn shortened(mut scenario: ReplicationScenario, duration_ms: u64) -> ReplicationScenario {
    scenario.duration_ms = duration_ms;
    scenario
}

#[test]
fn small_steps_and_one_jump_give_the_same_run() {
    for preset in replication::PRESETS {
        let scenario = shortened((preset.build)(), 32_000);
        same_run_however_stepped::<ReplicationWorld>(&scenario, 32_000, 37, preset.slug);
    }
}

#[test]
fn seeking_gives_the_run_from_zero() {
    let scenario = replication::lesson_default();
    family_runs::seeking_gives_the_run_from_zero::<ReplicationWorld>(
        &scenario,
        &[45_000, 21_000, 3_000, 59_000],
    );
}

#[test]
fn a_fault_added_now_forks_the_run_as_if_it_had_always_been_there() {
    let scenario = replication::lesson_default();
    let mut timeline = Timeline::new(ReplicationWorld::new(scenario.clone()).unwrap());
    timeline.seek(25_000);
    let mut crashed = forked::<ReplicationWorld>(&scenario, 25_000, 25_000);
    crashed.faults.push(Fault::new(25_001, 2, FaultKind::Crash));
    assert!(timeline.fork(&crashed));
    timeline.seek(50_000);
    let mut fresh = ReplicationWorld::new(crashed.clone()).unwrap();
    fresh.advance_to(50_000);
    assert_eq!(timeline.world().trace_hash(), fresh.trace_hash());
    // A change of a knob is no fork: it applies from time zero.
    let mut knob = crashed;
    knob.topic.min_insync_replicas = 2;
    assert!(!timeline.fork(&knob));
    // A fault in the past is no fork either.
    let mut past = replication::lesson_default();
    past.faults.push(Fault::new(10_000, 3, FaultKind::Crash));
    assert!(!timeline.fork(&past));
}

#[test]
fn going_back_and_acting_drops_the_future_seen() {
    let scenario = replication::lesson_default();
    // Seen up to 45 s, back at 30 s: the restart at 40 s was seen and is dropped.
    let next = forked::<ReplicationWorld>(&scenario, 30_000, 45_000);
    assert_eq!(next.faults.len(), 1);
    assert_eq!(next.faults[0].kind, FaultKind::Crash);
}

#[test]
fn another_seed_is_another_run() {
    let with_seed = |seed| ReplicationScenario {
        seed,
        ..shortened(replication::lesson_default(), 5_000)
    };
    family_runs::another_seed_is_another_run::<ReplicationWorld>(with_seed, 5_000);
}

#[test]
fn scenarios_round_trip_through_json_and_refuse_unknown_fields() {
    family_checks::presets_round_trip(replication::PRESETS, "replication", 2_000, r#"{"nope": 1}"#);
    let acks: ReplicationScenario =
        serde_json::from_str(r#"{"producer": {"acks": "1", "enable_idempotence": false}}"#)
            .unwrap();
    assert_eq!(acks.producer.acks, replication::Acks::One);
}

#[test]
fn a_lesson_link_runs_its_scenario() {
    let base = replication::lesson_default();
    let mut changed = base.clone();
    changed.topic.min_insync_replicas = 2;
    family_runs::a_lesson_link_runs::<ReplicationWorld>("replication", &base, &changed, 30_000);
}

#[test]
fn the_report_carries_each_lanes_series() {
    let report = headless::run_preset(
        "acks-all-min-isr-2",
        RunOptions {
            duration_ms: Some(10_000),
            at_ms: None,
        },
    )
    .unwrap();
    for lane in ["acks_0", "acks_1", "acks_all"] {
        let samples = report["lanes"][lane]["samples"].as_array().unwrap();
        assert_eq!(samples.len(), 10, "{lane}");
        let histogram = report["lanes"][lane]["latency_histogram"]
            .as_array()
            .unwrap();
        let counted: u64 = histogram.iter().map(|b| b[1].as_u64().unwrap()).sum();
        assert_eq!(counted, report["figures"]["by_acks"][lane]["acknowledged"]);
    }
}

#[test]
fn the_snapshot_draws_leaders_the_isr_and_the_divergent_tail() {
    let mut world = ReplicationWorld::new(replication::acks_1_leader_crash()).unwrap();
    world.advance_to(30_000);
    let picture = world.snapshot();
    assert!(!picture.brokers[0].up);
    let p0 = &picture.partitions[0];
    assert_eq!(p0.leader, Some(2));
    assert_eq!(p0.isr, vec![2, 3]);
    let old = p0.replicas.iter().find(|r| r.broker == 1).unwrap();
    assert_eq!(old.role, replication::ReplicaRole::Down);
    assert!(
        old.cells
            .iter()
            .any(|c| c.state == replication::CellState::Lost),
        "the crashed leader still holds the acknowledged records the new leader lacks"
    );
    assert_eq!(picture.lanes.len(), 3);
    assert!(p0.window_to - p0.window_from <= replication::WINDOW_CELLS);
}

#[test]
fn a_ten_minute_run_counts_its_shared_logs_once_and_fits_the_kept_runs() {
    // Every checkpoint shares the replica logs' sealed chunks: counted per checkpoint, the
    // lesson's ten-minute run looked larger than the page's whole budget for kept runs, so
    // going back to a setting (or its next step) re-simulated from zero.
    // A link's time may lie past the scenario's duration (60 s here): the producer has
    // stopped, while the clock, the samples and the checkpoints go on.
    let scenario = replication::lesson_default();
    let mut timeline = Timeline::new(ReplicationWorld::new(scenario).unwrap());
    timeline.seek(600_000);
    let held = timeline.held_bytes();
    assert!(
        held * 2 <= KEPT_BUDGET_BYTES,
        "a return and a prepared step fit together: {held} bytes"
    );
    // The logs are still counted, once: all but their open chunks as shared.
    let world = timeline.world();
    let log_bytes: usize = (world.lanes().iter())
        .flat_map(|lane| &lane.partitions)
        .flat_map(|p| &p.reps)
        .map(|r| r.log.end_offset() as usize * std::mem::size_of::<Entry>())
        .sum();
    let shared = ReplicationWorld::shared_size_hint_bytes(world, world);
    assert!(
        log_bytes / 2 < shared && shared <= log_bytes,
        "{shared} of {log_bytes} log bytes counted as shared"
    );
}
