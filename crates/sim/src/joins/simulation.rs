//! The joins world as a [`Simulation`]: its place on the timeline, its headline figures by
//! stable names, and what a headless report adds (the sampled series).
//!
//! Figures, by mode:
//! * stream–stream: `searches`, `clicks`, `clicked` (searches joined with a click),
//!   `unclicked` (searches the join emitted without one), `ctr` (what the output gives),
//!   `true_ctr`, `lost_clicks` (`late_clicks` + `clicks_outside_interval`),
//!   `clicked_searches_reported_unclicked`, `late_searches`, `held_searches`, `held_clicks`;
//! * stream–table: `orders`, `tier_changes`, and per clock (`processing_time`,
//!   `event_time`) `compared` (answered in both runs) and `differing_enrichments`, with
//!   `stale` (the first run's processing-time answers that are not the version valid at the
//!   order's time), and for event time `late` and `waiting`;
//! * table–table: `changes`, `view_rows`, `view_checks`, `view_mismatches`, `additions`,
//!   `retractions`, `append_only_stale_rows`;
//! * top-K: `windows`, `events`, `late`, and per method (`exact`, `keyed_by_item`,
//!   `keyed_by_user`, `sketch`) `recall_at_k`, `missed`, `misranked`, `state_bytes`; the
//!   sketch adds `max_overcount`, `overcount_bound`, `underestimates`, `over_bound`,
//!   `estimates` and `confidence`.

use super::enrichment::Clock;
use super::events::{narrate, JoinsEvent};
use super::ranking::Method;
use super::scenario::{JoinsScenario, MAX_DURATION_MS};
use super::sketch::confidence;
use super::snapshot::JoinsSnapshot;
use super::world::{JoinsWorld, Lane};
use crate::family::knob::Bounds;
use crate::family::lesson::LessonDefault;
use crate::family::preset::Preset;
use crate::family::{Figures, Headless, ScenarioError, Simulation};
use crate::invariant::plain_json;
use crate::replay::chunked::ChunkedVec;
use crate::replay::trace::TraceHasher;
use serde_json::{Map, Value};

impl Simulation for JoinsWorld {
    type Scenario = JoinsScenario;
    type Snapshot = JoinsSnapshot;
    type Event = JoinsEvent;

    const FAMILY: &'static str = "joins";

    fn new(scenario: &JoinsScenario) -> Result<Self, ScenarioError> {
        JoinsWorld::new(scenario.clone())
    }

    fn scenario(&self) -> &JoinsScenario {
        JoinsWorld::scenario(self)
    }

    fn advance_to(&mut self, target_ms: u64) {
        JoinsWorld::advance_to(self, target_ms);
    }

    fn now_ms(&self) -> u64 {
        JoinsWorld::now_ms(self)
    }

    fn end_ms(&self) -> u64 {
        JoinsWorld::end_ms(self)
    }

    fn snapshot(&self) -> JoinsSnapshot {
        JoinsWorld::snapshot(self)
    }

    fn events(&self) -> &ChunkedVec<JoinsEvent> {
        JoinsWorld::events(self)
    }

    fn event_at_ms(event: &JoinsEvent) -> u64 {
        event.at_ms
    }

    fn narrate(event: &JoinsEvent) -> Option<String> {
        Some(narrate(event))
    }

    /// Folded as the run goes from each input taken (index, instant) and each event's typed
    /// fields; narration never enters it.
    fn trace_hash(&self) -> TraceHasher {
        JoinsWorld::trace_hash(self)
    }

