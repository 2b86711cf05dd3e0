//! `streamlab assign`, run as a user would: a group as JSON on stdin, the assignment out.

mod support;

use serde_json::{json, Value};
use std::process::Output;
use support::assert_rejected;

fn assign(args: &[&str], stdin: &str) -> Output {
    support::run("assign", args, stdin.as_bytes())
}

const CONTRACT_EXAMPLE: &str = r#"{"topics": {"orders": 6, "clicks": 3},
 "members": [{"id": "c1", "topics": ["orders"], "owned": [["orders", 0]]},
             {"id": "c2", "topics": ["orders", "clicks"]}]}"#;

const STRATEGIES: [&str; 4] = ["range", "roundrobin", "sticky", "cooperative-sticky"];

/// The printed assignment; also checks it is exactly one line.
fn assignment(strategy: &str, stdin: &str) -> Value {
    let output = assign(&["--strategy", strategy], stdin);
    assert!(
        output.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert_eq!(stdout.lines().count(), 1, "{stdout:?}");
    serde_json::from_str(&stdout).expect("one JSON object")
}

#[test]
fn the_contract_example_is_assigned_by_every_strategy() {
    assert_eq!(
        assignment("range", CONTRACT_EXAMPLE),
        json!({"c1": [["orders", 0], ["orders", 1], ["orders", 2]],
               "c2": [["clicks", 0], ["clicks", 1], ["clicks", 2],
                      ["orders", 3], ["orders", 4], ["orders", 5]]})
    );
    assert_eq!(
        assignment("roundrobin", CONTRACT_EXAMPLE),
        json!({"c1": [["orders", 0], ["orders", 2], ["orders", 4]],
               "c2": [["clicks", 0], ["clicks", 1], ["clicks", 2],
                      ["orders", 1], ["orders", 3], ["orders", 5]]})
    );
    for strategy in ["sticky", "cooperative-sticky"] {
        let result = assignment(strategy, CONTRACT_EXAMPLE);
        let c1 = result["c1"].as_array().unwrap();
        let c2 = result["c2"].as_array().unwrap();
        assert!(c1.contains(&json!(["orders", 0])), "c1 keeps what it owned");
        assert_eq!(c1.len() + c2.len(), 9);
        // Balanced: the one holding more orders partitions holds at most one more in all.
        assert!(c1.len().abs_diff(c2.len()) <= 1, "{result}");
    }
}

#[test]
fn member_ids_are_printed_in_byte_order_with_sorted_partitions() {
    let group = r#"{"topics": {"b": 2, "a": 2},
        "members": [{"id": "m10", "topics": ["a", "b"]}, {"id": "M", "topics": ["b", "a"]},
                    {"id": "m2", "topics": ["b", "a"]}, {"id": "é", "topics": ["a"]}]}"#;
    for strategy in STRATEGIES {
        let output = assign(&["--strategy", strategy], group);
        let stdout = String::from_utf8(output.stdout).unwrap();
        let positions: Vec<usize> = ["\"M\"", "\"m10\"", "\"m2\"", "\"é\""]
            .iter()
            .map(|id| {
                stdout
                    .find(id)
                    .unwrap_or_else(|| panic!("{id} in {stdout}"))
            })
            .collect();
        assert!(
            positions.windows(2).all(|pair| pair[0] < pair[1]),
            "{strategy}: {stdout}"
        );
        let parsed: Value = serde_json::from_str(&stdout).unwrap();
        for partitions in parsed.as_object().unwrap().values() {
            let pairs: Vec<(String, u64)> = serde_json::from_value(partitions.clone()).unwrap();
            assert!(
                pairs.windows(2).all(|pair| pair[0] < pair[1]),
                "{strategy}: {stdout}"
            );
        }
    }
}

