//! `window.__streamlab`: read-only numbers for browser tests and benchmarks.
//!
//! End-to-end tests compare `traceHash()` with the native CLI's, read frame-time statistics
//! and knob-to-picture latencies, and call `bench()` (and `benchStorm()`, `benchWindow()`,
//! and `benchSeek()`, the scrubber's worst case) to time the core inside the browser. The
//! event-time playground publishes its run's fingerprint as `traceHash()` while paused.
//! The playground publishes into a thread-local after each frame; the JS functions only read.

use std::cell::RefCell;
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::kafka::{Scenario, World};
use wasm_bindgen::prelude::*;

/// Most recent samples kept for the statistics.
const KEPT_SAMPLES: usize = 600;

#[derive(Default)]
struct Published {
    trace_hash: String,
    sim_ms: u64,
    frame_work_ms: Vec<f64>,
    knob_to_picture_ms: Vec<f64>,
}

thread_local! {
    static PUBLISHED: RefCell<Published> = RefCell::new(Published::default());
}

/// Records the state after a frame.
pub fn publish_frame(trace_hash: String, sim_ms: u64, work_ms: Option<f64>) {
    PUBLISHED.with(|p| {
        let mut p = p.borrow_mut();
        p.trace_hash = trace_hash;
        p.sim_ms = sim_ms;
        if let Some(ms) = work_ms {
            push_bounded(&mut p.frame_work_ms, ms);
        }
    });
}

/// Records how long a knob change took to reach the screen.
pub fn publish_knob_latency(ms: f64) {
    PUBLISHED.with(|p| push_bounded(&mut p.borrow_mut().knob_to_picture_ms, ms));
}

fn push_bounded(samples: &mut Vec<f64>, value: f64) {
    if samples.len() == KEPT_SAMPLES {
        samples.remove(0);
    }
    samples.push(value);
}

/// Milliseconds since page load, from the browser's monotonic clock (UI only, never the core).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn stats(samples: &[f64]) -> JsValue {
    let mut sorted = samples.to_vec();
    streamlab_sim::replay::sort::sort_by(&mut sorted, f64::total_cmp);
    let pick = |q: f64| {
        if sorted.is_empty() {
            f64::NAN
        } else {
            sorted[((sorted.len() - 1) as f64 * q).round() as usize]
        }
    };
    let object = js_sys::Object::new();
    let set = |k: &str, v: f64| {
        let _ = js_sys::Reflect::set(&object, &k.into(), &v.into());
    };
    set("count", sorted.len() as f64);
    set("p50", pick(0.5));
    set("p95", pick(0.95));
    set("max", pick(1.0));
    object.into()
}

/// Times the core in this browser: the default lesson for ten simulated minutes, and the
/// re-simulation a knob change causes (default lesson to 60 s).
fn bench() -> JsValue {
    let scenario = Scenario::default();
    let started = now_ms();
    let mut world = World::new(&scenario).expect("the default scenario is valid");
    world.advance_to(600_000);
    let elapsed_ms = now_ms() - started;
    // Counted as the native benchmark counts them: records produced.
    let records = world.producer().sent();
    let resim_started = now_ms();
    let mut again = World::new(&scenario).expect("valid");
    again.advance_to(60_000);
    let resim_ms = now_ms() - resim_started;
    let object = js_sys::Object::new();
    let set = |k: &str, v: f64| {
        let _ = js_sys::Reflect::set(&object, &k.into(), &v.into());
    };
    set("default_lesson_10min_ms", elapsed_ms);
    set("records_simulated", records as f64);
    set("records_per_s", records as f64 / (elapsed_ms / 1000.0));
    set("knob_change_resimulate_60s_ms", resim_ms);
    object.into()
}

fn bench_storm() -> JsValue {
    let scenario = streamlab_sim::kafka::presets::storm_32_members();
    let started = now_ms();
    let mut world = World::new(&scenario).expect("valid");
    world.advance_to(scenario.duration_ms);
    let elapsed_ms = now_ms() - started;
    let object = js_sys::Object::new();
    let set = |k: &str, v: f64| {
        let _ = js_sys::Reflect::set(&object, &k.into(), &v.into());
    };
    set("elapsed_ms", elapsed_ms);
    set("rebalances", world.groups()[0].rebalances_total as f64);
    set("records_produced", world.producer().sent() as f64);
    object.into()
}

