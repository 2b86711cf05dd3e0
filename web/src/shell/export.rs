//! Export: a lesson's scenario as JSON, its chart as PNG, and the download of a family's CSV.
//!
//! The JSON builder is a pure function of the core's plain data (each family builds its own
//! CSV the same way). The playground's
//! run is not handed over: the export re-simulates the scenario to the same instant, which by
//! determinism gives the same numbers the screen shows. Only [`download_text`] and
//! [`download_canvas`] touch the browser.

use serde::Serialize;
use wasm_bindgen::JsCast;

/// The scenario as indented JSON: for consumer-group scenarios, exactly what
/// `streamlab simulate --scenario FILE` reads.
pub fn scenario_json<T: Serialize>(scenario: &T) -> String {
    // The compact writer is already in the site for share links; serde_json's pretty one
    // would add a second copy of every Serialize impl, so indent the compact text instead.
    indent_json(&serde_json::to_string(scenario).unwrap_or_default())
}

/// Two-space indentation for compact JSON (strings left as they are).
fn indent_json(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    for c in compact.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                depth += 1;
                out.push(c);
                newline(&mut out, depth);
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// Quotes a field that holds a comma, quote or line break.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Saves `text` as a file called `name`, through a link the page clicks.
pub fn download_text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    click_download(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Saves the first canvas matching `selector` as a PNG called `name`; returns whether there
/// was one.
pub fn download_canvas(selector: &str, name: &str) -> bool {
    // A chart scrolled out of sight may still owe its newest drawing.
    crate::shell::canvas::draw_waiting_everywhere();
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
    let Some(url) = canvas.and_then(|c| c.to_data_url_with_type("image/png").ok()) else {
        return false;
    };
    click_download(name, &url);
    true
}

pub(crate) fn click_download(name: &str, url: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(link) = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return;
    };
    link.set_href(url);
    link.set_download(name);
    link.click();
}

#[cfg(test)]
// The export is checked against serde_json's own reader, which only the tests link.
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;
    use streamlab_sim::kafka::Scenario;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_scenario_json_reads_back_as_the_same_scenario() {
        let mut scenario = Scenario::default();
        scenario.groups[0].max_poll_records = 42;
        let json = scenario_json(&scenario);
        let back: Scenario = serde_json::from_str(&json).unwrap();
        assert_eq!(back, scenario);
    }

    #[wasm_bindgen_test]
    fn indenting_keeps_strings_and_the_value() {
        let compact = r#"{"a":[1,{"b":"x, {y}: \"z\""}],"c":{}}"#;
        let indented = indent_json(compact);
        assert!(indented.contains("\n  \"a\": ["));
        let back: serde_json::Value = serde_json::from_str(&indented).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(compact).unwrap()
        );
    }

    #[wasm_bindgen_test]
    fn fields_with_commas_are_quoted() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
