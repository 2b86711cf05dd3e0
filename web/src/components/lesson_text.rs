//! The words around a lesson's diagram: question, explanation, claims, try-this prompts.

use super::knob_panel::Edit;
use crate::lessons::Lesson;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct LessonTextProps {
    pub lesson: &'static Lesson,
    pub on_try: Callback<Edit>,
}

impl PartialEq for LessonTextProps {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson)
    }
}

#[function_component(LessonText)]
pub fn lesson_text(props: &LessonTextProps) -> Html {
    let lesson = props.lesson;
    html! {
        <section class="lesson-text" aria-label="About this lesson">
            { for lesson.explanation.iter().map(|p| html! { <p>{ *p }</p> }) }
            <dl class="claims">
                <dt>{ "The guarantee" }</dt><dd>{ lesson.guarantee }</dd>
                <dt>{ "What a node can know" }</dt><dd>{ lesson.knowledge }</dd>
                <dt>{ "How it fails" }</dt><dd>{ lesson.failure }</dd>
            </dl>
            <h2>{ "Try this" }</h2>
            <ol class="try-this">
                { for lesson.try_this.iter().map(|t| {
                    let onclick = {
                        let on_try = props.on_try.clone();
                        let apply = t.apply;
                        Callback::from(move |_: MouseEvent| on_try.emit(Rc::new(apply)))
                    };
                    html! {
                        <li>
                            <p class="prompt">{ t.prompt }</p>
                            <button type="button" {onclick}>{ "Set it up" }</button>
                            <details><summary>{ "What to look for" }</summary><p>{ t.expect }</p></details>
                        </li>
                    }
                }) }
            </ol>
            <details class="simplifications">
                <summary>{ "Where the playground is simpler than Kafka" }</summary>
                <ul>{ for lesson.simplifications.iter().map(|s| html! { <li>{ *s }</li> }) }</ul>
            </details>
        </section>
    }
}
