//! Presets: named scenarios that lessons, course links (`?preset=`), the CLI and tests share.
//!
//! A preset is only a scenario: every effect it shows comes out of the model's rules. It names
//! the lesson that offers it and the figures it exists to show, so `streamlab simulate --list`
//! can say where it belongs and a test can assert its point by the same names the CLI prints.

/// A scenario of type `S` with a name a link can carry.
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
