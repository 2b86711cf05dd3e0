//! What a lesson family plugs into the shell, and a lesson as plain data.
//!
//! The shell ([`super::playground::Playground`]) owns what every lesson has: the clock and
//! transport, the seekable runs, the scrubber, share links and the address bar, embed mode,
//! the narration, exports, the real-config panel, the comparison and the course-page API. A
//! family supplies its core world (a [`Simulation`] the headless runner also knows), the
//! lessons' options, a view model it derives from a run for drawing, and the pieces of the
//! page that are its own: the picture of a run, the panels below it, the knobs, the marks on
//! the scrubber, the real-config text and the CSV export.
//!
//! A lesson ([`Lesson`]) is plain data: the words around its pictures (the question it
//! answers, the guarantee it claims, what a node can know, how it fails), guided experiments,
//! where the playground is simpler than the real system, the knob sections it shows, and the
//! options its family reads. The scenario it opens with and its presets come from the core, by
//! the lesson's slug, because they are part of the link format.

use super::components::narration::NarrationLine;
use super::components::timeline_scrubber::TimelineMark;
use crate::platform::shared::Shared;
use crate::widgets::lesson_thumbnail::Thumbnail;
use std::rc::Rc;
use streamlab_sim::family::lesson;
use streamlab_sim::family::preset::Preset;
use streamlab_sim::family::Headless;
use streamlab_sim::family::Simulation;
use streamlab_sim::misconceptions::Misconception;
use yew::prelude::*;

/// A change to whatever the scenario is when it arrives (what every control sends).
pub use crate::widgets::edit::Edit;

/// An action a learner takes now (a crash button): it changes the scenario's future only, so
/// the run continues from now instead of starting again. Gets the current time.
pub type Act<S> = Rc<dyn Fn(&mut S, u64)>;

/// What a family's drawing gets from the shell.
pub struct StageContext<S: 'static> {
    /// Simulated time on screen, fractional so records glide between ticks.
    pub view_ms: f64,
    /// Simulated milliseconds per wall millisecond.
    pub speed: f64,
    pub reduced_motion: bool,
    /// The clock is running. A picture may leave out what only a still picture can use
    /// (hover details on things that move on every frame).
    pub playing: bool,
    pub on_edit: Callback<Edit<S>>,
    pub on_act: Callback<Act<S>>,
    /// The picture is one of two side by side.
    pub compared: bool,
}

/// The "real config" panel: what the knobs stand for in the real system.
pub struct RealConfig {
    pub title: &'static str,
    pub text: String,
    /// What reads the exported scenario JSON.
    pub note: &'static str,
}

/// A picture the tools can save as PNG: (button label, selector, file name part).
pub type Picture = (&'static str, &'static str, &'static str);

/// A comparison one click sets up: its label, and the change it makes on side B at `now_ms`.
pub struct CompareChange<S: 'static> {
    pub label: &'static str,
    pub apply: fn(&mut S, u64),
}

