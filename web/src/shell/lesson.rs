//! A lesson as plain data: the words around its pictures (the question it answers, the
//! guarantee it claims, what a node can know, how it fails), guided experiments, where the
//! playground is simpler than the real system, the knob sections it shows, and the options
//! its family reads. The scenario it opens with and its presets come from the core, by the
//! lesson's slug, because they are part of the link format.

use super::family::LessonFamily;
use streamlab_sim::family::lesson;
use streamlab_sim::family::preset::Preset;
use streamlab_sim::headless::Headless;

/// The three threads the gallery groups lessons by.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Theme {
    /// Topics, partitions, offsets and groups: what the log is and who reads it.
    Log,
    /// Crashes, restarts, slow members and rebalances: what breaks and how it shows.
    Failure,
    /// Event time, processing time, windows and watermarks.
    Time,
}

impl Theme {
    /// Every theme, in the order the gallery shows them.
    pub const ALL: [Theme; 3] = [Theme::Log, Theme::Failure, Theme::Time];

    /// The gallery's heading for the theme.
    pub fn title(self) -> &'static str {
        match self {
            Theme::Log => "The log",
            Theme::Failure => "Failure",
            Theme::Time => "Time",
        }
    }

    /// One sentence under the heading.
    pub fn blurb(self) -> &'static str {
        match self {
            Theme::Log => "What a topic stores, in which order, and how readers share it.",
            Theme::Failure => {
                "What happens when a member is slow, leaves or dies, and who notices."
            }
            Theme::Time => "Which clock a result is counted by, and when a window may close.",
        }
    }
}

/// A guided experiment: a change to make, and the surprise to look for.
pub struct TryThis<S: 'static> {
    pub prompt: &'static str,
    pub expect: &'static str,
    /// Applies the experiment to the current scenario.
    pub apply: fn(&mut S),
}

/// What every lesson says, whatever its family: what the gallery and the page header read.
pub struct LessonWords {
    pub slug: &'static str,
    pub title: &'static str,
    /// The gallery section the lesson belongs to.
    pub theme: Theme,
    /// The question the lesson answers, in a learner's words.
    pub question: &'static str,
    /// Short paragraphs of explanation.
    pub explanation: &'static [&'static str],
    /// The guarantee the system claims.
    pub guarantee: &'static str,
    /// What any one process can know.
    pub knowledge: &'static str,
    /// How it fails.
    pub failure: &'static str,
    /// Where the playground is simpler than the real system.
    pub simplifications: &'static [&'static str],
    /// The real system the simplifications compare with ("Kafka", "Flink").
    pub simpler_than: &'static str,
}

/// One lesson of family `F`.
pub struct Lesson<F: LessonFamily> {
    pub words: LessonWords,
    pub try_this: &'static [TryThis<Scenario<F>>],
    /// The knob sections the lesson shows, in order (from the family's knob table).
    pub knob_sections: &'static [&'static str],
    /// Which pictures and panels of its family the lesson shows.
    pub options: F::Options,
}

/// The scenario type of family `F`.
pub type Scenario<F> = <<F as LessonFamily>::Sim as streamlab_sim::family::Simulation>::Scenario;

impl<F: LessonFamily> Lesson<F> {
    /// The scenario the lesson opens with and its links patch: the core's, by slug.
    pub fn default_scenario(&self) -> Scenario<F> {
        let default = lesson::find(F::Sim::lessons(), self.words.slug)
            .unwrap_or_else(|| panic!("the core has no lesson {:?}", self.words.slug));
        (default.default)()
    }

    /// The core's presets this lesson offers.
    pub fn presets(&self) -> impl Iterator<Item = &'static Preset<Scenario<F>>> + '_ {
        F::Sim::presets()
            .iter()
            .filter(|p| p.lesson == self.words.slug)
    }
}
