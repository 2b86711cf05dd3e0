//! Preset buttons for an event-time lesson: one click loads one of the core's named event-time
//! scenarios, as `?preset=<name>` in a link does.

use crate::families::eventtime::components::knobs::EventTimeEdit;
use crate::lessons::EventTimePreset;
use std::rc::Rc;
use streamlab_sim::eventtime::preset;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WatermarkPresetsProps {
    pub presets: &'static [EventTimePreset],
    pub on_change: Callback<EventTimeEdit>,
}

#[function_component(WatermarkPresets)]
pub fn watermark_presets(props: &WatermarkPresetsProps) -> Html {
    html! {
        <section class="presets wm-presets" aria-label="Presets">
            <h2>{ "Presets" }</h2>
            <ul>
                { for props.presets.iter().filter_map(|p| Some((p, preset(p.name)?))).map(|(p, scenario)| {
                    let on_change = props.on_change.clone();
                    // An edit that replaces everything: a preset is a whole scenario.
                    let onclick = Callback::from(move |_: MouseEvent| {
                        let scenario = scenario.clone();
                        on_change.emit(Rc::new(move |s| *s = scenario.clone()));
                    });
                    html! {
                        <li><button type="button" data-preset={p.name} {onclick} title={p.description}>{ p.title }</button></li>
                    }
                }) }
            </ul>
        </section>
    }
}
