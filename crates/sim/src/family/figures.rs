//! Figures: a run's headline numbers under stable names, the interface course pages and
//! graders read.
//!
//! A family reports its figures as a small tree: counts and ratios at the top, or grouped per
//! reader (`{"search": {"lost": 0, "duplicated": 12}}`). The names are an interface: an issue
//! or a course page that names a figure finds it under that name in `streamlab simulate`'s
//! JSON, in the state the embedded lesson posts to its host page, and in a comparison, so a
//! name never changes once published. Counts print as integers, ratios as decimals.

use crate::replay::sorted_map::SortedMap;
use serde::Serialize;

/// One headline number, or a group of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Figure {
    Count(u64),
    /// A signed count (a difference, a lag that a reset can make negative).
    Signed(i64),
    Ratio(f64),
    /// Yes or no (`caught_up`, `passed`).
    Flag(bool),
    Group(Figures),
}

/// Figures by name, in name order (so the JSON is the same on every platform).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Figures(pub SortedMap<String, Figure>);

impl Figures {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a count; returns `self` so a family can write its figures as one chain.
    pub fn count(mut self, name: &str, value: u64) -> Self {
        self.0.insert(name.to_string(), Figure::Count(value));
        self
    }

    pub fn signed(mut self, name: &str, value: i64) -> Self {
        self.0.insert(name.to_string(), Figure::Signed(value));
        self
    }

    pub fn ratio(mut self, name: &str, value: f64) -> Self {
        self.0.insert(name.to_string(), Figure::Ratio(value));
        self
    }

    pub fn flag(mut self, name: &str, value: bool) -> Self {
        self.0.insert(name.to_string(), Figure::Flag(value));
        self
    }

    pub fn group(mut self, name: &str, figures: Figures) -> Self {
        self.0.insert(name.to_string(), Figure::Group(figures));
        self
    }

    pub fn get(&self, name: &str) -> Option<&Figure> {
        self.0.get(name)
    }

    /// Every number with its dotted path (`search.lost`), in path order: what a comparison
    /// lines up side by side. A flag reads as 0 or 1.
    pub fn flattened(&self) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        self.flatten_into("", &mut out);
        out
    }

    fn flatten_into(&self, prefix: &str, out: &mut Vec<(String, f64)>) {
        for (name, figure) in &self.0 {
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            match figure {
                Figure::Count(v) => out.push((path, *v as f64)),
                Figure::Signed(v) => out.push((path, *v as f64)),
                Figure::Ratio(v) => out.push((path, *v)),
                Figure::Flag(v) => out.push((path, f64::from(u8::from(*v)))),
                Figure::Group(group) => group.flatten_into(&path, out),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_print_as_integers_and_groups_nest() {
        let figures = Figures::new()
            .count("produced", 1200)
            .ratio("ctr", 0.25)
            .group(
                "search",
                Figures::new().count("lost", 0).flag("caught_up", true),
            );
        assert_eq!(
            serde_json::to_string(&figures).unwrap(),
            r#"{"ctr":0.25,"produced":1200,"search":{"caught_up":true,"lost":0}}"#
        );
    }

    #[test]
    fn flattening_names_each_number_by_its_path() {
        let figures = Figures::new()
            .signed("delta", -3)
            .group("search", Figures::new().count("lost", 4));
        assert_eq!(
            figures.flattened(),
            [
                ("delta".to_string(), -3.0),
                ("search.lost".to_string(), 4.0)
            ]
        );
    }
}
