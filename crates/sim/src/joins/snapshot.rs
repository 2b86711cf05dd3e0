//! The plain-data picture of one moment of a joins run, what a lesson draws: for the
//! stream–stream join, the searches and clicks of the latest stretch of event time with
//! their fates, what the join still holds and when each expires, and the watermarks; for
//! the stream–table join, the latest orders with the four enrichments (two clocks, two
//! runs) beside the version valid at their time; for the table–table join, both tables, the
//! view and its latest changelog records; for top-K, the open windows and the last closed
//! window ranked every way. The sampled series for the charts come with each.

use super::enrichment::{Clock, EnrichSample};
use super::inputs::TIERS;
use super::ranking::{RecallSample, SketchChecks, Tally, WindowReport};
use super::scenario::Mode;
use super::search_click::{ClickSample, Fate};
use super::tables::TablesSample;
use super::two_input::Side;
use super::view::{LeftRow, ViewChange, ViewRow};
use super::world::{JoinsWorld, Lane};
use crate::window::Watermark;
use serde::Serialize;

/// How much event time the stream–stream picture spans, up to now.
pub const CLICK_SPAN_MS: u64 = 40_000;

/// How many of the latest orders the stream–table picture lists.
pub const ORDER_ROWS: usize = 20;

/// One moment of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JoinsSnapshot {
    pub now_ms: u64,
    pub end_ms: u64,
    /// Whether the input has ended (the watermark is at plus infinity).
    pub finished: bool,
    pub mode: Mode,
    pub clicks: Option<ClicksPicture>,
    pub enrichment: Option<EnrichmentPicture>,
    pub tables: Option<TablesPicture>,
    pub ranking: Option<RankingPicture>,
}

/// A watermark for drawing: a finite value, or none at minus infinity (and at plus
/// infinity, when [`JoinsSnapshot::finished`] says so).
fn finite(watermark: Watermark) -> Option<i64> {
    watermark.as_ms()
}

/// The stream–stream join at this moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClicksPicture {
    pub watermark_ms: Option<i64>,
    /// The searches' and the clicks' own watermarks.
    pub side_watermarks_ms: [Option<i64>; 2],
    pub lower_ms: i64,
    pub upper_ms: i64,
    /// The event-time span drawn.
    pub from_ms: u64,
    pub to_ms: u64,
    pub marks: Vec<ClickMark>,
    pub searches: u32,
    pub clicks: u32,
    pub clicked: u32,
    pub unclicked: u32,
    pub lost_clicks: u32,
    pub late_clicks: u32,
    pub outside_interval: u32,
    pub wrongly_unclicked: u32,
    pub held_searches: u32,
    pub held_clicks: u32,
    pub ctr: f64,
    pub true_ctr: f64,
    pub samples: Vec<ClickSample>,
}

/// A search or a click in the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClickMark {
    pub session: u32,
    pub side: Side,
    pub time_ms: u64,
    pub arrival_ms: u64,
    pub fate: Fate,
    /// While held: the event time past which the watermark lets it go.
    pub expires_ms: Option<i64>,
    /// Its partner's event time (the search's click, the click's search), if it has one.
    pub partner_ms: Option<u64>,
}

/// The stream–table join at this moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnrichmentPicture {
    /// Each run's event-time watermark.
    pub watermarks_ms: [Option<i64>; 2],
    pub rows: Vec<OrderRow>,
    pub customers: Vec<CustomerRow>,
    pub orders: u32,
    /// Per clock (processing, event): orders answered in both runs, and answered
    /// differently.
    pub compared: [u32; 2],
    pub differing: [u32; 2],
    pub stale_first_run: u32,
    pub event_time_wrong: u32,
    /// Per run: orders waiting for the watermark, and late orders and changes.
    pub waiting: [u32; 2],
    pub late: [u32; 2],
    pub samples: Vec<EnrichSample>,
}

/// One order: its four enrichments and the tier valid at its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OrderRow {
    pub order: u32,
    pub customer: u32,
    pub at_ms: u64,
    pub valid_tier: Option<u8>,
    /// `[run][clock]`: not answered yet (`None`), or the tier joined (`Some(None)`: no row).
    pub answers: [[Option<Option<u8>>; 2]; 2],
}

/// A customer's row as each run's processing-time join sees it now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CustomerRow {
    pub customer: u32,
    /// The latest arrived tier, per run.
    pub tiers: [Option<u8>; 2],
    /// Versions the first run's event-time join still keeps.
    pub versions_held: u32,
}

