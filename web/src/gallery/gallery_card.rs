//! One lesson on the gallery page: thumbnail, title, question, and one line each on the
//! guarantee, what a node can know and how it fails. The title's link covers the whole card.

use crate::gallery::{first_sentence, LessonCard};
use crate::widgets::lesson_thumbnail::LessonThumbnail;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GalleryCardProps {
    pub card: LessonCard,
}

#[function_component(GalleryCard)]
pub fn gallery_card(props: &GalleryCardProps) -> Html {
    let card = &props.card;
    html! {
        <article class="card" data-slug={card.slug}>
            <LessonThumbnail thumbnail={card.thumbnail} />
            <h3><a href={format!("#/{}", card.slug)} class="card-link">{ card.title }</a></h3>
            <p class="card-question">{ card.question }</p>
            <dl class="card-claims">
                <dt><span aria-hidden="true">{ "✓ " }</span>{ "Guarantee" }</dt>
                <dd>{ first_sentence(card.guarantee) }</dd>
                <dt><span aria-hidden="true">{ "◐ " }</span>{ "A node can know" }</dt>
                <dd>{ first_sentence(card.knowledge) }</dd>
                <dt><span aria-hidden="true">{ "✗ " }</span>{ "How it fails" }</dt>
                <dd>{ first_sentence(card.failure) }</dd>
            </dl>
        </article>
    }
}