/// A lesson family, as the shell runs it.
pub trait LessonFamily: 'static + Sized {
    /// The core's world; the headless runner knows it too, so `streamlab simulate` runs the
    /// same presets and links.
    type Sim: Simulation + Headless + 'static;
    /// Which pictures and panels a lesson of the family shows.
    type Options: 'static;
    /// What the family derives from one run for drawing, kept between frames so the costly
    /// parts are rebuilt only when they change.
    type View: 'static;

    /// The speed a lesson opens at (a power of two).
    const INITIAL_SPEED_EXPONENT: i32 = 0;
    /// Whether the clock stops at the run's end (a bounded input) rather than running on.
    const STOPS_AT_END: bool = false;

    /// The view of a freshly built run.
    fn new_view(lesson: &'static Lesson<Self>, world: &Self::Sim) -> Self::View;
    /// Brings `view` to `world`'s time; `force` asks for the slow parts (charts) too.
    fn refresh(
        view: &mut Self::View,
        lesson: &'static Lesson<Self>,
        world: &Self::Sim,
        force: bool,
    );
    /// The picture of one run (drawn twice, side by side, in a comparison).
    fn picture(
        lesson: &'static Lesson<Self>,
        view: &Self::View,
        ctx: &StageContext<Scenario<Self>>,
    ) -> Html;
    /// What the stage shows once, under the picture(s), for the main run.
    fn panels(
        lesson: &'static Lesson<Self>,
        view: &Self::View,
        ctx: &StageContext<Scenario<Self>>,
    ) -> Html;
    /// The knob panel for `scenario` (the presets bar above it is the shell's).
    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &Scenario<Self>,
        on_edit: &Callback<Edit<Scenario<Self>>>,
    ) -> Html;

    /// Marks on the scrubber for what the run's scenario injects (a crash, an outage).
    fn scheduled_marks(world: &Self::Sim) -> Vec<TimelineMark>;
    /// A mark for an event worth finding on the scrubber (a rebalance), if it is one.
    fn event_mark(event: &<Self::Sim as Simulation>::Event) -> Option<TimelineMark> {
        let _ = event;
        None
    }
    /// The narration line's style for an event ("lag", "commit", "caught-up", ...).
    fn tone(event: &<Self::Sim as Simulation>::Event) -> &'static str;
    /// A narration the view builds itself, for a lesson whose story is not its world's
    /// events (the Windows lesson narrates its four window types).
    fn own_narration(view: &Self::View) -> Option<Shared<Vec<NarrationLine>>> {
        let _ = view;
        None
    }

    /// The real system's config for `scenario`.
    fn real_config(scenario: &Scenario<Self>) -> RealConfig;
    /// The metrics of `scenario` run to `at_ms`, as CSV.
    fn csv(scenario: &Scenario<Self>, at_ms: u64) -> String;
    /// The pictures the lesson can save.
    fn pictures(lesson: &'static Lesson<Self>) -> Vec<Picture>;
    /// The one-click comparisons a lesson offers.
    fn compare_changes(lesson: &'static Lesson<Self>) -> &'static [CompareChange<Scenario<Self>>] {
        let _ = lesson;
        &[]
    }
    /// What tells side B from side A, in a few words each ("max.poll.records = 50").
    fn differences(a: &Scenario<Self>, b: &Scenario<Self>) -> (String, String);
    /// A small picture of the lesson for its gallery card.
    fn thumbnail(lesson: &'static Lesson<Self>) -> Thumbnail;
    /// Publishes figures only the family's end-to-end tests read.
    fn publish_for_tests(view: &Self::View, world: &Self::Sim) {
        let _ = (view, world);
    }
}

/// The three threads the gallery groups lessons by.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Theme {
    /// Topics, partitions, offsets and groups: what the log is and who reads it.
    Log,
    /// Crashes, restarts, slow members and rebalances: what breaks and how it shows.
    Failure,
    /// Event time, processing time, windows and watermarks.
    Time,
    /// Challenges to solve with what the lessons taught, graded on the run.
    Practice,
}

impl Theme {
    /// Every theme, in the order the gallery shows them.
    pub const ALL: [Theme; 4] = [Theme::Log, Theme::Failure, Theme::Time, Theme::Practice];

    /// The gallery's heading for the theme.
    pub fn title(self) -> &'static str {
        match self {
            Theme::Log => "The log",
            Theme::Failure => "Failure",
            Theme::Time => "Time",
            Theme::Practice => "Practice",
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
            Theme::Practice => "Broken systems to fix with settings alone, graded on the run.",
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
/// The gallery bundle carries every lesson's words (`crate::catalog`), so they stay short.
pub struct LessonWords {
    pub slug: &'static str,
    pub title: &'static str,
    /// The gallery section the lesson belongs to.
    pub theme: Theme,
    /// The question the lesson answers, in a learner's words.
    pub question: &'static str,
    /// The guarantee the system claims.
    pub guarantee: &'static str,
    /// What any one process can know.
    pub knowledge: &'static str,
    /// How it fails.
    pub failure: &'static str,
}

/// What only the lesson's own page says: only its own bundle carries it.
pub struct PageText {
    /// Short paragraphs of explanation.
    pub explanation: &'static [&'static str],
    /// Where the playground is simpler than the real system.
    pub simplifications: &'static [&'static str],
    /// The real system the simplifications compare with ("Kafka", "Flink").
    pub simpler_than: &'static str,
}

/// One lesson of family `F`.
pub struct Lesson<F: LessonFamily> {
    pub words: &'static LessonWords,
    pub text: PageText,
    pub try_this: &'static [TryThis<Scenario<F>>],
    /// The knob sections the lesson shows, in order (from the family's knob table).
    pub knob_sections: &'static [&'static str],
    /// The core's presets the lesson offers: the lesson's own table, or its family's whole
    /// table (only those naming this lesson are offered). The consumer-group lessons name
    /// their own, so each of their bundles carries only its lesson's presets.
    pub presets: &'static [Preset<Scenario<F>>],
    /// The misconceptions whose runs the lesson offers, picked out of the core's table at
    /// compile time (`streamlab_sim::lesson_misconceptions!`), so a bundle carries only its own
    /// lesson's cards.
    pub misconceptions: &'static [&'static Misconception],
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
        self.presets.iter().filter(|p| p.lesson == self.words.slug)
    }
}
