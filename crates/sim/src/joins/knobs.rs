//! The joins family's knob table: every knob of a [`JoinsScenario`], written once, with the
//! real system's name (Flink's `intervalJoin(...).between(lowerBound, upperBound)`,
//! `forBoundedOutOfOrderness`, Flink SQL's window Top-N), unit, range, step and hint.
//! Validation, the browser's controls, the real-config panel and the docs read it.
//!
//! Setters keep a scenario runnable where one knob limits another: the lower bound stays at
//! or below the upper one, the hop within the window's size, the candidates at least K.

use super::config::Outer;
use super::scenario::{ClickDelay, JoinsScenario, Mode, TopKWindow, MAX_DURATION_MS};
use crate::family::knob::{
    number, options, set_choice, Bounds, Choice, Control, Knob, NumberControl,
};

/// Section headings, in the order a panel shows them.
pub mod section {
    pub const JOIN: &str = "Which join";
    pub const CLICKS: &str = "Searches and clicks";
    pub const INTERVAL: &str = "Interval join";
    pub const WATERMARK: &str = "Watermark";
    pub const ENRICHMENT: &str = "Orders and a customer table";
    pub const TABLES: &str = "Two changelog tables";
    pub const VIEWS: &str = "Views of posts";
    pub const TOP_N: &str = "Window Top-N";
    pub const SKETCH: &str = "Count-min sketch";
    pub const RUN: &str = "Run";
}

const MS: &str = "ms";

type S = JoinsScenario;

const fn knob(
    field: &'static str,
    label: &'static str,
    config_name: Option<&'static str>,
    hint: &'static str,
    section: &'static str,
    control: Control<S>,
) -> Knob<S> {
    Knob {
        field,
        label,
        config_name,
        hint,
        section,
        control,
    }
}

