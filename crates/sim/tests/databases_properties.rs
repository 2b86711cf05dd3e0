//! Properties of the databases family over random scenarios (issue 12): CDC and the outbox
//! always converge once their connector has caught up; the compacted log always holds exactly
//! the latest value of every open account; a closed account's key never comes back. Every run
//! also checks the family's invariants after every tick (debug builds).

use proptest::prelude::*;
use std::collections::BTreeSet;
use streamlab_sim::databases::accounts::{operations, AccountEvent};
use streamlab_sim::databases::{DatabasesScenario, DatabasesWorld, Lane, Mode};

/// Short dual-writes runs with the writes, the network, failures and an outage free.
fn dual_writes_scenario() -> impl Strategy<Value = DatabasesScenario> {
    (
        any::<u64>(),
        (1u32..=80, 1u32..=20, 1u32..=6),
        (0u64..=20, 0u64..=20, 0u64..=150, 0.0f64..=0.3),
        (50u64..=2_000, 0u64..=200, 1u64..=500),
        (any::<bool>(), 0u64..=8_000, 0u64..=6_000),
    )
        .prop_map(|(seed, writes, network, connector, outage)| {
            let mut s = DatabasesScenario::default();
            s.seed = seed;
            s.duration_ms = 10_000;
            (s.writes.per_second, s.writes.keys, s.writes.app_servers) = writes;
            s.network.db_latency_ms = network.0;
            s.network.index_latency_ms = network.1;
            s.network.jitter_ms = network.2;
            s.network.index_failure_rate = network.3;
            s.connector.poll_interval_ms = connector.0;
            s.connector.pipeline_ms = connector.1;
            s.connector.retry_backoff_ms = connector.2;
            (s.outage.enabled, s.outage.at_ms, s.outage.for_ms) = outage;
            s
        })
}

/// Short compaction runs with the topic's configs and the closing rate free.
fn compaction_scenario() -> impl Strategy<Value = DatabasesScenario> {
    (
        any::<u64>(),
        (1u32..=40, 1u32..=30, 0.0f64..=0.3),
        (100u64..=5_000, 0.05f64..=0.95, 0u64..=10_000),
        (0u64..=3_000, 100u64..=3_000, 0u64..=20_000),
    )
        .prop_map(|(seed, writes, topic, cleaner)| {
            let mut s = DatabasesScenario::default();
            s.seed = seed;
            s.mode = Mode::Compaction;
            s.duration_ms = 20_000;
            (s.writes.per_second, s.writes.keys, s.accounts.close_rate) = writes;
            s.topic.segment_ms = topic.0;
            s.topic.min_cleanable_dirty_ratio = topic.1;
            s.topic.delete_retention_ms = topic.2;
            s.topic.min_compaction_lag_ms = cleaner.0;
            s.topic.cleaner_backoff_ms = cleaner.1;
            s.bootstrap.at_ms = cleaner.2;
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn cdc_and_the_outbox_converge_once_their_connector_catches_up(s in dual_writes_scenario()) {
        let mut world = DatabasesWorld::new(s.clone()).unwrap();
        // Run until both connectors have caught up, and at least five minutes past the end.
        // The sink's retries back off exponentially (a change that fails k times in a row
        // waits retry.backoff.ms × (2^k − 1)), so a rare run of failures outlasts any fixed
        // horizon (the saved case catches up 330 s after the end); failures are draws at a rate
        // below 1, so they end, and a day past the end is far beyond any such run.
        let settled_ms = s.end_ms() + 300_000;
        let give_up_ms = s.end_ms() + 86_400_000;
        let lanes = [Lane::Cdc, Lane::Outbox];
        let mut t = 0;
        loop {
            t += 1_000;
            world.advance_to(t);
            let sync = world.sync().unwrap();
            for lane in lanes {
                let store = &sync.stores[lane.index()];
                if sync.connector(lane).caught_up(&sync.db) {
                    prop_assert_eq!(store.divergent, 0, "{} at {} ms", lane.name(), t);
                }
                prop_assert_eq!(sync.out_of_order[lane.index()], 0);
            }
            let caught_up = lanes.iter().all(|&lane| sync.connector(lane).caught_up(&sync.db));
            if caught_up && t >= settled_ms {
                break;
            }
            prop_assert!(t < give_up_ms, "still behind a day after the end");
        }
    }

    #[test]
    fn the_compacted_log_holds_the_latest_value_of_every_open_account(s in compaction_scenario()) {
        let mut world = DatabasesWorld::new(s.clone()).unwrap();
        let mut t = 0;
        while t < s.end_ms() {
            t = (t + 700).min(s.end_ms());
            world.advance_to(t);
            let c = world.compaction().unwrap();
            prop_assert_eq!(&c.log.table(), &c.balances, "at {} ms", t);
            let mut seen = BTreeSet::new();
            for r in c.log.records.iter().take_while(|r| r.offset < c.log.cleaned_upto) {
                prop_assert!(seen.insert(r.key), "key {} twice in the clean tail at {} ms", r.key, t);
            }
        }
    }

    #[test]
    fn a_closed_account_never_comes_back(s in compaction_scenario()) {
        let ops = operations(&s);
        let mut world = DatabasesWorld::new(s.clone()).unwrap();
        let mut t = 0;
        while t < s.end_ms() {
            t = (t + 900).min(s.end_ms());
            world.advance_to(t);
            let c = world.compaction().unwrap();
            let closed: BTreeSet<u32> = ops[..c.applied]
                .iter()
                .filter(|o| o.event == AccountEvent::Closed)
                .map(|o| o.key)
                .collect();
            let table = c.log.table();
            for key in &closed {
                prop_assert!(!table.contains_key(key), "account {} is back at {} ms", key, t);
                prop_assert!(!c.balances.contains_key(key));
            }
            // No value of a closed account follows its tombstone while the tombstone is there.
            for key in &closed {
                let tombstone = c.log.records.iter().find(|r| r.key == *key && r.value.is_none());
                if let Some(tombstone) = tombstone {
                    prop_assert!(c.log.records.iter().all(|r| r.key != *key || r.offset <= tombstone.offset));
                }
            }
        }
    }
}
