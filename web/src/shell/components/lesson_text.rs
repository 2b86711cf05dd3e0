//! The words around a lesson's pictures: explanation, claims, try-this prompts, and where the
//! playground is simpler than the real system. Generic over the kind of scenario the lesson
//! runs, so the consumer-group and the event-time lessons read the same way.

use crate::lessons::TryThis;
use std::rc::Rc;
use yew::prelude::*;

/// A change to whatever the scenario is when it arrives.
pub type EditOf<S> = Rc<dyn Fn(&mut S)>;

#[derive(Properties)]
pub struct LessonTextProps<S: 'static> {
    pub explanation: &'static [&'static str],
    pub guarantee: &'static str,
    pub knowledge: &'static str,
    pub failure: &'static str,
    pub try_this: &'static [TryThis<S>],
    pub simplifications: &'static [&'static str],
    /// The real system the simplifications compare with ("Kafka", "Flink").
    pub simpler_than: &'static str,
    pub on_try: Callback<EditOf<S>>,
}

impl<S: 'static> PartialEq for LessonTextProps<S> {
    fn eq(&self, other: &Self) -> bool {
        // Lesson words are 'static: the same lesson is the same slice.
        std::ptr::eq(self.explanation, other.explanation) && self.on_try == other.on_try
    }
}

#[function_component(LessonText)]
pub fn lesson_text<S: 'static>(props: &LessonTextProps<S>) -> Html {
    html! {
        <section class="lesson-text" aria-label="About this lesson">
            { for props.explanation.iter().map(|p| html! { <p>{ *p }</p> }) }
            <dl class="claims">
                <dt>{ "The guarantee" }</dt><dd>{ props.guarantee }</dd>
                <dt>{ "What a node can know" }</dt><dd>{ props.knowledge }</dd>
                <dt>{ "How it fails" }</dt><dd>{ props.failure }</dd>
            </dl>
            <h2>{ "Try this" }</h2>
            <ol class="try-this">
                { for props.try_this.iter().map(|t| {
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
                <summary>{ format!("Where the playground is simpler than {}", props.simpler_than) }</summary>
                <ul>{ for props.simplifications.iter().map(|s| html! { <li>{ *s }</li> }) }</ul>
            </details>
        </section>
    }
}
