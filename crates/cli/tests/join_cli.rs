//! `streamlab join` and `streamlab topk` as a user runs them: the built binary, a config
//! file, events on stdin, and the exact lines the contract promises; bad input of every kind
//! the contract lists gives exit status 2 and one stderr line naming it (and its line).

mod support;

use std::path::{Path, PathBuf};
use support::{assert_rejected, run};

/// Writes `contents` to a config file private to one test and returns its path.
fn config_file(name: &str, contents: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("joins-{name}.json"));
    std::fs::write(&path, contents).expect("temp config is writable");
    path
}

fn run_with(subcommand: &str, name: &str, config: &str, stdin: &str) -> std::process::Output {
    let path = config_file(name, config);
    run(
        subcommand,
        &["--config", path.to_str().unwrap()],
        stdin.as_bytes(),
    )
}

/// Runs and returns stdout, asserting success and a quiet stderr.
fn lines(subcommand: &str, name: &str, config: &str, stdin: &str) -> String {
    let output = run_with(subcommand, name, config, stdin);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(stderr, "");
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

const INTERVAL_FULL: &str = r#"{"join": "interval", "lower": -5000, "upper": 10000, "outer": "full", "max_out_of_orderness": 2000}"#;

#[test]
fn an_interval_join_prints_matches_late_events_and_expiries_in_order() {
    let input = r#"{"side": "left", "key": "u1", "time": 1000, "id": "s1"}
{"side": "right", "key": "u1", "time": 4000, "id": "c1"}
{"side": "right", "key": "u2", "time": 20000, "id": "c2"}
{"side": "left", "key": "u2", "time": 30000, "id": "s2"}
{"side": "right", "key": "u1", "time": 100, "id": "c3"}
{"side": "left", "key": "u3", "time": 31000, "id": "s3"}
"#;
    // s1 and c1 match (1000 - 5000 <= 4000 <= 1000 + 10000). After s2, W = min(28000,
    // 18000) = 18000: s1 (expiry 11000) and c1 (9000) leave, matched. c3 at 100 < 18000 is
    // late. The end expires c2 (25000), s2 (40000), s3 (41000), none of them matched.
    assert_eq!(
        lines("join", "interval-full", INTERVAL_FULL, input),
        r#"{"key":"u1","left":"s1","right":"c1","left_time":1000,"right_time":4000}
{"late":"c3"}
{"key":"u2","left":null,"right":"c2","right_time":20000}
{"key":"u2","left":"s2","right":null,"left_time":30000}
{"key":"u3","left":"s3","right":null,"left_time":31000}
{"summary":{"events":6,"late":1,"matches":1,"unmatched":3}}
"#
    );
}

#[test]
fn a_left_join_reports_the_unclicked_search_when_it_expires_not_before() {
    let config = r#"{"join": "interval", "lower": 0, "upper": 10, "outer": "left", "max_out_of_orderness": 0}"#;
    // s at 0 expires once W > 10. After r@10 (another key) W = min(0, 10) = 0; after
    // t@11, W = min(11, 10) = 10: not past 10 yet; after x@11 W = 11 > 10: s goes.
    let input = r#"{"side":"left","key":"a","time":0,"id":"s"}
{"side":"right","key":"b","time":10,"id":"r"}
{"side":"left","key":"c","time":11,"id":"t"}
{"side":"right","key":"b","time":11,"id":"x"}
"#;
    assert_eq!(
        lines("join", "left-expiry", config, input),
        r#"{"key":"a","left":"s","right":null,"left_time":0}
{"key":"c","left":"t","right":null,"left_time":11}
{"summary":{"events":4,"late":0,"matches":0,"unmatched":2}}
"#
    );
}

#[test]
fn an_inner_join_prints_only_matches_and_a_negative_window_works() {
    // Clicks logged up to 2 s *before* their search (lower -2000, upper 0).
    let config = r#"{"join": "interval", "lower": -2000, "upper": 0, "outer": "inner", "max_out_of_orderness": 0}"#;
    let input = r#"{"side":"right","key":"k","time":1000,"id":"early"}
{"side":"right","key":"k","time":3001,"id":"after"}
{"side":"left","key":"k","time":3000,"id":"s"}
"#;
    assert_eq!(
        lines("join", "inner-negative", config, input),
        r#"{"key":"k","left":"s","right":"early","left_time":3000,"right_time":1000}
{"summary":{"events":3,"late":0,"matches":1,"unmatched":0}}
"#
    );
}

#[test]
fn a_temporal_join_by_event_time_waits_for_the_watermark() {
    let config = r#"{"join": "temporal", "time": "event", "max_out_of_orderness": 0}"#;
    let input = r#"{"side": "right", "key": "u1", "time": 0, "id": "v1", "value": "bronze"}
{"side": "left", "key": "u1", "time": 1000, "id": "o1"}
{"side": "right", "key": "u1", "time": 500, "id": "v2", "value": {"tier": "gold", "since": 2024}}
{"side": "right", "key": "u1", "time": 2000, "id": "v3", "value": null}
{"side": "left", "key": "u1", "time": 2500, "id": "o2"}
{"side": "left", "key": "u9", "time": 2500, "id": "o3"}
"#;
    // o1 is answered once W = min(2500, 2000) = 2000 > 1000, by v2 (the version at 500 is the
    // latest at or before 1000, though it arrived after o1). At the end o2 finds v3, a
    // delete, and o3 no row at all.
    assert_eq!(
        lines("join", "temporal-event", config, input),
        r#"{"key":"u1","left":"o1","left_time":1000,"right":"v2","value":{"tier":"gold","since":2024}}
{"key":"u1","left":"o2","left_time":2500,"right":null,"value":null}
{"key":"u9","left":"o3","left_time":2500,"right":null,"value":null}
{"summary":{"events":6,"late":0,"matches":1,"unmatched":2}}
"#
    );
}

#[test]
fn a_temporal_join_by_processing_time_answers_at_once_and_nothing_is_late() {
    let config = r#"{"join": "temporal", "time": "processing", "max_out_of_orderness": 0}"#;
    let input = r#"{"side": "right", "key": "u1", "time": 5000, "id": "v2", "value": "gold"}
{"side": "left", "key": "u1", "time": 1000, "id": "o1"}
{"side": "right", "key": "u1", "time": 0, "id": "v1", "value": "bronze"}
{"side": "left", "key": "u1", "time": 0, "id": "o2"}
"#;
    assert_eq!(
        lines("join", "temporal-processing", config, input),
        r#"{"key":"u1","left":"o1","left_time":1000,"right":"v2","value":"gold"}
{"key":"u1","left":"o2","left_time":0,"right":"v1","value":"bronze"}
{"summary":{"events":4,"late":0,"matches":2,"unmatched":0}}
"#
    );
}

#[test]
fn late_temporal_events_are_reported_on_either_side() {
    let config = r#"{"join": "temporal", "time": "event", "max_out_of_orderness": 0}"#;
    let input = r#"{"side":"right","key":"k","time":100,"id":"v","value":1}
{"side":"left","key":"k","time":100,"id":"o"}
{"side":"right","key":"k","time":99,"id":"old","value":2}
{"side":"left","key":"k","time":99,"id":"p"}
"#;
    assert_eq!(
        lines("join", "temporal-late", config, input),
        r#"{"late":"old"}
{"late":"p"}
{"key":"k","left":"o","left_time":100,"right":"v","value":1}
{"summary":{"events":4,"late":2,"matches":1,"unmatched":0}}
"#
    );
}

#[test]
fn topk_prints_each_window_once_by_end_then_start() {
    let config = r#"{"window": {"type": "hopping", "size": 10, "hop": 5}, "k": 2, "max_out_of_orderness": 0}"#;
    let input =
        "{\"key\":\"a\",\"time\":1}\n{\"key\":\"b\",\"time\":6}\n{\"key\":\"a\",\"time\":7}\n\
                 {\"key\":\"c\",\"time\":16}\n{\"key\":\"a\",\"time\":2}\n";
    assert_eq!(
        lines("topk", "hopping", config, input),
        r#"{"start":-5,"end":5,"top":[{"key":"a","count":1}]}
{"start":0,"end":10,"top":[{"key":"a","count":2},{"key":"b","count":1}]}
{"start":5,"end":15,"top":[{"key":"a","count":1},{"key":"b","count":1}]}
{"start":10,"end":20,"top":[{"key":"c","count":1}]}
{"start":15,"end":25,"top":[{"key":"c","count":1}]}
{"summary":{"events":5,"late":1,"windows":5}}
"#
    );
}

#[test]
fn topk_ranks_ties_by_key_bytes_and_cuts_at_k() {
    let config =
        r#"{"window": {"type": "tumbling", "size": 60000}, "k": 3, "max_out_of_orderness": 5000}"#;
    let keys = ["b", "B", "é", "a", "b", "B", "é", "a", "z"];
    let input: String = keys
        .iter()
        .map(|k| format!("{{\"key\":\"{k}\",\"time\":100}}\n"))
        .collect();
    // Four keys with 2 each: by bytes "B" < "a" < "b" < "é"; k = 3 keeps three of them.
    assert_eq!(
        lines("topk", "ties", config, &input),
        r#"{"start":0,"end":60000,"top":[{"key":"B","count":2},{"key":"a","count":2},{"key":"b","count":2}]}
{"summary":{"events":9,"late":0,"windows":1}}
"#
    );
    assert_eq!(
        lines("topk", "empty", config, ""),
        "{\"summary\":{\"events\":0,\"late\":0,\"windows\":0}}\n"
    );
}

#[test]
fn topk_ranks_long_and_escaped_keys_by_their_bytes_among_short_ones() {
    let config =
        r#"{"window": {"type": "tumbling", "size": 60000}, "k": 4, "max_out_of_orderness": 0}"#;
    let long = "k".repeat(30);
    // Written in the compact and the spaced layouts; "k\"q" has an escape, `long` is past
    // the length kept inline, "kk" is short: all tie at two and rank by their bytes (a quote
    // is below "k", and a prefix comes first).
    let input = format!(
        "{{\"key\":\"{long}\",\"time\":1}}\n{{\"key\": \"kk\", \"time\": 2}}\n\
         {{\"key\":\"k\\\"q\",\"time\":3}}\n{{\"key\": \"{long}\", \"time\": 4}}\n\
         {{\"key\":\"kk\",\"time\":5}}\n{{\"key\": \"k\\\"q\", \"time\": 6}}\n"
    );
    assert_eq!(
        lines("topk", "long-keys", config, &input),
        format!(
            "{{\"start\":0,\"end\":60000,\"top\":[{{\"key\":\"k\\\"q\",\"count\":2}},\
             {{\"key\":\"kk\",\"count\":2}},{{\"key\":\"{long}\",\"count\":2}}]}}\n\
             {{\"summary\":{{\"events\":6,\"late\":0,\"windows\":1}}}}\n"
        )
    );
}

#[test]
fn bad_join_input_names_the_line_and_exits_2() {
    let interval = r#"{"join": "interval", "lower": 0, "upper": 10, "outer": "left", "max_out_of_orderness": 0}"#;
    let temporal = r#"{"join": "temporal", "time": "event", "max_out_of_orderness": 0}"#;
    let good = r#"{"side":"left","key":"k","time":1,"id":"a"}"#;
    let cases: &[(&str, &str, &str)] = &[
        (
            interval,
            "{\"side\":\"left\",\"key\":\"k\",\"time\":1,",
            "stdin line 2: column",
        ),
        (
            interval,
            r#"{"side":"left","key":"k","id":"b"}"#,
            "stdin line 2: column",
        ),
        (
            interval,
            r#"{"side":"left","key":"k","time":"1","id":"b"}"#,
            "stdin line 2",
        ),
        (
            interval,
            r#"{"side":"left","key":"k","time":1.5,"id":"b"}"#,
            "stdin line 2",
        ),
        (
            interval,
            r#"{"side":"left","key":7,"time":1,"id":"b"}"#,
            "stdin line 2",
        ),
        (
            interval,
            r#"{"side":"left","key":"k","time":-1,"id":"b"}"#,
            "stdin line 2: time -1 is negative",
        ),
        (
            interval,
            r#"{"side":"middle","key":"k","time":1,"id":"b"}"#,
            "stdin line 2: unknown side \"middle\"",
        ),
        (
            interval,
            r#"{"side":"right","key":"k","time":1,"id":"a"}"#,
            "stdin line 2: id \"a\" was already used on line 1",
        ),
        (
            interval,
            r#"{"side":"left","key":"k","time":1,"id":"b","colour":1}"#,
            "unknown field `colour`",
        ),
        (
            interval,
            r#"["left","k",1,"b"]"#,
            "stdin line 2: expected a JSON object",
        ),
        (interval, "", "stdin line 2: empty line"),
        (
            temporal,
            r#"{"side":"right","key":"k","time":1,"id":"v"}"#,
            "stdin line 2: missing field `value`",
        ),
    ];
    for (i, (config, bad, mentions)) in cases.iter().enumerate() {
        let input = format!("{good}\n{bad}\n{good}\n");
        let output = run_with("join", &format!("bad-{i}"), config, &input);
        // Output printed before the bad line may stand; nothing after it, no summary.
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(!stdout.contains("summary"), "{stdout}");
        let mut refused = output;
        refused.stdout.clear();
        assert_rejected(&refused, mentions);
    }
}

#[test]
fn bad_configs_are_refused_before_reading_stdin() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "join",
            r#"{"join": "interval", "lower": 10, "upper": 0, "outer": "inner", "max_out_of_orderness": 0}"#,
            "lower (10) must not exceed upper (0)",
        ),
        (
            "join",
            r#"{"join": "interval", "lower": 0, "upper": 10, "outer": "inner"}"#,
            "missing field `max_out_of_orderness`",
        ),
        (
            "join",
            r#"{"join": "temporal", "time": "wall", "max_out_of_orderness": 0}"#,
            "time: unknown value \"wall\"",
        ),
        (
            "join",
            r#"{"join": "temporal", "time": "event", "max_out_of_orderness": -5}"#,
            "max_out_of_orderness must be zero or more",
        ),
        ("join", "not json", "config"),
        (
            "topk",
            r#"{"window": {"type": "tumbling", "size": 10}, "k": 0, "max_out_of_orderness": 0}"#,
            "k is 0, outside 1..=1000",
        ),
        (
            "topk",
            r#"{"window": {"type": "tumbling", "size": 10}, "k": 1001, "max_out_of_orderness": 0}"#,
            "k is 1001",
        ),
        (
            "topk",
            r#"{"window": {"type": "session", "gap": 10}, "k": 3, "max_out_of_orderness": 0}"#,
            "tumbling or hopping",
        ),
        (
            "topk",
            r#"{"window": {"type": "tumbling", "size": 0}, "k": 3, "max_out_of_orderness": 0}"#,
            "window.size",
        ),
        (
            "topk",
            r#"{"window": {"type": "tumbling", "size": 10}, "k": 3}"#,
            "missing field `max_out_of_orderness`",
        ),
    ];
    for (i, (subcommand, config, mentions)) in cases.iter().enumerate() {
        let output = run_with(subcommand, &format!("config-{i}"), config, "");
        assert_rejected(&output, mentions);
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("config"),
            "the error names the config file"
        );
    }
    let missing = run("join", &["--config", "/no/such/file.json"], b"");
    assert_rejected(&missing, "cannot read config /no/such/file.json");
    assert_rejected(&run("topk", &[], b""), "missing --config");
}

