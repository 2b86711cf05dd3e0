//! Every lesson of the site as the gallery and the header list it, whichever bundle carries
//! its code: its words and its thumbnail, in the site's order.
//!
//! The site is split into bundles (`crate::bundles`), one per lesson family, so a visitor
//! downloads one family's code, not all of them. The gallery and the header still list every
//! lesson, so these tables hold only what they need: plain data, with no reference to a
//! family's code, which keeps the other families out of every bundle. The header needs only
//! each lesson's slug and title ([`NAMES`]), copied out of its words when the site is compiled,
//! so a lesson bundle carries no other lesson's long words; the gallery bundle alone reads the
//! whole [`CATALOG`]. A test checks that each bundle's lessons carry these same words and draw
//! the same thumbnail.

use crate::families::{
    databases, eventtime, exactly_once, joins, kafka, practice, queues, replication,
};
use crate::shell::family::LessonWords;
use crate::widgets::lesson_thumbnail::Thumbnail;

/// One lesson as the site lists it.
pub struct CatalogEntry {
    pub words: &'static LessonWords,
    pub thumbnail: Thumbnail,
}

/// One lesson as the header names it.
pub struct LessonName {
    pub slug: &'static str,
    pub title: &'static str,
}

/// Writes both tables from one list, so they cannot disagree on a lesson or its place.
macro_rules! every_lesson {
    ($(entry($words:path, $thumbnail:expr $(,)?)),* $(,)?) => {
        /// Every lesson, in the order the site lists them.
        pub static CATALOG: &[CatalogEntry] = &[
            $(CatalogEntry { words: &$words, thumbnail: $thumbnail }),*
        ];

        /// Every lesson's slug and title, in the same order.
        pub static NAMES: &[LessonName] = &[
            $(LessonName { slug: $words.slug, title: $words.title }),*
        ];
    };
}

every_lesson![
    entry(
        kafka::lessons::partitions::WORDS,
        Thumbnail::Log {
            partitions: 6,
            members: 3,
        },
    ),
    entry(
        kafka::lessons::rebalances::WORDS,
        Thumbnail::Rebalance { members: 6 },
    ),
    entry(kafka::lessons::delivery::WORDS, Thumbnail::Delivery),
    entry(queues::lessons::queues::WORDS, Thumbnail::Queues),
    entry(
        queues::lessons::backpressure::WORDS,
        Thumbnail::Backpressure,
    ),
    entry(
        replication::lessons::replication::WORDS,
        Thumbnail::Replication,
    ),
    entry(
        databases::lessons::dual_writes::WORDS,
        Thumbnail::DualWrites,
    ),
    entry(
        databases::lessons::bootstrapping::WORDS,
        Thumbnail::Compaction,
    ),
    entry(
        exactly_once::lessons::checkpoints::WORDS,
        Thumbnail::Checkpoints,
    ),
    entry(exactly_once::lessons::effects::WORDS, Thumbnail::Effects),
    entry(eventtime::lessons::which_clock::WORDS, Thumbnail::Clocks),
    entry(eventtime::lessons::watermarks::WORDS, Thumbnail::Watermark),
    entry(eventtime::lessons::windows::WORDS, Thumbnail::Windows),
    entry(joins::lessons::stream_joins::WORDS, Thumbnail::StreamJoin),
    entry(joins::lessons::top_k::WORDS, Thumbnail::TopK),
    entry(practice::lessons::inkwell::WORDS, Thumbnail::Practice),
];

/// The lesson whose slug is `slug`, wherever its code lives, as the gallery shows it.
pub fn find(slug: &str) -> Option<&'static CatalogEntry> {
    CATALOG.iter().find(|entry| entry.words.slug == slug)
}

/// Whether the site has a lesson called `slug`, wherever its code lives.
pub fn lists(slug: &str) -> bool {
    NAMES.iter().any(|name| name.slug == slug)
}

/// Every lesson's slug and title, for the header.
pub fn entries() -> Vec<(&'static str, &'static str)> {
    NAMES.iter().map(|name| (name.slug, name.title)).collect()
}
