//! Export: a lesson's metrics as CSV, its scenario as JSON, and its chart as PNG.
//!
//! The CSV and JSON builders are pure functions of the core's plain data. The playground's
//! run is not handed over: the export re-simulates the scenario to the same instant, which by
//! determinism gives the same numbers the screen shows. Only [`download_text`] and
//! [`download_canvas`] touch the browser.

use serde::Serialize;
use streamlab_sim::eventtime::{EventTimeScenario, EventTimeWorld, WindowComparison};
use streamlab_sim::kafka::metrics::Metrics;
use streamlab_sim::kafka::{Scenario, World};
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

/// One row per metrics sample and group: totals, and the lag of each partition.
pub fn group_metrics_csv(scenario: &Scenario, metrics: &Metrics) -> String {
    let partitions = scenario.topic.partitions as usize;
    let mut header = String::from(
        "at_ms,group_id,produced_total,processed_total,duplicates_total,rebalances_total,lag_total",
    );
    for p in 0..partitions {
        header.push_str(&format!(",lag_p{p}"));
    }
    let mut rows = vec![header];
    for sample in &metrics.samples {
        for (group, config) in sample.groups.iter().zip(&scenario.groups) {
            let mut row = format!(
                "{},{},{},{},{},{},{}",
                sample.at_ms,
                csv_field(&config.group_id),
                sample.produced_total,
                group.processed_total,
                group.duplicates_total,
                group.rebalances_total,
                group.lag.iter().sum::<u64>()
            );
            for p in 0..partitions {
                let lag = group.lag.get(p).map_or(String::new(), u64::to_string);
                row.push_str(&format!(",{lag}"));
            }
            rows.push(row);
        }
    }
    rows.join("\n") + "\n"
}

/// One row per window and key: the true count, the event-time and processing-time answers,
/// how many panes fired and how many records were too late for it.
pub fn window_counts_csv(windows: &[WindowComparison]) -> String {
    let mut rows = vec![String::from(
        "window_start_ms,window_end_ms,key,truth,event_time,event_time_first,event_time_panes,processing_time,dropped",
    )];
    let optional = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    for w in windows {
        rows.push(format!(
            "{},{},{},{},{},{},{},{},{}",
            w.window.start_ms,
            w.window.end_ms,
            w.window.key,
            w.truth,
            optional(w.event_time),
            optional(w.event_time_first),
            w.event_time_panes,
            optional(w.processing_time),
            w.dropped
        ));
    }
    rows.join("\n") + "\n"
}

/// The consumer-group run's metrics up to `now_ms`, re-simulated.
pub fn group_csv_at(scenario: &Scenario, now_ms: u64) -> String {
    match World::new(scenario) {
        Ok(mut world) => {
            world.advance_to(now_ms);
            group_metrics_csv(scenario, world.metrics())
        }
        Err(_) => String::new(),
    }
}

/// The event-time run's windows up to `now_ms`, re-simulated.
pub fn event_time_csv_at(scenario: &EventTimeScenario, now_ms: i64) -> String {
    match EventTimeWorld::new(scenario.clone()) {
        Ok(mut world) => {
            world.advance_to(now_ms);
            window_counts_csv(&world.snapshot().windows)
        }
        Err(_) => String::new(),
    }
}

/// Quotes a field that holds a comma, quote or line break.
fn csv_field(text: &str) -> String {
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
mod tests {
    use super::*;
    use streamlab_sim::eventtime::outage_spike;
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
    fn the_metrics_csv_has_a_row_per_sample_and_group_and_a_lag_column_per_partition() {
        let scenario = Scenario::default();
        let csv = group_csv_at(&scenario, 10_000);
        let mut lines = csv.lines();
        let header = lines.next().unwrap();
        let columns = header.split(',').count();
        assert_eq!(columns, 7 + scenario.topic.partitions as usize);
        let rows: Vec<&str> = lines.collect();
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|r| r.split(',').count() == columns));
        // Produced never goes down over time.
        let produced: Vec<u64> = rows
            .iter()
            .map(|r| r.split(',').nth(2).unwrap().parse().unwrap())
            .collect();
        assert!(produced.windows(2).all(|w| w[0] <= w[1]));
        assert!(*produced.last().unwrap() > 0);
    }

    #[wasm_bindgen_test]
    fn the_window_csv_lists_every_window_with_its_truth() {
        let scenario = outage_spike();
        let csv = event_time_csv_at(&scenario, scenario.duration_ms + 60_000);
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert!(!rows.is_empty());
        let truth_total: u64 = rows
            .iter()
            .map(|r| r.split(',').nth(3).unwrap().parse::<u64>().unwrap())
            .sum();
        assert!(truth_total > 0);
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
