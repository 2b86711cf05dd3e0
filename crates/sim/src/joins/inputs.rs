//! The inputs of each mode, drawn once from the seed before the run starts: every event's
//! event time and, separately, when it reaches the operator (its arrival), so the same
//! events can arrive in another order (the stream–table rerun) without changing what
//! happened. Random streams are per purpose (`stream`), so turning one knob does not shift
//! the draws of another.

use super::scenario::{ClickDelay, JoinsScenario};
use crate::kafka::partitioner::partition_for_key;
use crate::replay::rng::SimRng;

/// Labels of the family's random streams.
mod stream {
    pub const SEARCHES: u64 = 300;
    pub const CLICK_ARRIVALS: u64 = 301;
    pub const ORDERS: u64 = 310;
    /// Interleaving `i` draws its arrival delays from `INTERLEAVING_BASE + i`.
    pub const INTERLEAVING_BASE: u64 = 1_000;
    pub const TABLES: u64 = 320;
    pub const VIEWS: u64 = 330;
    pub const VIEW_ARRIVALS: u64 = 331;
    pub const SKETCH: u64 = 332;
}

/// The next instant of a Poisson process of `per_second` events, after `after_ms`.
fn next_poisson_ms(rng: &mut SimRng, after_ms: u64, per_second: f64) -> u64 {
    let mean_ms = 1_000.0 / per_second;
    let gap_ms = -libm::log(1.0 - rng.unit_f64()) * mean_ms;
    after_ms + gap_ms as u64
}

/// The instants of a Poisson process of `per_second` events in `[0, duration_ms)`.
fn poisson_instants(rng: &mut SimRng, duration_ms: u64, per_second: f64) -> Vec<u64> {
    let mut instants = Vec::new();
    if per_second <= 0.0 {
        return instants;
    }
    let mut at_ms = next_poisson_ms(rng, 0, per_second);
    while at_ms < duration_ms {
        instants.push(at_ms);
        at_ms = next_poisson_ms(rng, at_ms, per_second);
    }
    instants
}

/// A uniform delay in `[0, max_ms]`.
fn delay_up_to(rng: &mut SimRng, max_ms: u64) -> u64 {
    rng.below(max_ms + 1)
}

/// One search, and the click it led to, if any (the session is the join key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchClick {
    pub session: u32,
    pub search_ms: u64,
    pub search_arrival_ms: u64,
    pub click: Option<Click>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Click {
    pub at_ms: u64,
    pub arrival_ms: u64,
    /// Sent much later than it happened (a phone that was offline).
    pub held_back: bool,
}

/// How long after its search a click happens.
fn click_delay_ms(rng: &mut SimRng, shape: ClickDelay, mean_ms: u64) -> u64 {
    let mean = mean_ms as f64;
    let u = rng.unit_f64();
    let delay = match shape {
        ClickDelay::Uniform => u * 2.0 * mean,
        ClickDelay::Exponential => -libm::log(1.0 - u) * mean,
        // Pareto with shape 1.5 and scale mean / 3 has the given mean; cut at 20 means so a
        // single draw cannot outlast the run.
        ClickDelay::LongTail => (mean / 3.0 / libm::pow(1.0 - u, 1.0 / 1.5)).min(20.0 * mean),
    };
    delay as u64
}

/// Every search of the run, in event-time order, with its click.
pub fn searches(s: &JoinsScenario) -> Vec<SearchClick> {
    let c = &s.clicks;
    let mut rng = SimRng::for_stream(s.seed, stream::SEARCHES);
    let mut arrivals = SimRng::for_stream(s.seed, stream::CLICK_ARRIVALS);
    let instants = poisson_instants(&mut rng, s.duration_ms, f64::from(c.searches_per_second));
    instants
        .into_iter()
        .enumerate()
        .map(|(i, search_ms)| {
            let clicked = rng.unit_f64() < c.click_probability;
            let delay_ms = click_delay_ms(&mut rng, c.click_delay, c.click_delay_mean_ms);
            let held_back = rng.unit_f64() < c.late_click_probability;
            let search_arrival_ms = search_ms + delay_up_to(&mut arrivals, c.network_delay_max_ms);
            let click_arrival_delay_ms = delay_up_to(&mut arrivals, c.network_delay_max_ms);
            let click = clicked.then(|| {
                let at_ms = search_ms + delay_ms;
                let extra_ms = if held_back { c.late_click_delay_ms } else { 0 };
                Click {
                    at_ms,
                    arrival_ms: at_ms + click_arrival_delay_ms + extra_ms,
                    held_back,
                }
            });
            SearchClick {
                session: i as u32,
                search_ms,
                search_arrival_ms,
                click,
            }
        })
        .collect()
}

