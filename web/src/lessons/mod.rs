//! Lesson content: the question each lesson answers, what it claims, and experiments to try.
//!
//! A lesson is plain data so that later lessons (and the gallery) can list and render them the
//! same way; the words are ours, written for a learner meeting the idea for the first time.

pub mod delivery;
pub mod partitions;
pub mod rebalances;
pub mod watermarks;
pub mod which_clock;
pub mod windows;

use streamlab_sim::eventtime::EventTimeScenario;
use streamlab_sim::kafka::Scenario;

/// Every lesson, in the order the site lists them.
pub const LESSONS: &[&Lesson] = &[&partitions::LESSON, &rebalances::LESSON, &delivery::LESSON];

/// The event-time lessons, which run on `EventTimeWorld` and mount their own playground; the
/// site lists them after [`LESSONS`].
pub const EVENT_TIME_LESSONS: &[&EventTimeLesson] =
    &[&which_clock::LESSON, &watermarks::LESSON, &windows::LESSON];

/// Which playground a slug needs: the consumer-group one or the event-time one.
#[derive(Clone, Copy)]
pub enum LessonKind {
    Group(&'static Lesson),
    EventTime(&'static EventTimeLesson),
}

/// The kind of the lesson whose slug is `slug`; unknown slugs are for the group playground,
/// which explains them and falls back to its first lesson.
pub fn kind_of(slug: &str) -> Option<LessonKind> {
    EVENT_TIME_LESSONS
        .iter()
        .copied()
        .find(|l| l.slug == slug)
        .map(LessonKind::EventTime)
        .or_else(|| find(slug).map(LessonKind::Group))
}

/// The lesson whose slug is `slug`.
pub fn find(slug: &str) -> Option<&'static Lesson> {
    LESSONS.iter().copied().find(|l| l.slug == slug)
}

/// The lesson a bare address opens.
pub fn first() -> &'static Lesson {
    LESSONS[0]
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

/// A guided experiment: a change to make, and the surprise to look for. `S` is the kind of
/// scenario the lesson runs (consumer groups or event time).
pub struct TryThis<S: 'static = Scenario> {
    pub prompt: &'static str,
    pub expect: &'static str,
    /// Applies the experiment to the current scenario.
    pub apply: fn(&mut S),
}

/// Everything a lesson page says around its diagram.
pub struct Lesson {
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
    pub try_this: &'static [TryThis],
    /// Where the playground is simpler than Kafka.
    pub simplifications: &'static [&'static str],
    /// The scenario the lesson opens with.
    pub default_scenario: fn() -> Scenario,
    /// Slugs of the core's presets this lesson offers (`streamlab_sim::kafka::presets`).
    pub presets: &'static [&'static str],
    /// Whether the lesson shows the group protocol: state machine, member timelines,
    /// lifecycle buttons, protocol knobs and the eager/cooperative comparison.
    pub shows_membership: bool,
    /// Whether the lesson shows the delivery picture: exact tallies, the sink, the
    /// dead-letter topic, crash and reset buttons, and the commit, retention and error knobs.
    pub shows_delivery: bool,
}

/// A guided experiment of an event-time lesson.
pub type EventTimeTryThis = TryThis<EventTimeScenario>;

/// An event-time lesson's words and starting scenario; the same parts as [`Lesson`], with the
/// event-time core's scenario instead of the consumer-group one.
pub struct EventTimeLesson {
    pub slug: &'static str,
    pub title: &'static str,
    pub theme: Theme,
    pub question: &'static str,
    pub explanation: &'static [&'static str],
    pub guarantee: &'static str,
    pub knowledge: &'static str,
    pub failure: &'static str,
    pub try_this: &'static [EventTimeTryThis],
    /// Where the playground is simpler than Flink or Beam.
    pub simplifications: &'static [&'static str],
    pub default_scenario: fn() -> EventTimeScenario,
    /// Which pictures and panels the lesson's page shows.
    pub view: EventTimeView,
    /// The core's event-time presets (`streamlab_sim::eventtime::preset`) offered as buttons,
    /// each with the words on its button.
    pub presets: &'static [EventTimePreset],
}

/// The pictures an event-time lesson is built around.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EventTimeView {
    /// "Which clock?": the arrivals strip and counts per window against the truth.
    Clocks,
    /// Watermarks and late data: records on event time × processing time, the watermark
    /// line, the panes as they fire, drops and side outputs.
    Watermarks,
    /// The four window types side by side on one device's records.
    Windows,
}

/// A preset button: the core's preset name (as `?preset=` spells it) and its label.
#[derive(PartialEq, Eq, Debug)]
pub struct EventTimePreset {
    pub name: &'static str,
    pub title: &'static str,
    /// What it shows, as the button's tooltip.
    pub description: &'static str,
}
