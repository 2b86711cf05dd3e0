//! Typed events of the joins family and [`narrate`], the sentence for each.
//!
//! Events hold ids, times, counts and typed causes, never prose: the trace hash folds their
//! fields ([`TraceHasher::write_json`](crate::replay::trace::TraceHasher::write_json)) and every word a learner reads is chosen here.
//! Routine work (a click that joins its search, an order enriched like in the other run) is
//! not an event; what the lessons are about is: a click lost and why, a search reported
//! unclicked although it was clicked, an enrichment that changed with the interleaving, a
//! customer change fanning out over the view, a window ranked wrongly by a merge.

use super::inputs::{item_name, TIERS};
use crate::family::words::{count, duration};
use serde::Serialize;

/// Something that happened at a simulated (processing) time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JoinsEvent {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: JoinsEventKind,
}

/// Why a click did not join its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LostCause {
    /// It arrived behind the watermark and was dropped.
    Late,
    /// It fell outside `between(lower, upper)` of its search, and left the state unmatched.
    OutsideInterval,
}

/// Which of the two stream–table runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Run {
    First,
    Rerun,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum JoinsEventKind {
    /// The first search joined with its click.
    FirstMatch {
        session: u32,
        search_ms: u64,
        click_ms: u64,
    },
    /// The first search that left the join's state without a click: the watermark passed
    /// `search + upper`.
    FirstUnclicked {
        session: u32,
        search_ms: u64,
        upper_ms: i64,
        watermark_ms: i64,
        emitted: bool,
    },
    /// A click that will never join its search.
    ClickLost {
        session: u32,
        search_ms: u64,
        click_ms: u64,
        arrival_ms: u64,
        cause: LostCause,
        /// The watermark when it arrived (late) or left the state (outside the interval).
        watermark_ms: i64,
        lower_ms: i64,
        upper_ms: i64,
    },
    /// A search left the state without a match although it was clicked.
    ClickedSearchUnclicked {
        session: u32,
        search_ms: u64,
        click_ms: u64,
        /// Whether the click had arrived yet.
        click_arrived: bool,
    },
    /// A search arrived behind the watermark and was dropped.
    SearchLate {
        session: u32,
        search_ms: u64,
        watermark_ms: i64,
    },
    /// The input ended: the watermark jumped to plus infinity and the state emptied.
    InputEnded {
        searches_held: u32,
        clicks_held: u32,
    },
    /// An order's processing-time enrichment differs between the two interleavings.
    EnrichmentDiffers {
        order: u32,
        customer: u32,
        order_ms: u64,
        /// Tier each run joined (`None`: no row), and the tier valid at the order's time.
        first_tier: Option<u8>,
        rerun_tier: Option<u8>,
        valid_tier: Option<u8>,
    },
    /// An event-time run dropped a late order or a late change.
    EnrichmentLate {
        run: Run,
        order: Option<u32>,
        change: Option<u32>,
        time_ms: u64,
        watermark_ms: i64,
    },
    /// Both runs are complete: how many enrichments differ between them, by each clock.
    ReplayCompared {
        orders: u32,
        processing_differing: u32,
        event_differing: u32,
    },
    /// A change to a customer's row retracted and re-added the view rows of its orders.
    CustomerChanged {
        customer: u32,
        tier: Option<u8>,
        rows_touched: u32,
    },
    /// The incremental view differed from the batch join of the tables (never, if the
    /// maintenance is right).
    ViewMismatch { rows: u32, batch_rows: u32 },
    /// A window closed and was ranked each way.
    WindowRanked {
        start_ms: i64,
        end_ms: i64,
        events: u64,
        k: u32,
        /// True top-K items the merge of per-partition lists keyed by user missed.
        by_user_missed: u32,
        /// The best item the merge keyed by user missed (by true rank), if any.
        by_user_first_miss: Option<u32>,
        by_user_misranked: u32,
        sketch_missed: u32,
        max_overcount: u64,
        /// `e / width · N`, rounded down.
        overcount_bound: u64,
    },
}

/// "1 search", "3 searches".
fn searches(n: u32) -> String {
    if n == 1 {
        "1 search".to_string()
    } else {
        format!("{n} searches")
    }
}

fn session(session: u32) -> String {
    format!("session-{}", session + 1)
}

fn tier(tier: Option<u8>) -> &'static str {
    tier.map_or("no row", |t| TIERS[t as usize])
}

/// "12.3 s" for an event time or a watermark (which may be negative).
fn instant(ms: i64) -> String {
    if ms == i64::MIN {
        return "−∞".to_string();
    }
    if ms == i64::MAX {
        return "+∞".to_string();
    }
    if ms < 0 {
        format!("−{}", duration(ms.unsigned_abs()))
    } else {
        duration(ms as u64)
    }
}

