//! Presets a lesson offers: one click loads a named scenario from the core.

use yew::prelude::*;

/// One preset's button.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetButton {
    pub slug: &'static str,
    pub title: &'static str,
    /// What it shows, as the button's tooltip.
    pub description: &'static str,
}

#[derive(PartialEq)]
pub struct PresetsBarProps {
    pub presets: Vec<PresetButton>,
    pub on_pick: Callback<&'static str>,
}

pub fn presets_bar(props: &PresetsBarProps) -> Html {
    html! {
        <section class="presets" aria-label="Presets">
            <h2>{ "Presets" }</h2>
            <ul>
                { for props.presets.iter().map(|preset| {
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
