//! The site's bundles: which lessons each WebAssembly module carries, one module per lesson
//! family (per lesson in the consumer-group family, whose lessons' panels differ most) plus
//! one for the gallery alone.
//!
//! Each bundle is a binary of this crate (`src/bin/<name>.rs`) that hands its [`Bundle`] to
//! [`crate::start`]; the linker keeps only the code its lessons reach, so a visitor opening a
//! lesson downloads the shell and that lesson's family, never the others. Only the gallery
//! bundle carries the gallery: a lesson bundle reloads the page for the bare address, and the
//! loader opens the gallery bundle, so no lesson's download pays for every lesson's card. The
//! page's loader (`index.html`) picks the bundle from the address's lesson slug, and the app
//! reloads the page when a link leads to a lesson another bundle carries. The loader's table of
//! slugs and this file must agree; a test holds them together.

use crate::families::{
    databases, eventtime, exactly_once, joins, kafka, practice, queues, replication,
};
use crate::registry::AnyLesson;
use yew::Html;

/// One WebAssembly module of the site.
pub struct Bundle {
    /// The binary's name, which is also its files' (`<name>.js`, `<name>_bg.wasm`).
    pub name: &'static str,
    /// The lessons it can mount, in the site's order.
    pub lessons: &'static [&'static dyn AnyLesson],
    /// The gallery page, for the bare address, in the one bundle that carries it.
    pub gallery: Option<fn() -> Html>,
    /// The style rules of the families whose components it draws (of the gallery, for the
    /// gallery bundle), added to the page when it starts (`shell::family_style`); the shell's
    /// own are in the page's style sheets.
    pub styles: &'static [&'static str],
    /// Adds what this bundle offers to `window.__streamlab` (its benchmarks), after the
    /// shared hooks.
    pub install_hooks: fn(),
}

fn no_hooks() {}

/// No lessons and no gallery: what a page runs before [`crate::start`] installs its bundle
/// (naming the gallery bundle there would put the gallery in every bundle).
pub static UNSET: Bundle = Bundle {
    name: "unset",
    lessons: &[],
    gallery: None,
    styles: &[],
    install_hooks: no_hooks,
};

/// The gallery with no lesson: what the bare address loads.
pub static GALLERY: Bundle = Bundle {
    name: "gallery",
    lessons: &[],
    gallery: Some(crate::gallery::page),
    styles: &[crate::gallery::STYLE],
    install_hooks: no_hooks,
};

// The consumer-group family is split per lesson: its three lessons share the world but not
// their panels (`families::kafka::panels`), and one bundle for all three would carry the
// delivery panel and the member timelines into the partitions lesson.

pub static PARTITIONS: Bundle = Bundle {
    name: "partitions",
    lessons: &[&kafka::lessons::partitions::LESSON],
    gallery: None,
    styles: &[kafka::STYLE],
    // The browser benchmark times the Kafka core from the first lesson's page.
    install_hooks: kafka::benches::install,
};

pub static REBALANCES: Bundle = Bundle {
    name: "rebalances",
    lessons: &[&kafka::lessons::rebalances::LESSON],
    gallery: None,
    styles: &[kafka::STYLE],
    install_hooks: no_hooks,
};

pub static DELIVERY: Bundle = Bundle {
    name: "delivery",
    lessons: &[&kafka::lessons::delivery::LESSON],
    gallery: None,
    styles: &[kafka::STYLE, kafka::DELIVERY_STYLE],
    install_hooks: no_hooks,
};

pub static QUEUES: Bundle = Bundle {
    name: "queues",
    lessons: &[
        &queues::lessons::queues::LESSON,
        &queues::lessons::backpressure::LESSON,
    ],
    gallery: None,
    styles: &[queues::STYLE],
    install_hooks: no_hooks,
};

pub static REPLICATION: Bundle = Bundle {
    name: "replication",
    lessons: &[&replication::lessons::replication::LESSON],
    gallery: None,
    styles: &[replication::STYLE],
    install_hooks: no_hooks,
};

pub static DATABASES: Bundle = Bundle {
    name: "databases",
    lessons: &[
        &databases::lessons::dual_writes::LESSON,
        &databases::lessons::bootstrapping::LESSON,
    ],
    gallery: None,
    styles: &[databases::STYLE],
    install_hooks: no_hooks,
};

pub static EXACTLY_ONCE: Bundle = Bundle {
    name: "exactly_once",
    lessons: &[
        &exactly_once::lessons::checkpoints::LESSON,
        &exactly_once::lessons::effects::LESSON,
    ],
    gallery: None,
    styles: &[exactly_once::STYLE],
    install_hooks: no_hooks,
};

pub static EVENTTIME: Bundle = Bundle {
    name: "eventtime",
    lessons: &[
        &eventtime::lessons::which_clock::LESSON,
        &eventtime::lessons::watermarks::LESSON,
        &eventtime::lessons::windows::LESSON,
    ],
    gallery: None,
    styles: &[eventtime::STYLE],
    install_hooks: eventtime::benches::install,
};

