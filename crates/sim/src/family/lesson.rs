//! Lessons as the link format knows them: a slug, and the scenario its links carry changes
//! against.
//!
//! A version 2 share link is a patch against its lesson's default scenario, so the default is
//! part of the link format and lives here, in the core, where the browser and the headless
//! runner (`streamlab simulate --link`) read the same one. The lesson's words stay with the
//! browser.

/// A lesson's slug and default scenario.
pub struct LessonDefault<S: 'static> {
    pub slug: &'static str,
    pub default: fn() -> S,
}

/// The lesson of `lessons` called `slug`.
pub fn find<S>(
    lessons: &'static [LessonDefault<S>],
    slug: &str,
) -> Option<&'static LessonDefault<S>> {
    lessons.iter().find(|l| l.slug == slug)
}
