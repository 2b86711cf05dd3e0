//! Share links never break anything: whatever arrives in the address, reading it gives a valid
//! scenario, or the lesson's default and one readable sentence; never a panic.
//!
//! The fuzz cases: arbitrary text as a link and as a whole query; real links (both formats,
//! every lesson's default and preset, with and without a time) with characters replaced,
//! inserted and cut; and arbitrary JSON packed as a format 2 patch, which reaches past the
//! compression into the patch and the scenario checks. `PROPTEST_CASES` sets how many cases
//! each property runs (1 000 by default; BENCHMARKS.md records a run of a million each).

use proptest::prelude::*;
use serde_json::Value;
use streamlab_sim::eventtime::{self, EventTimeScenario};
use streamlab_sim::kafka::presets;
use streamlab_sim::kafka::scenario::Scenario;
use streamlab_sim::replay::share;
use streamlab_sim::replay::share::query::{open, query_for, LinkRules, Opened};

fn group_bases() -> Vec<Scenario> {
    let mut bases = vec![Scenario::default()];
    bases.extend(presets::PRESETS.iter().map(|p| (p.build)()));
    bases
}

fn open_group(base: Scenario, query: &str) -> Opened<Scenario> {
    let preset = |name: &str| presets::find(name).map(|p| (p.build)());
    let validate = |s: &Scenario| s.validate().map_err(|e| e.message);
    open(
        query,
        LinkRules {
            default: base,
            preset: &preset,
            validate: &validate,
            max_at_ms: 3_600_000,
            read_decimal: streamlab_sim::replay::share::nearest_double,
        },
    )
}

fn open_eventtime(base: EventTimeScenario, query: &str) -> Opened<EventTimeScenario> {
    let validate = |s: &EventTimeScenario| s.validate().map_err(|e| e.to_string());
    open(
        query,
        LinkRules {
            default: base,
            preset: &eventtime::preset,
            validate: &validate,
            max_at_ms: 600_000,
            read_decimal: streamlab_sim::replay::share::nearest_double,
        },
    )
}

/// Real queries: every consumer-group preset against the default and the rebalances lesson's
/// base, every event-time preset against the event-time lessons' bases, old and new format.
fn real_queries() -> &'static [String] {
    static QUERIES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    QUERIES.get_or_init(build_real_queries)
}

fn build_real_queries() -> Vec<String> {
    let one_restart = (presets::find("one-restart-stops-everyone").unwrap().build)();
    let mut queries = Vec::new();
    for scenario in group_bases() {
        queries.push(query_for(&Scenario::default(), &scenario, Some(12_000)));
        queries.push(query_for(&one_restart, &scenario, None));
        queries.push(format!("s={}", share::encode_value(&scenario)));
    }
    for name in eventtime::PRESETS.iter().map(|p| p.slug) {
        let scenario = eventtime::preset(name).unwrap();
        queries.push(query_for(
            &eventtime::outage_spike(),
            &scenario,
            Some(30_000),
        ));
        queries.push(format!("s={}&t=5", share::encode_value(&scenario)));
    }
    queries
}

/// What a learner must get from any address: a valid scenario, and a sentence when the
/// scenario is not what the link asked for.
fn check_group(opened: &Opened<Scenario>, default: &Scenario) -> Result<(), TestCaseError> {
    prop_assert!(opened.scenario.validate().is_ok());
    if let Some(error) = &opened.error {
        prop_assert!(!error.is_empty() && !error.contains('\n'));
        prop_assert!(error.ends_with("instead."), "{}", error);
    }
    if opened
        .error
        .as_deref()
        .is_some_and(|e| e.contains("default scenario instead"))
    {
        prop_assert_eq!(&opened.scenario, default);
    }
    Ok(())
}

fn check_eventtime(opened: &Opened<EventTimeScenario>) -> Result<(), TestCaseError> {
    prop_assert!(opened.scenario.validate().is_ok());
    if let Some(error) = &opened.error {
        prop_assert!(error.ends_with("instead."), "{}", error);
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000)
}

