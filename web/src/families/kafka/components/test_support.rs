//! What the components' tests share: a scenario's snapshot at a given time, with as many
//! records per partition as the page draws, and the outline of a path in written markup.

use streamlab_sim::kafka::snapshot::{Snapshot, DRAWN_CELLS};
use streamlab_sim::kafka::{Scenario, World};

/// `scenario`'s snapshot after `at_ms` of its run.
pub fn snapshot_of(scenario: &Scenario, at_ms: u64) -> Snapshot {
    let mut world = World::new(scenario).expect("a valid scenario");
    world.advance_to(at_ms);
    world.snapshot(DRAWN_CELLS)
}

/// The default lesson's snapshot after `at_ms`.
pub fn default_lesson_at(at_ms: u64) -> Snapshot {
    snapshot_of(&Scenario::default(), at_ms)
}

/// The `d` of the first path of class `class` in `markup`.
pub fn path_d<'a>(markup: &'a str, class: &str) -> &'a str {
    let opening = format!(r#"<path class="{class}" d=""#);
    let from = markup.find(&opening).expect(class) + opening.len();
    &markup[from..from + markup[from..].find('"').expect("a closed d")]
}
