//! The query part of a lesson's address, `s=<link>&t=<ms>` or `preset=<name>&t=<ms>`, read into
//! a scenario and a time position, whatever arrives: a missing part means the lesson's default
//! (or the start), a malformed one the same plus one sentence saying why. Both playgrounds'
//! link modules call [`open`], so every lesson reads its address the same way.

use super::{decode_against, encode_against, unreadable, ReadDecimal};
use crate::quote::quote;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What an address asked for, after every fallback.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened<T> {
    pub scenario: T,
    /// Where the sender's clock stood (simulated ms), if the link says: the run opens paused
    /// there.
    pub at_ms: Option<u64>,
    /// Why (part of) the address was not used, if it was not.
    pub error: Option<String>,
}

/// How a lesson's scenarios are read: its default (the base of version 2 links), its named
/// presets, what makes a scenario valid, the latest time a link may ask for, and how its
/// decimals are read (`share::nearest_double` natively; the page passes its own parser).
pub struct LinkRules<'a, T> {
    pub default: T,
    pub preset: &'a dyn Fn(&str) -> Option<T>,
    pub validate: &'a dyn Fn(&T) -> Result<(), String>,
    pub max_at_ms: u64,
    pub read_decimal: ReadDecimal,
}

/// The value of `name=` in a query (`a=1&b=2`), if present and not empty.
pub fn param<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
        .filter(|value| !value.is_empty())
}

/// Reads a lesson's query. Never panics.
pub fn open<T>(query: &str, rules: LinkRules<'_, T>) -> Opened<T>
where
    T: Serialize + DeserializeOwned + Clone,
{
    let (scenario, scenario_error) = match (param(query, "s"), param(query, "preset")) {
        (Some(link), _) => match decode_against(&rules.default, link, rules.read_decimal)
            .and_then(|s| (rules.validate)(&s).map(|()| s).map_err(|e| unreadable(&e)))
        {
            Ok(scenario) => (scenario, None),
            Err(e) => (
                rules.default.clone(),
                Some(format!(
                    "{e} Showing the lesson's default scenario instead."
                )),
            ),
        },
        (None, Some(name)) => match (rules.preset)(name) {
            Some(scenario) => (scenario, None),
            None => (
                rules.default.clone(),
                Some(format!(
                    "There is no preset called {}. Showing the lesson's default scenario instead.",
                    quote(name)
                )),
            ),
        },
        (None, None) => (rules.default.clone(), None),
    };
    let (at_ms, time_error) = match param(query, "t").map(|t| (t, t.parse::<u64>())) {
        None => (None, None),
        Some((_, Ok(ms))) if ms <= rules.max_at_ms => (Some(ms), None),
        Some((text, _)) => (
            None,
            Some(format!(
                "This link's time t={} is not a number of milliseconds from 0 to {}; \
                 opening at the start instead.",
                quote(text),
                rules.max_at_ms
            )),
        ),
    };
    Opened {
        scenario,
        at_ms,
        error: scenario_error.or(time_error),
    }
}

/// The query that reproduces `scenario` against `base`, paused at `at_ms` if given.
pub fn query_for<T>(base: &T, scenario: &T, at_ms: Option<u64>) -> String
where
    T: Serialize + DeserializeOwned + PartialEq,
{
    let link = encode_against(base, scenario);
    match at_ms {
        Some(ms) => format!("s={link}&t={ms}"),
        None => format!("s={link}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::presets;
    use crate::kafka::scenario::Scenario;

    fn open_group(query: &str) -> Opened<Scenario> {
        let preset = |name: &str| presets::find(name).map(|p| (p.build)());
        let validate = |s: &Scenario| s.validate().map_err(|e| e.message);
        open(
            query,
            LinkRules {
                default: Scenario::default(),
                preset: &preset,
                validate: &validate,
                max_at_ms: 3_600_000,
                read_decimal: crate::replay::share::nearest_double,
            },
        )
    }

    #[test]
    fn scenario_and_time_round_trip() {
        let mut scenario = Scenario::default();
        scenario.producer.rate_per_s = 321;
        let query = query_for(&Scenario::default(), &scenario, Some(12_345));
        let opened = open_group(&query);
        assert_eq!(opened.scenario, scenario);
        assert_eq!(opened.at_ms, Some(12_345));
        assert_eq!(opened.error, None);
    }

    #[test]
    fn a_bad_time_keeps_the_scenario_and_says_why() {
        let mut scenario = Scenario::default();
        scenario.seed = 9;
        for t in ["abc", "-5", "99999999999", "1.5"] {
            let query = format!("{}&t={t}", query_for(&Scenario::default(), &scenario, None));
            let opened = open_group(&query);
            assert_eq!(opened.scenario, scenario);
            assert_eq!(opened.at_ms, None);
            assert!(
                opened.error.unwrap().contains("opening at the start"),
                "{t}"
            );
        }
    }

    #[test]
    fn presets_and_unknown_presets() {
        assert_eq!(
            open_group("preset=rebalance-storm").scenario,
            (presets::find("rebalance-storm").unwrap().build)()
        );
        let unknown = open_group("preset=nope&t=5");
        assert_eq!(unknown.scenario, Scenario::default());
        assert_eq!(unknown.at_ms, Some(5));
        assert!(unknown.error.unwrap().contains("no preset called \"nope\""));
    }

    #[test]
    fn a_huge_preset_name_or_time_is_quoted_short() {
        let huge = "A".repeat(200 * 1024);
        for query in [format!("preset={huge}"), format!("t={huge}")] {
            let error = open_group(&query).error.unwrap();
            assert!(error.contains("\"AAAA") && error.contains("\"…"), "{error}");
            assert!(error.chars().count() < 200, "{error}");
        }
    }
}
