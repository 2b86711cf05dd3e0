//! The joins family's presets, one plain function each, named as links name them, and its
//! lessons' default scenarios. Each preset turns only the knobs its point needs; every
//! number it exists to show comes out of the operators' rules.
//!
//! Two lessons: "stream-joins" (searches and clicks, orders and a customer table, two tables
//! into a view) and "top-k" (exact, merged from partitions, and a count-min sketch).

use super::scenario::{JoinsScenario, Mode};
use crate::family::lesson::LessonDefault;

/// A joins preset.
pub type Preset = crate::family::preset::Preset<JoinsScenario>;

/// Every preset of the family, in lesson order, with the lesson that offers it.
pub const PRESETS: &[Preset] = &[
    Preset {
        slug: "search-click-join",
        lesson: "stream-joins",
        title: "Searches joined with their clicks",
        description: "A left interval join of searches and clicks, between(0 s, 10 s): a \
                      click joins the search it came from, and a search the watermark passes \
                      unclicked is emitted as such, so the click-through rate counts it.",
        build: search_click_join,
    },
    Preset {
        slug: "late-click-lost",
        lesson: "stream-joins",
        title: "A late click is a lost click",
        description: "One click in five is sent 20 s late from a phone that was offline: it \
                      arrives behind the watermark and is dropped, and its search is reported \
                      unclicked.",
        build: late_click_lost,
    },
    Preset {
        slug: "misconception-10",
        lesson: "stream-joins",
        title: "Myth: a stream join is a batch join",
        description: "The late clicks of the run above, seen as the misconception they \
                      refute: a batch join of the same records finds every click, the stream \
                      join cannot wait for ever and loses the clicks that come after the \
                      watermark passed their search's interval.",
        build: late_click_lost,
    },
    Preset {
        slug: "enrichment-processing-vs-event-time",
        lesson: "stream-joins",
        title: "Enrichment by processing time or by event time",
        description: "Orders enriched with their customer's tier while the tiers change, run \
                      twice with the arrivals interleaved differently: by processing time some \
                      orders get another tier in the rerun; by event time none do.",
        build: enrichment_processing_vs_event_time,
    },
    Preset {
        slug: "materialized-view-join",
        lesson: "stream-joins",
        title: "A join of two tables, kept up to date",
        description: "Orders and customers change; the joined view retracts and re-adds rows \
                      with every change, and equals the batch join of the two tables at every \
                      moment.",
        build: materialized_view_join,
    },
    Preset {
        slug: "topk-wrong-merge",
        lesson: "top-k",
        title: "Top-K merged from partitions: right and wrong keying",
        description: "The five most viewed posts per 10 s window, from four partitions: keyed \
                      by post, the merged lists are exact; keyed by user, a post's views are \
                      spread over the partitions and the merge misses or misranks posts.",
        build: topk_wrong_merge,
    },
    Preset {
        slug: "count-min-sketch",
        lesson: "top-k",
        title: "A count-min sketch when the counts do not fit",
        description: "5,000 posts: the exact counts of the open windows take about twice the \
                      bytes of their 128 × 4 sketches and heaps; a sketch never underestimates \
                      and stays within its bound e/width × N.",
        build: count_min_sketch,
    },
];

/// The preset a link names, if any.
pub fn preset(name: &str) -> Option<JoinsScenario> {
    crate::family::preset::find(PRESETS, name).map(|p| (p.build)())
}

/// Two searches a second, half of them clicked after about 3 s (exponentially), every event
/// up to 1 s in transit; a left interval join between(0 s, 10 s), watermarks 2 s behind.
pub fn search_click_join() -> JoinsScenario {
    JoinsScenario::default()
}

/// The same, with one click in five held back 20 s.
pub fn late_click_lost() -> JoinsScenario {
    let mut scenario = search_click_join();
    scenario.clicks.late_click_probability = 0.2;
    scenario.clicks.late_click_delay_ms = 20_000;
    scenario
}

/// Four orders a second over six customers whose tiers change 30 times a minute; orders and
/// changes up to 1.5 s in transit, the watermark 2 s behind (so nothing is late).
pub fn enrichment_processing_vs_event_time() -> JoinsScenario {
    let mut scenario = JoinsScenario::default();
    scenario.mode = Mode::StreamTable;
    scenario
}

/// Twelve order ids over four customers, 40 order changes and 20 customer changes a
/// minute, one in ten a delete.
pub fn materialized_view_join() -> JoinsScenario {
    let mut scenario = JoinsScenario::default();
    scenario.mode = Mode::TableTable;
    scenario
}

/// 100 views a second of 300 posts (Zipf 1.0) by 1,000 users, top 5 per 10 s tumbling
/// window, four partitions.
pub fn topk_wrong_merge() -> JoinsScenario {
    let mut scenario = JoinsScenario::default();
    scenario.mode = Mode::TopK;
    scenario
}

/// 200 views a second of 5,000 posts; a 128 × 4 sketch with a heap of 10 candidates.
pub fn count_min_sketch() -> JoinsScenario {
    let mut scenario = topk_wrong_merge();
    scenario.topk.events_per_second = 200;
    scenario.topk.items = 5_000;
    scenario.topk.sketch_width = 128;
    scenario.topk.sketch_depth = 4;
    scenario.topk.candidates = 10;
    scenario
}

/// The family's lessons, each with the scenario its links are patches against (part of the
/// link format: changing one changes what old links mean).
pub const LESSONS: &[LessonDefault<JoinsScenario>] = &[
    LessonDefault {
        slug: "stream-joins",
        default: search_click_join,
    },
    LessonDefault {
        slug: "top-k",
        default: topk_wrong_merge,
    },
];
