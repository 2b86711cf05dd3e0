//! The words around an event-time lesson's pictures: explanation, claims, try-this prompts.

use super::eventtime_knobs::EventTimeEdit;
use crate::lessons::EventTimeLesson;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct EventTimeLessonTextProps {
    pub lesson: &'static EventTimeLesson,
    pub on_try: Callback<EventTimeEdit>,
}

impl PartialEq for EventTimeLessonTextProps {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.lesson, other.lesson)
    }
}

#[function_component(EventTimeLessonText)]
pub fn eventtime_lesson_text(props: &EventTimeLessonTextProps) -> Html {
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
                <summary>{ "Where the playground is simpler than Flink" }</summary>
                <ul>{ for lesson.simplifications.iter().map(|s| html! { <li>{ *s }</li> }) }</ul>
            </details>
        </section>
    }
}
