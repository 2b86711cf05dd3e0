//! The family's knob panel as a component of its own, so it draws again only when the
//! scenario (or the lesson) changes: a frame that redrew the controls would reset a number box
//! while the learner types in it.

use crate::shell::family::{Edit, Lesson, LessonFamily, Scenario};
use yew::prelude::*;

#[derive(Properties)]
pub struct FamilyKnobsProps<F: LessonFamily> {
    pub lesson: &'static Lesson<F>,
    pub scenario: Scenario<F>,
    pub on_edit: Callback<Edit<Scenario<F>>>,
}

impl<F: LessonFamily> PartialEq for FamilyKnobsProps<F> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson)
            && self.scenario == other.scenario
            && self.on_edit == other.on_edit
    }
}

#[function_component(FamilyKnobs)]
pub fn family_knobs<F: LessonFamily>(props: &FamilyKnobsProps<F>) -> Html {
    F::knobs(props.lesson, &props.scenario, &props.on_edit)
}
