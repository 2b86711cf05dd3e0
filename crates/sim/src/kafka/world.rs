//! The World: one run of a Scenario, advanced tick by tick in a fixed order.
//!
//! Time is an integer count of milliseconds. A tick at time `t` runs, in this order: the
//! producer sends what is due and appends what has waited out `linger.ms`; at each
//! `log.retention.check.interval.ms`, retention deletes what has expired (and groups count what
//! they lose to it); scheduled actions apply; every group runs
//! every member's poll loop (groups in scenario order, members in id order); the metrics take a
//! sample if one is due. Ticks where nothing can happen are skipped: the world jumps to the
//! earliest time any part has work, which gives the same result as visiting every millisecond
//! because nothing changes in between. `World: Clone` is a full checkpoint.

use crate::assignor::Assignor;
use crate::kafka::commit_json::write_commit_json;
use crate::kafka::events::{Event, EventKind};
use crate::kafka::group::{Group, LogStartCause, StepSink};
use crate::kafka::metrics::Metrics;
use crate::kafka::producer::Producer;
use crate::kafka::scenario::{MemberAction, Scenario, ScenarioError, ScheduledAction};
use crate::kafka::snapshot::Snapshot;
use crate::kafka::topic::{PartitionLog, Retention, Topic};
use crate::replay::chunked::ChunkedVec;
use crate::replay::rng::{stream, SimRng};
use crate::replay::trace::TraceHasher;
use std::sync::Arc;

/// A running simulation.
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) scenario: Scenario,
    /// Every tick at or before this time has run.
    pub(crate) now_ms: u64,
    pub(crate) topic: Topic,
    pub(crate) producer: Producer,
    pub(crate) groups: Vec<Group>,
    pub(crate) metrics: Metrics,
    /// Shared with the checkpoints: a clone copies pointers, not the events' ids and lists.
    pub(crate) events: ChunkedVec<Arc<Event>>,
    /// The scenario's schedule with restarts expanded, in time order; `next_action` indexes
    /// the first one not yet applied.
    schedule: Vec<ScheduledAction>,
    next_action: usize,
    /// How many of `events` are already folded into the trace.
    events_hashed: usize,
    pub(crate) trace: TraceHasher,
    retention: Retention,
    retention_check_interval_ms: u64,
}

