//! A dismissible banner for a problem the learner should know about (a bad share link).

use yew::prelude::*;

#[derive(PartialEq)]
pub struct ErrorBannerProps {
    pub message: AttrValue,
    pub on_dismiss: Callback<()>,
}

pub fn error_banner(props: &ErrorBannerProps) -> Html {
    let dismiss = {
        let cb = props.on_dismiss.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    html! {
        <div class="error-banner" role="alert">
            <span class="error-icon" aria-hidden="true">{ "⚠" }</span>
            <span class="error-text">{ &props.message }</span>
            <button type="button" onclick={dismiss} aria-label="Dismiss this message">{ "✕" }</button>
        </div>
    }
}
