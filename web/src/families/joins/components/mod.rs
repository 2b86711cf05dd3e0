//! The joins family's pieces of the page: the two streams of the interval join, the orders
//! and their enrichments, the two tables and their view, the windows ranked four ways
//! (their figures through `widgets::figure_counters`), and what the time chart plots.

pub mod chart;
pub mod enrichment;
pub mod ranking;
pub mod streams;
pub mod tables;
