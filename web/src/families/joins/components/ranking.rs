//! Top-K: the last window the watermark closed, ranked four ways side by side (exact, the
//! merge of per-partition lists keyed by post, the same keyed by user, a count-min sketch
//! with a heap), each post with the count the method reports and its true count, a miss or a
//! misplaced post marked by a sign as well as a tint; what the merge keyed by user left out;
//! and each method's recall@K, largest overcount and bytes of state over the whole run.

use crate::widgets::figure_counters::counters;
use streamlab_sim::family::Figures;
use streamlab_sim::joins::inputs::item_name;
use streamlab_sim::joins::ranking::Ranked;
use streamlab_sim::joins::RankingPicture;
use yew::prelude::*;

/// The methods as the lesson names them, in `Method::ALL` order.
pub const METHOD_NAMES: [&str; 4] = [
    "exact",
    "partitioned by post, merged",
    "partitioned by user, merged",
    "count-min sketch + heap",
];

const ROWS: &[(&str, &str)] = &[
    ("windows", "windows closed"),
    ("events", "views counted"),
    ("keyed_by_item.recall_at_k", "recall@K, partitioned by post"),
    ("keyed_by_user.recall_at_k", "recall@K, partitioned by user"),
    (
        "keyed_by_user.missed",
        "top-K posts the user-keyed merge missed",
    ),
    ("sketch.recall_at_k", "recall@K, sketch"),
    ("sketch.max_overcount", "sketch: largest overcount"),
    ("sketch.overcount_bound", "sketch: bound e/width × N"),
    ("sketch.underestimates", "sketch: estimates below the truth"),
    ("exact.state_bytes", "exact counts: bytes of state"),
    ("sketch.state_bytes", "sketch + heap: bytes of state"),
];

fn ranked(r: &Ranked) -> Html {
    let (sign, class) = if !r.hit {
        ("✗", Some("warn"))
    } else if !r.in_place {
        ("≈", Some("approx"))
    } else {
        ("✓", None)
    };
    let count = if r.reported == r.truth {
        r.truth.to_string()
    } else {
        format!("{} (true {})", r.reported, r.truth)
    };
    html! {
        <li class={classes!(class)}>
            <span class="sign" aria-hidden="true">{ sign }</span>{ " " }
            { item_name(r.item) }{ ": " }{ count }
        </li>
    }
}

pub fn ranking(p: &RankingPicture, figures: &Figures) -> Html {
    html! {
        <div class="j-ranking">
            if let Some(last) = &p.last {
                <p class="j-legend">
                    { format!("Window [{:.0} s, {:.0} s): {} views of {} posts; top {} by each method. \
                               ✓ right post, right place · ≈ right post, wrong count or place · ✗ not in the true top {}.",
                        last.start_ms as f64 / 1000.0, last.end_ms as f64 / 1000.0, last.events, last.distinct, p.k, p.k) }
                </p>
                <div class="j-methods">
                    { for last.rankings.iter().enumerate().map(|(m, list)| html! {
                        <section class="j-method" aria-label={METHOD_NAMES[m]}>
                            <h3>{ METHOD_NAMES[m] }</h3>
                            <ol>{ for list.iter().map(ranked) }</ol>
                        </section>
                    }) }
                </div>
                if !last.by_user_missing.is_empty() {
                    <p class="j-legend warn">
                        { "Missed by the merge partitioned by user (its views spread over the partitions): " }
                        { last.by_user_missing.iter().map(|r| format!("{} ({} views)", item_name(r.item), r.truth)).collect::<Vec<_>>().join(", ") }
                    </p>
                }
            } else {
                <p class="j-legend">{ format!("No window has closed yet: the watermark closes each one; {} open.", p.open_windows.len()) }</p>
            }
            { counters(figures, ROWS, &["keyed_by_user.missed", "sketch.underestimates"][..], None) }
        </div>
    }
}
