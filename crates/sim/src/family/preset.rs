//! Presets: named scenarios that lessons, course links (`?preset=`), the CLI and tests share.
//!
//! A preset is only a scenario: every effect it shows comes out of the model's rules. It names
//! the lesson that offers it and the figures it exists to show, so `streamlab simulate --list`
//! can say where it belongs and a test can assert its point by the same names the CLI prints.

/// A scenario of type `S` with a name a link can carry.
///
/// Copied by value (every field is a reference or a function pointer) so that a lesson's
/// table can be picked out of its family's at compile time ([`of_lesson`]).
pub struct Preset<S: 'static> {
    pub slug: &'static str,
    /// The slug of the lesson that offers it.
    pub lesson: &'static str,
    pub title: &'static str,
    /// What to look for, in one or two sentences.
    pub description: &'static str,
    pub build: fn() -> S,
}

/// The preset of `presets` called `slug`.
pub fn find<S>(presets: &'static [Preset<S>], slug: &str) -> Option<&'static Preset<S>> {
    presets.iter().find(|p| p.slug == slug)
}

impl<S> Clone for Preset<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Preset<S> {}

/// How many of `presets` the lesson `lesson` offers: the length of its [`of_lesson`] table.
pub const fn count_of_lesson<S>(presets: &[Preset<S>], lesson: &str) -> usize {
    let (mut count, mut i) = (0, 0);
    while i < presets.len() {
        if same(presets[i].lesson, lesson) {
            count += 1;
        }
        i += 1;
    }
    count
}

/// The presets of `presets` that the lesson `lesson` offers, in order, as a table of their
/// own (`N` is [`count_of_lesson`]). Evaluated at compile time, so a program that names only
/// this table carries only these presets' words and scenarios, not the family's others (the
/// consumer-group family's lessons each have a bundle of their own). A lesson without
/// presets has no table: evaluating one fails to compile.
pub const fn of_lesson<S, const N: usize>(presets: &[Preset<S>], lesson: &str) -> [Preset<S>; N] {
    let mut first = 0;
    while !same(presets[first].lesson, lesson) {
        first += 1;
    }
    let mut table = [presets[first]; N];
    let (mut filled, mut i) = (0, first);
    while filled < N {
        if same(presets[i].lesson, lesson) {
            table[filled] = presets[i];
            filled += 1;
        }
        i += 1;
    }
    table
}

/// Each of `presets`' slug with the lesson that offers it (`N` is the family's preset count),
/// built at compile time: where to send a link to a preset of another lesson, without the
/// presets themselves.
pub const fn homes<S, const N: usize>(presets: &[Preset<S>]) -> [(&'static str, &'static str); N] {
    let mut homes = [("", ""); N];
    let mut i = 0;
    while i < N {
        homes[i] = (presets[i].slug, presets[i].lesson);
        i += 1;
    }
    homes
}

/// The lesson that offers the preset called `slug`, from a [`homes`] table.
pub fn home_of(homes: &[(&'static str, &'static str)], slug: &str) -> Option<&'static str> {
    homes
        .iter()
        .find(|(s, _)| *s == slug)
        .map(|(_, lesson)| *lesson)
}

/// `a == b`, which `str`'s own comparison cannot say in a `const fn`.
pub(crate) const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one() -> u8 {
        1
    }

    fn two() -> u8 {
        2
    }

    const fn preset(slug: &'static str, lesson: &'static str, build: fn() -> u8) -> Preset<u8> {
        Preset {
            slug,
            lesson,
            title: slug,
            description: "",
            build,
        }
    }

    const TABLE: &[Preset<u8>] = &[
        preset("a", "first", one),
        preset("b", "second", two),
        preset("c", "first", two),
        preset("d", "firs", one),
    ];

    const FIRST: [Preset<u8>; count_of_lesson(TABLE, "first")] = of_lesson(TABLE, "first");
    const SECOND: [Preset<u8>; count_of_lesson(TABLE, "second")] = of_lesson(TABLE, "second");

    #[test]
    fn a_lesson_table_holds_its_presets_in_order_and_no_other() {
        let slugs = |table: &[Preset<u8>]| table.iter().map(|p| p.slug).collect::<Vec<_>>();
        assert_eq!(slugs(&FIRST), ["a", "c"]);
        assert_eq!(slugs(&SECOND), ["b"]);
        assert_eq!((FIRST[1].build)(), 2);
        assert_eq!(count_of_lesson(TABLE, "third"), 0);
    }

    #[test]
    fn homes_name_each_presets_lesson() {
        const HOMES: [(&str, &str); 4] = homes(TABLE);
        assert_eq!(home_of(&HOMES, "c"), Some("first"));
        assert_eq!(home_of(&HOMES, "d"), Some("firs"));
        assert_eq!(home_of(&HOMES, "e"), None);
    }
}
