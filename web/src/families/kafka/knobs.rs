//! The consumer-group family's knob panel, drawn from the core's knob table: the scenario's
//! sections the lesson shows (topic, producer, retention, broker, run), and inside "Consumer
//! groups" one box per group with that group's sections, each control's edit lifted from the
//! group to the scenario.

use crate::platform::palette::group_colour;
use crate::shell::family::Edit;
use crate::shell::family::Lesson;
use crate::widgets::knob_rows::KnobRows;
use std::rc::Rc;
use streamlab_sim::kafka::knobs::{section, GROUP_KNOBS, SCENARIO_KNOBS};
use streamlab_sim::kafka::scenario::GroupConfig;
use streamlab_sim::kafka::Scenario;
use yew::prelude::*;

use super::KafkaFamily;

/// The knob panel of `lesson` for `scenario`.
pub fn knob_panel(
    lesson: &'static Lesson<KafkaFamily>,
    scenario: &Scenario,
    on_edit: &Callback<Edit<Scenario>>,
) -> Html {
    let sections = lesson.knob_sections;
    let value = Rc::new(scenario.clone());
    let scenario_sections = sections
        .iter()
        .filter(|s| SCENARIO_KNOBS.iter().any(|k| k.section == **s));
    html! {
        <section class="knobs" aria-label="Knobs">
            { for scenario_sections.map(|&name| html! {
                <fieldset>
                    <legend>{ name }</legend>
                    <KnobRows<Scenario> knobs={SCENARIO_KNOBS} section={name} value={value.clone()}
                        on_edit={on_edit.clone()} />
                    if name == section::GROUPS {
                        { for (0..scenario.groups.len()).map(|i| group_box(lesson, scenario, i, on_edit)) }
                    }
                </fieldset>
            }) }
        </section>
    }
}

/// One group's knobs, in the lesson's group sections.
fn group_box(
    lesson: &'static Lesson<KafkaFamily>,
    scenario: &Scenario,
    index: usize,
    on_edit: &Callback<Edit<Scenario>>,
) -> Html {
    let group = &scenario.groups[index];
    let value = Rc::new(group.clone());
    let on_group_edit = on_edit.reform(move |edit: Edit<GroupConfig>| {
        edit.lift(move |s: &mut Scenario, change: &dyn Fn(&mut GroupConfig)| {
            if let Some(group) = s.groups.get_mut(index) {
                change(group);
            }
        })
    });
    let scope = AttrValue::from(format!("g{index}-"));
    let group_sections = lesson
        .knob_sections
        .iter()
        .filter(|s| GROUP_KNOBS.iter().any(|k| k.section == **s));
    html! {
        <div class="group-knobs" key={group.group_id.clone()} style={format!("border-left-color: {}", group_colour(index))}>
            <h3><code>{ "group.id" }</code>{ " = " }{ &group.group_id }</h3>
            { for group_sections.map(|&name| html! {
                <>
                    if name != section::GROUP {
                        <h4>{ name }</h4>
                    }
                    <KnobRows<GroupConfig> knobs={GROUP_KNOBS} section={name} value={value.clone()}
                        scope={scope.clone()} on_edit={on_group_edit.clone()} />
                </>
            }) }
        </div>
    }
}