/// Times the window operator in this browser on the native benchmark's workload (1 M events,
/// 10 k keys, tumbling 60 s windows); generating the events is not timed. Keys are `u32`, the
/// key type the lessons already compile the operator for: a `String` or `u64` operator here
/// would add a second copy of its code to the site for the benchmark's sake alone.
fn bench_window() -> JsValue {
    use streamlab_sim::window::workload::{
        reference_config, reference_events, REFERENCE_EVENTS, REFERENCE_KEYS,
    };
    use streamlab_sim::window::{WindowOperator, WindowSpec};
    let events = reference_events(REFERENCE_EVENTS, REFERENCE_KEYS);
    let config = reference_config(WindowSpec::Tumbling { size_ms: 60_000 });
    let mut out = Vec::with_capacity(1024);
    let started = now_ms();
    let mut operator = WindowOperator::<u32>::new(config).expect("valid config");
    for &(key, time_ms) in &events {
        // Fewer than 2^32 keys by construction.
        operator
            .push(&(key as u32), time_ms, &mut out)
            .expect("valid event");
        out.clear();
    }
    operator.finish(&mut out);
    let elapsed_ms = now_ms() - started;
    let object = js_sys::Object::new();
    let set = |k: &str, v: f64| {
        let _ = js_sys::Reflect::set(&object, &k.into(), &v.into());
    };
    let count = events.len() as f64;
    set("events", count);
    set("panes", operator.summary().panes as f64);
    set("u32_keys_ms", elapsed_ms);
    set("u32_keys_events_per_s", count / (elapsed_ms / 1000.0));
    object.into()
}

/// Times seeking in a ten-minute run of the default lesson, as the scrubber does it: the run is
/// played to the end once (its checkpoints made), then each seek lands just before a
/// checkpoint boundary somewhere in the run, the worst case.
fn bench_seek() -> JsValue {
    let ten_minutes_ms = 600_000;
    let mut timeline = Timeline::new(World::new(&Scenario::default()).expect("valid"));
    let started = now_ms();
    timeline.seek(ten_minutes_ms);
    let first_play_ms = now_ms() - started;
    let (checkpoints, spacing_ms) = timeline.checkpoints();
    let mut seeks_ms = Vec::new();
    for i in 0..40u64 {
        // Back and forth across the run: 1, 20, 2, 19, ... spacings in, minus 1 ms.
        let boundary = if i % 2 == 0 { 1 + i / 2 } else { 20 - i / 2 };
        let target_ms = (boundary * spacing_ms).min(ten_minutes_ms) - 1;
        let started = now_ms();
        timeline.seek(target_ms);
        seeks_ms.push(now_ms() - started);
    }
    let object = stats(&seeks_ms);
    let set = |k: &str, v: f64| {
        let _ = js_sys::Reflect::set(&object, &k.into(), &v.into());
    };
    set("first_play_10min_ms", first_play_ms);
    set("checkpoints", checkpoints as f64);
    set("spacing_ms", spacing_ms as f64);
    object
}

fn reset_stats() {
    PUBLISHED.with(|p| {
        let mut p = p.borrow_mut();
        p.frame_work_ms.clear();
        p.knob_to_picture_ms.clear();
    });
}

/// Defines `window.__streamlab`.
pub fn install() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hooks = js_sys::Object::new();
    let define = |name: &str, f: &JsValue| {
        let _ = js_sys::Reflect::set(&hooks, &name.into(), f);
    };
    let trace_hash = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| JsValue::from_str(&p.borrow().trace_hash))
    });
    let sim_ms = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| JsValue::from_f64(p.borrow().sim_ms as f64))
    });
    let frame_stats = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| stats(&p.borrow().frame_work_ms))
    });
    let knob_stats = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| stats(&p.borrow().knob_to_picture_ms))
    });
    let bench_fn = Closure::<dyn Fn() -> JsValue>::new(bench);
    let storm_fn = Closure::<dyn Fn() -> JsValue>::new(bench_storm);
    let window_fn = Closure::<dyn Fn() -> JsValue>::new(bench_window);
    let seek_fn = Closure::<dyn Fn() -> JsValue>::new(bench_seek);
    let reset_fn = Closure::<dyn Fn()>::new(reset_stats);
    let panic_fn = Closure::<dyn Fn()>::new(|| panic!("debugPanic() was called from a test"));
    define("traceHash", trace_hash.as_ref());
    define("simMs", sim_ms.as_ref());
    define("frameStats", frame_stats.as_ref());
    define("knobToPictureStats", knob_stats.as_ref());
    define("bench", bench_fn.as_ref());
    define("benchStorm", storm_fn.as_ref());
    define("benchWindow", window_fn.as_ref());
    define("benchSeek", seek_fn.as_ref());
    define("resetStats", reset_fn.as_ref());
    define("debugPanic", panic_fn.as_ref());
    // The hooks live as long as the page.
    trace_hash.forget();
    sim_ms.forget();
    frame_stats.forget();
    knob_stats.forget();
    bench_fn.forget();
    storm_fn.forget();
    window_fn.forget();
    seek_fn.forget();
    reset_fn.forget();
    panic_fn.forget();
    let _ = js_sys::Reflect::set(&window, &"__streamlab".into(), &hooks);
}
