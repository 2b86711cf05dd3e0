//! The stream–stream lane: searches joined with the clicks they led to by Flink's interval
//! join ([`IntervalJoin`]), the searches on the left, the clicks on the right, keyed by
//! session. Every search and click is followed to its fate, so the lesson can count what the
//! join's output says (matches and the unclicked searches a left join emits) against what
//! happened (which searches were clicked): a click lost because it was late or outside the
//! interval makes its search look unclicked.
//!
//! The operator runs as a full outer join whatever the scenario's `outer` says, so the lane
//! learns when a click leaves the state unmatched; `outer` decides only which unmatched
//! events count as emitted, exactly the lines `streamlab join` would print.

use super::config::{IntervalConfig, Outer};
use super::events::{JoinsEventKind, LostCause};
use super::inputs::SearchClick;
use super::interval::{IntervalJoin, JoinOutput};
use super::scenario::JoinsScenario;
use super::two_input::Side;
use crate::invariant::Surely;
use crate::window::Watermark;
use serde::Serialize;
use std::sync::Arc;

/// Where a search or a click stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Not arrived yet (or, for a search, never clicked: no click exists).
    #[default]
    Unsent,
    /// In the join's state, waiting for a partner (a matched event stays in the state
    /// until it expires too, but its fate is `Matched`).
    Held,
    /// Joined with its partner.
    Matched,
    /// Left the state without a partner (a search: unclicked; a click: lost).
    Expired,
    /// Arrived behind the watermark and was dropped.
    Late,
}

/// One sample of the lane, for its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClickSample {
    pub at_ms: u64,
    /// Searches and clicks the join holds still waiting for a partner.
    pub held_searches: u32,
    pub held_clicks: u32,
    /// Matched searches and unclicked searches so far.
    pub clicked: u32,
    pub unclicked: u32,
    pub lost_clicks: u32,
}

/// Counts of the lane, all from the fates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClickCounts {
    pub searches: u32,
    /// Searches arrived whose session really has a click, found by the join or not: the
    /// true click-through rate's numerator, counted on arrival so that reading the rate
    /// (every frame, in the browser) does not go over every session of the run.
    pub searches_clicked: u32,
    pub clicks: u32,
    pub clicked: u32,
    /// Searches that left the state without a click.
    pub expired_searches: u32,
    pub late_searches: u32,
    pub late_clicks: u32,
    /// Clicks that left the state unmatched: outside the interval.
    pub outside_interval: u32,
    /// Searches reported unclicked that were clicked.
    pub wrongly_unclicked: u32,
    pub held_searches: u32,
    pub held_clicks: u32,
}

/// The stream–stream join and the fate of every search and click.
#[derive(Clone, Debug)]
pub struct SearchClickLane {
    pub join: IntervalJoin<u32, u32>,
    pub outer: Outer,
    sessions: Arc<[SearchClick]>,
    /// (arrival, side, session), sorted by arrival: the input in the order it arrives.
    arrivals: Arc<[(u64, Side, u32)]>,
    next: usize,
    pub search_fates: Vec<Fate>,
    pub click_fates: Vec<Fate>,
    pub counts: ClickCounts,
    told_first_match: bool,
    told_first_unclicked: bool,
    pub samples: Vec<ClickSample>,
}

impl SearchClickLane {
    pub fn new(scenario: &JoinsScenario, sessions: Vec<SearchClick>) -> Self {
        let c = &scenario.clicks;
        let config = IntervalConfig {
            lower_ms: c.lower_ms,
            upper_ms: c.upper_ms,
            outer: Outer::Full,
            max_out_of_orderness_ms: scenario.max_out_of_orderness_ms as i64,
        };
        let mut arrivals: Vec<(u64, Side, u32)> = Vec::with_capacity(2 * sessions.len());
        for s in &sessions {
            arrivals.push((s.search_arrival_ms, Side::Left, s.session));
            if let Some(click) = s.click {
                arrivals.push((click.arrival_ms, Side::Right, s.session));
            }
        }
        crate::replay::sort::sort(&mut arrivals);
        let count = sessions.len();
        Self {
            join: IntervalJoin::new(config),
            outer: c.outer,
            sessions: sessions.into(),
            arrivals: arrivals.into(),
            next: 0,
            search_fates: vec![Fate::Unsent; count],
            click_fates: vec![Fate::Unsent; count],
            counts: ClickCounts::default(),
            told_first_match: false,
            told_first_unclicked: false,
            samples: Vec::new(),
        }
    }

    pub fn sessions(&self) -> &[SearchClick] {
        &self.sessions
    }

    /// When the next input arrives, if any does.
    pub fn due_ms(&self) -> Option<u64> {
        self.arrivals.get(self.next).map(|a| a.0)
    }

