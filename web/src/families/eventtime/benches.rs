//! The event-time bundle's benchmark on `window.__streamlab`: the window operator timed inside
//! the browser (`benchWindow()`) on the native benchmark's workload. It lives with the family
//! that already compiles the operator, so no other bundle carries it.

use crate::shell::test_hooks::{define_hook, figures_object, now_ms};
use streamlab_sim::invariant::Surely;
use streamlab_sim::window::workload::{
    reference_config, reference_events, REFERENCE_EVENTS, REFERENCE_KEYS,
};
use streamlab_sim::window::{WindowOperator, WindowSpec};
use wasm_bindgen::prelude::*;

/// Adds the benchmark to `window.__streamlab`.
pub fn install() {
    define_hook("benchWindow", Closure::new(bench_window));
}

/// Times the window operator on 1 M events, 10 k keys, tumbling 60 s windows; generating the
/// events is not timed. Keys are `u32`, the key type the lessons already compile the operator
/// for: a `String` or `u64` operator here would add a second copy of its code to the bundle for
/// the benchmark's sake alone.
fn bench_window() -> JsValue {
    let events = reference_events(REFERENCE_EVENTS, REFERENCE_KEYS);
    let config = reference_config(WindowSpec::Tumbling { size_ms: 60_000 });
    let mut out = Vec::with_capacity(1024);
    let started = now_ms();
    let mut operator = WindowOperator::<u32>::new(config).surely("the reference config is valid");
    for &(key, time_ms) in &events {
        // Fewer than 2^32 keys by construction.
        operator
            .push(&(key as u32), time_ms, &mut out)
            .surely("the reference events are valid");
        out.clear();
    }
    operator.finish(&mut out);
    let elapsed_ms = now_ms() - started;
    let count = events.len() as f64;
    figures_object(&[
        ("events", count),
        ("panes", operator.summary().panes as f64),
        ("u32_keys_ms", elapsed_ms),
        ("u32_keys_events_per_s", count / (elapsed_ms / 1000.0)),
    ])
}
