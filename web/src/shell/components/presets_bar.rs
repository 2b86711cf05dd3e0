//! Presets a lesson offers: one click loads a named scenario from the core.

use streamlab_sim::kafka::presets;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PresetsBarProps {
    pub slugs: &'static [&'static str],
    pub on_pick: Callback<&'static str>,
}

#[function_component(PresetsBar)]
pub fn presets_bar(props: &PresetsBarProps) -> Html {
    html! {
        <section class="presets" aria-label="Presets">
            <h2>{ "Presets" }</h2>
            <ul>
                { for props.slugs.iter().filter_map(|slug| presets::find(slug)).map(|preset| {
                    let on_pick = props.on_pick.clone();
                    let slug = preset.slug;
                    html! {
                        <li>
                            <button type="button" onclick={Callback::from(move |_: MouseEvent| on_pick.emit(slug))}
                                title={preset.description}>{ preset.title }</button>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