    /// The arrival of the last input.
    pub fn last_arrival_ms(&self) -> u64 {
        self.arrivals.last().map_or(0, |a| a.0)
    }

    /// Feeds the join every input that arrives by `now`; `fold` sees each (its index).
    pub fn arrive(&mut self, now: u64, tell: &mut Vec<JoinsEventKind>, fold: &mut impl FnMut(u64)) {
        let mut out = Vec::new();
        while let Some(&(at_ms, side, session)) = self.arrivals.get(self.next) {
            if at_ms > now {
                break;
            }
            fold(self.next as u64);
            self.next += 1;
            let s = self.sessions[session as usize];
            let time_ms = match side {
                Side::Left => s.search_ms,
                Side::Right => s.click.expect("a click arrival has a click").at_ms,
            };
            match side {
                Side::Left => {
                    self.counts.searches += 1;
                    self.counts.searches_clicked += u32::from(s.click.is_some());
                }
                Side::Right => self.counts.clicks += 1,
            }
            self.set_fate(side, session, Fate::Held);
            self.join
                .push(side, session, session, time_ms as i64, &mut out)
                .surely("generated times are valid");
            self.settle(&mut out, tell);
        }
    }

    /// The end of the input: W to plus infinity, everything held expires.
    pub fn finish(&mut self, tell: &mut Vec<JoinsEventKind>) {
        let [searches_held, clicks_held] = self.join.held_counts().map(|n| n as u32);
        tell.push(JoinsEventKind::InputEnded {
            searches_held,
            clicks_held,
        });
        let mut out = Vec::new();
        self.join.finish(&mut out);
        self.settle(&mut out, tell);
    }

    fn set_fate(&mut self, side: Side, session: u32, fate: Fate) {
        let fates = match side {
            Side::Left => &mut self.search_fates,
            Side::Right => &mut self.click_fates,
        };
        let old = std::mem::replace(&mut fates[session as usize], fate);
        let c = &mut self.counts;
        let held = match side {
            Side::Left => &mut c.held_searches,
            Side::Right => &mut c.held_clicks,
        };
        if old == Fate::Held {
            *held -= 1;
        }
        if fate == Fate::Held {
            *held += 1;
        }
    }

    /// Turns the join's output into fates, counts and events.
    fn settle(&mut self, out: &mut Vec<JoinOutput<u32, u32>>, tell: &mut Vec<JoinsEventKind>) {
        let watermark_ms = watermark_ms(self.join.watermark());
        let (lower_ms, upper_ms) = (self.join.config().lower_ms, self.join.config().upper_ms);
        for output in out.drain(..) {
            match output {
                JoinOutput::Match { key: session, .. } => {
                    let s = self.sessions[session as usize];
                    if self.search_fates[session as usize] != Fate::Matched {
                        self.counts.clicked += 1;
                    }
                    self.set_fate(Side::Left, session, Fate::Matched);
                    self.set_fate(Side::Right, session, Fate::Matched);
                    if !self.told_first_match {
                        self.told_first_match = true;
                        tell.push(JoinsEventKind::FirstMatch {
                            session,
                            search_ms: s.search_ms,
                            click_ms: s.click.map_or(0, |c| c.at_ms),
                        });
                    }
                }
                JoinOutput::Late {
                    side, key: session, ..
                } => {
                    self.set_fate(side, session, Fate::Late);
                    let s = self.sessions[session as usize];
                    match side {
                        Side::Left => {
                            self.counts.late_searches += 1;
                            tell.push(JoinsEventKind::SearchLate {
                                session,
                                search_ms: s.search_ms,
                                watermark_ms,
                            });
                        }
                        Side::Right => {
                            self.counts.late_clicks += 1;
                            let click = s.click.expect("a late click exists");
                            tell.push(JoinsEventKind::ClickLost {
                                session,
                                search_ms: s.search_ms,
                                click_ms: click.at_ms,
                                arrival_ms: click.arrival_ms,
                                cause: LostCause::Late,
                                watermark_ms,
                                lower_ms,
                                upper_ms,
                            });
                        }
                    }
                }
                JoinOutput::Unmatched {
                    side, key: session, ..
                } => {
                    self.set_fate(side, session, Fate::Expired);
                    let s = self.sessions[session as usize];
                    match side {
                        Side::Left => {
                            self.counts.expired_searches += 1;
                            self.tell_unclicked(s, watermark_ms, tell);
                        }
                        Side::Right => {
                            self.counts.outside_interval += 1;
                            let click = s.click.expect("an expired click exists");
                            tell.push(JoinsEventKind::ClickLost {
                                session,
                                search_ms: s.search_ms,
                                click_ms: click.at_ms,
                                arrival_ms: click.arrival_ms,
                                cause: LostCause::OutsideInterval,
                                watermark_ms,
                                lower_ms,
                                upper_ms,
                            });
                        }
                    }
                }
            }
        }
    }