/// An order: a customer and the instant it was placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    pub customer: u32,
    pub at_ms: u64,
}

/// A version of a customer's row: its tier from `at_ms` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierChange {
    pub customer: u32,
    pub at_ms: u64,
    /// 0 bronze, 1 silver, 2 gold, 3 platinum.
    pub tier: u8,
}

/// The tiers a customer can have.
pub const TIERS: [&str; 4] = ["bronze", "silver", "gold", "platinum"];

/// The orders and the customer table's changelog (every customer's first version at 0,
/// then changes in time order).
pub fn orders_and_changes(s: &JoinsScenario) -> (Vec<Order>, Vec<TierChange>) {
    let e = &s.enrichment;
    let mut rng = SimRng::for_stream(s.seed, stream::ORDERS);
    let mut tiers: Vec<u8> = (0..e.customers)
        .map(|_| rng.below(TIERS.len() as u64) as u8)
        .collect();
    let mut changes: Vec<TierChange> = tiers
        .iter()
        .enumerate()
        .map(|(customer, &tier)| TierChange {
            customer: customer as u32,
            at_ms: 0,
            tier,
        })
        .collect();
    let per_second = f64::from(e.changes_per_minute) / 60.0;
    for at_ms in poisson_instants(&mut rng, s.duration_ms, per_second) {
        let customer = rng.below(u64::from(e.customers)) as u32;
        // Always another tier, so every change is one an order could notice.
        let tier = (tiers[customer as usize] + 1 + rng.below(3) as u8) % TIERS.len() as u8;
        tiers[customer as usize] = tier;
        changes.push(TierChange {
            customer,
            at_ms: at_ms.max(1),
            tier,
        });
    }
    let orders = poisson_instants(&mut rng, s.duration_ms, f64::from(e.orders_per_second))
        .into_iter()
        .map(|at_ms| Order {
            customer: rng.below(u64::from(e.customers)) as u32,
            at_ms,
        })
        .collect();
    (orders, changes)
}

/// One input of the stream–table join, by index into the orders or the changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnrichInput {
    Order(u32),
    Change(u32),
}

/// The arrival order of one interleaving: each input with its arrival instant, sorted by
/// arrival (ties: changes before orders, then by index). The customers' first versions
/// arrive at 0, before anything else.
pub fn interleaving(
    s: &JoinsScenario,
    orders: &[Order],
    changes: &[TierChange],
    interleaving: u32,
) -> Vec<(u64, EnrichInput)> {
    let e = &s.enrichment;
    let mut rng = SimRng::for_stream(s.seed, stream::INTERLEAVING_BASE + u64::from(interleaving));
    let first_versions = e.customers as usize;
    let mut arrivals: Vec<(u64, EnrichInput)> = changes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let delay_ms = if i < first_versions {
                0
            } else {
                delay_up_to(&mut rng, e.change_delay_max_ms)
            };
            (c.at_ms + delay_ms, EnrichInput::Change(i as u32))
        })
        .collect();
    arrivals.extend(orders.iter().enumerate().map(|(i, o)| {
        (
            o.at_ms + delay_up_to(&mut rng, e.order_delay_max_ms),
            EnrichInput::Order(i as u32),
        )
    }));
    let rank = |input: &EnrichInput| match *input {
        EnrichInput::Change(i) => (0, i),
        EnrichInput::Order(i) => (1, i),
    };
    crate::replay::sort::sort_by(&mut arrivals, |a, b| {
        (a.0, rank(&a.1)).cmp(&(b.0, rank(&b.1)))
    });
    arrivals
}

/// One record of either table's changelog in the table–table join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableRecord {
    pub at_ms: u64,
    pub change: super::view::TableChange,
}

