//! The replication family's presets prove their points by the figures' names, as
//! `streamlab simulate --preset NAME` prints them; its narration tells each story; and its
//! runs are the same however they are stepped, sought, forked or linked.

use serde_json::Value;
use streamlab_sim::family::timeline::{forked, Timeline};
use streamlab_sim::family::Simulation;
use streamlab_sim::headless::{self, RunOptions};
use streamlab_sim::replay::share::query::query_for;
use streamlab_sim::replication::{
    self, Fault, FaultKind, ReplicationScenario, ReplicationWorld, SIMPLIFICATIONS,
};

fn report(preset: &str) -> Value {
    let report = headless::run_preset(preset, RunOptions::default()).unwrap();
    assert_eq!(report["family"], "replication");
    assert_eq!(report["lesson"], "replication");
    report
}

fn number(figures: &Value, path: &str) -> u64 {
    path.split('.')
        .fold(figures, |value, name| &value[name])
        .as_u64()
        .unwrap_or_else(|| panic!("no figure {path} in {figures}"))
}

#[test]
fn acks_1_loses_what_the_crashed_leader_had_not_replicated() {
    let f = &report("acks-1-leader-crash")["figures"];
    assert!(number(f, "acknowledged_then_lost") > 0, "{f}");
    // The old leader cut the same records from its log when it came back.
    assert!(number(f, "truncated_records") >= number(f, "acknowledged_then_lost"));
    assert_eq!(number(f, "by_acks.acks_all.acknowledged_then_lost"), 0);
    // What the consumer read was below the high watermark, so it survived the failover.
    assert_eq!(number(f, "consumed_then_lost"), 0);
}

#[test]
fn acks_all_with_min_isr_2_loses_nothing_and_pays_in_latency() {
    let f = &report("acks-all-min-isr-2")["figures"];
    assert_eq!(number(f, "acknowledged_then_lost"), 0, "{f}");
    assert_eq!(number(f, "leader_elections"), 1);
    let all = number(f, "produce_latency_p99_ms");
    let one = number(f, "by_acks.acks_1.produce_latency_p99_ms");
    assert!(all > one, "acks=all p99 {all} ms, acks=1 p99 {one} ms");
    assert_eq!(all, number(f, "by_acks.acks_all.produce_latency_p99_ms"));
    assert!(
        number(f, "produce_latency_p50_ms") > number(f, "by_acks.acks_1.produce_latency_p50_ms")
    );
    // The same crash costs acks=1 acknowledged writes.
    assert!(number(f, "by_acks.acks_1.acknowledged_then_lost") > 0);
}

#[test]
fn an_unclean_election_loses_acknowledged_acks_all_writes() {
    let f = &report("unclean-election-loses-writes")["figures"];
    assert!(number(f, "acknowledged_then_lost") > 1_000, "{f}");
    assert_eq!(number(f, "unclean_elections"), 1);
    // The consumer had read some of them: they were below the lone leader's high watermark.
    assert!(number(f, "consumed_then_lost") > 0);
    assert!(number(f, "truncated_records") >= number(f, "acknowledged_then_lost"));
}

#[test]
fn the_same_story_with_clean_elections_loses_nothing_but_goes_offline() {
    let mut scenario = replication::unclean_election_loses_writes();
    scenario.topic.unclean_leader_election_enable = false;
    let mut world = ReplicationWorld::new(scenario).unwrap();
    world.advance_to(world.scenario().duration_ms);
    let f = serde_json::to_value(world.figures()).unwrap();
    assert_eq!(number(&f, "acknowledged_then_lost"), 0, "{f}");
    assert_eq!(number(&f, "unclean_elections"), 0);
    // Offline from the fence (39 s) until broker 1 is back (45 s).
    assert_eq!(number(&f, "offline_ms"), 6_000);
}

#[test]
fn a_shrunken_isr_refuses_acks_all_writes_and_loses_none() {
    let f = &report("isr-shrinks-not-enough-replicas")["figures"];
    assert!(number(f, "rejected_writes") > 0, "{f}");
    assert!(number(f, "not_enough_replicas") > 0);
    assert_eq!(number(f, "acknowledged_then_lost"), 0);
    // acks=1 ignores min.insync.replicas.
    assert_eq!(number(f, "by_acks.acks_1.rejected_writes"), 0);
}

