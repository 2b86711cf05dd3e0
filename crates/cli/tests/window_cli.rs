//! `streamlab window` as a user runs it: the built binary, a config file, events on stdin.
//! Fixture directories under `fixtures/window/` hold a config, an input and the exact expected
//! output; the other tests cover bad input, which must give exit status 2 and one stderr line.

mod support;

use std::path::{Path, PathBuf};

struct Outcome {
    status: i32,
    stdout: String,
    stderr: String,
}

fn streamlab(args: &[&str], stdin: &str) -> Outcome {
    let output = support::run(args[0], &args[1..], stdin.as_bytes());
    Outcome {
        status: output
            .status
            .code()
            .expect("exited, not killed by a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Writes `contents` to a config file private to one test and returns its path.
fn config_file(name: &str, contents: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("window-{name}.json"));
    std::fs::write(&path, contents).expect("temp config is writable");
    path
}

fn run_window(name: &str, config: &str, stdin: &str) -> Outcome {
    let path = config_file(name, config);
    streamlab(&["window", "--config", path.to_str().unwrap()], stdin)
}

/// Exit status 2, exactly one line on stderr containing `fragment`, and no panic.
fn assert_refused(outcome: &Outcome, fragment: &str) {
    assert_eq!(outcome.status, 2, "stderr: {}", outcome.stderr);
    let lines: Vec<&str> = outcome.stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "stderr should be one line: {:?}",
        outcome.stderr
    );
    assert!(lines[0].starts_with("streamlab: "), "{}", lines[0]);
    assert!(
        lines[0].contains(fragment),
        "{:?} lacks {fragment:?}",
        lines[0]
    );
    assert!(!outcome.stderr.contains("panicked"), "{}", outcome.stderr);
}

const TUMBLING: &str = r#"{"window": {"type": "tumbling", "size": 60000},
 "max_out_of_orderness": 5000, "allowed_lateness": 10000, "late": "drop"}"#;

#[test]
fn every_fixture_produces_its_expected_output_exactly() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/window");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixture directory exists")
        .map(|entry| entry.expect("fixture entry is readable").path())
        .filter(|path| path.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 3, "fixtures missing: {cases:?}");
    for case in cases {
        let read = |name: &str| std::fs::read_to_string(case.join(name)).expect("fixture file");
        let config = case.join("config.json");
        let outcome = streamlab(
            &["window", "--config", config.to_str().unwrap()],
            &read("input.jsonl"),
        );
        assert_eq!(outcome.status, 0, "{}: {}", case.display(), outcome.stderr);
        assert_eq!(outcome.stderr, "", "{}", case.display());
        assert_eq!(outcome.stdout, read("expected.jsonl"), "{}", case.display());
    }
}

#[test]
fn empty_input_prints_only_the_summary() {
    let outcome = run_window("empty", TUMBLING, "");
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    assert_eq!(
        outcome.stdout,
        "{\"summary\":{\"events\":0,\"dropped\":0,\"panes\":0}}\n"
    );
}

#[test]
fn the_summary_is_the_last_line_after_the_end_of_input_panes() {
    let input = "{\"key\":\"z\",\"time\":5}\n{\"key\":\"y\",\"time\":70000}\n";
    let outcome = run_window("summary-last", TUMBLING, input);
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    let lines: Vec<&str> = outcome.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"key":"z","start":0,"end":60000,"count":1,"timing":"on_time"}"#,
            r#"{"key":"y","start":60000,"end":120000,"count":1,"timing":"on_time"}"#,
            r#"{"summary":{"events":2,"dropped":0,"panes":2}}"#,
        ]
    );
}

#[test]
fn a_malformed_json_line_is_refused_with_its_line_number() {
    let input =
        "{\"key\":\"a\",\"time\":1}\n{\"key\":\"a\",\"time\":2}\n{\"key\":\"a\",\"time\":\n";
    assert_refused(&run_window("malformed", TUMBLING, input), "stdin line 3:");
}

#[test]
fn an_empty_line_is_refused_with_its_line_number() {
    let input = "{\"key\":\"a\",\"time\":1}\n\n";
    assert_refused(
        &run_window("blank", TUMBLING, input),
        "stdin line 2: empty line",
    );
}

#[test]
fn an_unknown_field_in_an_event_is_refused() {
    let input = "{\"key\":\"a\",\"time\":1,\"partition\":0}\n";
    assert_refused(
        &run_window("event-field", TUMBLING, input),
        "stdin line 1: column ",
    );
    assert_refused(
        &run_window("event-field", TUMBLING, input),
        "unknown field `partition`",
    );
}

#[test]
fn a_key_that_is_not_a_string_or_a_fractional_time_is_refused() {
    assert_refused(
        &run_window("numeric-key", TUMBLING, "{\"key\":7,\"time\":1}\n"),
        "stdin line 1: column ",
    );
    assert_refused(
        &run_window("fraction", TUMBLING, "{\"key\":\"a\",\"time\":1.5}\n"),
        "invalid type: floating point",
    );
}