/// The table–table join at this moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TablesPicture {
    pub orders: Vec<(u32, LeftRow)>,
    pub customers: Vec<(u32, u32)>,
    pub view: Vec<(u32, ViewRow)>,
    /// The view's latest changelog records (when, what), oldest first.
    pub recent: Vec<(u64, ViewChange)>,
    pub applied: u32,
    pub additions: u32,
    pub retractions: u32,
    pub checks: u32,
    pub mismatches: u32,
    pub append_only_stale_rows: u32,
    pub samples: Vec<TablesSample>,
}

/// Top-K at this moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankingPicture {
    pub watermark_ms: Option<i64>,
    pub k: u32,
    pub partitions: u32,
    pub sketch_width: u32,
    pub sketch_depth: u32,
    /// (start, end, views counted so far), by end.
    pub open_windows: Vec<(i64, i64, u64)>,
    pub last: Option<WindowReport>,
    /// Per method, in [`super::ranking::Method::ALL`] order.
    pub tallies: [Tally; 4],
    pub sketch_checks: SketchChecks,
    pub windows: u64,
    pub events: u64,
    pub late: u64,
    pub samples: Vec<RecallSample>,
}

impl JoinsWorld {
    /// The picture of this moment.
    pub fn snapshot(&self) -> JoinsSnapshot {
        let mut snapshot = JoinsSnapshot {
            now_ms: self.now_ms(),
            end_ms: self.end_ms(),
            finished: self.finished(),
            mode: self.scenario().mode,
            clicks: None,
            enrichment: None,
            tables: None,
            ranking: None,
        };
        match &self.lane {
            Lane::Clicks(_) => snapshot.clicks = Some(self.clicks_picture()),
            Lane::Enrichment(_) => snapshot.enrichment = Some(self.enrichment_picture()),
            Lane::Tables(_) => snapshot.tables = Some(self.tables_picture()),
            Lane::Ranking(_) => snapshot.ranking = Some(self.ranking_picture()),
        }
        snapshot
    }

    fn clicks_picture(&self) -> ClicksPicture {
        let Lane::Clicks(lane) = &self.lane else {
            unreachable!("called for the stream–stream lane")
        };
        let now = self.now_ms();
        let from_ms = now.saturating_sub(CLICK_SPAN_MS);
        let config = lane.join.config();
        let mut marks = Vec::new();
        let held: crate::replay::sorted_map::SortedMap<(bool, u32), i64> = lane
            .join
            .held()
            .map(|(side, &session, h)| ((side == Side::Right, session), h.expires_ms))
            .collect();
        // A click can follow its search by at most a few dozen seconds; start early enough.
        let first = lane
            .sessions()
            .partition_point(|s| s.search_ms + 3 * CLICK_SPAN_MS < from_ms);
        for s in &lane.sessions()[first..] {
            if s.search_ms > now {
                break;
            }
            let i = s.session as usize;
            let search_fate = lane.search_fates[i];
            let click_time = s.click.map(|c| c.at_ms);
            if search_fate != Fate::Unsent && s.search_ms >= from_ms || search_fate == Fate::Held {
                marks.push(ClickMark {
                    session: s.session,
                    side: Side::Left,
                    time_ms: s.search_ms,
                    arrival_ms: s.search_arrival_ms,
                    fate: search_fate,
                    expires_ms: held.get(&(false, s.session)).copied(),
                    partner_ms: (search_fate == Fate::Matched)
                        .then_some(click_time)
                        .flatten(),
                });
            }
            if let Some(click) = s.click {
                let fate = lane.click_fates[i];
                if fate != Fate::Unsent && click.at_ms >= from_ms || fate == Fate::Held {
                    marks.push(ClickMark {
                        session: s.session,
                        side: Side::Right,
                        time_ms: click.at_ms,
                        arrival_ms: click.arrival_ms,
                        fate,
                        expires_ms: held.get(&(true, s.session)).copied(),
                        partner_ms: (fate == Fate::Matched).then_some(s.search_ms),
                    });
                }
            }
        }
        let c = &lane.counts;
        let watermarks = lane.join.watermarks();
        ClicksPicture {
            watermark_ms: finite(lane.join.watermark()),
            side_watermarks_ms: [
                finite(watermarks.side(Side::Left)),
                finite(watermarks.side(Side::Right)),
            ],
            lower_ms: config.lower_ms,
            upper_ms: config.upper_ms,
            from_ms,
            to_ms: now,
            marks,
            searches: c.searches,
            clicks: c.clicks,
            clicked: c.clicked,
            unclicked: lane.unclicked(),
            lost_clicks: lane.lost_clicks(),
            late_clicks: c.late_clicks,
            outside_interval: c.outside_interval,
            wrongly_unclicked: c.wrongly_unclicked,
            held_searches: c.held_searches,
            held_clicks: c.held_clicks,
            ctr: lane.ctr(),
            true_ctr: lane.true_ctr(),
            samples: lane.samples.clone(),
        }
    }

