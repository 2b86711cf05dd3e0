//! The partitions bundle's benchmarks on `window.__streamlab`: the core timed inside the browser on
//! the default lesson (`bench()`), the 32-member rebalance storm (`benchStorm()`) and the
//! scrubber's worst seek (`benchSeek()`). `tests/bench/browser-bench.mjs` calls them; they
//! live with the family so that no other bundle carries the Kafka core for their sake.

use crate::shell::test_hooks::{define_hook, figures_object, now_ms, set_figures, stats};
use streamlab_sim::family::timeline::Timeline;
use streamlab_sim::invariant::Surely;
use streamlab_sim::kafka::{Scenario, World};
use wasm_bindgen::prelude::*;

/// What the benchmarks' scenarios are: a lesson's default and a preset, both valid.
const VALID: &str = "a lesson's default and its presets are valid";

/// Adds the benchmarks to `window.__streamlab`.
pub fn install() {
    define_hook("bench", Closure::new(bench));
    define_hook("benchStorm", Closure::new(bench_storm));
    define_hook("benchSeek", Closure::new(bench_seek));
}

/// Times the core in this browser: the default lesson for ten simulated minutes, and the
/// re-simulation a knob change causes (default lesson to 60 s).
fn bench() -> JsValue {
    let scenario = Scenario::default();
    let started = now_ms();
    let mut world = World::new(&scenario).surely(VALID);
    world.advance_to(600_000);
    let elapsed_ms = now_ms() - started;
    // Counted as the native benchmark counts them: records produced.
    let records = world.producer().sent() as f64;
    let resim_started = now_ms();
    let mut again = World::new(&scenario).surely(VALID);
    again.advance_to(60_000);
    let resim_ms = now_ms() - resim_started;
    figures_object(&[
        ("default_lesson_10min_ms", elapsed_ms),
        ("records_simulated", records),
        ("records_per_s", records / (elapsed_ms / 1000.0)),
        ("knob_change_resimulate_60s_ms", resim_ms),
    ])
}

fn bench_storm() -> JsValue {
    let scenario = streamlab_sim::kafka::presets::storm_32_members();
    let started = now_ms();
    let mut world = World::new(&scenario).surely(VALID);
    world.advance_to(scenario.duration_ms);
    let elapsed_ms = now_ms() - started;
    figures_object(&[
        ("elapsed_ms", elapsed_ms),
        ("rebalances", world.groups()[0].rebalances_total as f64),
        ("records_produced", world.producer().sent() as f64),
    ])
}

/// Times seeking in a ten-minute run of the default lesson, as the scrubber does it: the run is
/// played to the end once (its checkpoints made), then each seek lands just before a
/// checkpoint boundary somewhere in the run, the worst case.
fn bench_seek() -> JsValue {
    let ten_minutes_ms = 600_000;
    let mut timeline = Timeline::new(World::new(&Scenario::default()).surely(VALID));
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
    if let Some(object) = object.dyn_ref::<js_sys::Object>() {
        set_figures(
            object,
            &[
                ("first_play_10min_ms", first_play_ms),
                ("checkpoints", checkpoints as f64),
                ("spacing_ms", spacing_ms as f64),
            ],
        );
    }
    object
}