    fn figures(&self) -> Figures {
        match &self.lane {
            Lane::Clicks(lane) => {
                let c = &lane.counts;
                Figures::new()
                    .count("searches", u64::from(c.searches))
                    .count("clicks", u64::from(c.clicks))
                    .count("clicked", u64::from(c.clicked))
                    .count("unclicked", u64::from(lane.unclicked()))
                    .ratio("ctr", lane.ctr())
                    .ratio("true_ctr", lane.true_ctr())
                    .count("lost_clicks", u64::from(lane.lost_clicks()))
                    .count("late_clicks", u64::from(c.late_clicks))
                    .count("clicks_outside_interval", u64::from(c.outside_interval))
                    .count(
                        "clicked_searches_reported_unclicked",
                        u64::from(c.wrongly_unclicked),
                    )
                    .count("late_searches", u64::from(c.late_searches))
                    .count("held_searches", u64::from(c.held_searches))
                    .count("held_clicks", u64::from(c.held_clicks))
            }
            Lane::Enrichment(lane) => {
                let first_versions = self.scenario().enrichment.customers as usize;
                let clock = |clock: Clock| {
                    let c = clock as usize;
                    Figures::new()
                        .count("answered", u64::from(lane.runs[0].answered[c]))
                        .count("compared", u64::from(lane.compared[c]))
                        .count("differing_enrichments", u64::from(lane.differing[c]))
                };
                let late: u32 = lane
                    .runs
                    .iter()
                    .map(|r| r.late_orders + r.late_changes)
                    .sum();
                Figures::new()
                    .count("orders", lane.orders.len() as u64)
                    .count(
                        "tier_changes",
                        lane.changes.len().saturating_sub(first_versions) as u64,
                    )
                    .group(
                        "processing_time",
                        clock(Clock::Processing).count("stale", u64::from(lane.stale_first_run)),
                    )
                    .group(
                        "event_time",
                        clock(Clock::Event)
                            .count("stale", u64::from(lane.event_time_wrong))
                            .count("late", u64::from(late))
                            .count(
                                "waiting",
                                lane.runs.iter().map(|r| r.waiting() as u64).sum(),
                            ),
                    )
            }
            Lane::Tables(lane) => Figures::new()
                .count("changes", u64::from(lane.applied))
                .count("view_rows", lane.view.view().len() as u64)
                .count("view_checks", u64::from(lane.checks))
                .count("view_mismatches", u64::from(lane.mismatches))
                .count("additions", u64::from(lane.additions))
                .count("retractions", u64::from(lane.retractions))
                .count(
                    "append_only_stale_rows",
                    u64::from(lane.append_only_stale_rows()),
                ),
            Lane::Ranking(lane) => {
                let (events, late) = lane.counts();
                let mut figures = Figures::new()
                    .count("windows", lane.windows)
                    .count("events", events)
                    .count("late", late);
                for method in Method::ALL {
                    let tally = lane.tallies[method as usize];
                    let mut group = Figures::new()
                        .ratio("recall_at_k", tally.recall())
                        .count("missed", tally.missed)
                        .count("misranked", tally.misranked)
                        .count("state_bytes", tally.peak_state_bytes);
                    if method == Method::Sketch {
                        let checks = lane.sketch_checks;
                        let depth = self.scenario().topk.sketch_depth;
                        group = group
                            .count("max_overcount", checks.max_overcount)
                            .ratio("overcount_bound", checks.bound_milli as f64 / 1_000.0)
                            .count("underestimates", checks.underestimates)
                            .count("over_bound", checks.over_bound)
                            .count("estimates", checks.estimates)
                            .ratio("confidence", confidence(depth));
                    }
                    figures = figures.group(method.name(), group);
                }
                figures
            }
        }
    }

    /// See the `invariants` module.
    fn check_invariants(&self) -> Result<(), String> {
        super::invariants::check(self)
    }

    fn size_hint_bytes(&self) -> usize {
        // The inputs are shared between clones; what a clone holds of its own grows with
        // the fates, answers and samples, about one word per input, plus the events.
        let inputs = self.scenario().input_estimate() as usize;
        inputs * 8 + self.events().own_size_hint_bytes()
    }

    fn shared_size_hint_bytes(_first: &Self, last: &Self) -> usize {
        last.events().shared_size_hint_bytes()
    }
}

impl Headless for JoinsWorld {
    fn presets() -> &'static [Preset<JoinsScenario>] {
        super::PRESETS
    }

    fn lessons() -> &'static [LessonDefault<JoinsScenario>] {
        super::LESSONS
    }

    const MAX_AT_MS: u64 = 2 * MAX_DURATION_MS;

    fn validate(scenario: &JoinsScenario) -> Result<(), ScenarioError> {
        scenario.validate()
    }

    /// `--duration-ms` sets how long the sources produce.
    const DURATION: Bounds = Bounds::new(5_000.0, MAX_DURATION_MS as f64, "ms");

    fn set_duration(scenario: &mut JoinsScenario, duration_ms: u64) {
        scenario.duration_ms = duration_ms;
    }

    /// The sampled series the charts plot, and for top-K the last window's rankings.
    fn details(&self) -> Map<String, Value> {
        let snapshot = self.snapshot();
        let mut out = Map::new();
        let mut put = |name: &str, value: Value| {
            out.insert(name.into(), value);
        };
        if let Some(c) = &snapshot.clicks {
            put("series", plain_json(&c.samples));
        }
        if let Some(e) = &snapshot.enrichment {
            put("series", plain_json(&e.samples));
        }
        if let Some(t) = &snapshot.tables {
            put("series", plain_json(&t.samples));
        }
        if let Some(r) = &snapshot.ranking {
            put("series", plain_json(&r.samples));
            put("last_window", plain_json(&r.last));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::search_click::ratio;

    #[test]
    fn ratios_are_thousandths() {
        assert_eq!(ratio(1, 3), 0.333);
        assert_eq!(ratio(0, 0), 0.0);
    }
}