#[test]
fn retries_write_duplicates_unless_the_producer_is_idempotent() {
    let f = &report("retries-without-idempotence-duplicate")["figures"];
    assert!(number(f, "duplicates") > 0, "{f}");
    assert!(number(f, "request_timeouts") > 0);
    let g = &report("idempotent-producer")["figures"];
    assert_eq!(number(g, "duplicates"), 0, "{g}");
    assert_eq!(
        number(g, "retries"),
        number(f, "retries"),
        "the same retries"
    );
}

/// Every sentence a preset's run tells, in order.
fn told(preset: &str) -> Vec<String> {
    report(preset)["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

fn tells(texts: &[String], words: &str) -> bool {
    texts.iter().any(|t| t.contains(words))
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
    let report = report("unclean-election-loses-writes");
    for event in report["events"].as_array().unwrap() {
        for (name, value) in event.as_object().unwrap() {
            if name != "text" && name != "type" && value.is_string() {
                let tag = value.as_str().unwrap();
                assert!(
                    tag.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                    "{name}: {value}"
                );
            }
        }
    }
}

#[test]
fn every_preset_names_the_lesson_and_the_lesson_default_runs() {
    for preset in replication::PRESETS {
        assert!(replication::LESSONS.iter().any(|l| l.slug == preset.lesson));
        assert_eq!((preset.build)().validate(), Ok(()), "{}", preset.slug);
    }
    for lesson in replication::LESSONS {
        assert!(ReplicationWorld::new((lesson.default)()).is_ok());
    }
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
        let mut jump = ReplicationWorld::new(scenario.clone()).unwrap();
        jump.advance_to(32_000);
        let mut steps = ReplicationWorld::new(scenario).unwrap();
        let mut t = 0;
        while t < 32_000 {
            t = (t + 37).min(32_000);
            steps.advance_to(t);
        }
        assert_eq!(jump.trace_hash(), steps.trace_hash(), "{}", preset.slug);
        assert_eq!(
            Simulation::figures(&jump),
            Simulation::figures(&steps),
            "{}",
            preset.slug
        );
        assert_eq!(Simulation::events(&jump), Simulation::events(&steps));
    }
}

#[test]
fn seeking_gives_the_run_from_zero() {
    let scenario = replication::lesson_default();
    let mut timeline = Timeline::new(ReplicationWorld::new(scenario.clone()).unwrap());
    for t_ms in [45_000, 21_000, 3_000, 59_000] {
        timeline.seek(t_ms);
        let mut fresh = ReplicationWorld::new(scenario.clone()).unwrap();
        fresh.advance_to(t_ms);
        assert_eq!(timeline.world().trace_hash(), fresh.trace_hash(), "{t_ms}");
    }
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
    let hash = |seed| {
        let mut scenario = shortened(replication::lesson_default(), 5_000);
        scenario.seed = seed;
        let mut world = ReplicationWorld::new(scenario).unwrap();
        world.advance_to(5_000);
        world.trace_hash()
    };
    assert_eq!(hash(1), hash(1));
    assert_ne!(hash(1), hash(2));
}

#[test]
fn scenarios_round_trip_through_json_and_refuse_unknown_fields() {
    for preset in replication::PRESETS {
        let scenario = (preset.build)();
        let json = serde_json::to_string(&scenario).unwrap();
        assert_eq!(
            serde_json::from_str::<ReplicationScenario>(&json).unwrap(),
            scenario
        );
        let report = headless::run_json(
            &json,
            RunOptions {
                duration_ms: Some(2_000),
                at_ms: None,
            },
        )
        .unwrap();
        assert_eq!(report["family"], "replication", "{}", preset.slug);
    }
    assert!(serde_json::from_str::<ReplicationScenario>(r#"{"nope": 1}"#).is_err());
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
    let query = query_for(&base, &changed, Some(30_000));
    let report =
        headless::run_link(&format!("#/replication?{query}"), RunOptions::default()).unwrap();
    assert_eq!(report["lesson"], "replication");
    assert_eq!(report["at_ms"], 30_000);
    let mut world = ReplicationWorld::new(changed).unwrap();
    world.advance_to(30_000);
    assert_eq!(report["trace_hash"], world.trace_hash().hex());
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
