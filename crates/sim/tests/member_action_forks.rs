//! A member action taken at any moment continues the run exactly as a run of the new scenario
//! from zero would go: the property a share link relies on after a learner's crash button.

use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::kafka::scenario::{MemberAction, ScheduledAction};
use streamlab_sim::kafka::{presets, World};

fn fingerprint_from_zero(scenario: &streamlab_sim::kafka::Scenario, at_ms: u64) -> String {
    let mut world = World::new(scenario).unwrap();
    world.advance_to(at_ms);
    format!("{:?}", world.trace_hash())
}

#[test]
fn a_crash_at_any_moment_forks_into_the_run_from_zero() {
    let mut scenario = (presets::find("one-restart-stops-everyone").unwrap().build)();
    scenario.groups[0].members = 4;
    let mut mismatches = Vec::new();
    for now_ms in (6_000..9_000).step_by(37) {
        let mut timeline = Timeline::new(World::new(&scenario).unwrap());
        timeline.seek(now_ms);
        let mut next = scenario.clone();
        next.schedule.push(ScheduledAction {
            at_ms: now_ms + 1,
            group_id: scenario.groups[0].group_id.clone(),
            member_id: "c1".into(),
            action: MemberAction::Crash,
        });
        assert!(timeline.fork(&next), "{now_ms}");
        let later_ms = now_ms + 3_000;
        timeline.seek(later_ms);
        let forked = format!("{:?}", timeline.world().trace_hash());
        if forked != fingerprint_from_zero(&next, later_ms) {
            mismatches.push(now_ms);
        }
    }
    assert!(
        mismatches.is_empty(),
        "forks that differ from a run from zero: {mismatches:?}"
    );
}
