//! Comparing a lesson with itself: the run forked into two futures on the same seed, with one
//! change on side B, played in step. The comparison knows which side the learner's next
//! change goes to, where the two runs first differ, and each headline figure on both sides.

use super::family::{Lesson, LessonFamily, Scenario};
use super::run::{first_difference_ms, Run};
use streamlab_sim::family::{ScenarioError, Simulation};

/// Where a change goes in a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
    /// Both sides, so the one change that tells them apart stays the only one (what a
    /// one-click comparison starts with).
    Both,
}

impl Side {
    /// The sides a change goes to.
    pub fn sides(self) -> &'static [Side] {
        match self {
            Side::A => &[Side::A],
            Side::B => &[Side::B],
            Side::Both => &[Side::A, Side::B],
        }
    }
}

/// One headline figure on both sides.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureRow {
    /// The figure's dotted name (`search.lost`).
    pub name: String,
    pub a: f64,
    pub b: f64,
}

/// Side B of a comparison; side A is the playground's own run.
pub struct Comparison<F: LessonFamily> {
    pub scenario: Scenario<F>,
    pub run: Run<F>,
    /// Where the learner's next knob or action goes.
    pub editing: Side,
    /// When the two runs first did something different, once they have.
    pub first_difference_ms: Option<u64>,
}

impl<F: LessonFamily> Comparison<F> {
    /// Side B running `scenario`, at `at_ms`, changes going to `editing`; `None` if it
    /// cannot run.
    pub fn new(
        lesson: &'static Lesson<F>,
        scenario: Scenario<F>,
        at_ms: u64,
        editing: Side,
    ) -> Option<Self> {
        let run = Run::new(lesson, &scenario, at_ms).ok()?;
        Some(Self {
            scenario,
            run,
            editing,
            first_difference_ms: None,
        })
    }

    /// Side B now runs `scenario` (a knob changed on B), re-simulated to `at_ms`.
    pub fn rebuild(
        &mut self,
        lesson: &'static Lesson<F>,
        scenario: Scenario<F>,
        at_ms: u64,
    ) -> Result<(), ScenarioError> {
        self.run = Run::new(lesson, &scenario, at_ms)?;
        self.scenario = scenario;
        Ok(())
    }

    /// Side B continues from now under `scenario` (an action taken on B).
    pub fn fork(&mut self, scenario: Scenario<F>, main: &Run<F>) -> bool {
        if !self.run.fork(&scenario) {
            return false;
        }
        self.scenario = scenario;
        self.follow(main);
        true
    }

    /// Moves side B to `at_ms`, in step with side A.
    pub fn seek(&mut self, at_ms: u64, force: bool, main: &Run<F>) {
        self.run.seek(at_ms, force);
        self.follow(main);
    }

    /// Looks again for the first difference once side A moved.
    pub fn follow(&mut self, main: &Run<F>) {
        let found = first_difference_ms(main.world(), self.run.world());
        // Once found it stays: a seek back to before it does not unmake it.
        if self.first_difference_ms.is_none() || found.is_some() {
            self.first_difference_ms = found.or(self.first_difference_ms);
        }
    }

    /// Every headline figure of both sides, by name, in name order.
    pub fn figure_rows(&self, main: &Run<F>) -> Vec<FigureRow> {
        let a = main.world().figures().flattened();
        let b = self.run.world().figures().flattened();
        let mut rows: Vec<FigureRow> = a
            .into_iter()
            .map(|(name, a)| {
                let b = b
                    .iter()
                    .find(|(other, _)| *other == name)
                    .map_or(0.0, |(_, v)| *v);
                FigureRow { name, a, b }
            })
            .collect();
        for (name, b) in b {
            if !rows.iter().any(|row| row.name == name) {
                rows.push(FigureRow { name, a: 0.0, b });
            }
        }
        rows
    }
}

/// The knobs of `knobs` set differently in `a` and `b`: each as (name, A's value, B's value),
/// by the real system's name where there is one.
pub fn knob_differences<T>(
    knobs: &'static [streamlab_sim::family::knob::Knob<T>],
    a: &T,
    b: &T,
) -> Vec<(&'static str, String, String)> {
    knobs
        .iter()
        .map(|k| {
            (
                k.config_name.unwrap_or(k.label),
                k.display_value(a),
                k.display_value(b),
            )
        })
        .filter(|(_, a, b)| a != b)
        .collect()
}

/// Side A's and side B's captions from their differences ("max.poll.records = 500" against
/// "max.poll.records = 50") and what only one side has (an action it schedules); the same
/// words on both sides when nothing differs yet.
pub fn captions(
    differences: &[(String, String, String)],
    only_a: &[String],
    only_b: &[String],
) -> (String, String) {
    if differences.is_empty() && only_a.is_empty() && only_b.is_empty() {
        return ("as it is".into(), "the same, until you change it".into());
    }
    let side = |pick: fn(&(String, String, String)) -> &String, only: &[String]| {
        let mut parts: Vec<String> = differences
            .iter()
            .map(|d| format!("{} = {}", d.0, pick(d)))
            .collect();
        parts.extend(only.iter().cloned());
        if parts.is_empty() {
            "as it is".to_string()
        } else {
            parts.join(", ")
        }
    };
    (side(|d| &d.1, only_a), side(|d| &d.2, only_b))
}

/// What tells `b` from `a` when one knob table describes the whole scenario.
pub fn table_differences<S>(
    knobs: &'static [streamlab_sim::family::knob::Knob<S>],
    a: &S,
    b: &S,
) -> (String, String) {
    let rows: Vec<(String, String, String)> = knob_differences(knobs, a, b)
        .into_iter()
        .map(|(name, x, y)| (name.to_string(), x, y))
        .collect();
    captions(&rows, &[], &[])
}