#[test]
fn bad_topk_input_names_the_line_and_exits_2() {
    let config =
        r#"{"window": {"type": "tumbling", "size": 10}, "k": 3, "max_out_of_orderness": 0}"#;
    for (i, (bad, mentions)) in [
        (
            r#"{"key":"a","time":-3}"#,
            "stdin line 2: time -3 is negative",
        ),
        (r#"{"key":"a"}"#, "stdin line 2: column"),
        (
            r#"{"key":"a","time":1,"side":"left"}"#,
            "unknown field `side`",
        ),
        ("{", "stdin line 2"),
    ]
    .iter()
    .enumerate()
    {
        let input = format!("{{\"key\":\"a\",\"time\":1}}\n{bad}\n");
        let mut output = run_with("topk", &format!("topk-bad-{i}"), config, &input);
        output.stdout.clear();
        assert_rejected(&output, mentions);
    }
}

#[test]
fn both_answer_help_on_stdout() {
    for subcommand in ["join", "topk"] {
        let output = run(subcommand, &["--help"], b"");
        assert!(output.status.success());
        let help = String::from_utf8(output.stdout).unwrap();
        assert!(help.starts_with(&format!("usage: streamlab {subcommand} --config FILE")));
        assert!(output.stderr.is_empty());
    }
    let top = run("--help", &[], b"");
    let text = String::from_utf8(top.stdout).unwrap();
    assert!(
        text.contains("  join ") && text.contains("  topk "),
        "{text}"
    );
}
