//! `streamlab simulate`: runs a scenario file headless and prints its metrics as JSON.

use std::process::Command;

fn streamlab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_streamlab"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn fixture() -> String {
    format!(
        "{}/../../tests/fixtures/determinism.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn prints_metrics_and_a_stable_trace_hash() {
    let first = streamlab(&["simulate", "--scenario", &fixture()]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let hash = report["trace_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 16);
    assert_eq!(report["duration_ms"], 30_000);
    // 400 records/s for 30 s, the last one sent at 30 000 ms.
    assert_eq!(report["produced"], 12_001);
    assert_eq!(report["groups"].as_array().unwrap().len(), 2);
    let texts: Vec<&str> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert!(texts[0].contains("new group forms"), "{texts:?}");
    assert!(
        texts.iter().any(|t| t.contains("generation 1")),
        "{texts:?}"
    );

    let second = streamlab(&["simulate", "--scenario", &fixture()]);
    let again: serde_json::Value = serde_json::from_slice(&second.stdout).unwrap();
    assert_eq!(again["trace_hash"], report["trace_hash"]);
}

#[test]
fn a_shorter_duration_processes_fewer_records() {
    let output = streamlab(&[
        "simulate",
        "--scenario",
        &fixture(),
        "--duration-ms",
        "1000",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["produced"], 401);
}

#[test]
fn a_preset_runs_the_same_scenario_the_lesson_links_to() {
    let output = streamlab(&["simulate", "--preset", "rebalance-storm"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let texts: Vec<&str> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert!(
        texts
            .iter()
            .filter(|t| t.contains("starts rebalancing"))
            .count()
            >= 10,
        "the storm rebalances again and again"
    );
}

#[test]
fn the_delivery_presets_print_their_tallies() {
    let tallies = |preset: &str| {
        let output = streamlab(&["simulate", "--preset", preset]);
        assert!(output.status.success(), "{preset}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        report["groups"][0]["tallies"].clone()
    };
    let before = tallies("commit-before-loss");
    assert!(before["lost"].as_u64().unwrap() > 0, "{before}");
    assert_eq!(before["duplicated"], 0);
    let after = tallies("commit-after-duplicates");
    assert_eq!(after["lost"], 0);
    assert!(after["duplicated"].as_u64().unwrap() > 0, "{after}");
    let idempotent = tallies("idempotent-sink-effectively-once");
    assert_eq!(idempotent["lost"], 0);
    assert_eq!(idempotent["duplicated"], 0);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("streamlab-simulate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let malformed = dir.join("malformed.json");
    std::fs::write(&malformed, "{\"topic\": {\"partitions\": \"six\"}}").unwrap();
    let out_of_range = dir.join("range.json");
    std::fs::write(&out_of_range, "{\"topic\": {\"partitions\": 0}}").unwrap();
    let cases: [(&[&str], &str); 7] = [
        (&["simulate"], "missing --scenario"),
        (
            &["simulate", "--preset", "no-such-thing"],
            "no preset called",
        ),
        (
            &[
                "simulate",
                "--preset",
                "rebalance-storm",
                "--scenario",
                "x.json",
            ],
            "not both",
        ),
        (
            &["simulate", "--scenario", "/nonexistent/x.json"],
            "cannot read",
        ),
        (
            &["simulate", "--scenario", malformed.to_str().unwrap()],
            "malformed",
        ),
        (
            &["simulate", "--scenario", out_of_range.to_str().unwrap()],
            "topic.partitions",
        ),
        (
            &["simulate", "--scenario", &fixture(), "--duration-ms", "-5"],
            "--duration-ms",
        ),
    ];
    for (args, expected) in cases {
        let output = streamlab(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn every_listed_preset_runs_headless_with_its_figures() {
    let list = streamlab(&["simulate", "--list"]);
    assert!(list.status.success());
    let listed = String::from_utf8(list.stdout).unwrap();
    let rows: Vec<Vec<&str>> = listed
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect();
    let lessons: Vec<&str> = rows.iter().map(|row| row[1]).collect();
    for lesson in [
        "rebalances",
        "delivery",
        "which-clock",
        "watermarks",
        "windows",
        "queues",
        "backpressure",
        "replication",
    ] {
        assert!(lessons.contains(&lesson), "{lesson} in {listed}");
    }
    for row in &rows {
        let (slug, lesson) = (row[0], row[1]);
        let output = streamlab(&["simulate", "--preset", slug]);
        assert!(
            output.status.success(),
            "{slug}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["preset"], *slug);
        assert_eq!(report["lesson"], *lesson);
        assert_eq!(report["trace_hash"].as_str().unwrap().len(), 16, "{slug}");
        assert!(
            report["figures"].as_object().is_some_and(|f| !f.is_empty()),
            "{slug}"
        );
    }
}

#[test]
fn the_queues_presets_print_each_readers_figures_by_name() {
    let figures = |preset: &str| {
        let output = streamlab(&["simulate", "--preset", preset]);
        assert!(output.status.success(), "{preset}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["family"], "queues");
        report["figures"].clone()
    };
    let readers = figures("share-group-scales-past-partitions");
    assert_eq!(readers["consumer_group"]["order_inversions"], 0);
    assert!(readers["share_group"]["order_inversions"].as_u64().unwrap() > 0);
    assert!(
        readers["share_group"]["throughput_per_s"].as_f64().unwrap()
            > readers["consumer_group"]["throughput_per_s"]
                .as_f64()
                .unwrap()
    );
    let lanes = figures("backpressure-drop-buffer-block");
    assert!(lanes["drop"]["dropped"].as_u64().unwrap() > 0);
    assert!(lanes["buffer"]["lost_on_crash"].as_u64().unwrap() > 0);
    assert!(lanes["block"]["producer_blocked_ms"].as_u64().unwrap() > 0);
    assert_eq!(lanes["log"]["lost"], 0);
}

#[test]
fn the_replication_presets_print_the_issues_figures_by_name() {
    let figures = |preset: &str| {
        let output = streamlab(&["simulate", "--preset", preset]);
        assert!(output.status.success(), "{preset}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["family"], "replication");
        report["figures"].clone()
    };
    let count = |f: &serde_json::Value, path: &str| {
        path.split('.')
            .fold(f, |v, name| &v[name])
            .as_u64()
            .unwrap_or_else(|| panic!("no {path} in {f}"))
    };
    assert!(count(&figures("acks-1-leader-crash"), "acknowledged_then_lost") > 0);
    let durable = figures("acks-all-min-isr-2");
    assert_eq!(count(&durable, "acknowledged_then_lost"), 0);
    assert!(
        count(&durable, "produce_latency_p99_ms")
            > count(&durable, "by_acks.acks_1.produce_latency_p99_ms")
    );
    assert!(
        count(
            &figures("unclean-election-loses-writes"),
            "acknowledged_then_lost"
        ) > 0
    );
    let refused = figures("isr-shrinks-not-enough-replicas");
    assert!(count(&refused, "rejected_writes") > 0);
    assert_eq!(count(&refused, "acknowledged_then_lost"), 0);
    assert!(
        count(
            &figures("retries-without-idempotence-duplicate"),
            "duplicates"
        ) > 0
    );
    assert_eq!(count(&figures("idempotent-producer"), "duplicates"), 0);
}

#[test]
fn the_windows_lessons_preset_runs_to_the_end_of_its_input() {
    let output = streamlab(&["simulate", "--preset", "four-windows"]);
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["family"], "eventtime");
    let figures = &report["figures"];
    // One device, about a record a second for 40 s, no stragglers: every record is read and
    // every event-time window matches the truth.
    assert!(figures["records_read"].as_u64().unwrap() >= 30, "{figures}");
    assert_eq!(figures["max_event_time_error"], 0, "{figures}");
    assert_eq!(figures["dropped"], 0, "{figures}");
}

#[test]
fn an_event_time_scenario_file_runs_like_its_link() {
    let dir = std::env::temp_dir().join(format!("streamlab-simulate-et-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("outage.json");
    let by_name = streamlab(&["simulate", "--preset", "outage-spike"]);
    let named: serde_json::Value = serde_json::from_slice(&by_name.stdout).unwrap();
    // What the lesson's "scenario as JSON" export writes for the preset.
    let exported = serde_json::to_string(&streamlab_sim::eventtime::outage_spike()).unwrap();
    std::fs::write(&path, exported).unwrap();
    let by_file = streamlab(&["simulate", "--scenario", path.to_str().unwrap()]);
    assert!(
        by_file.status.success(),
        "{}",
        String::from_utf8_lossy(&by_file.stderr)
    );
    let filed: serde_json::Value = serde_json::from_slice(&by_file.stdout).unwrap();
    assert_eq!(filed["family"], "eventtime");
    assert_eq!(filed["trace_hash"], named["trace_hash"]);
    assert!(
        filed["figures"]["max_processing_time_overcount"]
            .as_i64()
            .unwrap()
            > 0
    );
}

#[test]
fn every_subcommand_answers_help_on_stdout() {
    for subcommand in ["partition", "assign", "window", "simulate"] {
        for flag in ["--help", "-h"] {
            let output = streamlab(&[subcommand, flag]);
            assert_eq!(output.status.code(), Some(0), "{subcommand} {flag}");
            let text = String::from_utf8(output.stdout).unwrap();
            assert!(
                text.starts_with(&format!("usage: streamlab {subcommand}")),
                "{text}"
            );
            assert!(output.stderr.is_empty());
        }
    }
    let top = streamlab(&["--help"]);
    assert_eq!(top.status.code(), Some(0));
    assert!(String::from_utf8(top.stdout).unwrap().contains("simulate"));
}

#[test]
fn a_link_runs_to_its_time_and_at_ms_stops_anywhere() {
    let by_link = streamlab(&[
        "simulate",
        "--link",
        "#/rebalances?preset=rebalance-storm&t=52000",
    ]);
    assert!(
        by_link.status.success(),
        "{}",
        String::from_utf8_lossy(&by_link.stderr)
    );
    let linked: serde_json::Value = serde_json::from_slice(&by_link.stdout).unwrap();
    assert_eq!(linked["lesson"], "rebalances");
    assert_eq!(linked["at_ms"], 52_000);
    let by_name = streamlab(&[
        "simulate",
        "--preset",
        "rebalance-storm",
        "--at-ms",
        "52000",
    ]);
    let named: serde_json::Value = serde_json::from_slice(&by_name.stdout).unwrap();
    assert_eq!(named["trace_hash"], linked["trace_hash"]);
    assert_eq!(named["figures"], linked["figures"]);
    let full = streamlab(&["simulate", "--preset", "rebalance-storm"]);
    let full: serde_json::Value = serde_json::from_slice(&full.stdout).unwrap();
    assert_ne!(full["trace_hash"], linked["trace_hash"]);

    for (args, expected) in [
        (vec!["simulate", "--link", "#/nowhere"], "names no lesson"),
        (vec!["simulate", "--link", "#/windows?s=2.zz"], "link"),
        (
            vec!["simulate", "--link", "#/windows", "--duration-ms", "5"],
            "--at-ms",
        ),
        (
            vec!["simulate", "--preset", "four-windows", "--at-ms", "x"],
            "--at-ms",
        ),
    ] {
        let output = streamlab(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