#[test]
fn a_member_that_gets_nothing_is_listed_with_an_empty_list() {
    let group = r#"{"topics": {"t": 1},
        "members": [{"id": "a", "topics": ["t"]}, {"id": "b", "topics": ["t"]},
                    {"id": "idle", "topics": []}]}"#;
    for strategy in STRATEGIES {
        let result = assignment(strategy, group);
        assert_eq!(result["idle"], json!([]), "{strategy}");
        let total: usize = result
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_array().unwrap().len())
            .sum();
        assert_eq!(total, 1, "{strategy}");
    }
}

#[test]
fn sticky_keeps_owned_partitions_that_range_would_move() {
    let group = r#"{"topics": {"t": 4},
        "members": [{"id": "a", "topics": ["t"], "owned": [["t", 2], ["t", 3]]},
                    {"id": "b", "topics": ["t"], "owned": [["t", 0], ["t", 1]]}]}"#;
    assert_eq!(assignment("range", group)["a"], json!([["t", 0], ["t", 1]]));
    for strategy in ["sticky", "cooperative-sticky"] {
        let result = assignment(strategy, group);
        assert_eq!(
            result,
            json!({"a": [["t", 2], ["t", 3]], "b": [["t", 0], ["t", 1]]})
        );
    }
}

#[test]
fn owned_partitions_that_do_not_exist_are_ignored() {
    let group = r#"{"topics": {"t": 2},
        "members": [{"id": "a", "topics": ["t"], "owned": [["t", 5], ["t", -1], ["gone", 0]]},
                    {"id": "b", "topics": ["t"]}]}"#;
    for strategy in STRATEGIES {
        let result = assignment(strategy, group);
        assert_eq!(result["a"].as_array().unwrap().len(), 1, "{strategy}");
    }
}

#[test]
fn each_kind_of_bad_group_is_one_line_on_stderr_and_exit_2() {
    let cases = [
        (
            r#"{"topics": {"t": 0}, "members": [{"id": "a", "topics": ["t"]}]}"#,
            "\"t\"",
        ),
        (r#"{"topics": {"t": -3}, "members": []}"#, "\"t\""),
        (
            r#"{"topics": {"t": 1}, "members": [{"id": "a", "topics": ["nope"]}]}"#,
            "\"nope\"",
        ),
        (
            r#"{"topics": {"t": 1}, "members": [{"id": "a", "topics": []}, {"id": "a", "topics": []}]}"#,
            "\"a\"",
        ),
        (
            r#"{"topics": {"t": 1}, "members": [{"id": "a", "topics": ["t"]}"#,
            "JSON",
        ),
        (r#"{"topics": {"t": 1, "t": 2}, "members": []}"#, "twice"),
        (r#"{"topics": {"t": 1.5}, "members": []}"#, "JSON"),
        (
            r#"{"topics": {"t": 1}, "members": [{"id": "a", "topic": ["t"]}]}"#,
            "topic",
        ),
        (r#"{"topics": {"t": 3000000000}, "members": []}"#, "\"t\""),
        ("", "JSON"),
        ("\u{feff}not json", "JSON"),
    ];
    for (group, mentions) in cases {
        for strategy in STRATEGIES {
            assert_rejected(&assign(&["--strategy", strategy], group), mentions);
        }
    }
}

#[test]
fn unknown_strategies_and_bad_flags_are_rejected() {
    assert_rejected(
        &assign(&["--strategy", "sticky-ish"], CONTRACT_EXAMPLE),
        "sticky-ish",
    );
    assert_rejected(&assign(&["--strategy", "Range"], CONTRACT_EXAMPLE), "Range");
    assert_rejected(&assign(&[], CONTRACT_EXAMPLE), "--strategy");
    assert_rejected(&assign(&["--strategy"], CONTRACT_EXAMPLE), "--strategy");
    assert_rejected(
        &assign(&["--strategy", "range", "--fast", "1"], CONTRACT_EXAMPLE),
        "--fast",
    );
}

#[test]
fn a_billion_partitions_is_refused_not_attempted() {
    let group = r#"{"topics": {"t": 1000000000}, "members": [{"id": "a", "topics": ["t"]}]}"#;
    assert_rejected(&assign(&["--strategy", "range"], group), "partitions");
}
