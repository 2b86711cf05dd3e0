//! The home page: every lesson as a card, grouped by theme (the log, failure, time).
//!
//! The cards are built from the catalog (`catalog::CATALOG`), which lists every lesson whichever
//! bundle carries its code, so a lesson added there appears here with no other change.
//! Each card says what the lesson's system promises, what a node can know and how it fails,
//! in one sentence each (the first of the lesson's own paragraph), with a thumbnail drawn from
//! the lesson's default scenario. Below the lessons, the misconceptions section shows one card
//! per belief that a run refutes (`streamlab_sim::misconceptions`).

pub mod gallery_card;
pub mod misconception_card;

use crate::catalog;
use crate::gallery::gallery_card::GalleryCard;
use crate::gallery::misconception_card::MisconceptionCard;
use crate::shell::components::site_header::SiteHeader;
use crate::shell::family::Theme;
use crate::widgets::lesson_thumbnail::Thumbnail;
use streamlab_sim::misconceptions::MISCONCEPTIONS;
use yew::prelude::*;

/// The gallery's own style rules (`static/gallery.css`), added to the page by the gallery
/// bundle.
pub const STYLE: &str = crate::minified_css!("../../../static/gallery.css");

/// What a card shows about one lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonCard {
    pub slug: &'static str,
    pub title: &'static str,
    pub theme: Theme,
    pub question: &'static str,
    pub guarantee: &'static str,
    pub knowledge: &'static str,
    pub failure: &'static str,
    pub thumbnail: Thumbnail,
}

/// Every lesson of the catalog, in the site's order.
pub fn cards() -> Vec<LessonCard> {
    catalog::CATALOG
        .iter()
        .map(|entry| {
            let words = entry.words;
            LessonCard {
                slug: words.slug,
                title: words.title,
                theme: words.theme,
                question: words.question,
                guarantee: words.guarantee,
                knowledge: words.knowledge,
                failure: words.failure,
                thumbnail: entry.thumbnail,
            }
        })
        .collect()
}

/// The first sentence of `text`: up to the first full stop, question or exclamation mark that
/// ends a sentence (followed by a space or the end), so "0.5 s" or "e.g." inside a word do
/// not cut it short.
pub fn first_sentence(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        let ends = matches!(b, b'.' | b'?' | b'!' | b';');
        let next_is_space = bytes.get(i + 1).is_none_or(|c| c.is_ascii_whitespace());
        let abbreviation = text[..i].ends_with("e.g") || text[..i].ends_with("i.e");
        if ends && next_is_space && !abbreviation {
            return if *b == b';' { &text[..i] } else { &text[..=i] };
        }
    }
    text
}

/// Longest line a card shows comfortably; the lesson page has the whole paragraph.
pub const CARD_LINE_MAX_CHARS: usize = 240;

/// The gallery page, as the gallery bundle hands it to the app (`bundles::Bundle::gallery`).
pub fn page() -> Html {
    html! { <Gallery /> }
}

#[function_component(Gallery)]
pub fn gallery() -> Html {
    let cards = use_memo((), |_| cards());
    html! {
        <div class="page">
            <SiteHeader current="" />
            <main class="gallery">
                <h1>{ "See stream processing happen" }</h1>
                <p class="gallery-intro">
                    { format!("{} lessons, each a live simulation you can poke. Every card names \
                        what the system promises, what any one process can actually know, and how \
                        it goes wrong.", cards.len()) }
                </p>
                { for Theme::ALL.into_iter().map(|theme| {
                    let in_theme: Vec<&LessonCard> = cards.iter().filter(|c| c.theme == theme).collect();
                    if in_theme.is_empty() {
                        return html! {};
                    }
                    let heading = format!("theme-{}", theme.title().to_ascii_lowercase().replace(' ', "-"));
                    html! {
                        <section class="theme" aria-labelledby={heading.clone()}>
                            <h2 id={heading}>{ theme.title() }</h2>
                            <p class="theme-blurb">{ theme.blurb() }</p>
                            <ul class="cards">
                                { for in_theme.into_iter().map(|card| html! {
                                    <li><GalleryCard card={card.clone()} /></li>
                                }) }
                            </ul>
                        </section>
                    }
                }) }
                { misconceptions_section() }
            </main>
        </div>
    }
}

/// The beliefs learners bring, each with the run that refutes it.
fn misconceptions_section() -> Html {
    html! {
        <section class="theme misconceptions" aria-labelledby="theme-misconceptions">
            <h2 id="theme-misconceptions">{ "Misconceptions, refuted by runs" }</h2>
            <p class="theme-blurb">
                { "Beliefs that sound right until a run says otherwise. Open one, predict what \
                    the run will show, then reveal it and watch the figure named on the card." }
            </p>
            <ul class="cards">
                { for MISCONCEPTIONS.iter().copied().map(|misconception| html! {
                    <li><MisconceptionCard {misconception} /></li>
                }) }
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn every_lesson_of_every_bundle_has_a_card() {
        let slugs: Vec<&str> = cards().iter().map(|c| c.slug).collect();
        let lessons = crate::bundles::every_lesson().lessons;
        assert_eq!(slugs.len(), lessons.len());
        for lesson in lessons {
            assert!(slugs.contains(&lesson.words().slug));
        }
    }

    #[wasm_bindgen_test]
    fn every_misconception_opens_a_catalogued_lesson_that_offers_its_preset() {
        // A card whose link named a missing lesson would fall back to the first lesson and
        // run the wrong thing.
        for m in MISCONCEPTIONS {
            let lesson = crate::bundles::every_lesson()
                .lessons
                .iter()
                .find(|l| l.words().slug == m.lesson)
                .unwrap_or_else(|| panic!("{}", m.lesson));
            assert_eq!(lesson.words().slug, m.lesson);
            assert!(misconception_card::challenge_link(m)
                .ends_with(&format!("preset={}&lock", m.preset)));
        }
    }

    #[wasm_bindgen_test]
    fn first_sentence_stops_at_the_end_of_a_sentence_only() {
        assert_eq!(first_sentence("Wait 0.5 s. Then go."), "Wait 0.5 s.");
        assert_eq!(
            first_sentence("Use keys, e.g. ids. More."),
            "Use keys, e.g. ids."
        );
        assert_eq!(first_sentence("Slow; then dead"), "Slow");
        assert_eq!(first_sentence("No stop at all"), "No stop at all");
    }

    #[wasm_bindgen_test]
    fn every_card_line_fits_on_a_card() {
        // A lesson whose first sentence runs on would make its card a wall of text.
        for card in cards() {
            for text in [card.guarantee, card.knowledge, card.failure] {
                let line = first_sentence(text);
                assert!(line.len() <= CARD_LINE_MAX_CHARS, "{}: {line}", card.slug);
            }
        }
    }
}