pub static JOINS: Bundle = Bundle {
    name: "joins",
    lessons: &[
        &joins::lessons::stream_joins::LESSON,
        &joins::lessons::top_k::LESSON,
    ],
    gallery: None,
    styles: &[joins::STYLE],
    install_hooks: no_hooks,
};

pub static PRACTICE: Bundle = Bundle {
    name: "practice",
    lessons: &[&practice::lessons::inkwell::LESSON],
    gallery: None,
    // Inkwell draws the Kafka family's diagram, counters and lag chart.
    styles: &[kafka::STYLE, practice::STYLE],
    install_hooks: no_hooks,
};

/// Every bundle, for the tests that hold them, the catalog and the loader together (a
/// binary that named this list would carry every family).
pub static EVERY_BUNDLE: &[&Bundle] = &[
    &GALLERY,
    &PARTITIONS,
    &REBALANCES,
    &DELIVERY,
    &QUEUES,
    &REPLICATION,
    &DATABASES,
    &EXACTLY_ONCE,
    &EVENTTIME,
    &JOINS,
    &PRACTICE,
];

/// One bundle of every lesson and the gallery, for tests that open any page in one; it is
/// built on first use and lives as long as the page.
pub fn every_lesson() -> &'static Bundle {
    let lessons: Vec<&'static dyn AnyLesson> = EVERY_BUNDLE
        .iter()
        .flat_map(|bundle| bundle.lessons.iter().copied())
        .collect();
    Box::leak(Box::new(Bundle {
        name: "every-lesson",
        lessons: Box::leak(lessons.into_boxed_slice()),
        gallery: Some(crate::gallery::page),
        styles: &[],
        install_hooks: no_hooks,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::CATALOG;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The loader's table in `index.html`: `slug: "bundle"` pairs between its markers.
    fn loader_table() -> Vec<(String, String)> {
        let html = include_str!("../../index.html");
        let start = html
            .find("const BUNDLE_OF = {")
            .expect("the loader's table");
        let end = start + html[start..].find("};").expect("the table's end");
        html[start..end]
            .lines()
            .skip(1)
            .filter_map(|line| {
                let (slug, bundle) = line.trim().trim_end_matches(',').split_once(':')?;
                let unquote = |s: &str| s.trim().trim_matches('\'').trim_matches('"').to_string();
                Some((unquote(slug), unquote(bundle)))
            })
            .collect()
    }

    #[wasm_bindgen_test]
    fn every_lesson_of_the_catalog_is_in_exactly_one_bundle_and_the_loader_sends_it_there() {
        // A slug the loader sent to the wrong bundle would open the first lesson instead; one
        // in no bundle could not be opened at all.
        let table = loader_table();
        assert_eq!(table.len(), CATALOG.len(), "{table:?}");
        for entry in CATALOG {
            let slug = entry.words.slug;
            let carriers: Vec<&str> = EVERY_BUNDLE
                .iter()
                .filter(|b| b.lessons.iter().any(|l| l.words().slug == slug))
                .map(|b| b.name)
                .collect();
            assert_eq!(carriers.len(), 1, "{slug} is in {carriers:?}");
            let sent_to = table
                .iter()
                .find(|(s, _)| s == slug)
                .map(|(_, b)| b.as_str());
            assert_eq!(sent_to, Some(carriers[0]), "{slug}");
        }
    }

    #[wasm_bindgen_test]
    fn a_bundles_lessons_say_what_the_catalog_says_and_draw_its_thumbnail() {
        let mut order = Vec::new();
        for bundle in EVERY_BUNDLE {
            for lesson in bundle.lessons {
                let entry = crate::catalog::find(lesson.words().slug).expect("catalogued");
                assert!(std::ptr::eq(entry.words, lesson.words()));
                assert_eq!(entry.thumbnail, lesson.thumbnail(), "{}", entry.words.slug);
                order.push(entry.words.slug);
            }
        }
        assert_eq!(order.len(), CATALOG.len());
    }

    #[wasm_bindgen_test]
    fn only_the_gallery_bundle_carries_the_gallery_and_the_loader_sends_the_bare_address_there() {
        // A lesson bundle with the gallery would make every lesson's download carry every
        // lesson's card; a loader that sent the bare address elsewhere would reload for ever.
        for bundle in EVERY_BUNDLE {
            let is_gallery = std::ptr::eq(*bundle, &GALLERY);
            assert_eq!(bundle.gallery.is_some(), is_gallery, "{}", bundle.name);
        }
        let html = include_str!("../../index.html");
        assert!(html.contains("slug === '' ? 'gallery'"));
    }

    #[wasm_bindgen_test]
    fn the_first_lesson_and_unknown_addresses_go_to_the_bundle_that_carries_the_first_lesson() {
        let html = include_str!("../../index.html");
        assert!(html.contains("const FALLBACK_BUNDLE = 'partitions';"));
        assert_eq!(PARTITIONS.lessons[0].words().slug, CATALOG[0].words.slug);
    }
}