    fn enrichment_picture(&self) -> EnrichmentPicture {
        let Lane::Enrichment(lane) = &self.lane else {
            unreachable!("called for the stream–table lane")
        };
        let tier = |change: Option<u32>| change.map(|i| lane.changes[i as usize].tier);
        // The latest orders that have arrived in either run, by the time they were placed.
        let arrived = |order: usize| {
            lane.runs
                .iter()
                .any(|r| r.answers[Clock::Processing as usize][order].is_some())
        };
        let mut rows: Vec<OrderRow> = (0..lane.orders.len())
            .rev()
            .filter(|&i| arrived(i))
            .take(ORDER_ROWS)
            .map(|i| {
                let o = lane.orders[i];
                let answer =
                    |run: usize, clock: Clock| lane.runs[run].answers[clock as usize][i].map(tier);
                OrderRow {
                    order: i as u32,
                    customer: o.customer,
                    at_ms: o.at_ms,
                    valid_tier: tier(lane.valid[i]),
                    answers: [0, 1].map(|run| Clock::BOTH.map(|clock| answer(run, clock))),
                }
            })
            .collect();
        rows.reverse();
        let customers = (0..self.scenario().enrichment.customers)
            .map(|customer| {
                let latest = |run: usize| {
                    lane.runs[run].joins[Clock::Processing as usize]
                        .versions()
                        .get(&customer)
                        .and_then(|v| v.last())
                        .and_then(|v| v.value)
                };
                CustomerRow {
                    customer,
                    tiers: [latest(0), latest(1)],
                    versions_held: lane.runs[0].joins[Clock::Event as usize]
                        .versions()
                        .get(&customer)
                        .map_or(0, |v| v.len() as u32),
                }
            })
            .collect();
        EnrichmentPicture {
            watermarks_ms: [0, 1]
                .map(|r| finite(lane.runs[r].joins[Clock::Event as usize].watermark())),
            rows,
            customers,
            orders: lane.orders.len() as u32,
            compared: lane.compared,
            differing: lane.differing,
            stale_first_run: lane.stale_first_run,
            event_time_wrong: lane.event_time_wrong,
            waiting: [0, 1].map(|r| lane.runs[r].waiting() as u32),
            late: [0, 1].map(|r| lane.runs[r].late_orders + lane.runs[r].late_changes),
            samples: lane.samples.clone(),
        }
    }

    fn tables_picture(&self) -> TablesPicture {
        let Lane::Tables(lane) = &self.lane else {
            unreachable!("called for the table–table lane")
        };
        let view = &lane.view;
        TablesPicture {
            orders: view.left().iter().map(|(&k, &r)| (k, r)).collect(),
            customers: view.right().iter().map(|(&k, &v)| (k, v)).collect(),
            view: view.view().iter().map(|(&k, &r)| (k, r)).collect(),
            recent: lane.recent.iter().copied().collect(),
            applied: lane.applied,
            additions: lane.additions,
            retractions: lane.retractions,
            checks: lane.checks,
            mismatches: lane.mismatches,
            append_only_stale_rows: lane.append_only_stale_rows(),
            samples: lane.samples.clone(),
        }
    }

    fn ranking_picture(&self) -> RankingPicture {
        let Lane::Ranking(lane) = &self.lane else {
            unreachable!("called for the top-K lane")
        };
        let t = &self.scenario().topk;
        let (events, late) = lane.counts();
        RankingPicture {
            watermark_ms: finite(lane.watermark()),
            k: t.k,
            partitions: lane.partitions,
            sketch_width: t.sketch_width,
            sketch_depth: t.sketch_depth,
            open_windows: lane.open_windows(),
            last: lane.last.clone(),
            tallies: lane.tallies,
            sketch_checks: lane.sketch_checks,
            windows: lane.windows,
            events,
            late,
            samples: lane.samples.clone(),
        }
    }
}

/// A tier's name, or "—" for no row.
pub fn tier_name(tier: Option<u8>) -> &'static str {
    tier.map_or("—", |t| TIERS[t as usize])
}
