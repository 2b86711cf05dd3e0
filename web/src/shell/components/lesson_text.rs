//! The words around a lesson's pictures: explanation, claims, try-this prompts, and where the
//! playground is simpler than the real system. Generic over the kind of scenario the lesson
//! runs, so every family's lessons read the same way.

use crate::shell::family::Edit;
use crate::shell::family::{LessonWords, PageText, TryThis};
use yew::prelude::*;

#[derive(Properties)]
pub struct LessonTextProps<S: 'static> {
    pub words: &'static LessonWords,
    pub text: &'static PageText,
    pub try_this: &'static [TryThis<S>],
    pub on_try: Callback<Edit<S>>,
}

impl<S: 'static> PartialEq for LessonTextProps<S> {
    fn eq(&self, other: &Self) -> bool {
        // Lesson words are 'static: the same lesson is the same entry.
        std::ptr::eq(self.words, other.words) && self.on_try == other.on_try
    }
}

#[function_component(LessonText)]
pub fn lesson_text<S: 'static>(props: &LessonTextProps<S>) -> Html {
    let words = props.words;
    html! {
        <section class="lesson-text" aria-label="About this lesson">
            { for props.text.explanation.iter().map(|p| html! { <p>{ *p }</p> }) }
            <dl class="claims">
                <dt>{ "The guarantee" }</dt><dd>{ words.guarantee }</dd>
                <dt>{ "What a node can know" }</dt><dd>{ words.knowledge }</dd>
                <dt>{ "How it fails" }</dt><dd>{ words.failure }</dd>
            </dl>
            <h2>{ "Try this" }</h2>
            <ol class="try-this">
                { for props.try_this.iter().map(|t| {
                    let onclick = {
                        let on_try = props.on_try.clone();
                        let apply = t.apply;
                        Callback::from(move |_: MouseEvent| on_try.emit(Edit::new(apply)))
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
                <summary>{ format!("Where the playground is simpler than {}", props.text.simpler_than) }</summary>
                <ul>{ for props.text.simplifications.iter().map(|s| html! { <li>{ *s }</li> }) }</ul>
            </details>
        </section>
    }
}