/// Both changelogs, merged in time order: every customer's first row at 0, then changes to
/// either table.
pub fn table_changes(s: &JoinsScenario) -> Vec<TableRecord> {
    use super::view::{LeftRow, TableChange};
    let t = &s.tables;
    let mut rng = SimRng::for_stream(s.seed, stream::TABLES);
    let mut records: Vec<TableRecord> = (0..t.customers)
        .map(|key| TableRecord {
            at_ms: 0,
            change: TableChange::Right {
                key,
                value: Some(rng.below(TIERS.len() as u64) as u32),
            },
        })
        .collect();
    let order_times = poisson_instants(
        &mut rng,
        s.duration_ms,
        f64::from(t.order_changes_per_minute) / 60.0,
    );
    let customer_times = poisson_instants(
        &mut rng,
        s.duration_ms,
        f64::from(t.customer_changes_per_minute) / 60.0,
    );
    let mut changed: Vec<TableRecord> =
        Vec::with_capacity(order_times.len() + customer_times.len());
    for at_ms in order_times {
        let key = rng.below(u64::from(t.orders)) as u32;
        let deleted = rng.unit_f64() < t.delete_probability;
        let row = LeftRow {
            fk: rng.below(u64::from(t.customers)) as u32,
            value: 10 * (1 + rng.below(50) as u32),
        };
        changed.push(TableRecord {
            at_ms: at_ms.max(1),
            change: TableChange::Left {
                key,
                row: (!deleted).then_some(row),
            },
        });
    }
    for at_ms in customer_times {
        let key = rng.below(u64::from(t.customers)) as u32;
        let deleted = rng.unit_f64() < t.delete_probability;
        let tier = rng.below(TIERS.len() as u64) as u32;
        changed.push(TableRecord {
            at_ms: at_ms.max(1),
            change: TableChange::Right {
                key,
                value: (!deleted).then_some(tier),
            },
        });
    }
    // By time; at equal instants the orders' changelog first, as drawn.
    crate::replay::sort::sort_by_key(&mut changed, |r| r.at_ms);
    records.extend(changed);
    records
}

/// One view of a post in the top-K stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub item: u32,
    pub user: u32,
    pub at_ms: u64,
    pub arrival_ms: u64,
}

/// Every view of the run, sorted by arrival (ties by event time, then draw order).
pub fn views(s: &JoinsScenario) -> Vec<View> {
    let t = &s.topk;
    let mut rng = SimRng::for_stream(s.seed, stream::VIEWS);
    let mut arrivals = SimRng::for_stream(s.seed, stream::VIEW_ARRIVALS);
    // Zipf: item i (from 0) has weight 1 / (i + 1)^s; draws invert the cumulative weights.
    let mut cumulative = Vec::with_capacity(t.items as usize);
    let mut total = 0.0;
    for i in 0..t.items {
        total += 1.0 / libm::pow(f64::from(i + 1), t.zipf_exponent);
        cumulative.push(total);
    }
    let mut views: Vec<View> =
        poisson_instants(&mut rng, s.duration_ms, f64::from(t.events_per_second))
            .into_iter()
            .map(|at_ms| {
                let draw = rng.unit_f64() * total;
                let item = cumulative
                    .partition_point(|&c| c <= draw)
                    .min(t.items as usize - 1) as u32;
                let user = rng.below(u64::from(t.users)) as u32;
                View {
                    item,
                    user,
                    at_ms,
                    arrival_ms: at_ms + delay_up_to(&mut arrivals, t.network_delay_max_ms),
                }
            })
            .collect();
    crate::replay::sort::sort_by_key(&mut views, |v| (v.arrival_ms, v.at_ms));
    views
}

/// The seed of the sketch's hash functions.
pub fn sketch_rng(s: &JoinsScenario) -> SimRng {
    SimRng::for_stream(s.seed, stream::SKETCH)
}

/// A post's name, as keys and the lesson spell it.
pub fn item_name(item: u32) -> String {
    format!("post-{}", item + 1)
}

/// A user's name.
pub fn user_name(user: u32) -> String {
    format!("user-{}", user + 1)
}

/// The partition Kafka's default partitioner gives `name` among `partitions`.
pub fn partition_of(name: &str, partitions: u32) -> u32 {
    partition_for_key(name.as_bytes(), partitions)
}
