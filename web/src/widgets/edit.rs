//! What a control sends when the learner changes it: a change to the scenario (never a whole
//! value, so two quick changes cannot overwrite each other), and the changes one step either
//! side of the new setting on the same control. The page may build those nearby runs in idle
//! time, so that the knob's next step shows its picture after a seek, not a run from zero.

use std::rc::Rc;

/// A change to whatever the value is when it arrives.
pub type Change<T> = Rc<dyn Fn(&mut T)>;

pub struct Edit<T> {
    pub apply: Change<T>,
    /// The settings one step either side of the new one, likeliest next first; empty for a
    /// control without steps (a choice, a button).
    pub nearby: Vec<Change<T>>,
}

impl<T: 'static> Edit<T> {
    /// An edit with nothing nearby.
    pub fn new(apply: impl Fn(&mut T) + 'static) -> Self {
        Self {
            apply: Rc::new(apply),
            nearby: Vec::new(),
        }
    }

    /// The same edit, and its nearby settings, made to a part of a larger value (one group
    /// of a scenario): `within` finds the part and applies a change to it.
    pub fn lift<U: 'static>(
        self,
        within: impl Fn(&mut U, &dyn Fn(&mut T)) + Clone + 'static,
    ) -> Edit<U> {
        let lift_one = |change: Change<T>| -> Change<U> {
            let within = within.clone();
            Rc::new(move |whole: &mut U| within(whole, &*change))
        };
        Edit {
            apply: lift_one(self.apply),
            nearby: self.nearby.into_iter().map(lift_one).collect(),
        }
    }
}

/// The edit setting a number to `value` with `set`, with the values one `step` either side
/// inside `min..=max` nearby; the one further in the direction the learner moved from
/// `previous` comes first. `previous` itself is left out: its run is the one the change
/// leaves behind, which the page keeps anyway (and preparing it again could push the other
/// out of a full memory budget).
pub fn number_edit<T: 'static>(
    set: fn(&mut T, f64),
    value: f64,
    previous: f64,
    step: f64,
    (min, max): (f64, f64),
) -> Edit<T> {
    let (up, down) = (on_grid(value + step, step), on_grid(value - step, step));
    let order = if value < previous {
        [down, up]
    } else {
        [up, down]
    };
    let nearby = order
        .into_iter()
        .filter(|v| (min..=max).contains(v) && *v != value && *v != previous)
        .map(|v| -> Change<T> { Rc::new(move |t: &mut T| set(t, v)) })
        .collect();
    Edit {
        apply: Rc::new(move |t: &mut T| set(t, value)),
        nearby,
    }
}

/// `value` rounded to a multiple of `step`, as a number control sends it.
pub fn on_grid(value: f64, step: f64) -> f64 {
    (value / step).round() * step
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn set(t: &mut f64, v: f64) {
        *t = v;
    }

    /// What `edit` and each of its nearby changes make of 0.
    fn outcomes(edit: &Edit<f64>) -> (f64, Vec<f64>) {
        let apply = |change: &Change<f64>| {
            let mut value = 0.0;
            change(&mut value);
            value
        };
        (apply(&edit.apply), edit.nearby.iter().map(apply).collect())
    }

    #[wasm_bindgen_test]
    fn the_next_step_in_the_direction_moved_comes_first() {
        let up = number_edit(set, 7.0, 3.0, 1.0, (1.0, 64.0));
        assert_eq!(outcomes(&up), (7.0, vec![8.0, 6.0]));
        let down = number_edit(set, 7.0, 12.0, 1.0, (1.0, 64.0));
        assert_eq!(outcomes(&down), (7.0, vec![6.0, 8.0]));
        // One step from the previous value: the step back is the run left behind.
        let stepped = number_edit(set, 7.0, 6.0, 1.0, (1.0, 64.0));
        assert_eq!(outcomes(&stepped), (7.0, vec![8.0]));
        // Typed over the same value: up first.
        let same = number_edit(set, 7.0, 7.0, 1.0, (1.0, 64.0));
        assert_eq!(outcomes(&same).1, vec![8.0, 6.0]);
    }

    #[wasm_bindgen_test]
    fn nearby_steps_stay_on_the_grid_and_inside_the_range() {
        let at_top = number_edit(set, 10_000.0, 5_000.0, 1_000.0, (1_000.0, 10_000.0));
        assert_eq!(outcomes(&at_top), (10_000.0, vec![9_000.0]));
        let at_bottom = number_edit(set, 1_000.0, 5_000.0, 1_000.0, (1_000.0, 10_000.0));
        assert_eq!(outcomes(&at_bottom).1, vec![2_000.0]);
        let fine = number_edit(set, 0.5, 0.0, 0.25, (0.0, 1.0));
        assert_eq!(outcomes(&fine).1, vec![0.75, 0.25]);
    }

    #[wasm_bindgen_test]
    fn a_lifted_edit_changes_the_part_and_its_nearby_steps_too() {
        let edit = number_edit(set, 3.0, 1.0, 1.0, (1.0, 9.0));
        let lifted: Edit<Vec<f64>> =
            edit.lift(|whole: &mut Vec<f64>, change: &dyn Fn(&mut f64)| {
                if let Some(second) = whole.get_mut(1) {
                    change(second);
                }
            });
        let mut whole = vec![1.0, 1.0];
        (lifted.apply)(&mut whole);
        assert_eq!(whole, vec![1.0, 3.0]);
        let nearby: Vec<Vec<f64>> = lifted
            .nearby
            .iter()
            .map(|change| {
                let mut whole = vec![1.0, 1.0];
                change(&mut whole);
                whole
            })
            .collect();
        assert_eq!(nearby, vec![vec![1.0, 4.0], vec![1.0, 2.0]]);
        let plain = Edit::new(|t: &mut f64| *t = 5.0);
        assert_eq!(outcomes(&plain), (5.0, vec![]));
    }
}