impl World {
    /// Builds the world for `scenario` and runs its first tick (t = 0), which assigns every
    /// group its partitions.
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        Self::with_assignors(scenario, &Assignor::EVERY_IDENTICAL)
    }

    /// [`World::new`] for a scenario that is valid by construction (the practice family
    /// builds its scenarios from knobs it has checked itself) and whose groups use only the
    /// strategies in `assignors`. A program that builds no other world links neither the other
    /// assignors nor the consumer-group family's checks and their knob table; a scenario that
    /// fails the checks anyway panics in debug builds (the tests) instead of running.
    pub fn with_assignors(
        scenario: &Scenario,
        assignors: &[Assignor],
    ) -> Result<Self, ScenarioError> {
        debug_assert_eq!(scenario.validate().map_err(|e| e.to_string()), Ok(()));
        let partitions = scenario.topic.partitions;
        let groups = scenario
            .groups
            .iter()
            .enumerate()
            .map(|(i, config)| {
                let strategy = config.partition_assignment_strategy;
                let assignor = Assignor::find(assignors, strategy).ok_or_else(|| {
                    ScenarioError::new(
                        format!("groups[{i}].partition_assignment_strategy"),
                        format!("{strategy} is not offered here"),
                    )
                })?;
                Ok(Group::new(
                    config,
                    assignor,
                    partitions,
                    scenario.broker.group_initial_rebalance_delay_ms,
                    scenario.seed,
                    i as u64,
                ))
            })
            .collect::<Result<_, ScenarioError>>()?;
        let mut world = Self {
            scenario: scenario.clone(),
            now_ms: 0,
            topic: Topic::new(&scenario.topic.name, partitions),
            producer: Producer::new(&scenario.producer, partitions, scenario.seed),
            groups,
            metrics: Metrics::default(),
            events: ChunkedVec::default(),
            schedule: expand_schedule(&scenario.schedule, &generated_actions(scenario)),
            next_action: 0,
            events_hashed: 0,
            trace: TraceHasher::default(),
            retention: Retention {
                ms: scenario.topic.retention_ms,
                bytes: scenario.topic.retention_bytes,
                record_bytes: scenario.topic.record_bytes,
            },
            retention_check_interval_ms: u64::from(scenario.broker.log_retention_check_interval_ms),
        };
        world.start();
        Ok(world)
    }

    fn start(&mut self) {
        self.tick(0);
    }

    /// Runs every tick up to and including `target_ms`.
    pub fn advance_to(&mut self, target_ms: u64) {
        while self.now_ms < target_ms {
            let next_ms = self.next_activity_ms().max(self.now_ms + 1);
            if next_ms > target_ms {
                self.now_ms = target_ms;
                return;
            }
            self.tick(next_ms);
        }
    }

    /// The next tick with work, or any time up to the next millisecond when that one has
    /// work (the caller never runs a tick sooner).
    fn next_activity_ms(&self) -> u64 {
        let next_action_ms = self
            .schedule
            .get(self.next_action)
            .map_or(u64::MAX, |a| a.at_ms);
        let world_ms = self
            .producer
            .next_send_ms()
            .min(self.producer.next_append_ms())
            .min(self.metrics.next_sample_ms())
            .min(next_action_ms);
        // A busy producer has a send due every millisecond: then the next tick is the next
        // millisecond whatever the groups say, and their members need not be asked.
        if world_ms <= self.now_ms + 1 {
            return world_ms;
        }
        // Plain minimums and loops, not an array's or a chain's iterator: this runs on most
        // ticks, and in the size build every adapter's step is a call.
        let mut others_ms = world_ms;
        for group in &self.groups {
            others_ms = others_ms.min(group.next_activity_ms());
        }
        // Retention only ever acts on a check boundary: when the next boundary comes after
        // everything else, the partitions need not be looked at.
        if self.next_retention_check_ms() > others_ms {
            return others_ms;
        }
        others_ms.min(self.next_expiry_ms())
    }

    /// The first retention check boundary after now (a lower bound on `next_expiry_ms`).
    fn next_retention_check_ms(&self) -> u64 {
        let interval_ms = self.retention_check_interval_ms;
        (self.now_ms + 1)
            .div_ceil(interval_ms)
            .saturating_mul(interval_ms)
    }

    fn tick(&mut self, now_ms: u64) {
        self.now_ms = now_ms;
        let trace = &mut self.trace;
        self.producer.send_due(now_ms);
        self.producer
            .append_due(now_ms, &mut self.topic, |partition, offset, key| {
                trace.write_u64(u64::from(partition) << 32 | u64::from(key));
                trace.write_u64(offset);
            });
        let mut sink = StepSink {
            events: &mut self.events,
            trace: &mut self.trace,
        };
        if now_ms > 0 && now_ms % self.retention_check_interval_ms == 0 {
            let retention = self.retention;
            apply_retention(
                &mut self.topic,
                &mut self.groups,
                retention,
                now_ms,
                &mut sink,
            );
        }
        while let Some(action) = self
            .schedule
            .get(self.next_action)
            .filter(|a| a.at_ms <= now_ms)
        {
            if action.action == MemberAction::DeleteRecords {
                delete_committed_records(
                    &mut self.topic,
                    &mut self.groups,
                    action,
                    now_ms,
                    &mut sink,
                );
            } else if let Some(group) = self
                .groups
                .iter_mut()
                .find(|g| g.group_id() == action.group_id)
            {
                group.apply_action(
                    &action.member_id,
                    action.action,
                    now_ms,
                    &self.topic,
                    &mut sink,
                );
            }
            self.next_action += 1;
        }
        for group in &mut self.groups {
            group.run_tick(now_ms, &self.topic, &mut sink);
        }
        if self.metrics.next_sample_ms() <= now_ms {
            self.metrics
                .sample(now_ms, &self.topic, &mut self.groups, &mut self.events);
        }
        self.hash_new_events();
        crate::family::debug_check(self);
    }

    /// Folds the events this tick added by their typed fields, never their narration, so
    /// rewording a sentence leaves every run's fingerprint as it was.
    fn hash_new_events(&mut self) {
        // Most ticks add no event: nothing to walk.
        if self.events.len() == self.events_hashed {
            return;
        }
        for event in self.events.iter_from(self.events_hashed) {
            if !write_commit_json(event, &mut self.trace) {
                self.trace.write_json(&**event);
            }
        }
        self.events_hashed = self.events.len();
    }

    /// Continues this run under `scenario`, which may differ from the run's own only in
    /// scheduled actions after now (what a learner acting now can change): the result is the
    /// run of `scenario` from zero, without replaying it. Returns false, changing nothing, for
    /// any other difference.
    pub fn reschedule(&mut self, scenario: &Scenario) -> bool {
        let mut same_settings = scenario.clone();
        same_settings.schedule.clone_from(&self.scenario.schedule);
        if same_settings != self.scenario || scenario.validate().is_err() {
            return false;
        }
        let expanded = expand_schedule(&scenario.schedule, &generated_actions(scenario));
        let applied = &self.schedule[..self.next_action];
        let keeps_the_past = expanded.get(..self.next_action) == Some(applied)
            && expanded[self.next_action..]
                .iter()
                .all(|a| a.at_ms > self.now_ms);
        if keeps_the_past {
            self.scenario = scenario.clone();
            self.schedule = expanded;
        }
        keeps_the_past
    }

    /// The broker's next retention check (every `log.retention.check.interval.ms`), if the
    /// topic has a limit and a record to delete by then could exist.
    fn next_expiry_ms(&self) -> u64 {
        if self.retention.ms < 0 && self.retention.bytes < 0 {
            return u64::MAX;
        }
        let interval_ms = self.retention_check_interval_ms;
        let by_age = self
            .topic
            .partitions
            .iter()
            .map(|p| p.next_expiry_ms(&self.retention));
        let earliest_ms = if self.retention.bytes >= 0 {
            self.now_ms + 1
        } else {
            by_age.min().unwrap_or(u64::MAX).max(self.now_ms + 1)
        };
        earliest_ms
            .div_ceil(interval_ms)
            .saturating_mul(interval_ms)
    }

    /// The scheduled actions (restarts expanded into a leave and a start), in time order.
    pub fn schedule(&self) -> &[ScheduledAction] {
        &self.schedule
    }

    /// The time up to which the world has run.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn topic(&self) -> &Topic {
        &self.topic
    }

    pub fn producer(&self) -> &Producer {
        &self.producer
    }

    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every event so far, oldest first.
    pub fn events(&self) -> &ChunkedVec<Arc<Event>> {
        &self.events
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The fingerprint of everything the run has done so far.
    pub fn trace_hash(&self) -> TraceHasher {
        self.trace
    }

    /// What to draw now; `tail_len` is how many of each partition's newest records to include.
    pub fn snapshot(&self, tail_len: usize) -> Snapshot {
        Snapshot::of(self, tail_len)
    }
}

