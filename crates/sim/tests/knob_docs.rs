//! The knob reference in docs/knobs.md is generated from the core's knob tables, so the docs
//! name every knob, its real name, range and default exactly as validation and the browser's
//! controls do. This test fails when the file is out of date; run it with
//! `STREAMLAB_WRITE_DOCS=1` to write the file again.

use streamlab_sim::databases::{knobs::KNOBS as DATABASES_KNOBS, DatabasesScenario};
use streamlab_sim::eventtime::{knobs::KNOBS as EVENT_TIME_KNOBS, EventTimeScenario};
use streamlab_sim::exactly_once::{knobs::KNOBS as EOS_KNOBS, EosScenario};
use streamlab_sim::family::knob::markdown_table;
use streamlab_sim::joins::{knobs::KNOBS as JOINS_KNOBS, JoinsScenario};
use streamlab_sim::kafka::knobs::{GROUP_KNOBS, SCENARIO_KNOBS};
use streamlab_sim::kafka::scenario::{GroupConfig, Scenario};
use streamlab_sim::practice::{knobs::KNOBS as INKWELL_KNOBS, InkwellScenario};
use streamlab_sim::queues::{knobs::KNOBS as QUEUES_KNOBS, QueuesScenario};
use streamlab_sim::replication::{knobs::KNOBS as REPLICATION_KNOBS, ReplicationScenario};

fn reference() -> String {
    let mut out = String::from(
        "# Knobs\n\nEvery knob of every lesson family, generated from the core's knob tables \
         (`crates/sim/src/*/knobs.rs`) by `cargo test -p streamlab-sim --test knob_docs` \
         (set `STREAMLAB_WRITE_DOCS=1` to rewrite this file). Validation, the browser's \
         controls and the real-config panel read the same tables. A default is the \
         scenario's; where the real system's own default differs, it is given beside it.\n\n",
    );
    out.push_str("## Consumer groups: the scenario\n\n");
    out.push_str(&markdown_table(SCENARIO_KNOBS, &Scenario::default()));
    out.push_str("\n## Consumer groups: each group (`groups[]`)\n\n");
    out.push_str(&markdown_table(GROUP_KNOBS, &GroupConfig::default()));
    out.push_str("\n## Event time\n\n");
    out.push_str(&markdown_table(
        EVENT_TIME_KNOBS,
        &EventTimeScenario::default(),
    ));
    out.push_str("\n## Queues and logs\n\n");
    out.push_str(&markdown_table(QUEUES_KNOBS, &QueuesScenario::default()));
    out.push_str("\n## Replication\n\n");
    out.push_str(&markdown_table(
        REPLICATION_KNOBS,
        &ReplicationScenario::default(),
    ));
    out.push_str("\n## Practice: the Inkwell challenge (defaults are its broken start)\n\n");
    out.push_str(&markdown_table(INKWELL_KNOBS, &InkwellScenario::default()));
    out.push_str("\n## Joins and top-K\n\n");
    out.push_str(&markdown_table(JOINS_KNOBS, &JoinsScenario::default()));
    out.push_str("\n## Exactly once: checkpoints, sinks and zombies\n\n");
    out.push_str(&markdown_table(EOS_KNOBS, &EosScenario::default()));
    out.push_str("\n## Databases and streams: dual writes, CDC, compaction, snapshots\n\n");
    out.push_str(&markdown_table(
        DATABASES_KNOBS,
        &DatabasesScenario::default(),
    ));
    out
}

#[test]
fn the_knob_reference_is_generated_from_the_tables() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/knobs.md");
    let expected = reference();
    if std::env::var_os("STREAMLAB_WRITE_DOCS").is_some() {
        std::fs::write(path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/knobs.md is out of date: run `STREAMLAB_WRITE_DOCS=1 cargo test -p streamlab-sim --test knob_docs`"
    );
    for knob in SCENARIO_KNOBS
        .iter()
        .map(|k| k.field)
        .chain(GROUP_KNOBS.iter().map(|k| k.field))
        .chain(QUEUES_KNOBS.iter().map(|k| k.field))
        .chain(REPLICATION_KNOBS.iter().map(|k| k.field))
        .chain(INKWELL_KNOBS.iter().map(|k| k.field))
        .chain(JOINS_KNOBS.iter().map(|k| k.field))
        .chain(EOS_KNOBS.iter().map(|k| k.field))
        .chain(DATABASES_KNOBS.iter().map(|k| k.field))
    {
        assert!(actual.contains(&format!("(`{knob}`)")), "{knob}");
    }
}
