//! The joins family's scenario: every knob of the "stream joins" and "top-K" lessons as one
//! plain serde struct. A `mode` picks what runs on the one seed: searches joined with their
//! clicks (stream–stream), orders enriched from a customer table's changelog, twice, in two
//! arrival interleavings (stream–table), two changelog tables joined into a view
//! (table–table), or the top items of each window, exactly, merged from partitions and from
//! a count-min sketch (top-K). Fields name their unit and, where one exists, the real
//! system's setting; the knob table (`knobs.rs`) holds the ranges.

use super::config::Outer;
use serde::{Deserialize, Serialize};

/// Longest run: ten minutes of event time.
pub const MAX_DURATION_MS: u64 = 600_000;

/// Most input records one run may generate, so a run stays cheap to rebuild in a browser on
/// every knob change.
pub const MAX_INPUTS: u64 = 120_000;

/// How often the charts' series are sampled, in ms.
pub const SAMPLE_INTERVAL_MS: u64 = 1_000;

/// A complete, reproducible description of one run of the joins family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JoinsScenario {
    /// Seed of every draw: event times, delays, keys, the sketch's hashes. Any u64.
    pub seed: u64,
    /// What runs.
    pub mode: Mode,
    /// How long the sources produce, in ms of event time; the run ends once everything sent
    /// has arrived (the end of the input moves the watermark to plus infinity).
    pub duration_ms: u64,
    /// Flink's `WatermarkStrategy.forBoundedOutOfOrderness`: each input's watermark trails
    /// the largest event time it has seen by this much (stream–stream, stream–table by event
    /// time, top-K).
    pub max_out_of_orderness_ms: u64,
    pub clicks: ClickSpec,
    pub enrichment: EnrichmentSpec,
    pub tables: TablesSpec,
    pub topk: TopKSpec,
}

impl Default for JoinsScenario {
    fn default() -> Self {
        Self {
            seed: 1,
            mode: Mode::StreamStream,
            duration_ms: 60_000,
            max_out_of_orderness_ms: 2_000,
            clicks: ClickSpec::default(),
            enrichment: EnrichmentSpec::default(),
            tables: TablesSpec::default(),
            topk: TopKSpec::default(),
        }
    }
}

/// What a run shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Searches joined with their clicks within an interval (Flink's interval join).
    #[default]
    StreamStream,
    /// Orders enriched from a customer table's changelog, by processing time and by event
    /// time, in two arrival interleavings.
    StreamTable,
    /// Orders and customers, both changelog tables, joined into a view kept up to date.
    TableTable,
    /// The top K items of each window: exact, merged from partitions, and from a sketch.
    TopK,
}

/// How long after its search a click happens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClickDelay {
    /// Anywhere from 0 to twice the mean, evenly.
    Uniform,
    /// Most clicks soon, a few much later (memoryless).
    #[default]
    Exponential,
    /// A Pareto tail with the same mean: half the clicks come within about half the mean,
    /// a few very much later.
    LongTail,
}

/// Searches and the clicks they lead to, joined by session (the stream–stream join).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClickSpec {
    /// Searches per second (each in its own session: the join key).
    pub searches_per_second: u32,
    /// Share of searches that lead to a click.
    pub click_probability: f64,
    pub click_delay: ClickDelay,
    /// Mean time from a search to its click, in ms.
    pub click_delay_mean_ms: u64,
    /// Every event reaches the join up to this long after it happened (evenly spread), so
    /// the two streams interleave out of order.
    pub network_delay_max_ms: u64,
    /// Share of clicks sent much later (a phone that was offline).
    pub late_click_probability: f64,
    /// How much later those clicks arrive, in ms.
    pub late_click_delay_ms: u64,
    /// `between(lower, upper)`: a click joins a search when
    /// `search.time + lower <= click.time <= search.time + upper`.
    pub lower_ms: i64,
    pub upper_ms: i64,
    /// Which unmatched events the join emits: a `LEFT JOIN` emits the unclicked searches.
    pub outer: Outer,
}

impl Default for ClickSpec {
    fn default() -> Self {
        Self {
            searches_per_second: 2,
            click_probability: 0.5,
            click_delay: ClickDelay::Exponential,
            click_delay_mean_ms: 3_000,
            network_delay_max_ms: 1_000,
            late_click_probability: 0.0,
            late_click_delay_ms: 20_000,
            lower_ms: 0,
            upper_ms: 10_000,
            outer: Outer::Left,
        }
    }
}