    fn tell_unclicked(
        &mut self,
        s: SearchClick,
        watermark_ms: i64,
        tell: &mut Vec<JoinsEventKind>,
    ) {
        if let Some(click) = s.click {
            self.counts.wrongly_unclicked += 1;
            tell.push(JoinsEventKind::ClickedSearchUnclicked {
                session: s.session,
                search_ms: s.search_ms,
                click_ms: click.at_ms,
                click_arrived: self.click_fates[s.session as usize] != Fate::Unsent,
            });
        } else if !self.told_first_unclicked {
            self.told_first_unclicked = true;
            tell.push(JoinsEventKind::FirstUnclicked {
                session: s.session,
                search_ms: s.search_ms,
                upper_ms: self.join.config().upper_ms,
                watermark_ms,
                emitted: self.outer.reports(Side::Left),
            });
        }
    }

    /// Searches reported unclicked: expired ones, if the join emits them.
    pub fn unclicked(&self) -> u32 {
        if self.outer.reports(Side::Left) {
            self.counts.expired_searches
        } else {
            0
        }
    }

    /// Clicks that will never join their search.
    pub fn lost_clicks(&self) -> u32 {
        self.counts.late_clicks + self.counts.outside_interval
    }

    /// The click-through rate the join's output gives: clicked searches over clicked and
    /// emitted unclicked searches (an inner join emits none, so it claims 100 %).
    pub fn ctr(&self) -> f64 {
        ratio(self.counts.clicked, self.counts.clicked + self.unclicked())
    }

    /// The share of the searches arrived so far that really were clicked.
    pub fn true_ctr(&self) -> f64 {
        ratio(self.counts.searches_clicked, self.counts.searches)
    }

    pub fn sample(&mut self, at_ms: u64) {
        self.samples.push(ClickSample {
            at_ms,
            held_searches: self.counts.held_searches,
            held_clicks: self.counts.held_clicks,
            clicked: self.counts.clicked,
            unclicked: self.unclicked(),
            lost_clicks: self.lost_clicks(),
        });
    }
}

/// `num / den` in thousandths, so a figure is the same number on every platform.
pub fn ratio(num: u32, den: u32) -> f64 {
    if den == 0 {
        return 0.0;
    }
    (u64::from(num) * 1_000 / u64::from(den)) as f64 / 1_000.0
}

/// A watermark as a number for an event (minus infinity as `i64::MIN`, plus as `MAX`).
pub fn watermark_ms(watermark: Watermark) -> i64 {
    match watermark {
        Watermark::MinusInfinity => i64::MIN,
        Watermark::At(ms) => ms,
        Watermark::PlusInfinity => i64::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joins::{JoinsWorld, Lane};

    /// The true click-through rate's counts taken again from every session's fate: a search
    /// has arrived once its fate is no longer `Unsent`.
    fn recounted(lane: &SearchClickLane) -> (u32, u32) {
        let arrived = lane.search_fates.iter().zip(lane.sessions.iter());
        let (mut searches, mut clicked) = (0, 0);
        for (_, s) in arrived.filter(|(fate, _)| **fate != Fate::Unsent) {
            searches += 1;
            clicked += u32::from(s.click.is_some());
        }
        (searches, clicked)
    }

    fn clicks(world: &JoinsWorld) -> &SearchClickLane {
        match &world.lane {
            Lane::Clicks(lane) => lane,
            _ => panic!("the clicks lesson runs the stream-stream lane"),
        }
    }

    #[test]
    fn the_clicked_searches_counted_on_arrival_equal_a_recount_of_the_fates() {
        let mut world = JoinsWorld::new(crate::joins::late_click_lost()).unwrap();
        let mut checked_with_clicks = 0;
        let end_ms = crate::family::Simulation::end_ms(&world);
        for at_ms in (0..=end_ms).step_by(7_000) {
            world.advance_to(at_ms);
            let lane = clicks(&world);
            let (searches, clicked) = recounted(lane);
            assert_eq!(lane.counts.searches, searches, "at {at_ms} ms");
            assert_eq!(lane.counts.searches_clicked, clicked, "at {at_ms} ms");
            assert_eq!(lane.true_ctr(), ratio(clicked, searches));
            checked_with_clicks += u32::from(clicked > 0 && clicked < searches);
        }
        assert!(
            checked_with_clicks > 3,
            "the run had clicked and unclicked searches"
        );
    }
}