/// Deletes what retention says has expired, and tells each group what it lost.
fn apply_retention(
    topic: &mut Topic,
    groups: &mut [Group],
    retention: Retention,
    now_ms: u64,
    sink: &mut StepSink,
) {
    for (p, log) in topic.partitions.iter_mut().enumerate() {
        let expired = log.expired(now_ms, &retention);
        delete_oldest(
            log,
            p,
            expired,
            LogStartCause::Retention,
            groups,
            now_ms,
            sink,
        );
    }
}

/// `Admin.deleteRecords()` run by `action`'s member: every partition's log start moves up to
/// its group's committed offset (never past the log end), and every group is told what it
/// lost.
fn delete_committed_records(
    topic: &mut Topic,
    groups: &mut [Group],
    action: &ScheduledAction,
    now_ms: u64,
    sink: &mut StepSink,
) {
    let Some(deleter) = groups.iter().find(|g| g.group_id() == action.group_id) else {
        return;
    };
    let before: Vec<u64> = deleter.partitions.iter().map(|p| p.committed).collect();
    let mut records = 0;
    for (p, log) in topic.partitions.iter_mut().enumerate() {
        let target = before[p].min(log.log_end_offset());
        let count = target.saturating_sub(log.log_start_offset()) as usize;
        records += count as u64;
        delete_oldest(
            log,
            p,
            count,
            LogStartCause::DeleteRecords,
            groups,
            now_ms,
            sink,
        );
    }
    sink.push(Event {
        at_ms: now_ms,
        kind: EventKind::RecordsDeleted {
            group_id: action.group_id.as_str().into(),
            member_id: action.member_id.as_str().into(),
            records,
        },
    });
}