#[test]
fn an_event_that_is_not_a_json_object_is_refused() {
    let input = "{\"key\":\"a\",\"time\":1}\n[\"a\", 2]\n";
    assert_refused(
        &run_window("array", TUMBLING, input),
        "stdin line 2: expected a JSON object",
    );
}

#[test]
fn a_negative_time_is_refused_with_its_line_number() {
    let input = "{\"key\":\"a\",\"time\":1}\n{\"key\":\"a\",\"time\":-5}\n";
    assert_refused(
        &run_window("negative", TUMBLING, input),
        "stdin line 2: time -5 is negative",
    );
}

/// Events are pushed in batches (`window::BATCH_EVENTS`); a bad line far into the input, in
/// the middle of a batch, is still reported on its own line, after exactly the panes of the
/// lines before it.
#[test]
fn a_bad_line_deep_in_the_input_comes_after_the_panes_before_it() {
    const SMALL: &str = r#"{"window": {"type": "tumbling", "size": 10},
 "max_out_of_orderness": 0, "allowed_lateness": 0, "late": "drop"}"#;
    let good: String = (0..300)
        .map(|time_ms| format!("{{\"key\": \"a\", \"time\": {time_ms}}}\n"))
        .collect();
    let bad_lines = [
        (
            "{\"key\": \"a\", \"time\": -5}",
            "stdin line 301: time -5 is negative",
        ),
        ("{\"key\": \"a\", \"time\": }", "stdin line 301: column "),
    ];
    for (bad, message) in bad_lines {
        let input = format!("{good}{bad}\n{good}");
        let outcome = run_window("deep", SMALL, &input);
        assert_refused(&outcome, message);
        // With the watermark at 299, the windows ending at 10, 20, ... 290 have fired.
        let panes: Vec<&str> = outcome.stdout.lines().collect();
        assert_eq!(panes.len(), 29, "{bad}");
        assert!(panes[28].contains("\"start\":280,\"end\":290,\"count\":10"));
    }
}

#[test]
fn an_unknown_window_type_is_refused() {
    let config = r#"{"window": {"type": "global", "size": 10},
        "max_out_of_orderness": 0, "allowed_lateness": 0, "late": "drop"}"#;
    assert_refused(
        &run_window("global", config, ""),
        "unknown variant `global`, expected one of `tumbling`, `hopping`, `session`, `sliding`",
    );
}

#[test]
fn sliding_windows_take_kafkas_time_difference_not_a_size() {
    let config = r#"{"window": {"type": "sliding", "size": 10},
        "max_out_of_orderness": 0, "allowed_lateness": 0, "late": "drop"}"#;
    assert_refused(
        &run_window("sliding-size", config, ""),
        "missing field `time_difference`",
    );
}

#[test]
fn sliding_windows_print_panes_in_the_contracts_format() {
    let config = r#"{"window": {"type": "sliding", "time_difference": 10},
        "max_out_of_orderness": 100, "allowed_lateness": 0, "late": "drop"}"#;
    let input = "{\"key\":\"a\",\"time\":0}\n{\"key\":\"a\",\"time\":10}\n";
    let outcome = run_window("sliding", config, input);
    assert_eq!(outcome.status, 0, "stderr: {}", outcome.stderr);
    assert_eq!(
        outcome.stdout,
        "{\"key\":\"a\",\"start\":-10,\"end\":1,\"count\":1,\"timing\":\"on_time\"}\n\
         {\"key\":\"a\",\"start\":0,\"end\":11,\"count\":2,\"timing\":\"on_time\"}\n\
         {\"key\":\"a\",\"start\":1,\"end\":12,\"count\":1,\"timing\":\"on_time\"}\n\
         {\"summary\":{\"events\":2,\"dropped\":0,\"panes\":3}}\n"
    );
}

#[test]
fn a_hop_longer_than_the_size_is_refused() {
    let config = r#"{"window": {"type": "hopping", "size": 10, "hop": 20},
        "max_out_of_orderness": 0, "allowed_lateness": 0, "late": "drop"}"#;
    assert_refused(
        &run_window("hop", config, ""),
        "window.hop (20) must not exceed window.size (10)",
    );
}

#[test]
fn an_unknown_field_or_a_bad_late_policy_in_the_config_is_refused() {
    let extra = TUMBLING.replace("\"late\"", "\"watermark\": 3, \"late\"");
    assert_refused(
        &run_window("config-field", &extra, ""),
        "unknown field `watermark`",
    );
    let policy = TUMBLING.replace("\"drop\"", "\"keep\"");
    assert_refused(&run_window("policy", &policy, ""), "unknown variant `keep`");
}

#[test]
fn a_missing_config_file_is_refused() {
    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("window-no-such-config.json");
    let outcome = streamlab(&["window", "--config", missing.to_str().unwrap()], "");
    assert_refused(&outcome, "cannot read config");
}

#[test]
fn an_unknown_or_missing_flag_is_refused() {
    assert_refused(
        &streamlab(&["window", "--speed", "3"], ""),
        "unknown flag --speed",
    );
    assert_refused(&streamlab(&["window"], ""), "missing --config");
}
