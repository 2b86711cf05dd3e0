//! Seeking: what moving the scrubber costs in a ten-minute run of the first lesson, and in the
//! storm preset at its largest. The timeline has already been played to the end (its
//! checkpoints exist); each seek goes back to just before a checkpoint boundary, the worst
//! case, since it replays a whole spacing. `member_action_at_9min` compares what a crash
//! button costs nine minutes into the default lesson: re-simulating the new scenario from
//! zero, or forking the run where it stands.

use criterion::{criterion_group, criterion_main, Criterion};
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::kafka::scenario::{MemberAction, ScheduledAction};
use streamlab_sim::kafka::{Scenario, World};

fn played(scenario: &Scenario, until_ms: u64) -> Timeline<World> {
    let mut timeline = Timeline::new(World::new(scenario).unwrap());
    timeline.seek(until_ms);
    timeline
}

fn benches(c: &mut Criterion) {
    let ten_minutes_ms = 600_000;
    let mut group = c.benchmark_group("seek");
    group.sample_size(20);
    let mut lesson = played(&Scenario::default(), ten_minutes_ms);
    let (count, spacing_ms) = lesson.checkpoints();
    println!("default lesson, 10 min: {count} checkpoints, {spacing_ms} ms apart");
    let mut targets = [
        spacing_ms - 1,
        ten_minutes_ms / 2 + spacing_ms - 1,
        ten_minutes_ms - 1,
    ]
    .into_iter()
    .cycle();
    group.bench_function("default_lesson_10min_worst_case", |b| {
        b.iter(|| lesson.seek(targets.next().unwrap()))
    });
    let storm = streamlab_sim::kafka::presets::storm_32_members();
    let mut storm_line = played(&storm, ten_minutes_ms);
    let (storm_count, storm_spacing_ms) = storm_line.checkpoints();
    println!("storm, 32 members, 10 min: {storm_count} checkpoints, {storm_spacing_ms} ms apart");
    let mut storm_targets = [storm_spacing_ms - 1, ten_minutes_ms - 1]
        .into_iter()
        .cycle();
    group.bench_function("storm_32_members_10min_worst_case", |b| {
        b.iter(|| storm_line.seek(storm_targets.next().unwrap()))
    });
    group.finish();

    let nine_minutes_ms = 540_000;
    let before = played(&Scenario::default(), nine_minutes_ms);
    let mut crashed = Scenario::default();
    crashed.schedule.push(ScheduledAction {
        at_ms: nine_minutes_ms + 1,
        group_id: "search".into(),
        member_id: "c2".into(),
        action: MemberAction::Crash,
    });
    let mut action = c.benchmark_group("member_action_at_9min");
    action.sample_size(20);
    action.bench_function("replay_from_zero", |b| {
        b.iter(|| played(&crashed, nine_minutes_ms))
    });
    action.bench_function("fork", |b| {
        b.iter_batched(
            || before.clone(),
            |mut timeline| {
                assert!(timeline.fork(&crashed));
                // Returned, so that dropping the clone is not timed.
                timeline
            },
            criterion::BatchSize::LargeInput,
        )
    });
    action.finish();
}

criterion_group!(timeline, benches);
criterion_main!(timeline);
