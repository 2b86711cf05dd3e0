//! The joins family's CSV export: the run's sampled series up to the instant on screen, from
//! a fresh run of the scenario (determinism makes it the same run), one row per sample.

use streamlab_sim::family::Simulation;
use streamlab_sim::joins::{JoinsScenario, JoinsWorld};

/// The run's sampled series up to `at_ms`, re-simulated.
pub fn csv_at(scenario: &JoinsScenario, at_ms: u64) -> String {
    let Ok(mut world) = <JoinsWorld as Simulation>::new(scenario) else {
        return String::new();
    };
    world.advance_to(at_ms);
    let s = world.snapshot();
    let mut rows = Vec::new();
    if let Some(c) = &s.clicks {
        rows.push("at_ms,held_searches,held_clicks,clicked,unclicked,lost_clicks".to_string());
        rows.extend(c.samples.iter().map(|x| {
            format!(
                "{},{},{},{},{},{}",
                x.at_ms, x.held_searches, x.held_clicks, x.clicked, x.unclicked, x.lost_clicks
            )
        }));
    }
    if let Some(e) = &s.enrichment {
        rows.push(
            "at_ms,processing_compared,processing_differing,event_compared,event_differing"
                .to_string(),
        );
        rows.extend(e.samples.iter().map(|x| {
            format!(
                "{},{},{},{},{}",
                x.at_ms, x.compared[0], x.differing[0], x.compared[1], x.differing[1]
            )
        }));
    }
    if let Some(t) = &s.tables {
        rows.push("at_ms,view_rows,append_only_rows,retractions".to_string());
        rows.extend(t.samples.iter().map(|x| {
            format!(
                "{},{},{},{}",
                x.at_ms, x.view_rows, x.append_only_rows, x.retractions
            )
        }));
    }
    if let Some(r) = &s.ranking {
        rows.push("at_ms,window_end_ms,exact,keyed_by_item,keyed_by_user,sketch".to_string());
        rows.extend(r.samples.iter().map(|x| {
            format!(
                "{},{},{},{},{},{}",
                x.at_ms, x.end_ms, x.recall[0], x.recall[1], x.recall[2], x.recall[3]
            )
        }));
    }
    rows.join("\n") + "\n"
}