/// A JSON value of bounded size and depth, with the scenarios' own field names among its keys
/// so that patches reach real fields with wrong values.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("groups".to_string()),
        Just("0".to_string()),
        Just("members".to_string()),
        Just("schedule".to_string()),
        Just("topic".to_string()),
        Just("partitions".to_string()),
        Just("window".to_string()),
        "[a-z_0-9]{0,12}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,10}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_text_is_refused_with_a_sentence(text in ".{0,300}") {
        if let Err(error) = streamlab_sim::kafka::scenario::decode_link(&text) {
            prop_assert!(error.0.starts_with("This link could not be read"));
            prop_assert!(!error.0.contains('\n'));
        }
        check_group(&open_group(Scenario::default(), &text), &Scenario::default())?;
        check_eventtime(&open_eventtime(eventtime::outage_spike(), &text))?;
    }

    #[test]
    fn arbitrary_queries_open_something_valid(
        link in "[0-9]{0,2}\\.[A-Za-z0-9_-]{0,200}",
        t in prop_oneof![Just(String::new()), "[0-9-]{0,12}", ".{0,8}"],
        preset in prop_oneof![Just(String::new()), "[a-z-]{0,30}"],
    ) {
        let query = format!("s={link}&t={t}&preset={preset}");
        check_group(&open_group(Scenario::default(), &query), &Scenario::default())?;
        check_eventtime(&open_eventtime(eventtime::drop_vs_restate_vs_side(), &query))?;
    }

    #[test]
    fn damaged_real_links_open_or_explain(
        which in 0usize..256,
        cut in 0usize..600,
        edits in prop::collection::vec((0usize..600, any::<char>(), any::<bool>()), 0..4),
    ) {
        let queries = real_queries();
        let mut chars: Vec<char> = queries[which % queries.len()].chars().collect();
        for (at, c, insert) in edits {
            let index = at % (chars.len() + 1);
            if insert || index == chars.len() {
                chars.insert(index, c);
            } else {
                chars[index] = c;
            }
        }
        chars.truncate(cut.min(chars.len()));
        let query: String = chars.into_iter().collect();
        let one_restart = (presets::find("one-restart-stops-everyone").unwrap().build)();
        check_group(&open_group(one_restart.clone(), &query), &one_restart)?;
        check_eventtime(&open_eventtime(eventtime::outage_spike(), &query))?;
    }

    #[test]
    fn arbitrary_patches_open_or_explain(changes in json_value(), t in 0u64..5_000_000) {
        let query = format!("s={}&t={t}", share::pack_changes(&changes));
        for base in [Scenario::default(), presets::storm_32_members()] {
            check_group(&open_group(base.clone(), &query), &base)?;
        }
        check_eventtime(&open_eventtime(eventtime::mobile_stragglers(), &query))?;
    }
}

#[test]
fn every_preset_survives_a_round_trip_against_every_base() {
    for base in group_bases() {
        for scenario in group_bases() {
            let opened = open_group(base.clone(), &query_for(&base, &scenario, Some(7)));
            assert_eq!(opened.scenario, scenario);
            assert_eq!(opened.at_ms, Some(7));
            assert_eq!(opened.error, None);
        }
    }
    for base in eventtime::PRESETS.iter().map(|p| p.slug) {
        let base = eventtime::preset(base).unwrap();
        for name in eventtime::PRESETS.iter().map(|p| p.slug) {
            let scenario = eventtime::preset(name).unwrap();
            let opened = open_eventtime(base.clone(), &query_for(&base, &scenario, None));
            assert_eq!(opened.scenario, scenario);
        }
    }
}

/// The figure the issue asks for: the rebalances lesson with a few knobs turned, a crash and
/// a restart, paused at 52 s, fits in under 200 characters (the fragment, `#/…` included).
#[test]
fn a_typical_lesson_link_is_short() {
    use streamlab_sim::assignor::Strategy;
    use streamlab_sim::kafka::scenario::{MemberAction, ScheduledAction};
    let base = (presets::find("one-restart-stops-everyone").unwrap().build)();
    let mut changed = base.clone();
    let group = &mut changed.groups[0];
    group.members = 4;
    group.max_poll_records = 100;
    group.partition_assignment_strategy = Strategy::CooperativeSticky;
    let group_id = group.group_id.clone();
    for (at_ms, member, action) in [
        (31_501, "c2", MemberAction::Crash),
        (45_001, "c1", MemberAction::Restart { down_ms: 5_000 }),
    ] {
        changed.schedule.push(ScheduledAction {
            at_ms,
            group_id: group_id.clone(),
            member_id: member.into(),
            action,
        });
    }
    let fragment = format!("#/rebalances?{}", query_for(&base, &changed, Some(52_000)));
    assert!(
        fragment.len() < 200,
        "{} characters: {fragment}",
        fragment.len()
    );
    let query = fragment.split_once('?').unwrap().1;
    assert_eq!(open_group(base, query).scenario, changed);
}