/// Every knob of the family.
pub const KNOBS: &[Knob<S>] = &[
    knob(
        "mode",
        "Join",
        None,
        "Which join runs: searches with their clicks, orders with a customer table, or two \
         tables into a view; or, as the top-K lesson does, views of posts ranked per window.",
        section::JOIN,
        Control::Choice {
            options: options::<Mode>,
            get: |s| s.mode.value(),
            set: |s, v| set_choice(&mut s.mode, v),
        },
    ),
    knob(
        "clicks.searches_per_second",
        "Searches",
        None,
        "Searches per second, each in its own session (the join key).",
        section::CLICKS,
        number(
            Bounds::new(1.0, 20.0, "per s"),
            1.0,
            None,
            |s| f64::from(s.clicks.searches_per_second),
            |s, v| s.clicks.searches_per_second = v as u32,
        ),
    ),
    knob(
        "clicks.click_probability",
        "Clicked",
        None,
        "Share of searches that really lead to a click: the click-through rate to measure.",
        section::CLICKS,
        number(
            Bounds::new(0.0, 1.0, "fraction"),
            0.05,
            None,
            |s| s.clicks.click_probability,
            |s, v| s.clicks.click_probability = v,
        ),
    ),
    knob(
        "clicks.click_delay",
        "Click delay",
        None,
        "How the time from a search to its click is spread.",
        section::CLICKS,
        Control::Choice {
            options: options::<ClickDelay>,
            get: |s| s.clicks.click_delay.value(),
            set: |s, v| set_choice(&mut s.clicks.click_delay, v),
        },
    ),
    knob(
        "clicks.click_delay_mean_ms",
        "Click delay, mean",
        None,
        "Average time from a search to its click.",
        section::CLICKS,
        number(
            Bounds::new(100.0, 60_000.0, MS),
            100.0,
            Some(20_000.0),
            |s| s.clicks.click_delay_mean_ms as f64,
            |s, v| s.clicks.click_delay_mean_ms = v as u64,
        ),
    ),
    knob(
        "clicks.network_delay_max_ms",
        "Network delay, up to",
        None,
        "Each search and click reaches the join up to this long after it happened, so the \
         two streams interleave out of order.",
        section::CLICKS,
        number(
            Bounds::new(0.0, 10_000.0, MS),
            100.0,
            None,
            |s| s.clicks.network_delay_max_ms as f64,
            |s, v| s.clicks.network_delay_max_ms = v as u64,
        ),
    ),
    knob(
        "clicks.late_click_probability",
        "Clicks sent late",
        None,
        "Share of clicks held back on a phone that was offline.",
        section::CLICKS,
        number(
            Bounds::new(0.0, 1.0, "fraction"),
            0.05,
            None,
            |s| s.clicks.late_click_probability,
            |s, v| s.clicks.late_click_probability = v,
        ),
    ),
    knob(
        "clicks.late_click_delay_ms",
        "…arriving after",
        None,
        "How much later those clicks arrive.",
        section::CLICKS,
        number(
            Bounds::new(0.0, 120_000.0, MS),
            1000.0,
            None,
            |s| s.clicks.late_click_delay_ms as f64,
            |s, v| s.clicks.late_click_delay_ms = v as u64,
        ),
    ),
    knob(
        "clicks.lower_ms",
        "Lower bound",
        Some("between(lowerBound, …)"),
        "A click joins a search if click.time >= search.time + lowerBound (inclusive).",
        section::INTERVAL,
        Control::Number(NumberControl {
            bounds: Bounds::new(-60_000.0, 60_000.0, MS),
            step: 500.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| s.clicks.upper_ms as f64),
            get: |s| s.clicks.lower_ms as f64,
            set: |s, v| s.clicks.lower_ms = (v as i64).min(s.clicks.upper_ms),
        }),
    ),
    knob(
        "clicks.upper_ms",
        "Upper bound",
        Some("between(…, upperBound)"),
        "…and click.time <= search.time + upperBound (inclusive). A search waits this long \
         (plus the watermark's delay) before it can be called unclicked.",
        section::INTERVAL,
        number(
            Bounds::new(-60_000.0, 60_000.0, MS),
            500.0,
            None,
            |s| s.clicks.upper_ms as f64,
            |s, v| {
                s.clicks.upper_ms = v as i64;
                s.clicks.lower_ms = s.clicks.lower_ms.min(s.clicks.upper_ms);
            },
        ),
    ),
    knob(
        "clicks.outer",
        "Unmatched searches",
        Some("JOIN / LEFT JOIN / FULL JOIN"),
        "An inner join emits matches only; a left join also emits each search that expires \
         unclicked; a full join also emits orphan clicks.",
        section::INTERVAL,
        Control::Choice {
            options: options::<Outer>,
            get: |s| s.clicks.outer.value(),
            set: |s, v| set_choice(&mut s.clicks.outer, v),
        },
    ),
    knob(
        "max_out_of_orderness_ms",
        "Out-of-orderness",
        Some("forBoundedOutOfOrderness"),
        "Each input's watermark trails the largest event time it has seen by this much; the \
         join's watermark is the smaller of its inputs'.",
        section::WATERMARK,
        number(
            Bounds::new(0.0, 60_000.0, MS),
            500.0,
            Some(20_000.0),
            |s| s.max_out_of_orderness_ms as f64,
            |s, v| s.max_out_of_orderness_ms = v as u64,
        ),
    ),
    knob(
        "enrichment.orders_per_second",
        "Orders",
        None,
        "Orders per second, each by a random customer.",
        section::ENRICHMENT,
        number(
            Bounds::new(1.0, 20.0, "per s"),
            1.0,
            None,
            |s| f64::from(s.enrichment.orders_per_second),
            |s, v| s.enrichment.orders_per_second = v as u32,
        ),
    ),
    knob(
        "enrichment.customers",
        "Customers",
        None,
        "Rows of the customer table; each starts with a tier at time 0.",
        section::ENRICHMENT,
        number(
            Bounds::new(1.0, 50.0, "customers"),
            1.0,
            None,
            |s| f64::from(s.enrichment.customers),
            |s, v| s.enrichment.customers = v as u32,
        ),
    ),
    knob(
        "enrichment.changes_per_minute",
        "Tier changes",
        None,
        "Changes to the customer table per minute (its changelog, the table side of the join).",
        section::ENRICHMENT,
        number(
            Bounds::new(0.0, 600.0, "per min"),
            1.0,
            Some(120.0),
            |s| f64::from(s.enrichment.changes_per_minute),
            |s, v| s.enrichment.changes_per_minute = v as u32,
        ),
    ),
    knob(
        "enrichment.order_delay_max_ms",
        "Order delay, up to",
        None,
        "An order reaches the join up to this long after it was placed.",
        section::ENRICHMENT,
        number(
            Bounds::new(0.0, 10_000.0, MS),
            100.0,
            None,
            |s| s.enrichment.order_delay_max_ms as f64,
            |s, v| s.enrichment.order_delay_max_ms = v as u64,
        ),
    ),
    knob(
        "enrichment.change_delay_max_ms",
        "Change delay, up to",
        None,
        "A tier change reaches the join up to this long after it happened.",
        section::ENRICHMENT,
        number(
            Bounds::new(0.0, 10_000.0, MS),
            100.0,
            None,
            |s| s.enrichment.change_delay_max_ms as f64,
            |s, v| s.enrichment.change_delay_max_ms = v as u64,
        ),
    ),
    knob(
        "enrichment.replay_interleaving",
        "Rerun's interleaving",
        None,
        "The rerun replays the same orders and changes in another arrival order, drawn from \
         this number (the first run's is 0).",
        section::ENRICHMENT,
        number(
            Bounds::new(1.0, 1_000.0, "interleaving"),
            1.0,
            Some(50.0),
            |s| f64::from(s.enrichment.replay_interleaving),
            |s, v| s.enrichment.replay_interleaving = v as u32,
        ),
    ),
    knob(
        "tables.orders",
        "Order ids",
        None,
        "Keys of the orders table; each change writes or deletes one of them.",
        section::TABLES,
        number(
            Bounds::new(1.0, 100.0, "orders"),
            1.0,
            None,
            |s| f64::from(s.tables.orders),
            |s, v| s.tables.orders = v as u32,
        ),
    ),
    knob(
        "tables.customers",
        "Customer ids",
        None,
        "Keys of the customers table, which orders point at.",
        section::TABLES,
        number(
            Bounds::new(1.0, 30.0, "customers"),
            1.0,
            None,
            |s| f64::from(s.tables.customers),
            |s, v| s.tables.customers = v as u32,
        ),
    ),
    knob(
        "tables.order_changes_per_minute",
        "Order changes",
        None,
        "Changes to the orders table per minute: placed, moved to another customer, deleted.",
        section::TABLES,
        number(
            Bounds::new(0.0, 600.0, "per min"),
            1.0,
            Some(200.0),
            |s| f64::from(s.tables.order_changes_per_minute),
            |s, v| s.tables.order_changes_per_minute = v as u32,
        ),
    ),
    knob(
        "tables.customer_changes_per_minute",
        "Customer changes",
        None,
        "Changes to the customers table per minute: a new tier, or a delete.",
        section::TABLES,
        number(
            Bounds::new(0.0, 600.0, "per min"),
            1.0,
            Some(200.0),
            |s| f64::from(s.tables.customer_changes_per_minute),
            |s, v| s.tables.customer_changes_per_minute = v as u32,
        ),
    ),
    knob(
        "tables.delete_probability",
        "Deletes",
        None,
        "Share of changes that are deletes (a null value, a tombstone).",
        section::TABLES,
        number(
            Bounds::new(0.0, 0.5, "fraction"),
            0.05,
            None,
            |s| s.tables.delete_probability,
            |s, v| s.tables.delete_probability = v,
        ),
    ),
    knob(
        "topk.events_per_second",
        "Views",
        None,
        "Views of posts per second.",
        section::VIEWS,
        number(
            Bounds::new(1.0, 1_000.0, "per s"),
            1.0,
            Some(400.0),
            |s| f64::from(s.topk.events_per_second),
            |s, v| s.topk.events_per_second = v as u32,
        ),
    ),
    knob(
        "topk.items",
        "Posts",
        None,
        "Distinct posts viewed: with many, the exact counts stop fitting in memory.",
        section::VIEWS,
        number(
            Bounds::new(1.0, 20_000.0, "posts"),
            1.0,
            Some(5_000.0),
            |s| f64::from(s.topk.items),
            |s, v| s.topk.items = v as u32,
        ),
    ),
    knob(
        "topk.zipf_exponent",
        "Skew",
        None,
        "Zipf exponent of the posts' popularity: 0 is even, 1 a typical long tail.",
        section::VIEWS,
        number(
            Bounds::new(0.0, 2.0, "exponent"),
            0.1,
            None,
            |s| s.topk.zipf_exponent,
            |s, v| s.topk.zipf_exponent = v,
        ),
    ),
    knob(
        "topk.users",
        "Users",
        None,
        "Distinct viewers; the stream keyed by user spreads a post's views over partitions.",
        section::VIEWS,
        number(
            Bounds::new(1.0, 10_000.0, "users"),
            1.0,
            Some(2_000.0),
            |s| f64::from(s.topk.users),
            |s, v| s.topk.users = v as u32,
        ),
    ),
    knob(
        "topk.network_delay_max_ms",
        "Network delay, up to",
        None,
        "A view reaches the counter up to this long after it happened.",
        section::VIEWS,
        number(
            Bounds::new(0.0, 10_000.0, MS),
            100.0,
            None,
            |s| s.topk.network_delay_max_ms as f64,
            |s, v| s.topk.network_delay_max_ms = v as u64,
        ),
    ),
    knob(
        "topk.window",
        "Window",
        Some("TUMBLE / HOP"),
        "Tumbling windows follow each other; hopping windows overlap, a new one every hop.",
        section::TOP_N,
        Control::Choice {
            options: options::<TopKWindow>,
            get: |s| s.topk.window.value(),
            set: |s, v| set_choice(&mut s.topk.window, v),
        },
    ),
    knob(
        "topk.window_size_ms",
        "Window size",
        Some("size"),
        "How long each window is (TUMBLE's and HOP's size).",
        section::TOP_N,
        number(
            Bounds::new(1_000.0, 60_000.0, MS),
            1000.0,
            None,
            |s| s.topk.window_size_ms as f64,
            |s, v| {
                s.topk.window_size_ms = v as u64;
                s.topk.window_hop_ms = s.topk.window_hop_ms.min(s.topk.window_size_ms);
            },
        ),
    ),
    knob(
        "topk.window_hop_ms",
        "Hop",
        Some("slide"),
        "For hopping windows, how often a new one starts (HOP's slide).",
        section::TOP_N,
        Control::Number(NumberControl {
            bounds: Bounds::new(1_000.0, 60_000.0, MS),
            step: 1000.0,
            slider_max: None,
            config_default: None,
            max_for: Some(|s| s.topk.window_size_ms as f64),
            get: |s| s.topk.window_hop_ms as f64,
            set: |s, v| s.topk.window_hop_ms = (v as u64).min(s.topk.window_size_ms),
        }),
    ),
    knob(
        "topk.k",
        "K",
        Some("rownum <= N"),
        "How many posts each window ranks.",
        section::TOP_N,
        number(
            Bounds::new(1.0, 50.0, "posts"),
            1.0,
            None,
            |s| f64::from(s.topk.k),
            |s, v| {
                s.topk.k = v as u32;
                s.topk.candidates = s.topk.candidates.max(s.topk.k);
            },
        ),
    ),
    knob(
        "topk.partitions",
        "Partitions",
        Some("num.partitions"),
        "Partitions of the stream; each ranks its own share, and the lists are merged.",
        section::TOP_N,
        number(
            Bounds::new(1.0, 32.0, "partitions"),
            1.0,
            None,
            |s| f64::from(s.topk.partitions),
            |s, v| s.topk.partitions = v as u32,
        ),
    ),
    knob(
        "topk.sketch_width",
        "Width",
        None,
        "Counters per row: the overcount bound is e / width × N.",
        section::SKETCH,
        number(
            Bounds::new(1.0, 4_096.0, "counters"),
            1.0,
            Some(1_024.0),
            |s| f64::from(s.topk.sketch_width),
            |s, v| s.topk.sketch_width = v as u32,
        ),
    ),
    knob(
        "topk.sketch_depth",
        "Depth",
        None,
        "Rows, each with its own hash: the bound holds with probability 1 − e^−depth.",
        section::SKETCH,
        number(
            Bounds::new(1.0, 10.0, "rows"),
            1.0,
            None,
            |s| f64::from(s.topk.sketch_depth),
            |s, v| s.topk.sketch_depth = v as u32,
        ),
    ),
    knob(
        "topk.candidates",
        "Heap",
        None,
        "Candidates kept beside the sketch (at least K): the sketch cannot list its posts.",
        section::SKETCH,
        number(
            Bounds::new(1.0, 200.0, "posts"),
            1.0,
            None,
            |s| f64::from(s.topk.candidates),
            |s, v| s.topk.candidates = (v as u32).max(s.topk.k),
        ),
    ),
    knob(
        "duration_ms",
        "Length",
        None,
        "How long the sources produce; the input ends once all of it has arrived.",
        section::RUN,
        number(
            Bounds::new(5_000.0, MAX_DURATION_MS as f64, MS),
            1000.0,
            Some(180_000.0),
            |s| s.duration_ms as f64,
            |s, v| s.duration_ms = v as u64,
        ),
    ),
    knob(
        "seed",
        "Seed",
        None,
        "Every draw of the run comes from it.",
        section::RUN,
        Control::Whole {
            get: |s| s.seed,
            set: |s, v| s.seed = v,
        },
    ),
];

