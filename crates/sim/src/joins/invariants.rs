//! What must hold at every instant of a joins run, checked after every tick in debug builds
//! (`crate::family::debug_check`). Each rule reads counters the lanes keep as they go and the
//! events of the latest tick, never the whole run again.
//!
//! * Events are in time order and never ahead of the clock.
//! * Stream–stream: every search and click that arrived is in exactly one place (held,
//!   matched, expired or late), and the join holds unmatched exactly the ones the lane
//!   thinks are waiting.
//! * Stream–table: every order that arrived is answered, waiting (event time) or late; an
//!   event-time run with nothing late answers every order with the version valid at its
//!   time, so two such runs never differ.
//! * Table–table: the view equals the batch join of the tables after every change.
//! * Top-K: the merge of partitions keyed by the post is the exact ranking in every window,
//!   and the sketch never estimates below a true count.

use super::enrichment::Clock;
use super::world::{JoinsWorld, Lane};

/// How far the run had got when the latest tick began.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TickMarks {
    /// Events told before it.
    pub(crate) events: usize,
}

impl TickMarks {
    pub(crate) fn at_start_of(world: &JoinsWorld) -> Self {
        Self {
            events: world.events().len(),
        }
    }
}

/// Every rule; the first broken one, as a sentence.
pub(crate) fn check(world: &JoinsWorld) -> Result<(), String> {
    crate::family::newest_events_in_order(world, world.tick.events)?;
    match &world.lane {
        Lane::Clicks(lane) => {
            let c = &lane.counts;
            if c.searches != c.held_searches + c.clicked + c.expired_searches + c.late_searches {
                return Err(format!(
                    "{} searches arrived but {} are held, {} clicked, {} expired, {} late",
                    c.searches, c.held_searches, c.clicked, c.expired_searches, c.late_searches
                ));
            }
            if c.clicks != c.held_clicks + c.clicked + c.outside_interval + c.late_clicks {
                return Err(format!(
                    "{} clicks arrived but {} are held, {} joined, {} outside, {} late",
                    c.clicks, c.held_clicks, c.clicked, c.outside_interval, c.late_clicks
                ));
            }
            // A matched event stays in the join's state until it expires (it could meet
            // another partner), so only the unmatched ones are the lane's held ones. The
            // state holds what the interval and the watermark's delay allow: a few dozen.
            let mut waiting = [0_u32; 2];
            for (side, _, held) in lane.join.held() {
                waiting[side.index()] += u32::from(!held.matched);
            }
            if waiting != [c.held_searches, c.held_clicks] {
                return Err(format!(
                    "the join holds {waiting:?} unmatched events but the lane counts {} \
                     searches and {} clicks",
                    c.held_searches, c.held_clicks
                ));
            }
        }
        Lane::Enrichment(lane) => {
            for run in &lane.runs {
                let late = run.late_orders;
                let waiting = run.waiting() as u32;
                let event = run.answered[Clock::Event as usize];
                let processing = run.answered[Clock::Processing as usize];
                if processing != run.orders_arrived || event + waiting + late != run.orders_arrived
                {
                    return Err(format!(
                        "{} orders arrived; by processing time {processing} are answered, by \
                         event time {event} answered, {waiting} waiting and {late} late",
                        run.orders_arrived
                    ));
                }
            }
            let nothing_late = lane
                .runs
                .iter()
                .all(|r| r.late_orders == 0 && r.late_changes == 0);
            if nothing_late && lane.event_time_wrong + lane.differing[Clock::Event as usize] > 0 {
                return Err(format!(
                    "with nothing late, {} event-time answers differ from the version valid at \
                     the order's time and {} differ between the runs",
                    lane.event_time_wrong,
                    lane.differing[Clock::Event as usize]
                ));
            }
        }
        Lane::Tables(lane) => {
            if lane.mismatches != 0 {
                return Err(format!(
                    "the view differed from the batch join {} times",
                    lane.mismatches
                ));
            }
        }
        Lane::Ranking(lane) => {
            if lane.by_item_wrong != 0 {
                return Err(format!(
                    "the merge keyed by post differed from the exact ranking in {} windows",
                    lane.by_item_wrong
                ));
            }
            if lane.sketch_checks.underestimates != 0 {
                return Err(format!(
                    "the sketch estimated {} counts below the truth",
                    lane.sketch_checks.underestimates
                ));
            }
        }
    }
    Ok(())
}