/// Deletes partition `p`'s `count` oldest records and tells each group what it lost.
fn delete_oldest(
    log: &mut PartitionLog,
    p: usize,
    count: usize,
    cause: LogStartCause,
    groups: &mut [Group],
    now_ms: u64,
    sink: &mut StepSink,
) {
    if count == 0 {
        return;
    }
    let old_start = log.log_start_offset();
    log.delete_oldest(count);
    let moved = (old_start, log.log_start_offset());
    for group in groups.iter_mut() {
        group.on_log_start_moved(p as u32, moved, cause, now_ms, sink);
    }
}

/// Most crashes drawn for one group: a limit so a tiny mean interval cannot flood a run.
const MAX_RANDOM_CRASHES: usize = 1_000;

/// Actions the scenario implies without listing them: the start of a group that begins later,
/// and random crashes (each followed by a restart `crash_down_ms` later), drawn from the
/// group's own crash stream up to `duration_ms`.
fn generated_actions(scenario: &Scenario) -> Vec<ScheduledAction> {
    let mut actions = Vec::new();
    for (index, group) in scenario.groups.iter().enumerate() {
        let at = |at_ms: u64, member: u32, action: MemberAction| ScheduledAction {
            at_ms,
            group_id: group.group_id.clone(),
            member_id: format!("c{member}"),
            action,
        };
        if group.start_ms > 0 {
            actions.extend((1..=group.members).map(|m| at(group.start_ms, m, MemberAction::Start)));
        }
        if group.crash_mean_interval_ms == 0 || group.members == 0 {
            continue;
        }
        let mut rng = SimRng::for_stream(scenario.seed, stream::CRASH_BASE + index as u64);
        let mean_ms = group.crash_mean_interval_ms as f64;
        let mut crashes = 0;
        for member in 1..=group.members {
            let mut t_ms = group.start_ms;
            while crashes < MAX_RANDOM_CRASHES {
                let gap_ms = -mean_ms * libm::log(1.0 - rng.unit_f64());
                t_ms += (gap_ms as u64).max(1);
                if t_ms >= scenario.duration_ms {
                    break;
                }
                actions.push(at(t_ms, member, MemberAction::Crash));
                t_ms += group.crash_down_ms;
                actions.push(at(t_ms, member, MemberAction::Start));
                crashes += 1;
            }
        }
    }
    actions
}

