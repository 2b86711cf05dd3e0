//! `window.__streamlab`: read-only numbers for browser tests and benchmarks.
//!
//! End-to-end tests compare `traceHash()` with the native CLI's, read frame-time statistics
//! and knob-to-picture latencies (to the rendered picture, and to the paint after it), see
//! how runs started (from zero, from a kept run, or rehearsed unseen) and whether nearby runs
//! are still being prepared, and call the benchmarks a bundle adds with [`define_hook`]
//! (`bench()`, `benchStorm()` and `benchSeek()` in the partitions bundle, `benchWindow()` in
//! the event-time one) to time the core inside the browser. The event-time playground publishes its run's
//! fingerprint as `traceHash()` while paused. The playground publishes into a thread-local
//! after each frame; the JS functions only read.

use crate::platform::browser::after_next_paint;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// Most recent samples kept for the statistics.
const KEPT_SAMPLES: usize = 600;

#[derive(Default)]
struct Published {
    trace_hash: String,
    sim_ms: u64,
    frame_work_ms: Vec<f64>,
    knob_to_picture_ms: Vec<f64>,
    /// The same changes, timed to the first paint after their picture was rendered.
    knob_to_paint_ms: Vec<f64>,
    /// Runs started from time zero, and runs taken from the page's kept runs.
    runs_from_zero: u32,
    runs_from_kept: u32,
    /// Runs built again unseen to rehearse a knob change (`super::rehearsal`).
    runs_rehearsed: u32,
    /// Nearby runs still to be prepared in idle time.
    nearby_pending: usize,
    /// A change's address (and share link) is still to be written.
    address_staged: bool,
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

/// Records how long a knob change started at `started_ms` took to reach the screen: to the
/// rendered picture now, and to the browser's next paint once it has happened. A picture
/// rendered in less than Yew's 16 ms slice is rendered before the browser paints it, so the
/// first figure alone can leave the paint out.
pub fn publish_knob_latency(started_ms: f64) {
    PUBLISHED.with(|p| {
        push_bounded(
            &mut p.borrow_mut().knob_to_picture_ms,
            now_ms() - started_ms,
        )
    });
    after_next_paint(move || {
        PUBLISHED
            .with(|p| push_bounded(&mut p.borrow_mut().knob_to_paint_ms, now_ms() - started_ms));
    });
}

/// Counts a run started, from zero or from a kept run.
pub fn count_run_start(from_kept: bool) {
    PUBLISHED.with(|p| {
        let mut p = p.borrow_mut();
        if from_kept {
            p.runs_from_kept += 1;
        } else {
            p.runs_from_zero += 1;
        }
    });
}

/// Counts a run built again unseen to rehearse a knob change.
pub fn count_rehearsal() {
    PUBLISHED.with(|p| p.borrow_mut().runs_rehearsed += 1);
}

/// Records how many nearby runs are still to be prepared.
pub fn publish_nearby_pending(count: usize) {
    PUBLISHED.with(|p| p.borrow_mut().nearby_pending = count);
}

/// Records whether a change's address and share link are still to be written.
pub fn publish_address_staged(staged: bool) {
    PUBLISHED.with(|p| p.borrow_mut().address_staged = staged);
}

fn push_bounded(samples: &mut Vec<f64>, value: f64) {
    if samples.len() == KEPT_SAMPLES {
        samples.remove(0);
    }
    samples.push(value);
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The page's `performance.now()`, called as one import: a build asks the time after each
    /// of its couple of hundred slices, and through `web_sys` each ask was three calls into the
    /// page (the window, its `performance`, then `now`).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Milliseconds since page load, from the browser's monotonic clock (UI only, never the core).
pub fn now_ms() -> f64 {
    performance_now()
}

pub fn stats(samples: &[f64]) -> JsValue {
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

/// A plain object of named figures: what a benchmark returns to the page.
pub fn figures_object(entries: &[(&str, f64)]) -> JsValue {
    let object = js_sys::Object::new();
    set_figures(&object, entries);
    object.into()
}

/// Adds `entries` to an object already built (a benchmark's statistics).
pub fn set_figures(object: &js_sys::Object, entries: &[(&str, f64)]) {
    for (key, value) in entries {
        let _ = js_sys::Reflect::set(object, &(*key).into(), &(*value).into());
    }
}

/// Adds a function to `window.__streamlab` for the rest of the page's life: how a bundle adds
/// the benchmarks of its family after [`install`].
pub fn define_hook(name: &str, hook: Closure<dyn Fn() -> JsValue>) {
    let hooks = web_sys::window()
        .and_then(|window| js_sys::Reflect::get(&window, &"__streamlab".into()).ok())
        .filter(|hooks| hooks.is_object());
    if let Some(hooks) = hooks {
        let _ = js_sys::Reflect::set(&hooks, &name.into(), hook.as_ref());
        hook.forget();
    }
}

fn reset_stats() {
    PUBLISHED.with(|p| {
        let mut p = p.borrow_mut();
        p.frame_work_ms.clear();
        p.knob_to_picture_ms.clear();
        p.knob_to_paint_ms.clear();
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
    let paint_stats = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| stats(&p.borrow().knob_to_paint_ms))
    });
    let run_starts = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| {
            let p = p.borrow();
            let starts = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&starts, &"fromZero".into(), &p.runs_from_zero.into());
            let _ = js_sys::Reflect::set(&starts, &"fromKept".into(), &p.runs_from_kept.into());
            let _ = js_sys::Reflect::set(&starts, &"rehearsed".into(), &p.runs_rehearsed.into());
            starts.into()
        })
    });
    let nearby_pending = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| JsValue::from_f64(p.borrow().nearby_pending as f64))
    });
    let address_staged = Closure::<dyn Fn() -> JsValue>::new(|| {
        PUBLISHED.with(|p| JsValue::from_bool(p.borrow().address_staged))
    });
    // These two return nothing, but take the others' shape: each shape of closure costs every
    // bundle its own glue.
    let reset_fn = Closure::<dyn Fn() -> JsValue>::new(|| {
        reset_stats();
        JsValue::UNDEFINED
    });
    let panic_fn = Closure::<dyn Fn() -> JsValue>::new(|| -> JsValue {
        panic!("debugPanic() was called from a test")
    });
    define("traceHash", trace_hash.as_ref());
    define("simMs", sim_ms.as_ref());
    define("frameStats", frame_stats.as_ref());
    define("knobToPictureStats", knob_stats.as_ref());
    define("knobToPaintStats", paint_stats.as_ref());
    define("runStarts", run_starts.as_ref());
    define("nearbyPending", nearby_pending.as_ref());
    define("addressStaged", address_staged.as_ref());
    define("resetStats", reset_fn.as_ref());
    define("debugPanic", panic_fn.as_ref());
    // The hooks live as long as the page.
    trace_hash.forget();
    sim_ms.forget();
    frame_stats.forget();
    knob_stats.forget();
    paint_stats.forget();
    run_starts.forget();
    nearby_pending.forget();
    address_staged.forget();
    reset_fn.forget();
    panic_fn.forget();
    let _ = js_sys::Reflect::set(&window, &"__streamlab".into(), &hooks);
}
