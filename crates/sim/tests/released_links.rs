//! Links people have already shared must keep working: every link format version that has
//! been released has a fixture file here, and each link must still open without a message,
//! whatever the scenario structs have become since.
//!
//! `links-v1.txt` holds one format 1 link per line (the whole scenario). `links-v2.txt` holds
//! `<base> <query>` per line: format 2 carries changes to the lesson's default, so each line
//! names that default (`default` for the core's default scenario, `preset:<slug>` for a
//! consumer-group preset, `eventtime:<name>` for an event-time preset) and the query the
//! address bar held (`s=2.…`, with `&t=<ms>` when the link was paused).

use streamlab_sim::eventtime::{self, EventTimeScenario};
use streamlab_sim::kafka::presets;
use streamlab_sim::kafka::scenario::Scenario;
use streamlab_sim::replay::share::query::{open, LinkRules};

fn lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

#[test]
fn format_1_links_still_decode() {
    let links = lines(include_str!("fixtures/links-v1.txt"));
    for (line, link) in links.iter().enumerate() {
        if let Err(error) = streamlab_sim::kafka::scenario::decode_link(link) {
            panic!("line {}: {error}", line + 1);
        }
    }
    assert!(
        links.len() >= 10,
        "the fixture holds the default and every preset: {}",
        links.len()
    );
}

fn open_group(base: Scenario, query: &str) -> Option<String> {
    let preset = |name: &str| presets::find(name).map(|p| (p.build)());
    let validate = |s: &Scenario| s.validate().map_err(|e| e.message);
    let rules = LinkRules {
        default: base,
        preset: &preset,
        validate: &validate,
        max_at_ms: 3_600_000,
        read_decimal: streamlab_sim::replay::share::nearest_double,
    };
    open(query, rules).error
}

fn open_eventtime(base: EventTimeScenario, query: &str) -> Option<String> {
    let validate = |s: &EventTimeScenario| s.validate().map_err(|e| e.to_string());
    let rules = LinkRules {
        default: base,
        preset: &eventtime::preset,
        validate: &validate,
        max_at_ms: 3_600_000,
        read_decimal: streamlab_sim::replay::share::nearest_double,
    };
    open(query, rules).error
}

#[test]
fn format_2_links_still_decode() {
    let links = lines(include_str!("fixtures/links-v2.txt"));
    for (line, entry) in links.iter().enumerate() {
        let (base, query) = entry.split_once(' ').expect("<base> <query>");
        assert!(query.starts_with("s=2."), "line {}", line + 1);
        let error = if base == "default" {
            open_group(Scenario::default(), query)
        } else if let Some(slug) = base.strip_prefix("preset:") {
            open_group((presets::find(slug).expect("a preset").build)(), query)
        } else if let Some(name) = base.strip_prefix("eventtime:") {
            open_eventtime(eventtime::preset(name).expect("a preset"), query)
        } else {
            panic!("line {}: unknown base {base:?}", line + 1)
        };
        assert_eq!(error, None, "line {}", line + 1);
    }
    assert!(links.len() >= 30, "{}", links.len());
}

/// Format 2 links carry changes to their lesson's default, so a released lesson's default is
/// part of the link format (the fixture above names these bases). A changed default needs a
/// new link format version, not an edit here.
#[test]
fn released_lessons_keep_the_defaults_their_links_were_written_against() {
    let group = [
        ("partitions", Scenario::default()),
        (
            "rebalances",
            (presets::find("one-restart-stops-everyone").unwrap().build)(),
        ),
        (
            "delivery",
            (presets::find("commit-before-loss").unwrap().build)(),
        ),
    ];
    for (slug, base) in group {
        let lesson = presets::LESSONS
            .iter()
            .find(|l| l.slug == slug)
            .expect(slug);
        assert!((lesson.default)() == base, "{slug}");
    }
    let event_time = [
        ("which-clock", "outage-spike"),
        ("watermarks", "drop-vs-restate-vs-side"),
        ("windows", "four-windows"),
    ];
    for (slug, name) in event_time {
        let lesson = eventtime::LESSONS
            .iter()
            .find(|l| l.slug == slug)
            .expect(slug);
        assert!(
            (lesson.default)() == eventtime::preset(name).unwrap(),
            "{slug}"
        );
    }
}