/// Orders enriched with their customer's tier (the stream–table join).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EnrichmentSpec {
    pub orders_per_second: u32,
    /// Customers; each starts with a tier at time 0.
    pub customers: u32,
    /// Tier changes per minute over all customers (the table's changelog).
    pub changes_per_minute: u32,
    /// An order reaches the join up to this long after it was placed.
    pub order_delay_max_ms: u64,
    /// A change reaches the join up to this long after it happened.
    pub change_delay_max_ms: u64,
    /// The rerun's interleaving: its arrival delays are drawn from this number, the first
    /// run's from 0. The "replay" button moves it on.
    pub replay_interleaving: u32,
}

impl Default for EnrichmentSpec {
    fn default() -> Self {
        Self {
            orders_per_second: 4,
            customers: 6,
            changes_per_minute: 30,
            order_delay_max_ms: 1_500,
            change_delay_max_ms: 1_500,
            replay_interleaving: 1,
        }
    }
}

/// Two changelog tables joined into a view (the table–table join).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TablesSpec {
    /// Order ids that the orders table's changelog writes to.
    pub orders: u32,
    /// Customer ids that orders point at and the customers table's changelog writes to.
    pub customers: u32,
    /// Changes per minute to the orders table (an order placed, moved to another customer,
    /// or deleted).
    pub order_changes_per_minute: u32,
    /// Changes per minute to the customers table (a tier change, or a delete).
    pub customer_changes_per_minute: u32,
    /// Share of changes that are deletes (tombstones).
    pub delete_probability: f64,
}

impl Default for TablesSpec {
    fn default() -> Self {
        Self {
            orders: 12,
            customers: 4,
            order_changes_per_minute: 40,
            customer_changes_per_minute: 20,
            delete_probability: 0.1,
        }
    }
}

/// Which windows top-K counts in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopKWindow {
    #[default]
    Tumbling,
    Hopping,
}

/// Views of posts, counted per window (top-K).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TopKSpec {
    pub events_per_second: u32,
    /// Distinct posts viewed.
    pub items: u32,
    /// Zipf exponent of the posts' popularity: 0 is even, 1 is a typical long tail.
    pub zipf_exponent: f64,
    /// Distinct users viewing them.
    pub users: u32,
    pub window: TopKWindow,
    pub window_size_ms: u64,
    /// For hopping windows: a new window starts every hop.
    pub window_hop_ms: u64,
    /// How many posts each window ranks (`WHERE rownum <= K`).
    pub k: u32,
    /// Partitions of the stream; each counts its own share and ranks its own top K.
    pub partitions: u32,
    /// Counters per row of the count-min sketch.
    pub sketch_width: u32,
    /// Rows (hash functions) of the sketch.
    pub sketch_depth: u32,
    /// Candidates the heap beside the sketch keeps (at least K).
    pub candidates: u32,
    /// A view reaches the counter up to this long after it happened.
    pub network_delay_max_ms: u64,
}

impl Default for TopKSpec {
    fn default() -> Self {
        Self {
            events_per_second: 100,
            items: 300,
            zipf_exponent: 1.0,
            users: 1_000,
            window: TopKWindow::Tumbling,
            window_size_ms: 10_000,
            window_hop_ms: 5_000,
            k: 5,
            partitions: 4,
            sketch_width: 256,
            sketch_depth: 4,
            candidates: 5,
            network_delay_max_ms: 500,
        }
    }
}

impl JoinsScenario {
    /// How many input records the run generates, about (the validation's cap).
    pub fn input_estimate(&self) -> u64 {
        let seconds = self.duration_ms.div_ceil(1_000);
        match self.mode {
            Mode::StreamStream => 2 * seconds * u64::from(self.clicks.searches_per_second),
            Mode::StreamTable => {
                2 * (seconds * u64::from(self.enrichment.orders_per_second)
                    + seconds * u64::from(self.enrichment.changes_per_minute) / 60
                    + u64::from(self.enrichment.customers))
            }
            Mode::TableTable => {
                seconds
                    * u64::from(
                        self.tables.order_changes_per_minute
                            + self.tables.customer_changes_per_minute,
                    )
                    / 60
            }
            Mode::TopK => seconds * u64::from(self.topk.events_per_second),
        }
    }
}
