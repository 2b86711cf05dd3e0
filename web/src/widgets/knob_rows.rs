//! The controls of one section of a family's knob table, each drawn from its row: the label
//! and the real config name, the range and step, the hint and the real system's default. A
//! control sends an edit of the table's own type (`T`: a whole scenario, or one group of it,
//! which the family lifts into a scenario edit), never a whole value.

use super::edit::number_edit;
use super::number_knob::{number_knob, NumberKnobProps};
use super::select_knob::{select_knob, SelectKnobProps};
use super::toggle_knob::{toggle_knob, ToggleKnobProps};
use super::whole_knob::{whole_knob, WholeKnobProps};
use std::rc::Rc;
use streamlab_sim::family::knob::{format_number, Control, Knob, NumberControl};
use yew::prelude::*;

pub use super::edit::Edit;

#[derive(Properties)]
pub struct KnobRowsProps<T: PartialEq + 'static> {
    pub knobs: &'static [Knob<T>],
    /// Only the rows of this section.
    pub section: &'static str,
    pub value: Rc<T>,
    /// Tells apart the controls of one table shown several times (one per group).
    #[prop_or_default]
    pub scope: AttrValue,
    pub on_edit: Callback<Edit<T>>,
}

impl<T: PartialEq + 'static> PartialEq for KnobRowsProps<T> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.knobs, other.knobs)
            && self.section == other.section
            && self.value == other.value
            && self.scope == other.scope
            && self.on_edit == other.on_edit
    }
}

#[function_component(KnobRows)]
pub fn knob_rows<T: PartialEq + Default + 'static>(props: &KnobRowsProps<T>) -> Html {
    let defaults = T::default();
    html! {
        { for props.knobs.iter().filter(|k| k.section == props.section).map(|knob| {
            control(knob, &props.value, &defaults, &props.scope, &props.on_edit)
        }) }
    }
}

/// A whole knob panel for one table: one box per section, in the order given; `class` names
/// the family's panel for its styles and `scope` keeps its element ids apart.
pub fn knob_panel<T: PartialEq + Default + Clone + 'static>(
    knobs: &'static [Knob<T>],
    sections: &'static [&'static str],
    value: &T,
    class: &'static str,
    scope: &'static str,
    on_edit: &Callback<Edit<T>>,
) -> Html {
    let value = Rc::new(value.clone());
    html! {
        <section class={classes!("knobs", class)} aria-label="Knobs">
            { for sections.iter().map(|&name| html! {
                <fieldset>
                    <legend>{ name }</legend>
                    <KnobRows<T> {knobs} section={name} value={value.clone()} {scope}
                        on_edit={on_edit.clone()} />
                </fieldset>
            }) }
        </section>
    }
}

/// The control for one row.
fn control<T: 'static>(
    knob: &'static Knob<T>,
    value: &T,
    defaults: &T,
    scope: &AttrValue,
    on_edit: &Callback<Edit<T>>,
) -> Html {
    let config_name = knob.config_name.map(AttrValue::from);
    let hint = hint_of(knob, defaults);
    match &knob.control {
        Control::Number(number) => {
            let (set, step, previous) = (number.set, number.step, (number.get)(value));
            let bounds = number.bounds_in(value);
            let range = (bounds.min, bounds.max);
            number_knob(NumberKnobProps {
                label: knob.label.into(),
                scope: scope.clone(),
                config_name,
                unit: number.bounds.unit.into(),
                hint,
                value: previous,
                bounds: bounds.into(),
                step,
                slider_max: slider_max(number, value),
                disabled: false,
                on_change: on_edit.reform(move |v: f64| number_edit(set, v, previous, step, range)),
            })
        }
        Control::Whole { get, set } => {
            let set = *set;
            whole_knob(WholeKnobProps {
                label: knob.label.into(),
                scope: scope.clone(),
                hint,
                value: get(value),
                on_change: on_edit.reform(move |v: u64| Edit::new(move |t: &mut T| set(t, v))),
            })
        }
        Control::Toggle { get, set } => {
            let set = *set;
            toggle_knob(ToggleKnobProps {
                label: knob.label.into(),
                scope: scope.clone(),
                config_name,
                hint,
                value: get(value),
                on_change: on_edit.reform(move |v: bool| Edit::new(move |t: &mut T| set(t, v))),
            })
        }
        Control::Choice { options, get, set } => {
            let set = *set;
            let options: Vec<(AttrValue, AttrValue)> = options()
                .into_iter()
                .map(|o| (AttrValue::from(o.value), AttrValue::from(o.label)))
                .collect();
            select_knob(SelectKnobProps {
                label: knob.label.into(),
                scope: scope.clone(),
                config_name,
                hint,
                options,
                value: AttrValue::from(get(value)),
                on_change: on_edit.reform(move |v: String| Edit::new(move |t: &mut T| set(t, &v))),
            })
        }
    }
}

/// The slider stops where the row says, or at a limit another knob sets, whichever is lower.
fn slider_max<T>(number: &NumberControl<T>, value: &T) -> Option<f64> {
    let limit = number.bounds_in(value).max;
    Some(number.slider_max.map_or(limit, |max| max.min(limit)))
}

/// The row's hint, with the real system's default where the knob is a real setting.
fn hint_of<T>(knob: &Knob<T>, defaults: &T) -> AttrValue {
    let default = match (&knob.control, knob.config_name) {
        (Control::Number(number), Some(_)) => Some(format_number(
            number
                .config_default
                .unwrap_or_else(|| (number.get)(defaults)),
        )),
        (Control::Toggle { get, .. }, Some(_)) => Some(get(defaults).to_string()),
        (Control::Choice { get, .. }, Some(_)) => Some(get(defaults).to_string()),
        _ => None,
    };
    match default {
        Some(default) => format!("{} (default {default})", knob.hint).into(),
        None => knob.hint.into(),
    }
}
