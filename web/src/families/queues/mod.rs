//! The queues family: the "Queues, logs and share groups" and "Backpressure" lessons, on the
//! core's queues world (`streamlab_sim::queues`). Its picture follows the run's mode: the
//! three readers of one topic side by side (a consumer group, a share group, a queue), or the
//! lanes a fast producer's records take (drop, buffer, block, log; direct against a broker),
//! or a Kinesis stream's shards; under it, a time chart.

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
use components::readers::Readers;
use streamlab_sim::family::knob::settings_text;
use streamlab_sim::queues::knobs::KNOBS;
use streamlab_sim::queues::{Mode, QueuesEvent, QueuesEventKind, QueuesScenario, QueuesWorld};
use view::QueuesView;
use yew::prelude::*;
/// The family's own style rules (`static/families/queues.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/queues.css");

/// The queues family.
pub struct QueuesFamily;

impl LessonFamily for QueuesFamily {
    type Sim = QueuesWorld;
    /// The picture follows the run's mode, so a lesson needs no options of its own.
    type Options = ();
    type View = QueuesView;

    /// A minute at 1× would be slow to watch; 4× shows it in about 15 s.
    const INITIAL_SPEED_EXPONENT: i32 = 2;
    /// The producer stops at the run's end; the picture stops with it.
    const STOPS_AT_END: bool = true;

    fn new_view(_lesson: &'static Lesson<Self>, world: &QueuesWorld) -> QueuesView {
        QueuesView::new(world)
    }

    fn refresh(
        view: &mut QueuesView,
        _lesson: &'static Lesson<Self>,
        world: &QueuesWorld,
        force: bool,
    ) {
        view.refresh(world, force);
    }

    fn picture(
        _lesson: &'static Lesson<Self>,
        view: &QueuesView,
        _ctx: &StageContext<QueuesScenario>,
    ) -> Html {
        match view.snapshot.mode {
            Mode::Readers | Mode::Repartition => html! {
                <Readers snapshot={view.snapshot.clone()} figures={view.figures.clone()} />
            },
            Mode::Backpressure | Mode::Direct | Mode::Kinesis => html! {
                <Lanes snapshot={view.snapshot.clone()} />
            },
        }
    }

    fn panels(
        _lesson: &'static Lesson<Self>,
        view: &QueuesView,
        _ctx: &StageContext<QueuesScenario>,
    ) -> Html {
        html! {
            <>
                if let Some(rates) = &view.rates {
                    <TimeChart data={rates.clone()} class="q-chart" />
                }
                <TimeChart data={view.chart.clone()} class="q-chart" />
            </>
        }
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &QueuesScenario,
        on_edit: &Callback<Edit<QueuesScenario>>,
    ) -> Html {
        knob_panel(
            KNOBS,
            lesson.knob_sections,
            scenario,
            "q-knobs",
            "q-",
            on_edit,
        )
    }

    fn scheduled_marks(world: &QueuesWorld) -> Vec<TimelineMark> {
        let scenario = world.scenario();
        let mut marks = Vec::new();
        if scenario.crash.enabled {
            marks.push(TimelineMark {
                at_ms: scenario.crash.at_ms,
                kind: "action",
                label: format!("consumer c{} crashes", scenario.crash.consumer + 1),
            });
        }
        if scenario.mode == Mode::Repartition {
            marks.push(TimelineMark {
                at_ms: scenario.repartition.at_ms,
                kind: "action",
                label: format!("partitions added: {}", scenario.repartition.new_partitions),
            });
        }
        if scenario.late_reader.enabled {
            marks.push(TimelineMark {
                at_ms: scenario.late_reader.start_ms,
                kind: "action",
                label: "a late reader joins".into(),
            });
        }
        marks
    }

    fn tone(event: &QueuesEvent) -> &'static str {
        match event.kind {
            QueuesEventKind::Assigned { .. }
            | QueuesEventKind::ConsumerRestarted { .. }
            | QueuesEventKind::PipeConsumerUp { .. }
            | QueuesEventKind::LateReaderJoined { .. } => "commit",
            _ => "lag",
        }
    }

    fn real_config(scenario: &QueuesScenario) -> RealConfig {
        RealConfig {
            title: "Real config: Kafka, RabbitMQ and Kinesis settings",
            text: settings_text(KNOBS, scenario, &SETTING_SECTIONS),
            note: "The exported JSON runs headless with `streamlab simulate --scenario FILE`.",
        }
    }

    fn csv(scenario: &QueuesScenario, at_ms: u64) -> String {
        export::csv_at(scenario, at_ms)
    }

    fn pictures(_lesson: &'static Lesson<Self>) -> Vec<Picture> {
        vec![("Chart (PNG)", ".q-chart canvas", "chart")]
    }

    fn compare_changes(lesson: &'static Lesson<Self>) -> &'static [CompareChange<QueuesScenario>] {
        if lesson.words.slug == "queues" {
            READER_COMPARISONS
        } else {
            &[]
        }
    }

    fn differences(a: &QueuesScenario, b: &QueuesScenario) -> (String, String) {
        table_differences(KNOBS, a, b)
    }

    fn thumbnail(lesson: &'static Lesson<Self>) -> Thumbnail {
        if lesson.words.slug == "queues" {
            Thumbnail::Queues
        } else {
            Thumbnail::Backpressure
        }
    }
}

/// The sections whose knobs are real settings, in the order the panel lists them.
const SETTING_SECTIONS: [&str; 8] = {
    use streamlab_sim::queues::knobs::section::*;
    [
        READERS,
        SHARE_GROUP,
        QUEUE,
        CRASH,
        PARTITIONS,
        KINESIS,
        PRODUCER,
        BUFFERS,
    ]
};

/// The queues lesson's one-click comparison: the same readers with a failing attempt now and
/// then, so redelivery's cost to order shows beside the consumer group's retry in place.
const READER_COMPARISONS: &[CompareChange<QueuesScenario>] = &[CompareChange {
    label: "with one attempt in ten failing",
    apply: |s, _| s.processing.failure_rate = 0.1,
}];
