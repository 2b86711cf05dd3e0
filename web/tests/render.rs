//! The app renders what a learner needs: the diagram, idle members, the knobs, and a clear
//! message for a broken link.

use streamlab_sim::kafka::scenario::Scenario;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Puts `fragment` in the address bar, mounts the app in a fresh element and waits a moment.
async fn mount_with_fragment(fragment: &str) -> Element {
    let window = web_sys::window().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(fragment))
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    // One page that can open every lesson, as if every bundle were loaded.
    streamlab_web::registry::install(streamlab_web::bundles::every_lesson());
    yew::Renderer::<streamlab_web::app::App>::with_root(root.clone()).render();
    sleep_ms(300).await;
    root
}

/// Waits until `ready` holds, checking every 50 ms, for at most `limit_ms`; returns whether it
/// held. Animation frames come when the browser schedules them, so tests wait for an effect
/// instead of assuming how soon it shows.
async fn eventually(limit_ms: i32, ready: impl Fn() -> bool) -> bool {
    let mut waited = 0;
    while !ready() {
        if waited >= limit_ms {
            return false;
        }
        sleep_ms(50).await;
        waited += 50;
    }
    true
}

async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn count(root: &Element, selector: &str) -> u32 {
    root.query_selector_all(selector).unwrap().length()
}

/// How many record cells the kafka diagram draws: its cells are outlines in one path per key
/// colour, one `M` (move to) each.
fn record_cells(root: &Element) -> usize {
    let paths = root
        .query_selector_all("svg.diagram .records path")
        .unwrap();
    (0..paths.length())
        .filter_map(|i| {
            paths
                .item(i)?
                .dyn_into::<Element>()
                .ok()?
                .get_attribute("d")
        })
        .map(|d| d.matches('M').count())
        .sum()
}

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector)
        .unwrap()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        .map(|e| e.inner_text())
        .unwrap_or_default()
}

fn link_for(edit: impl Fn(&mut Scenario)) -> String {
    let mut scenario = Scenario::default();
    edit(&mut scenario);
    format!(
        "#/partitions?s={}",
        streamlab_sim::kafka::scenario::encode_link(&scenario)
    )
}

#[wasm_bindgen_test]
async fn the_default_lesson_draws_partitions_members_and_knobs() {
    let root = mount_with_fragment("#/partitions").await;
    assert_eq!(count(&root, "svg.diagram g.partition"), 6);
    assert_eq!(count(&root, "svg.diagram g.member"), 3);
    let appeared = eventually(10_000, || record_cells(&root) > 0).await;
    assert!(appeared, "records appear in the partitions");
    assert!(root.query_selector("#knob-partitions").unwrap().is_some());
    assert!(root.query_selector(".error-banner").unwrap().is_none());
    assert!(text(&root, ".narration").contains("generation 1"));
}

#[wasm_bindgen_test]
async fn a_link_reproduces_its_scenario_and_shows_idle_members() {
    let fragment = link_for(|s| {
        s.topic.partitions = 6;
        s.groups[0].members = 8;
    });
    let root = mount_with_fragment(&fragment).await;
    assert_eq!(count(&root, "svg.diagram g.member"), 8);
    assert_eq!(count(&root, "svg.diagram g.member.idle"), 2);
    assert!(text(&root, ".narration").contains("idle"));
}

#[wasm_bindgen_test]
async fn a_garbage_link_shows_a_message_and_the_default_scenario() {
    let root = mount_with_fragment("#/partitions?s=1.this-is-not-a-scenario").await;
    let banner = text(&root, ".error-banner");
    assert!(banner.contains("could not be read"), "banner: {banner}");
    assert!(banner.contains("default"), "banner: {banner}");
    assert_eq!(count(&root, "svg.diagram g.partition"), 6);
}
