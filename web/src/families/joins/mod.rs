//! The joins family: the "Stream joins" and "Top-K per window" lessons, on the core's joins
//! world (`streamlab_sim::joins`). Its picture follows the run's mode: searches and clicks in
//! event time with the join's state and watermark, the orders and their enrichments by both
//! clocks in two runs, two tables and their view with its changelog, or the last closed
//! window ranked four ways; under it, the figures by name and a time chart.

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
use components::enrichment::enrichment;
use components::ranking::ranking;
use components::streams::streams;
use components::tables::tables;
use streamlab_sim::family::knob::settings_text;
use streamlab_sim::joins::knobs::KNOBS;
use streamlab_sim::joins::{JoinsEvent, JoinsEventKind, JoinsScenario, JoinsWorld};
use view::JoinsView;
use yew::prelude::*;
/// The family's own style rules (`static/families/joins.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/joins.css");

/// The joins family.
pub struct JoinsFamily;

impl LessonFamily for JoinsFamily {
    type Sim = JoinsWorld;
    /// The picture follows the run's mode, so a lesson needs no options of its own.
    type Options = ();
    type View = JoinsView;

    /// A minute at 1× would be slow to watch; 4× shows it in about 15 s.
    const INITIAL_SPEED_EXPONENT: i32 = 2;
    /// The sources stop and the input ends; the picture stops with it.
    const STOPS_AT_END: bool = true;

    fn new_view(_lesson: &'static Lesson<Self>, world: &JoinsWorld) -> JoinsView {
        JoinsView::new(world)
    }

    fn refresh(
        view: &mut JoinsView,
        _lesson: &'static Lesson<Self>,
        world: &JoinsWorld,
        force: bool,
    ) {
        view.refresh(world, force);
    }

    fn picture(
        _lesson: &'static Lesson<Self>,
        view: &JoinsView,
        _ctx: &StageContext<JoinsScenario>,
    ) -> Html {
        let s = &view.snapshot;
        let figures = &view.figures;
        // Plain functions, not components: the picture and figures change on every frame of a
        // run, so a component's check for unchanged props would never spare a render. They
        // borrow the snapshot's picture: nothing is copied per frame.
        if let Some(picture) = &s.clicks {
            streams(picture, figures)
        } else if let Some(picture) = &s.enrichment {
            enrichment(picture, figures)
        } else if let Some(picture) = &s.tables {
            tables(picture, figures)
        } else if let Some(picture) = &s.ranking {
            ranking(picture, figures)
        } else {
            html! {}
        }
    }

    fn panels(
        _lesson: &'static Lesson<Self>,
        view: &JoinsView,
        _ctx: &StageContext<JoinsScenario>,
    ) -> Html {
        html! { <TimeChart data={view.chart.clone()} class="j-chart" /> }
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &JoinsScenario,
        on_edit: &Callback<Edit<JoinsScenario>>,
    ) -> Html {
        knob_panel(
            KNOBS,
            lesson.knob_sections,
            scenario,
            "j-knobs",
            "j-",
            on_edit,
        )
    }

    /// Nothing is injected at a chosen time: lateness and interleaving come from the knobs.
    fn scheduled_marks(_world: &JoinsWorld) -> Vec<TimelineMark> {
        Vec::new()
    }

    fn tone(event: &JoinsEvent) -> &'static str {
        match event.kind {
            JoinsEventKind::FirstMatch { .. } | JoinsEventKind::InputEnded { .. } => "commit",
            _ => "lag",
        }
    }

    fn real_config(scenario: &JoinsScenario) -> RealConfig {
        RealConfig {
            title: "Real config: Flink and Kafka Streams settings",
            text: settings_text(KNOBS, scenario, &SETTING_SECTIONS),
            note: "The exported JSON runs headless with `streamlab simulate --scenario FILE`.",
        }
    }

    fn csv(scenario: &JoinsScenario, at_ms: u64) -> String {
        export::csv_at(scenario, at_ms)
    }

    fn pictures(_lesson: &'static Lesson<Self>) -> Vec<Picture> {
        vec![("Chart (PNG)", ".j-chart canvas", "chart")]
    }

    fn compare_changes(lesson: &'static Lesson<Self>) -> &'static [CompareChange<JoinsScenario>] {
        if lesson.words.slug == "stream-joins" {
            JOIN_COMPARISONS
        } else {
            TOPK_COMPARISONS
        }
    }

    fn differences(a: &JoinsScenario, b: &JoinsScenario) -> (String, String) {
        table_differences(KNOBS, a, b)
    }

    fn thumbnail(lesson: &'static Lesson<Self>) -> Thumbnail {
        if lesson.words.slug == "stream-joins" {
            Thumbnail::StreamJoin
        } else {
            Thumbnail::TopK
        }
    }
}

/// The sections whose knobs are real settings, in the order the panel lists them.
const SETTING_SECTIONS: [&str; 5] = {
    use streamlab_sim::joins::knobs::section::*;
    [INTERVAL, WATERMARK, TOP_N, SKETCH, VIEWS]
};

/// The joins lesson's one-click comparison: the same input with a shorter interval.
const JOIN_COMPARISONS: &[CompareChange<JoinsScenario>] = &[CompareChange {
    label: "with between(0 s, 2 s)",
    apply: |s, _| s.clicks.upper_ms = 2_000,
}];

/// The top-K lesson's: the same views over one partition, where either keying is exact.
const TOPK_COMPARISONS: &[CompareChange<JoinsScenario>] = &[CompareChange {
    label: "with one partition",
    apply: |s, _| s.topk.partitions = 1,
}];
