//! The same scenario gives the same run in the browser as natively, bit for bit.
//!
//! `cargo xtask test` runs the fixture through the native CLI first and passes its trace hash
//! in STREAMLAB_NATIVE_TRACE_HASH; this test runs the same fixture in wasm and compares.

use streamlab_sim::kafka::{Scenario, World};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
// The fixture is read as the CLI reads a scenario file; only this test links that reader.
#[allow(clippy::disallowed_methods)]
fn the_trace_hash_in_the_browser_equals_the_native_one() {
    let fixture = include_str!("../../tests/fixtures/determinism.json");
    let scenario: Scenario = serde_json::from_str(fixture).expect("the fixture parses");
    let mut world = World::new(&scenario).expect("the fixture is valid");
    world.advance_to(scenario.duration_ms);
    let Some(native) = option_env!("STREAMLAB_NATIVE_TRACE_HASH") else {
        panic!("STREAMLAB_NATIVE_TRACE_HASH is set by `cargo xtask test` from the native CLI");
    };
    assert_eq!(world.trace_hash().hex(), native);
}

#[wasm_bindgen_test]
fn a_share_link_decodes_to_the_same_run() {
    let mut scenario = Scenario::default();
    scenario.seed = 99;
    scenario.producer.key_skew = 1.7;
    let link = streamlab_sim::kafka::scenario::encode_link(&scenario);
    let decoded = streamlab_sim::kafka::scenario::decode_link(&link).expect("round trip");
    let mut a = World::new(&scenario).unwrap();
    let mut b = World::new(&decoded).unwrap();
    a.advance_to(20_000);
    b.advance_to(20_000);
    assert_eq!(a.trace_hash(), b.trace_hash());
}
