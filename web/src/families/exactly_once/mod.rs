//! The exactly-once family: the "Checkpoints" and "Exactly once stops at the edge" lessons, on
//! the core's exactly-once world (`streamlab_sim::exactly_once`). Its picture is the recovery
//! models side by side on one seed (microbatches, checkpoint barriers, no checkpoints), each
//! with its state per key against the exact count and its channels with barriers in flight;
//! in the zombie comparison, the one checkpointed job beside the results store. Under it, a
//! time chart of records counted again and duplicates outside.

pub mod components;
pub mod export;
pub mod lessons;
pub mod view;

use crate::shell::compare::table_differences;
use crate::shell::components::timeline_scrubber::TimelineMark;
use crate::shell::family::{
    CompareChange, Edit, Lesson, LessonFamily, Picture, RealConfig, StageContext,
};
use crate::widgets::knob_rows::knob_panel;
use crate::widgets::lesson_thumbnail::Thumbnail;
use crate::widgets::time_chart::TimeChart;
use components::lanes::Lanes;
use components::store::Store;
use streamlab_sim::exactly_once::knobs::KNOBS;
use streamlab_sim::exactly_once::{EosEvent, EosEventKind, EosScenario, EosWorld, Mode};
use streamlab_sim::family::knob::settings_text;
use view::EosView;
use yew::prelude::*;
/// The family's own style rules (`static/families/exactly_once.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/exactly_once.css");

/// The exactly-once family.
pub struct EosFamily;

impl LessonFamily for EosFamily {
    type Sim = EosWorld;
    /// The picture follows the run's mode, so a lesson needs no options of its own.
    type Options = ();
    type View = EosView;

    /// A minute at 1× would be slow to watch; 4× shows it in about 15 s.
    const INITIAL_SPEED_EXPONENT: i32 = 2;
    /// The producer stops at the run's end; the picture stops with it.
    const STOPS_AT_END: bool = true;

    fn new_view(_lesson: &'static Lesson<Self>, world: &EosWorld) -> EosView {
        EosView::new(world)
    }

    fn refresh(view: &mut EosView, _lesson: &'static Lesson<Self>, world: &EosWorld, force: bool) {
        view.refresh(world, force);
    }

    fn picture(
        _lesson: &'static Lesson<Self>,
        view: &EosView,
        _ctx: &StageContext<EosScenario>,
    ) -> Html {
        html! {
            <>
                <Lanes snapshot={view.snapshot.clone()} figures={view.figures.clone()} />
                if view.snapshot.mode == Mode::Zombie {
                    <Store snapshot={view.snapshot.clone()} />
                }
            </>
        }
    }

    fn panels(
        _lesson: &'static Lesson<Self>,
        view: &EosView,
        _ctx: &StageContext<EosScenario>,
    ) -> Html {
        html! { <TimeChart data={view.chart.clone()} class="eo-chart" /> }
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &EosScenario,
        on_edit: &Callback<Edit<EosScenario>>,
    ) -> Html {
        knob_panel(
            KNOBS,
            lesson.knob_sections,
            scenario,
            "eo-knobs",
            "eo-",
            on_edit,
        )
    }

    fn scheduled_marks(world: &EosWorld) -> Vec<TimelineMark> {
        let scenario = world.scenario();
        let mut marks: Vec<TimelineMark> = world
            .crash_times()
            .iter()
            .map(|&at_ms| TimelineMark {
                at_ms,
                kind: "action",
                label: "the job fails".into(),
            })
            .collect();
        if scenario.mode == Mode::Zombie {
            marks.push(TimelineMark {
                at_ms: scenario.zombie.pause_at_ms,
                kind: "action",
                label: "the instance pauses".into(),
            });
        }
        marks
    }

    fn tone(event: &EosEvent) -> &'static str {
        match event.kind {
            EosEventKind::CheckpointCompleted { .. }
            | EosEventKind::BatchCommitted { .. }
            | EosEventKind::JobRestarted { .. } => "commit",
            _ => "lag",
        }
    }

    fn real_config(scenario: &EosScenario) -> RealConfig {
        RealConfig {
            title: "Real config: Flink, Spark and Kafka settings",
            text: settings_text(KNOBS, scenario, &SETTING_SECTIONS),
            note: "The exported JSON runs headless with `streamlab simulate --scenario FILE`.",
        }
    }

    fn csv(scenario: &EosScenario, at_ms: u64) -> String {
        export::csv_at(scenario, at_ms)
    }

    fn pictures(_lesson: &'static Lesson<Self>) -> Vec<Picture> {
        vec![("Chart (PNG)", ".eo-chart canvas", "chart")]
    }

    fn compare_changes(lesson: &'static Lesson<Self>) -> &'static [CompareChange<EosScenario>] {
        if lesson.words.slug == "checkpoints" {
            CHECKPOINT_COMPARISONS
        } else {
            EFFECT_COMPARISONS
        }
    }

    fn differences(a: &EosScenario, b: &EosScenario) -> (String, String) {
        table_differences(KNOBS, a, b)
    }

    fn thumbnail(lesson: &'static Lesson<Self>) -> Thumbnail {
        if lesson.words.slug == "checkpoints" {
            Thumbnail::Checkpoints
        } else {
            Thumbnail::Effects
        }
    }
}

/// The sections whose knobs are real settings, in the order the panel lists them.
const SETTING_SECTIONS: [&str; 6] = {
    use streamlab_sim::exactly_once::knobs::section::*;
    [
        CHECKPOINTS,
        MICROBATCHES,
        NO_CHECKPOINTS,
        CRASHES,
        SINK,
        ZOMBIE,
    ]
};

/// The checkpoints lesson's comparison: the same failure with checkpoints twice as often, so
/// the replayed records shrink with the interval.
const CHECKPOINT_COMPARISONS: &[CompareChange<EosScenario>] = &[CompareChange {
    label: "with checkpoints every 2.5 s",
    apply: |s, _| s.checkpoint.interval_ms = 2_500,
}];

/// The effects lesson's comparison: the same calls with an idempotency key.
const EFFECT_COMPARISONS: &[CompareChange<EosScenario>] = &[CompareChange {
    label: "with an idempotency key",
    apply: |s, _| s.sink.kind = streamlab_sim::exactly_once::SinkKind::Idempotent,
}];
