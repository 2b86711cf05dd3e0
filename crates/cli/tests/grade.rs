//! `streamlab grade`: the Inkwell challenge graded headless, as a course would grade a
//! submitted attempt: the broken start fails, a solved attempt passes, bad input is refused
//! with one line and exit status 2.

mod support;

use serde_json::Value;
use support::{assert_rejected, run};

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/inkwell/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn verdict(args: &[&str]) -> Value {
    let output = run("grade", args, b"");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(output.stdout.iter().filter(|&&b| b == b'\n').count(), 1);
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Each goal's status, by service (`null` for the budget).
fn statuses(verdict: &Value) -> Vec<(String, String)> {
    verdict["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let service = g["service"].as_str().unwrap_or("budget").to_string();
            (service, g["status"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn the_broken_start_fails_every_goal() {
    let verdict = verdict(&["--preset", "inkwell"]);
    assert_eq!(verdict["passed"], false);
    let failed = |service: &str| (service.to_string(), "failed".to_string());
    assert_eq!(
        statuses(&verdict),
        ["search", "analytics", "recommender", "budget"].map(failed)
    );
    // Each goal carries what the run measured against its limit.
    let search = &verdict["goals"][0];
    assert_eq!(search["measure"], "lag_ms_max");
    assert!(search["measured"].as_u64().unwrap() > search["limit"].as_u64().unwrap());
    assert!(verdict["goals"][1]["measured"].as_u64().unwrap() > 0);
    assert_eq!(verdict["goals"][2]["measured"], Value::Null);
}

#[test]
fn a_solved_attempt_passes_and_links_to_itself() {
    let verdict = verdict(&["--scenario", &fixture("solved.json")]);
    assert_eq!(verdict["passed"], true, "{verdict}");
    for (service, status) in statuses(&verdict) {
        assert_eq!(status, "passed", "{service}");
    }
    let credits = verdict["cost"]["credits"].as_u64().unwrap();
    assert!(credits <= verdict["cost"]["budget_credits"].as_u64().unwrap());
    let link = verdict["link"].as_str().unwrap();
    assert!(link.starts_with("#/inkwell?s=2."), "{link}");
    // The link opens the same attempt in `simulate`, with the same verdict.
    let output = run("simulate", &["--link", link], b"");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["verdict"], verdict);
}

#[test]
fn a_partial_attempt_keeps_the_broken_start_for_what_it_leaves_out() {
    let path = std::env::temp_dir().join(format!("inkwell-partial-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"consumers": {"search": 2}}"#).unwrap();
    let verdict = verdict(&["--scenario", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    let search = &verdict["goals"][0];
    assert_eq!(search["status"], "passed");
    assert_eq!(verdict["passed"], false);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = std::env::temp_dir();
    let write = |name: &str, text: &str| {
        let path = dir.join(format!("inkwell-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let cases = [
        (write("broken.json", "{\"partitions\": "), "scenario"),
        (
            write("tampered.json", r#"{"rate_per_s": 10}"#),
            "unknown field",
        ),
        (write("range.json", r#"{"partitions": 0}"#), "partitions"),
        (
            write("type.json", r#"{"retention_ms": "long"}"#),
            "invalid type",
        ),
    ];
    for (path, mentions) in &cases {
        assert_rejected(&run("grade", &["--scenario", path], b""), mentions);
        std::fs::remove_file(path).unwrap();
    }
    assert_rejected(&run("grade", &["--preset", "nope"], b""), "inkwell");
    assert_rejected(
        &run("grade", &["--scenario", "/no/such/file"], b""),
        "cannot read",
    );
    assert_rejected(&run("grade", &[], b""), "missing --preset or --scenario");
    assert_rejected(
        &run(
            "grade",
            &["--preset", "inkwell", "--scenario", &fixture("solved.json")],
            b"",
        ),
        "not both",
    );
    assert_rejected(&run("grade", &["--link", "#/inkwell"], b""), "unknown flag");
}