/// The sentence a learner reads for `event`.
pub fn narrate(event: &JoinsEvent) -> String {
    let at = duration(event.at_ms);
    match &event.kind {
        JoinsEventKind::FirstMatch {
            session: s,
            search_ms,
            click_ms,
        } => format!(
            "At {at} the click of {} (event time {}) finds its search (event time {}) still in \
             the join's state: the first joined pair.",
            session(*s),
            duration(*click_ms),
            duration(*search_ms)
        ),
        JoinsEventKind::FirstUnclicked {
            session: s,
            search_ms,
            upper_ms,
            watermark_ms,
            emitted,
        } => {
            let emitted = if *emitted {
                "The left join emits it with no click, so the click-through rate counts it."
            } else {
                "An inner join drops it silently: nothing downstream learns that it went \
                 unclicked, and a click-through rate computed from the output only sees clicks."
            };
            format!(
                "At {at} the watermark ({}) passes {} + {} for the search of {}: no click can \
                 still arrive on time, so the search leaves the state. {emitted}",
                instant(*watermark_ms),
                duration(*search_ms),
                duration(upper_ms.unsigned_abs()),
                session(*s)
            )
        }
        JoinsEventKind::ClickLost {
            session: s,
            search_ms,
            click_ms,
            arrival_ms,
            cause,
            watermark_ms,
            lower_ms,
            upper_ms,
        } => match cause {
            LostCause::Late => format!(
                "At {at} the click of {} arrives {} after it happened (event time {}), behind \
                 the watermark ({}): it is late and dropped, and its search at {} will never \
                 see it.",
                session(*s),
                duration(arrival_ms - click_ms),
                duration(*click_ms),
                instant(*watermark_ms),
                duration(*search_ms)
            ),
            LostCause::OutsideInterval => format!(
                "At {at} the click of {} leaves the state unmatched: it came {} after its \
                 search, outside between({}, {}). A lost click.",
                session(*s),
                duration(click_ms - search_ms),
                instant(*lower_ms),
                instant(*upper_ms)
            ),
        },
        JoinsEventKind::ClickedSearchUnclicked {
            session: s,
            search_ms,
            click_ms,
            click_arrived,
        } => {
            let why = if *click_arrived {
                "its click came too late for the interval"
            } else {
                "its click has not even arrived yet, and will be late when it does"
            };
            format!(
                "At {at} the search of {} (event time {}) is reported unclicked, but it was \
                 clicked at {}: {why}.",
                session(*s),
                duration(*search_ms),
                duration(*click_ms)
            )
        }
        JoinsEventKind::SearchLate {
            session: s,
            search_ms,
            watermark_ms,
        } => format!(
            "At {at} the search of {} (event time {}) arrives behind the watermark ({}): \
             dropped, so its click can never join.",
            session(*s),
            duration(*search_ms),
            instant(*watermark_ms)
        ),
        JoinsEventKind::InputEnded {
            searches_held,
            clicks_held,
        } => format!(
            "At {at} the input ends: the watermark jumps to +∞ and the join lets go of the {} \
             and {} it still held, reporting what never matched.",
            searches(*searches_held),
            count(u64::from(*clicks_held), "click")
        ),
        JoinsEventKind::EnrichmentDiffers {
            order,
            customer,
            order_ms,
            first_tier,
            rerun_tier,
            valid_tier,
        } => format!(
            "At {at} order-{} (placed at {} by customer-{}) is enriched by processing time \
             with {} in the first run and {} in the rerun: the tier change and the order \
             arrived in another order. By event time both runs answer {}, the tier valid when \
             it was placed.",
            order + 1,
            duration(*order_ms),
            customer + 1,
            tier(*first_tier),
            tier(*rerun_tier),
            tier(*valid_tier)
        ),
        JoinsEventKind::EnrichmentLate {
            run,
            order,
            change,
            time_ms,
            watermark_ms,
        } => {
            let run = match run {
                Run::First => "the first run",
                Run::Rerun => "the rerun",
            };
            let what = match (order, change) {
                (Some(o), _) => format!("order-{}", o + 1),
                (None, Some(c)) => format!("tier change #{c}"),
                (None, None) => "an event".to_string(),
            };
            format!(
                "At {at} {what} (event time {}) arrives behind {run}'s watermark ({}) and is \
                 dropped: with this much delay the event-time join is no longer the same in \
                 every interleaving.",
                duration(*time_ms),
                instant(*watermark_ms)
            )
        }
        JoinsEventKind::ReplayCompared {
            orders,
            processing_differing,
            event_differing,
        } => format!(
            "At {at} both runs have answered all {}: {} enriched differently by processing \
             time, {} by event time.",
            count(u64::from(*orders), "order"),
            processing_differing,
            event_differing
        ),
        JoinsEventKind::CustomerChanged {
            customer,
            tier: t,
            rows_touched,
        } => {
            let change = match t {
                Some(t) => format!("becomes {}", TIERS[*t as usize]),
                None => "is deleted".to_string(),
            };
            format!(
                "At {at} customer-{} {change}: the view retracts and rewrites the {} of its \
                 orders, the change on one side joined with the whole other side.",
                customer + 1,
                count(u64::from(*rows_touched), "row")
            )
        }
        JoinsEventKind::ViewMismatch { rows, batch_rows } => format!(
            "At {at} the view ({rows} rows) differs from the batch join of the tables \
             ({batch_rows} rows)."
        ),
        JoinsEventKind::WindowRanked {
            start_ms,
            end_ms,
            events,
            k,
            by_user_missed,
            by_user_first_miss,
            by_user_misranked,
            sketch_missed,
            max_overcount,
            overcount_bound,
        } => {
            let merge = match (by_user_missed, by_user_first_miss) {
                (0, _) if *by_user_misranked == 0 => {
                    "the merge of partitions keyed by user got it right this time".to_string()
                }
                (0, _) => format!(
                    "the merge keyed by user has the right posts but {} of them at the wrong \
                     rank or count",
                    by_user_misranked
                ),
                (_, Some(item)) => format!(
                    "the merge keyed by user misses {} of the top {k} (such as {}, whose views \
                     are spread over the partitions)",
                    by_user_missed,
                    item_name(*item)
                ),
                (_, None) => format!("the merge keyed by user misses {by_user_missed}"),
            };
            format!(
                "At {at} the watermark closes window [{}, {}) with {}: {merge}; the sketch's \
                 heap misses {sketch_missed}, and its largest overcount is {max_overcount} \
                 (bound e/width × N = {overcount_bound}).",
                instant(*start_ms),
                instant(*end_ms),
                count(*events, "view")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(at_ms: u64, kind: JoinsEventKind) -> String {
        narrate(&JoinsEvent { at_ms, kind })
    }

    #[test]
    fn a_lost_click_says_whether_it_was_late_or_outside_the_interval() {
        let late = said(
            31_000,
            JoinsEventKind::ClickLost {
                session: 4,
                search_ms: 9_000,
                click_ms: 10_000,
                arrival_ms: 30_500,
                cause: LostCause::Late,
                watermark_ms: 26_000,
                lower_ms: 0,
                upper_ms: 10_000,
            },
        );
        assert!(late.contains("session-5 arrives 20.5 s after"), "{late}");
        assert!(late.contains("behind the watermark (26 s)"), "{late}");
        let outside = said(
            31_000,
            JoinsEventKind::ClickLost {
                session: 0,
                search_ms: 1_000,
                click_ms: 13_000,
                arrival_ms: 13_200,
                cause: LostCause::OutsideInterval,
                watermark_ms: 12_000,
                lower_ms: 0,
                upper_ms: 10_000,
            },
        );
        assert!(
            outside.contains("12 s after its search, outside between(0 s, 10 s)"),
            "{outside}"
        );
    }

    #[test]
    fn the_first_unclicked_search_says_whether_the_join_emits_it() {
        let left = said(
            14_000,
            JoinsEventKind::FirstUnclicked {
                session: 2,
                search_ms: 1_500,
                upper_ms: 10_000,
                watermark_ms: 11_600,
                emitted: true,
            },
        );
        assert!(left.contains("passes 1.5 s + 10 s"), "{left}");
        assert!(left.contains("left join emits it"), "{left}");
        let inner = said(
            14_000,
            JoinsEventKind::FirstUnclicked {
                session: 2,
                search_ms: 1_500,
                upper_ms: 10_000,
                watermark_ms: 11_600,
                emitted: false,
            },
        );
        assert!(inner.contains("drops it silently"), "{inner}");
    }

    #[test]
    fn an_enrichment_difference_names_both_tiers_and_the_valid_one() {
        let text = said(
            5_000,
            JoinsEventKind::EnrichmentDiffers {
                order: 9,
                customer: 2,
                order_ms: 4_200,
                first_tier: Some(0),
                rerun_tier: Some(2),
                valid_tier: Some(2),
            },
        );
        assert!(text.contains("order-10"), "{text}");
        assert!(
            text.contains("with bronze in the first run and gold in the rerun"),
            "{text}"
        );
        assert!(text.contains("both runs answer gold"), "{text}");
    }

    #[test]
    fn a_customer_change_counts_the_rows_it_rewrites() {
        let text = said(
            2_000,
            JoinsEventKind::CustomerChanged {
                customer: 0,
                tier: None,
                rows_touched: 3,
            },
        );
        assert!(text.contains("customer-1 is deleted"), "{text}");
        assert!(text.contains("the 3 rows of its orders"), "{text}");
    }

    #[test]
    fn a_ranked_window_names_the_missed_post_and_the_bound() {
        let text = said(
            21_000,
            JoinsEventKind::WindowRanked {
                start_ms: 10_000,
                end_ms: 20_000,
                events: 1_000,
                k: 5,
                by_user_missed: 1,
                by_user_first_miss: Some(6),
                by_user_misranked: 3,
                sketch_missed: 0,
                max_overcount: 4,
                overcount_bound: 10,
            },
        );
        assert!(
            text.contains("window [10 s, 20 s) with 1000 views"),
            "{text}"
        );
        assert!(
            text.contains("misses 1 of the top 5 (such as post-7"),
            "{text}"
        );
        assert!(text.contains("(bound e/width × N = 10)"), "{text}");
    }
}
