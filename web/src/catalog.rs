//! Every lesson of the site as the gallery and the header list it, whichever bundle carries
//! its code: its words and its thumbnail, in the site's order.
//!
//! The site is split into bundles (`crate::bundles`), one per lesson family, so a visitor
//! downloads one family's code, not all of them. The gallery and the header still list every
//! lesson, so this table holds only what they need: plain data, with no reference to a
//! family's code, which keeps the other families out of every bundle. A test checks that each
//! bundle's lessons carry these same words and draw the same thumbnail.

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

const fn entry(words: &'static LessonWords, thumbnail: Thumbnail) -> CatalogEntry {
    CatalogEntry { words, thumbnail }
}

/// Every lesson, in the order the site lists them.
pub static CATALOG: &[CatalogEntry] = &[
    entry(
        &kafka::lessons::partitions::WORDS,
        Thumbnail::Log {
            partitions: 6,
            members: 3,
        },
    ),
    entry(
        &kafka::lessons::rebalances::WORDS,
        Thumbnail::Rebalance { members: 6 },
    ),
    entry(&kafka::lessons::delivery::WORDS, Thumbnail::Delivery),
    entry(&queues::lessons::queues::WORDS, Thumbnail::Queues),
    entry(
        &queues::lessons::backpressure::WORDS,
        Thumbnail::Backpressure,
    ),
    entry(
        &replication::lessons::replication::WORDS,
        Thumbnail::Replication,
    ),
    entry(
        &databases::lessons::dual_writes::WORDS,
        Thumbnail::DualWrites,
    ),
    entry(
        &databases::lessons::bootstrapping::WORDS,
        Thumbnail::Compaction,
    ),
    entry(
        &exactly_once::lessons::checkpoints::WORDS,
        Thumbnail::Checkpoints,
    ),
    entry(&exactly_once::lessons::effects::WORDS, Thumbnail::Effects),
    entry(&eventtime::lessons::which_clock::WORDS, Thumbnail::Clocks),
    entry(&eventtime::lessons::watermarks::WORDS, Thumbnail::Watermark),
    entry(&eventtime::lessons::windows::WORDS, Thumbnail::Windows),
    entry(&joins::lessons::stream_joins::WORDS, Thumbnail::StreamJoin),
    entry(&joins::lessons::top_k::WORDS, Thumbnail::TopK),
    entry(&practice::lessons::inkwell::WORDS, Thumbnail::Practice),
];

/// The lesson whose slug is `slug`, wherever its code lives.
pub fn find(slug: &str) -> Option<&'static CatalogEntry> {
    CATALOG.iter().find(|entry| entry.words.slug == slug)
}

/// Every lesson's slug and title, for the header.
pub fn entries() -> Vec<(&'static str, &'static str)> {
    CATALOG
        .iter()
        .map(|entry| (entry.words.slug, entry.words.title))
        .collect()
}