/// The schedule in time order (stable, so same-time actions keep the scenario's order, and
/// generated actions come after listed ones), with each restart split into a leave now and a
/// start `down_ms` later.
fn expand_schedule(
    schedule: &[ScheduledAction],
    generated: &[ScheduledAction],
) -> Vec<ScheduledAction> {
    let mut expanded: Vec<ScheduledAction> = schedule
        .iter()
        .flat_map(|action| match action.action {
            MemberAction::Restart { down_ms } => vec![
                action.clone(),
                ScheduledAction {
                    at_ms: action.at_ms + down_ms,
                    action: MemberAction::Start,
                    ..action.clone()
                },
            ],
            _ => vec![action.clone()],
        })
        .chain(generated.iter().cloned())
        .collect();
    crate::replay::sort::sort_by_key(&mut expanded, |a| a.at_ms);
    expanded
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The world runs only the ticks where something has work; every tick it skips must be
    /// one where nothing would have happened.
    #[test]
    fn the_world_skips_only_ticks_where_nothing_happens() {
        let mut world = World::new(&Scenario::default()).unwrap();
        let mut skipped = 0;
        while world.now_ms < 30_000 {
            // As `advance_to` asks it: "now" means "the next millisecond".
            let next_ms = world.next_activity_ms().max(world.now_ms + 1);
            if next_ms > world.now_ms + 1 {
                let mut ticked = world.clone();
                ticked.tick(world.now_ms + 1);
                assert_eq!(ticked.trace_hash().finish(), world.trace_hash().finish());
                assert_eq!(ticked.events().len(), world.events().len());
                skipped += next_ms - world.now_ms - 1;
            }
            world.tick(next_ms);
        }
        // The default lesson sends every 5 ms and its members wake on the same grid.
        assert!(skipped > 20_000, "{skipped} ms skipped");
    }

    /// Runs `world` to `end_ms` as `advance_to` does, but with every member of every group
    /// looked at on every tick, as before members could be skipped.
    fn run_visiting_every_member(world: &mut World, end_ms: u64) {
        while world.now_ms < end_ms {
            let next_ms = world.next_activity_ms().max(world.now_ms + 1).min(end_ms);
            for group in &mut world.groups {
                group.busy_until_ms.fill(0);
            }
            world.tick(next_ms);
        }
    }

    /// Scenarios that reach every way a member's wait can end early: a pause, a crash and a
    /// restart, a reset, a member that starts later, cooperative and static membership.
    fn scenarios_with_every_interruption() -> Vec<Scenario> {
        use crate::assignor::Strategy;
        use crate::kafka::scenario::{OffsetTarget, ScheduledAction};
        let action = |at_ms, member_id: &str, action| ScheduledAction {
            at_ms,
            group_id: "search".into(),
            member_id: member_id.into(),
            action,
        };
        let mut presets: Vec<Scenario> = crate::kafka::presets::PRESETS
            .iter()
            .map(|preset| (preset.build)())
            .collect();
        let preset = |slug| (crate::kafka::presets::find(slug).unwrap().build)();
        let mut interrupted = preset("rebalance-storm");
        interrupted.duration_ms = 60_000;
        interrupted.schedule.extend([
            action(21_000, "c1", MemberAction::Pause { duration_ms: 3_000 }),
            action(25_000, "c2", MemberAction::Crash),
            action(26_000, "c2", MemberAction::Start),
            action(30_000, "c7", MemberAction::Start),
            action(40_000, "c4", MemberAction::Restart { down_ms: 2_000 }),
            action(
                45_000,
                "c5",
                MemberAction::ResetOffsets {
                    to: OffsetTarget::Earliest,
                },
            ),
        ]);
        interrupted.schedule.sort_by_key(|a| a.at_ms);
        let mut cooperative = interrupted.clone();
        cooperative.groups[0].partition_assignment_strategy = Strategy::CooperativeSticky;
        let mut static_members = interrupted.clone();
        static_members.groups[0].static_membership = true;
        presets.extend([interrupted, cooperative, static_members]);
        presets
    }

    /// Skipping a member until it can act changes nothing: every preset, and runs with every
    /// kind of interruption, give the same trace, events and counts as looking at every member
    /// on every tick.
    #[test]
    fn a_group_skips_only_members_that_would_do_nothing() {
        for scenario in scenarios_with_every_interruption() {
            let mut skipping = World::new(&scenario).unwrap();
            let mut visiting = skipping.clone();
            skipping.advance_to(scenario.duration_ms);
            run_visiting_every_member(&mut visiting, scenario.duration_ms);
            assert_eq!(
                skipping.trace_hash().finish(),
                visiting.trace_hash().finish(),
                "{scenario:?}"
            );
            assert_eq!(skipping.events().len(), visiting.events().len());
            for (skipped, visited) in skipping.groups.iter().zip(&visiting.groups) {
                assert_eq!(skipped.processed_total, visited.processed_total);
                assert_eq!(skipped.rebalances_total, visited.rebalances_total);
            }
        }
    }
}
