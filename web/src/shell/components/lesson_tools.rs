//! The lesson's tools, beside the knobs: the embed snippet, exports (charts as PNG, whether
//! drawn on a canvas or as SVG; metrics as CSV, scenario as JSON) and the "real config" panel,
//! the real system's settings the knobs stand for. The family says what each contains; this
//! component only lays them out.

use crate::shell::components::embed_button::EmbedButton;
use crate::shell::export::download_canvas;
use crate::shell::family::Picture;
use crate::shell::svg_png::download_svg;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct LessonToolsProps {
    /// The share link of the current scenario.
    pub url: AttrValue,
    pub slug: &'static str,
    pub title: &'static str,
    pub config_title: &'static str,
    pub config: String,
    /// What reads the exported scenario JSON.
    pub config_note: &'static str,
    /// The pictures the lesson can save.
    pub pictures: Vec<Picture>,
    pub on_csv: Callback<()>,
    pub on_json: Callback<()>,
}

pub fn lesson_tools(props: &LessonToolsProps) -> Html {
    let slug = props.slug;
    let pictures = props.pictures.iter().map(|&(label, selector, file)| {
        let onclick = Callback::from(move |_: MouseEvent| {
            download_picture(selector, &format!("streamlab-{slug}-{file}.png"));
        });
        html! { <button type="button" {onclick}>{ label }</button> }
    });
    let csv = props.on_csv.reform(|_: MouseEvent| ());
    let json = props.on_json.reform(|_: MouseEvent| ());
    html! {
        <section class="tools" aria-label="Embed and export">
            <div class="tool-buttons">
                <EmbedButton url={props.url.clone()} slug={props.slug} title={props.title} />
                { for pictures }
                <button type="button" onclick={csv}>{ "Metrics (CSV)" }</button>
                <button type="button" onclick={json}>{ "Scenario (JSON)" }</button>
            </div>
            <details class="real-config">
                <summary>{ props.config_title }</summary>
                <pre><code>{ &props.config }</code></pre>
                <p>{ props.config_note }</p>
            </details>
        </section>
    }
}

/// Saves the picture at `selector`: a canvas as it is, SVG with its theme colours inlined.
fn download_picture(selector: &str, name: &str) {
    if !download_canvas(selector, name) {
        download_svg(selector, name);
    }
}