impl Choice for Mode {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            Mode::StreamStream,
            "stream_stream",
            "stream–stream: searches and clicks",
        ),
        (
            Mode::StreamTable,
            "stream_table",
            "stream–table: orders and customers",
        ),
        (
            Mode::TableTable,
            "table_table",
            "table–table: a view of two tables",
        ),
        (Mode::TopK, "top_k", "top-K per window"),
    ];
}

impl Choice for ClickDelay {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (
            ClickDelay::Uniform,
            "uniform",
            "uniform, up to twice the mean",
        ),
        (ClickDelay::Exponential, "exponential", "exponential"),
        (ClickDelay::LongTail, "long_tail", "long tail (Pareto)"),
    ];
}

impl Choice for Outer {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (Outer::Inner, "inner", "JOIN: matches only"),
        (Outer::Left, "left", "LEFT JOIN: also unclicked searches"),
        (Outer::Full, "full", "FULL JOIN: also orphan clicks"),
    ];
}

impl Choice for TopKWindow {
    const ALL: &'static [(Self, &'static str, &'static str)] = &[
        (TopKWindow::Tumbling, "tumbling", "tumbling (TUMBLE)"),
        (TopKWindow::Hopping, "hopping", "hopping (HOP)"),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::knob::check_table;

    #[test]
    fn the_table_passes_the_checks_every_table_must() {
        check_table(KNOBS, super::super::PRESETS, &[]);
    }
}
